"""The hall screen's API: the organiser's link, clock and switch, and the public screen's JSON.

A drive of eight players is followed from the hall screen through its panels (waiting, seats,
play, winners), by the link's token and by its short code; the organiser's refusals are
problems that store nothing; the link is revoked at once; an idle screen's poll costs one query.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from hall.models import HallLink, HallSettings
from settlements.models import Settlement
from table_links.services import format_code
from tests.hall.helpers import clock, drive, make_hall_link, screen, token_of
from tests.helpers import count_queries
from tests.tournaments.play_helpers import build_event, game_at, win_game
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db


def _release(event, tournament_id, number):
    event.ok("post", f"/api/tournaments/{tournament_id}/rounds/{number}/release/")


def test_the_screen_follows_a_drive_through_its_panels():
    event = build_event(players=8)
    tournament_id = drive(event, rounds=1)
    link = make_hall_link(event, tournament_id)
    token = token_of(link)
    assert link["url"] == f"http://testserver/h/{token}/"
    assert link["qr_svg"].startswith("<svg")
    code = link["code"]
    assert len(code) == 11 and code[5] == "-"

    first = screen(token)
    assert first.status_code == 200
    body = first.json()
    assert body["panel"] == "waiting"
    assert body["event"] == {"name": "Parish Drive", "club": event.club.name}
    assert body["round"] is None and body["clock"]["state"] == "idle"
    assert first["X-Jink-Server-Time"].endswith("Z")
    etag = first["ETag"]

    # A private draw shows nothing yet (the tournament's version moved: one fresh answer),
    # then 304 by the token and by the code as typed.
    event.draw(tournament_id)
    drawn = screen(token, etag)
    assert drawn.json()["panel"] == "waiting" and drawn.json()["round"] is None
    etag = drawn["ETag"]
    assert screen(token, etag).status_code == 304
    assert screen(code.lower(), etag).status_code == 304

    _release(event, tournament_id, 1)
    seats = screen(token, etag)
    assert seats.status_code == 200 and seats["ETag"] != etag
    body = seats.json()
    assert body["panel"] == "seats" and body["round"] == 1
    names = [row["name"] for row in body["seats"]]
    assert names == sorted(player.display_name for player in event.players)
    assert sorted((row["table"], row["seat"]) for row in body["seats"]) == [
        (table, seat) for table in (1, 2) for seat in (1, 2, 3, 4)
    ]
    etag = seats["ETag"]

    # The clock starts: play, the tables still playing and the leaders.
    clock(event, tournament_id, "start", 20)
    play = screen(token, etag)
    body = play.json()
    assert body["panel"] == "play"
    assert body["clock"]["state"] == "running" and body["clock"]["round"] == 1
    assert 1_199_000 <= body["clock"]["remaining_ms"] <= 1_200_000
    assert [table["table"] for table in body["tables"]] == [1, 2]
    assert [side["score"] for side in body["tables"][0]["sides"]] == [0, 0]
    assert body["leaders_hidden"] is False

    event.ok("patch", f"/api/tournaments/{tournament_id}/hall/", {"hide_leaders": True})
    hidden = screen(token, play["ETag"]).json()
    assert hidden["leaders_hidden"] is True and hidden["leaders"] == []

    win_game(event, game_at(tournament_id, 1, 1), side=0)
    body = screen(token).json()
    assert [table["table"] for table in body["tables"]] == [2]
    win_game(event, game_at(tournament_id, 1, 2), side=1)
    event.ok("post", f"/api/tournaments/{tournament_id}/close/")
    winners = screen(token).json()
    assert winners["panel"] == "winners"
    assert [row["place"] for row in winners["winners"]] == sorted(
        row["place"] for row in winners["winners"]
    )
    assert winners["winners"] and all(row["place"] <= 3 for row in winners["winners"])


def test_the_clock_is_stored_as_server_timestamps():
    event = build_event(players=8)
    tournament_id = drive(event)
    before = timezone.now()
    hall = clock(event, tournament_id, "start", 8)
    settings = HallSettings.objects.get(tournament_id=tournament_id)
    assert settings.clock_state == "running"
    assert (
        before + timedelta(minutes=8)
        <= settings.clock_ends_at
        <= timezone.now() + timedelta(minutes=8)
    )
    assert hall["clock"]["ends_at"].endswith("Z") and hall["clock"]["ending"] is False

    paused = clock(event, tournament_id, "pause")["clock"]
    assert paused["state"] == "paused" and paused["ends_at"] is None
    assert 470_000 < paused["remaining_ms"] <= 480_000
    extended = clock(event, tournament_id, "extend", 2)["clock"]
    assert extended["remaining_ms"] == paused["remaining_ms"] + 120_000
    resumed = clock(event, tournament_id, "resume")["clock"]
    assert resumed["state"] == "running"
    assert extended["remaining_ms"] - 2_000 < resumed["remaining_ms"] <= extended["remaining_ms"]
    stopped = clock(event, tournament_id, "stop")["clock"]
    assert stopped == {
        "state": "idle",
        "round": None,
        "ends_at": None,
        "remaining_ms": None,
        "ending": False,
    }
    kinds = list(
        AuditEntry.objects.filter(tournament_id=tournament_id, kind="hall_clock").values_list(
            "details", flat=True
        )
    )
    assert kinds == [
        {"action": "start", "minutes": 8},
        {"action": "pause"},
        {"action": "extend", "minutes": 2},
        {"action": "resume"},
        {"action": "stop"},
    ]


def test_the_last_two_minutes_stand_out():
    event = build_event(players=8)
    tournament_id = drive(event)
    clock(event, tournament_id, "start", 2)
    assert clock(event, tournament_id, "pause")["clock"]["ending"] is True


@pytest.mark.parametrize(
    ("body", "status", "code", "pointer"),
    [
        ({"action": "wind"}, 400, "invalid_choice", "/action"),
        ({"action": "start"}, 400, "invalid_minutes", "/minutes"),
        ({"action": "start", "minutes": 0}, 400, "invalid_minutes", "/minutes"),
        ({"action": "start", "minutes": 241}, 400, "invalid_minutes", "/minutes"),
        ({"action": "start", "minutes": "ten"}, 400, "invalid", "/minutes"),
        ({"action": "extend", "minutes": 5}, 409, "clock_not_set", None),
        ({"action": "pause"}, 409, "clock_not_running", None),
        ({"action": "resume"}, 409, "clock_not_paused", None),
        ({"action": "start", "minutes": 5, "colour": "red"}, 400, "unknown_field", "/colour"),
    ],
)
def test_a_refused_clock_action_is_a_problem_and_stores_nothing(body, status, code, pointer):
    event = build_event(players=8)
    tournament_id = drive(event)
    response = event.call("post", f"/api/tournaments/{tournament_id}/hall/clock/", body)
    assert response.status_code == status, response.content
    problem = response.json()
    assert [(error["code"], error["pointer"]) for error in problem["errors"]] == [(code, pointer)]
    assert not HallSettings.objects.filter(tournament_id=tournament_id).exclude(version=1).exists()
    assert not AuditEntry.objects.filter(tournament_id=tournament_id, kind="hall_clock").exists()


def test_hide_leaders_takes_a_boolean_and_the_same_value_again_changes_nothing():
    event = build_event(players=8)
    tournament_id = drive(event)
    url = f"/api/tournaments/{tournament_id}/hall/"
    refused = event.call("patch", url, {"hide_leaders": "perhaps"})
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["pointer"] == "/hide_leaders"
    assert event.ok("patch", url, {"hide_leaders": True})["hide_leaders"] is True
    assert event.ok("patch", url, {"hide_leaders": True})["hide_leaders"] is True
    assert HallSettings.objects.get(tournament_id=tournament_id).version == 2
    assert list(
        AuditEntry.objects.filter(tournament_id=tournament_id, kind="hall_leaders").values_list(
            "details", flat=True
        )
    ) == [{"hide_leaders": True}]
    assert event.ok("get", url)["hide_leaders"] is True


def test_one_live_link_an_event_revoked_at_once():
    event = build_event(players=8)
    tournament_id = drive(event)
    link = make_hall_link(event, tournament_id)
    token = token_of(link)
    again = event.call("post", f"/api/tournaments/{tournament_id}/hall/link/")
    assert again.status_code == 409 and again.json()["code"] == "hall_link_exists"
    assert HallLink.objects.filter(tournament_id=tournament_id).count() == 1
    # The organiser sees the same link again (derived from its salt).
    assert event.ok("get", f"/api/tournaments/{tournament_id}/hall/")["link"] == link

    assert screen(token).status_code == 200
    revoked = event.ok("delete", f"/api/tournaments/{tournament_id}/hall/link/")
    assert revoked["link"] is None
    gone = screen(token)
    assert gone.status_code == 404 and gone.json()["code"] == "not_found"
    assert screen(link["code"]).status_code == 404
    none_left = event.call("delete", f"/api/tournaments/{tournament_id}/hall/link/")
    assert none_left.status_code == 404
    # A new link works; the old one stays dead.
    fresh = make_hall_link(event, tournament_id)
    assert fresh["code"] != link["code"]
    assert screen(token_of(fresh)).status_code == 200 and screen(token).status_code == 404
    audited = AuditEntry.objects.filter(tournament_id=tournament_id, kind="hall_link")
    assert audited.count() == 3


def test_the_link_ends_with_the_event():
    event = build_event(players=8)
    tournament_id = drive(event, rounds=1)
    token = token_of(make_hall_link(event, tournament_id))
    event.draw(tournament_id)
    _release(event, tournament_id, 1)
    for table in (1, 2):
        win_game(event, game_at(tournament_id, 1, table), side=0)
    event.ok("post", f"/api/tournaments/{tournament_id}/close/")
    # Closed: the winners stay on the wall for the evening, and nothing can be changed.
    assert screen(token).json()["panel"] == "winners"
    # The latest settle-up version's prizes, as the API writes amounts.
    tournament = Tournament.objects.get(pk=tournament_id)
    latest = Settlement.objects.filter(tournament=tournament).order_by("-version").first()
    Settlement.objects.create(
        club=tournament.club,
        tournament=tournament,
        version=(latest.version + 1) if latest else 1,
        lines=[],
        details={"prizes": [{"first": 1, "last": 2, "percent": 100, "shares": [["Ann", 250]]}]},
        fingerprint="hall-test",
    )
    winners = screen(token).json()
    assert winners["prizes"] == [
        {"first": 1, "last": 2, "shares": [{"name": "Ann", "amount": "2.50"}]}
    ]
    assert winners["currency"] == tournament.club.currency
    url = f"/api/tournaments/{tournament_id}/hall/clock/"
    refused = event.call("post", url, {"action": "stop"})
    assert refused.status_code == 409 and refused.json()["code"] == "tournament_closed"
    refused = event.call("post", f"/api/tournaments/{tournament_id}/hall/link/")
    assert refused.status_code == 409
    Tournament.objects.filter(pk=tournament_id).update(
        closed_at=timezone.now() - timedelta(hours=6, seconds=1)
    )
    assert screen(token).status_code == 404


def test_an_idle_screens_poll_costs_one_query_and_answers_304():
    event = build_event(players=8)
    tournament_id = drive(event)
    token = token_of(make_hall_link(event, tournament_id))
    event.draw(tournament_id)
    _release(event, tournament_id, 1)
    clock(event, tournament_id, "start", 20)
    first = screen(token)
    counted = count_queries(screen, token, first["ETag"], status=304)
    assert counted.count == 1, counted.sql
    assert counted.response["ETag"] == first["ETag"]
    assert counted.response["X-Jink-Server-Time"].endswith("Z")
    assert counted.response.content == b""


def test_a_hand_changes_the_screens_tag():
    event = build_event(players=8)
    tournament_id = drive(event)
    token = token_of(make_hall_link(event, tournament_id))
    event.draw(tournament_id)
    _release(event, tournament_id, 1)
    etag = screen(token)["ETag"]
    game_id = game_at(tournament_id, 1, 1)
    game = event.game(game_id)
    seat, other = game["sides"][0]["seats"][0], game["sides"][1]["seats"][0]
    event.ok(
        "post",
        f"/api/games/{game_id}/hands/",
        {
            "dealer": game["next_dealer"],
            "trump": "S",
            "trick_winners": [seat, seat, seat, other, other],
        },
        status=201,
        role="scorekeeper",
    )
    changed = screen(token, etag)
    assert changed.status_code == 200
    body = changed.json()
    assert body["panel"] == "play"
    assert [side["score"] for side in body["tables"][0]["sides"]] == [15, 10]


def test_wrong_codes_count_against_the_table_links_guessing_limit(settings):
    settings.TABLE_CODE_GUESSES = 2
    event = build_event(players=8)
    tournament_id = drive(event)
    token = token_of(make_hall_link(event, tournament_id))
    assert screen("ABCDE-FGHJK").status_code == 404
    assert screen("nothing-here").status_code == 404
    refused = screen(token)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert format_code("ABCDEFGHJK") == "ABCDE-FGHJK"


def test_the_waiting_panel_lists_who_is_checked_in_and_a_check_in_changes_the_tag():
    event = build_event(players=8)
    tournament_id = drive(event)
    token = token_of(make_hall_link(event, tournament_id))
    names = sorted((player.display_name for player in event.players), key=str.casefold)
    first = screen(token)
    assert first.json()["panel"] == "waiting"
    assert first.json()["present"] == names  # entered players are present until checked out

    entrants = event.ok("get", f"/api/tournaments/{tournament_id}/entrants/")
    by_player = {entrant["player"]["id"]: entrant["id"] for entrant in entrants}
    here = sorted(event.players[:4], key=lambda player: player.display_name.casefold())
    event.ok(
        "post",
        f"/api/tournaments/{tournament_id}/check-in/",
        {"present": [by_player[player.pk] for player in here]},
    )
    changed = screen(token, first["ETag"])
    assert changed.status_code == 200
    assert changed.json()["present"] == [player.display_name for player in here]
    assert screen(token, changed["ETag"]).status_code == 304

    event.draw(tournament_id)
    _release(event, tournament_id, 1)
    seats = screen(token).json()
    assert seats["panel"] == "seats" and seats["present"] == []  # the seats from now on


def _full_answers(players: int) -> dict[str, int]:
    """The queries of a full (not 304) answer of the screen in each panel, for a drive of
    ``players`` at tables of four."""
    event = build_event(players=players, slug=f"club-{players}")
    tournament_id = drive(event, rounds=1)
    token = token_of(make_hall_link(event, tournament_id))
    counts = {"waiting": count_queries(screen, token).count}
    event.draw(tournament_id)
    _release(event, tournament_id, 1)
    counts["seats"] = count_queries(screen, token).count
    clock(event, tournament_id, "start", 20)
    counts["play"] = count_queries(screen, token).count
    return counts


def test_a_full_answer_costs_the_same_queries_however_many_tables():
    small, large = _full_answers(8), _full_answers(24)
    assert small == large == {"waiting": 5, "seats": 11, "play": 12}
