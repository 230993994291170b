"""Check-in at the door, the services (``tournaments.door``): exact outcomes, exact refusals, and
two concurrent check-ins of one player making one entrant (threads on PostgreSQL).

What it proves: a player entered and absent is marked present; a club player not yet entered is
entered and present at once; a second check-in changes nothing (no audit, no version); a pairs
event checks in the pair; refusals (a closed event, another club's or an inactive player, a
bad id, a player in no entered pair, an event that takes no entrants) store nothing; the door
code lives until revoked, replaced or expired; the search shows two letters or more, the names
starting with them first.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from config.problems import Problem
from tests.clubs.factories import make_club, make_player
from tests.tournaments.play_helpers import build_event
from tournaments import door
from tournaments.models import AuditEntry, Entrant, Tournament


def _drive(event, entrants, **extra) -> Tournament:
    body = {
        "name": "Drive",
        "game": "25",
        "format": "drive",
        "table_size": 4,
        "round_count": 3,
        "entrants": entrants,
        **extra,
    }
    return Tournament.objects.get(pk=event.create_tournament(**body)["id"])


@pytest.fixture
def event(db):
    return build_event(players=8)


def _organiser(event):
    return event.world.users["organiser"]


def test_an_entered_absent_player_is_marked_present_once(event):
    tournament = _drive(event, [{"player": player.pk} for player in event.players[:4]])
    Entrant.objects.filter(tournament=tournament).update(is_present=False)
    version = Tournament.objects.get(pk=tournament.pk).version
    player = event.players[1]
    first = door.check_in_player(
        tournament_id=tournament.pk, player_id=player.pk, user=_organiser(event)
    )
    assert (first.was_entered, first.was_present, first.entrant.player_id) == (
        True,
        False,
        player.pk,
    )
    again = door.check_in_player(
        tournament_id=tournament.pk, player_id=player.pk, user=_organiser(event)
    )
    assert (again.was_entered, again.was_present, again.entrant.pk) == (
        True,
        True,
        first.entrant.pk,
    )
    present = Entrant.objects.filter(tournament=tournament, is_present=True)
    assert list(present.values_list("player_id", flat=True)) == [player.pk]
    audits = AuditEntry.objects.filter(tournament=tournament, kind="check_in")
    assert [entry.details for entry in audits] == [
        {"present": [first.entrant.pk], "absent": [], "at": "door"}
    ]
    assert Tournament.objects.get(pk=tournament.pk).version == version + 1


def test_a_club_player_not_entered_is_entered_and_present(event):
    tournament = _drive(event, [{"player": player.pk} for player in event.players[:4]])
    newcomer = event.players[6]
    checked = door.check_in_player(
        tournament_id=tournament.pk, player_id=newcomer.pk, user=None, at=door.AT_PHONE
    )
    assert (checked.was_entered, checked.was_present) == (False, False)
    entrant = Entrant.objects.get(tournament=tournament, player=newcomer)
    assert entrant.is_present is True
    (audit,) = AuditEntry.objects.filter(tournament=tournament, kind="check_in")
    assert (audit.user, audit.details["at"]) == (None, "phone")


def test_a_pairs_event_checks_in_the_pair(db):
    event = build_event(players=0, teams=2)
    pairs = [{"team": team.pk} for team in event.teams]
    tournament = _drive(event, pairs, entrant_kind="team", game="45", table_size=2)
    Entrant.objects.filter(tournament=tournament).update(is_present=False)
    member = event.teams[1].team_members.order_by("position").first().player
    checked = door.check_in_player(tournament_id=tournament.pk, player_id=member.pk, user=None)
    assert (checked.entrant.team_id, checked.entrant.is_present) == (event.teams[1].pk, True)
    outsider = event.world.players[4]
    with pytest.raises(Problem) as refused:
        door.check_in_player(tournament_id=tournament.pk, player_id=outsider.pk, user=None)
    assert (refused.value.status_code, refused.value.code, refused.value.errors[0]["pointer"]) == (
        400,
        "not_entered",
        "/player",
    )


@pytest.mark.parametrize(
    ("player", "status", "code"),
    [
        ("other_club", 400, "unknown_player"),
        ("inactive", 400, "unknown_player"),
        ("text", 400, "unknown_player"),
        ("missing", 400, "unknown_player"),
    ],
)
def test_a_bad_player_is_refused_and_nothing_stored(event, player, status, code):
    tournament = _drive(event, [{"player": player.pk} for player in event.players[:4]])
    players = {
        "other_club": make_player(make_club("elsewhere"), "Stranger").pk,
        "inactive": make_player(event.club, "Gone", is_active=False).pk,
        "text": "12",
        "missing": 999999,
    }
    before = list(Entrant.objects.order_by("pk").values())
    with pytest.raises(Problem) as refused:
        door.check_in_player(tournament_id=tournament.pk, player_id=players[player], user=None)
    assert (refused.value.status_code, refused.value.code) == (status, code)
    assert list(Entrant.objects.order_by("pk").values()) == before


def test_a_closed_or_full_event_refuses(event):
    tournament = _drive(event, [{"player": player.pk} for player in event.players[:4]])
    Tournament.objects.filter(pk=tournament.pk).update(status="in_progress", format="knockout")
    with pytest.raises(Problem) as started:
        door.check_in_player(tournament_id=tournament.pk, player_id=event.players[6].pk, user=None)
    assert (started.value.status_code, started.value.code) == (409, "tournament_started")
    Tournament.objects.filter(pk=tournament.pk).update(status="closed")
    with pytest.raises(Problem) as closed:
        door.check_in_player(tournament_id=tournament.pk, player_id=event.players[0].pk, user=None)
    assert (closed.value.status_code, closed.value.code) == (409, "tournament_closed")
    assert not Entrant.objects.filter(tournament=tournament, player=event.players[6]).exists()


def test_the_search_takes_two_letters_and_puts_first_names_first(event):
    tournament = _drive(event, [{"player": event.players[0].pk}])
    make_player(event.club, "Mary Byrne")
    make_player(event.club, "Ann Marsh")
    make_player(event.club, "Emma Doyle")
    make_player(event.club, "Tomás Rua")
    assert door.search_players(tournament, "m") == []
    rows = door.search_players(tournament, "ma")
    assert [row["player"].display_name for row in rows] == ["Mary Byrne", "Ann Marsh", "Emma Doyle"]
    (entered,) = door.search_players(tournament, "player 01")
    assert (entered["entrant_id"] is not None, entered["is_present"]) == (True, True)


def test_the_door_code_lives_until_replaced_revoked_or_expired(event):
    tournament = _drive(event, [])
    first, token = door.create_door_code(tournament_id=tournament.pk, user=_organiser(event))
    assert door.reveal_door_code(first) == token
    assert door.get_live_door_code(token) == first
    assert door.get_live_door_code(token + "x") is None
    second, newer = door.create_door_code(tournament_id=tournament.pk, user=_organiser(event))
    assert (door.get_live_door_code(token), door.get_live_door_code(newer)) == (None, second)
    assert door.live_door_code(tournament) == second
    second.expires_at = timezone.now() - timedelta(seconds=1)
    second.save()
    assert door.get_live_door_code(newer) is None
    _third, latest = door.create_door_code(tournament_id=tournament.pk, user=None)
    assert door.revoke_door_codes(tournament_id=tournament.pk, user=None) == 1
    assert door.get_live_door_code(latest) is None


@pytest.mark.django_db(transaction=True)
def test_two_phones_at_once_make_one_entrant():
    event = build_event(players=6)
    tournament = _drive(event, [{"player": player.pk} for player in event.players[:4]])
    for player in event.players[4:6]:  # one not entered, raced by four phones; one entered
        Entrant.objects.filter(tournament=tournament).update(is_present=False)
        barrier = threading.Barrier(4)
        results: list = []
        errors: list = []

        def check_in(player=player, barrier=barrier, results=results, errors=errors):
            barrier.wait()
            try:
                results.append(
                    door.check_in_player(
                        tournament_id=tournament.pk, player_id=player.pk, user=None, at="phone"
                    )
                )
            except Exception as error:  # noqa: BLE001 - the test reports any
                errors.append(error)
            finally:
                connection.close()

        threads = [threading.Thread(target=check_in) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert errors == []
        assert Entrant.objects.filter(tournament=tournament, player=player).count() == 1
        assert sorted(result.was_present for result in results) == [False, True, True, True]
        assert (
            AuditEntry.objects.filter(
                tournament=tournament,
                kind="check_in",
                details__present__contains=[results[0].entrant.pk],
            ).count()
            == 1
        )
