"""Check-in at a club night's door, the services (``settlements.attendance``): exact outcomes,
exact refusals, and two concurrent check-ins of one player making one row (threads on
PostgreSQL).

What it proves: a player is checked in once (the row says where, when and by whom; a second
check-in changes nothing); refusals (a closed night, another club's or an inactive player, a
bad id) store nothing; the search shows two letters or more, who is here marked; a night's door
code lives until revoked or replaced, and dies with the night's close; a closed night makes no
code; four phones at once make one row.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from config.problems import Problem
from settlements import attendance
from settlements.models import NightAttendance
from settlements.services import close_night, open_night
from tests.clubs.factories import make_club, make_player
from tests.tournaments.play_helpers import build_event
from tournaments import door


@pytest.fixture
def event(db):
    return build_event(players=6)


def _organiser(event):
    return event.world.users["organiser"]


def _night(event, **extra):
    return open_night(club=event.club, user=_organiser(event), name="Tuesday", **extra)


def test_a_player_is_checked_in_once_and_the_row_says_where_and_by_whom(event):
    night = _night(event)
    player = event.players[1]
    first = attendance.check_in_night_player(
        night_id=night.pk, player_id=player.pk, user=_organiser(event)
    )
    assert (first.was_present, first.player.pk, first.attendance.at) == (False, player.pk, "door")
    assert first.attendance.by == _organiser(event)
    again = attendance.check_in_night_player(
        night_id=night.pk, player_id=player.pk, user=None, at="phone"
    )
    assert (again.was_present, again.attendance.pk) == (True, first.attendance.pk)
    rows = NightAttendance.objects.filter(night=night)
    assert list(rows.values_list("player_id", "at")) == [(player.pk, "door")]
    assert attendance.is_checked_in(night, player.pk)
    assert not attendance.is_checked_in(night, event.players[0].pk)

    phone = attendance.check_in_night_player(
        night_id=night.pk, player_id=event.players[2].pk, user=None, at="phone"
    )
    assert (phone.attendance.at, phone.attendance.by) == ("phone", None)
    assert attendance.present_names(night) == ["Player 02", "Player 03"]


@pytest.mark.parametrize(
    ("player", "status", "code"),
    [
        ("other_club", 400, "unknown_player"),
        ("inactive", 400, "unknown_player"),
        ("text", 400, "unknown_player"),
        ("boolean", 400, "unknown_player"),
    ],
)
def test_a_bad_player_is_refused_and_nothing_stored(event, player, status, code):
    night = _night(event)
    other = make_player(make_club("other-club"), "Stranger")
    inactive = make_player(event.club, "Gone", is_active=False)
    player_id = {
        "other_club": other.pk,
        "inactive": inactive.pk,
        "text": str(event.players[0].pk),
        "boolean": True,
    }[player]
    with pytest.raises(Problem) as refused:
        attendance.check_in_night_player(night_id=night.pk, player_id=player_id, user=None)
    assert (refused.value.status_code, refused.value.code) == (status, code)
    assert refused.value.errors[0]["pointer"] == "/player"
    assert not NightAttendance.objects.exists()


def test_a_closed_or_missing_night_refuses(event):
    night = _night(event)
    close_night(night_id=night.pk, user=_organiser(event))
    with pytest.raises(Problem) as closed:
        attendance.check_in_night_player(
            night_id=night.pk, player_id=event.players[0].pk, user=None
        )
    assert (closed.value.status_code, closed.value.code) == (409, "night_closed")
    with pytest.raises(Problem) as missing:
        attendance.check_in_night_player(
            night_id=night.pk + 99, player_id=event.players[0].pk, user=None
        )
    assert (missing.value.status_code, missing.value.code) == (404, "not_found")
    with pytest.raises(Problem) as no_code:
        attendance.create_night_door_code(night_id=night.pk, user=None)
    assert no_code.value.code == "night_closed"
    assert not NightAttendance.objects.exists()


def test_the_search_takes_two_letters_and_marks_who_is_here(event):
    night = _night(event)
    make_player(event.club, "Mary Byrne")
    make_player(event.club, "Byron Mc")
    attendance.check_in_night_player(night_id=night.pk, player_id=event.players[0].pk, user=None)
    assert attendance.search_night_players(night, "p") == []
    found = attendance.search_night_players(night, "pl")
    assert [(row["player"].display_name, row["is_present"]) for row in found] == [
        ("Player 01", True),
        ("Player 02", False),
        ("Player 03", False),
        ("Player 04", False),
        ("Player 05", False),
        ("Player 06", False),
    ]
    byr = attendance.search_night_players(night, "byr")
    assert [row["player"].display_name for row in byr] == ["Byron Mc", "Mary Byrne"]


def test_a_nights_door_code_lives_until_replaced_revoked_or_the_close(event):
    night = _night(event)
    _first, older = attendance.create_night_door_code(night_id=night.pk, user=_organiser(event))
    code = door.get_live_door_code(older)
    assert (code.night_id, code.tournament_id, code.night.club_id) == (
        night.pk,
        None,
        event.club.pk,
    )
    assert door.live_door_code(night) == code
    _second, newer = attendance.create_night_door_code(night_id=night.pk, user=None)
    assert door.get_live_door_code(older) is None
    assert door.get_live_door_code(newer).night_id == night.pk
    assert door.revoke_door_codes(night_id=night.pk, user=None) == 1
    assert door.get_live_door_code(newer) is None
    _third, latest = attendance.create_night_door_code(night_id=night.pk, user=None)
    close_night(night_id=night.pk, user=_organiser(event))
    night.refresh_from_db()
    assert door.get_live_door_code(latest) is None
    assert door.live_door_code(night) is None


@pytest.mark.django_db(transaction=True)
def test_two_phones_at_once_make_one_row():
    event = build_event(players=4)
    night = _night(event)
    player = event.players[2]
    barrier = threading.Barrier(4)
    results: list = []
    errors: list = []

    def check_in():
        barrier.wait()
        try:
            results.append(
                attendance.check_in_night_player(
                    night_id=night.pk, player_id=player.pk, user=None, at="phone"
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
    assert NightAttendance.objects.filter(night=night, player=player).count() == 1
    assert sorted(result.was_present for result in results) == [False, True, True, True]
    assert len({result.attendance.pk for result in results}) == 1
