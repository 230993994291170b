"""The hall screen of a club night: its link, clock and switch (``hall.services`` with
``night_id``), and the public screen's JSON through a night's panels.

A night of eight players is followed from its hall screen: waiting (who has checked in, each
check-in a new tag), play (the tables whose game is in progress, with names and score; the
leaders by games won, hidden on request), winners (the closed night's places, nets and prizes
from its settle-up). An idle screen's poll costs ONE query and answers 304; a full answer costs
the same queries for 2 tables as for 6. The night's refusals store nothing; its link ends with
it; the event's hall is untouched.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from config.problems import Problem
from hall import services as hall_services
from hall.models import HallLink, HallSettings
from settlements import attendance
from settlements.night_tables import start_night_game
from settlements.services import close_night, open_night
from settlements.settle_up import settle_event
from tests.hall.helpers import screen
from tests.tournaments.play_helpers import build_event, win_game
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

# A full answer of a night's screen (after the fingerprint's one query): the night with its
# club, its hall settings, its tables (the games at tables: 1 while there is none, 2 with their
# seats and players), then waiting: who is here (1); play: the leaders (1)
FULL = {"waiting": 4, "play": 5}


def _organiser(event):
    return event.world.users["organiser"]


def _night(event, **extra):
    return open_night(club=event.club, user=_organiser(event), name="Tuesday", **extra)


def _link(event, night) -> str:
    _link_row, token, _code = hall_services.create_hall_link(
        night_id=night.pk, user=_organiser(event)
    )
    return token


def _start(event, night, table, players) -> int:
    game = start_night_game(
        night_id=night.pk,
        table_number=table,
        user=_organiser(event),
        game="25",
        seat_player_ids=[player.pk for player in players],
    )
    return game.pk


def test_the_screen_follows_a_night_through_its_panels():
    event = build_event(players=8)
    night = _night(event, entry_fee_minor=500, prize_split=[100])
    token = _link(event, night)
    first = screen(token)
    body = first.json()
    assert (body["kind"], body["panel"], body["event"]) == (
        "night",
        "waiting",
        {"name": "Tuesday", "club": event.club.name},
    )
    assert (body["round"], body["rounds_planned"], body["present"]) == (None, None, [])

    one, two, three, four = event.players[:4]
    for player in (three, one):
        attendance.check_in_night_player(night_id=night.pk, player_id=player.pk, user=None)
    checked = screen(token, first["ETag"])
    assert checked.status_code == 200
    assert checked.json()["present"] == ["Player 01", "Player 03"]

    game_one = _start(event, night, 1, [one, two])
    game_two = _start(event, night, 2, [three, four])
    playing = screen(token, checked["ETag"]).json()
    assert playing["panel"] == "play"
    assert playing["tables"] == [
        {
            "table": 1,
            "sides": [{"names": ["Player 01"], "score": 0}, {"names": ["Player 02"], "score": 0}],
        },
        {
            "table": 2,
            "sides": [{"names": ["Player 03"], "score": 0}, {"names": ["Player 04"], "score": 0}],
        },
    ]
    assert [row["wins"] for row in playing["leaders"]] == [0, 0, 0, 0]

    win_game(event, game_one, 1)
    won = screen(token).json()
    assert [table["table"] for table in won["tables"]] == [2]
    assert won["leaders"][0] == {
        "place": 1,
        "name": "Player 02",
        "player": two.pk,
        "wins": 1,
        "games": 1,
    }
    # level on wins: by name
    assert [(row["name"], row["place"]) for row in won["leaders"][1:]] == [
        ("Player 01", 2),
        ("Player 03", 2),
        ("Player 04", 2),
    ]

    hall_services.update_hall_settings(night_id=night.pk, user=_organiser(event), hide_leaders=True)
    hidden = screen(token).json()
    assert (hidden["leaders"], hidden["leaders_hidden"]) == ([], True)

    win_game(event, game_two, 0)
    close_night(night_id=night.pk, user=_organiser(event))
    before_settling = screen(token)
    assert before_settling.json()["panel"] == "winners"
    assert before_settling.json()["prizes"] == []
    settle_event(night_id=night.pk)
    settled = screen(token, before_settling["ETag"])
    assert settled.status_code == 200
    winners = settled.json()
    # The first three places: two level first, two level third.
    assert [(row["place"], row["name"], row["wins"]) for row in winners["winners"]] == [
        (1, "Player 02", 1),
        (1, "Player 03", 1),
        (3, "Player 01", 0),
        (3, "Player 04", 0),
    ]
    # Four fees of 5.00 make a pot of 20.00: the two players level on one game won share it.
    assert [row["net"] for row in winners["winners"]] == ["5.00", "5.00", "-5.00", "-5.00"]
    assert winners["prizes"] == [
        {
            "first": 1,
            "last": 1,  # one place paid: the two level on it share it
            "shares": [
                {"name": "Player 02", "amount": "10.00"},
                {"name": "Player 03", "amount": "10.00"},
            ],
        }
    ]
    assert winners["clock"]["state"] == "idle"
    # Nights keep no audit trail: the event's audit has nothing of the night's hall.
    assert not AuditEntry.objects.filter(kind__startswith="hall").exists()


def test_an_idle_screens_poll_costs_one_query_and_answers_304(django_assert_num_queries):
    event = build_event(players=4)
    night = _night(event)
    token = _link(event, night)
    _start(event, night, 1, event.players[:2])
    hall_services.act_on_clock(
        night_id=night.pk, user=_organiser(event), action="start", minutes=20
    )
    first = screen(token)
    with django_assert_num_queries(1):
        again = screen(token, first["ETag"])
    assert again.status_code == 304
    assert again["ETag"] == first["ETag"]
    clock = first.json()["clock"]
    assert (clock["state"], clock["round"], clock["remaining_ms"] > 0) == ("running", None, True)


def _full_answers(tables: int, django_assert_num_queries) -> None:
    event = build_event(players=tables * 2, slug=f"club-of-{tables}")
    night = _night(event)
    token = _link(event, night)
    for player in event.players:
        attendance.check_in_night_player(night_id=night.pk, player_id=player.pk, user=None)
    with django_assert_num_queries(1 + FULL["waiting"]):
        waiting = screen(token)
    assert (waiting.json()["panel"], len(waiting.json()["present"])) == ("waiting", tables * 2)
    for table in range(tables):
        _start(event, night, table + 1, event.players[table * 2 : table * 2 + 2])
    with django_assert_num_queries(1 + FULL["play"]):
        playing = screen(token)
    assert (playing.json()["panel"], len(playing.json()["tables"])) == ("play", tables)


def test_a_full_answer_costs_the_same_queries_for_2_tables_as_for_6(django_assert_num_queries):
    _full_answers(2, django_assert_num_queries)
    _full_answers(6, django_assert_num_queries)


def test_one_live_link_a_night_the_refusals_store_nothing_and_the_link_ends_with_it():
    event = build_event(players=4)
    night = _night(event)
    organiser = _organiser(event)
    token = _link(event, night)
    with pytest.raises(Problem) as twice:
        hall_services.create_hall_link(night_id=night.pk, user=organiser)
    assert (twice.value.status_code, twice.value.code) == (409, "hall_link_exists")
    hall_services.revoke_hall_link(night_id=night.pk, user=organiser)
    assert screen(token).status_code == 404
    with pytest.raises(Problem) as none:
        hall_services.revoke_hall_link(night_id=night.pk, user=organiser)
    assert none.value.code == "not_found"
    token = _link(event, night)
    assert HallLink.objects.filter(night=night).count() == 2

    close_night(night_id=night.pk, user=organiser)
    for call in (
        lambda: hall_services.create_hall_link(night_id=night.pk, user=organiser),
        lambda: hall_services.act_on_clock(
            night_id=night.pk, user=organiser, action="start", minutes=5
        ),
    ):
        with pytest.raises(Problem) as closed:
            call()
        assert (closed.value.status_code, closed.value.code) == (409, "night_closed")
    assert not HallSettings.objects.filter(night=night).exists()
    assert screen(token).json()["panel"] == "winners"
    night.refresh_from_db()
    night.closed_at = timezone.now() - timedelta(hours=7)
    night.save(update_fields=["closed_at"])
    assert screen(token).status_code == 404


def test_the_screens_page_opens_for_a_night():
    event = build_event(players=4)
    night = _night(event)
    token = _link(event, night)
    attendance.check_in_night_player(night_id=night.pk, player_id=event.players[0].pk, user=None)
    page = Client().get(f"/h/{token}/")
    screen_page = page.content.decode()
    assert page.status_code == 200
    assert "Tuesday" in screen_page
    assert "Player 01" in screen_page


def test_the_organisers_api_runs_a_nights_hall():
    event = build_event(players=4)
    night = _night(event)
    base = f"/api/nights/{night.pk}/hall/"
    made = event.ok("post", f"{base}link/", status=201)
    assert (made["tournament"], made["night"], made["link"]["code"] is not None) == (
        None,
        night.pk,
        True,
    )
    started = event.ok("post", f"{base}clock/", {"action": "start", "minutes": 10})
    assert (started["clock"]["state"], started["clock"]["round"]) == ("running", None)
    hidden = event.ok("patch", base, {"hide_leaders": True})
    assert hidden["hide_leaders"] is True
    refused = event.call("post", f"{base}clock/", {"action": "start", "minutes": 0})
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid_minutes")
    assert event.call("get", base, role="scorekeeper").status_code == 403
    revoked = event.ok("delete", f"{base}link/")
    assert revoked["link"] is None
    assert event.call("delete", f"{base}link/").status_code == 404
