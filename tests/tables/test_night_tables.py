"""A table link that belongs to a physical table of a club night: table N, every game started at
it, until the night closes.

The organiser makes every table's link of the night in one step; a game is started at a table
through ``POST /api/nights/{id}/games/`` (``settlements.night_tables.start_night_game``); the
link at table N opens the game now at table N and follows the table through three games started
one after another with no new code (GET /api/table/: ``current_game``, ``status``, ``follows``, a
new ETag at each change, 304 when nothing changed); a revoked link stops at once while another
table's goes on; closing the night ends them all. A start is refused, storing nothing, on a
closed night, at a busy table, at a table out of 1..99, or with a player of another club. The
304 of a night's table costs two queries, as an event's.
"""

from __future__ import annotations

import pytest

from games.models import Game
from settlements.models import NightGame
from settlements.services import open_night
from table_links import services as table_services
from table_links.models import TableLink
from table_links.selectors import digest
from tests.clubs.factories import make_club, make_player
from tests.helpers import count_queries, table_link_client
from tests.tournaments.play_helpers import build_event, win_game

pytestmark = pytest.mark.django_db


def _night(event, name="Tuesday"):
    return open_night(club=event.club, user=event.world.users["organiser"], name=name)


def _start(event, night, table, players, *, role="organiser", status=201, **extra):
    body = {"game": "25", "seats": [player.pk for player in players], "table": table, **extra}
    return event.ok("post", f"/api/nights/{night.pk}/games/", body, status=status, role=role)


def _stored() -> tuple[int, int]:
    return Game.objects.count(), NightGame.objects.count()


def test_a_night_table_link_follows_its_table_through_three_games_and_a_revoked_one_stops():
    event = build_event(players=4)
    night = _night(event)
    organiser = event.world.users["organiser"]
    first, second, third, fourth = event.players

    # Before any game the organiser says how many tables; one step makes them all, once.
    with pytest.raises(Exception) as no_count:
        table_services.create_night_table_links(night=night, user=organiser)
    assert (no_count.value.code, no_count.value.errors[0]["pointer"]) == (
        "invalid_table",
        "/tables",
    )
    made = table_services.create_night_table_links(night=night, user=organiser, tables=2)
    assert [(link.night_id, link.table_number, link.expires_at) for link in made] == [
        (night.pk, 1, None),
        (night.pk, 2, None),
    ]
    assert table_services.create_night_table_links(night=night, user=organiser, tables=2) == []
    secrets = {link.table_number: table_services.reveal_table_link(link) for link in made}
    for link in made:
        token, code = secrets[link.table_number]
        assert link.token_hash == digest(token) and link.code_hash == digest(code)
    # Table 1's tablet by its token, table 2's by its short code as typed.
    table_one = table_link_client(secrets[1][0])
    table_two = table_link_client(table_services.format_code(secrets[2][1]).lower())

    waiting = table_one.get("/api/table/")
    state = waiting.json()
    assert (state["status"], state["current_game"], state["follows"], state["games"]) == (
        "waiting",
        None,
        True,
        [],
    )
    assert state["label"] == "Tuesday, table 1"
    assert state["night"] == {"id": night.pk, "name": "Tuesday"}
    assert (state["table"], state["round"], state["match"]) == (1, None, None)
    etag = waiting["ETag"]
    assert table_one.get("/api/table/", HTTP_IF_NONE_MATCH=etag).status_code == 304

    at_two = _start(event, night, 2, [third, fourth])["id"]
    # A game at another table changes nothing at table 1.
    assert table_one.get("/api/table/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    seen = []
    for number in (1, 2, 3):
        game_id = _start(event, night, 1, [first, second])["id"]
        started = table_one.get("/api/table/", HTTP_IF_NONE_MATCH=etag)
        assert started.status_code == 200 and started["ETag"] != etag
        state = started.json()
        assert (state["status"], state["current_game"], state["follows"]) == (
            "playing",
            game_id,
            True,
        )
        assert [game["id"] for game in state["games"]] == [*seen, game_id]
        assert state["games"][-1]["status"] == "in_progress"
        etag = started["ETag"]
        assert table_one.get("/api/table/", HTTP_IF_NONE_MATCH=etag).status_code == 304
        assert table_one.get(f"/api/games/{game_id}/").status_code == 200
        if number == 1:
            # The table is busy until its game ends: refused, nothing stored.
            before = _stored()
            busy = event.call(
                "post",
                f"/api/nights/{night.pk}/games/",
                {"game": "25", "seats": [third.pk, fourth.pk], "table": 1},
            )
            assert busy.status_code == 409
            error = busy.json()["errors"][0]
            assert (error["code"], error["pointer"]) == ("table_busy", "/table")
            assert error["detail"] == (
                f"Table 1 is still playing game {game_id} (Player 01 v Player 02): finish it "
                "first, or choose another table."
            )
            assert _stored() == before
        win_game(event, game_id, side=number % 2)
        # The hands stored at the table change the ETag; the finished game stays current.
        finished = table_one.get("/api/table/", HTTP_IF_NONE_MATCH=etag)
        assert finished.status_code == 200 and finished["ETag"] != etag
        state = finished.json()
        assert (state["current_game"], state["games"][-1]["status"], state["follows"]) == (
            game_id,
            "finished",
            True,
        )
        etag = finished["ETag"]
        seen.append(game_id)
        if number == 1:
            # Table 2's tablet sees its own game only.
            assert table_two.get("/api/table/").json()["current_game"] == at_two
            assert table_two.get(f"/api/games/{game_id}/").status_code == 404
            assert table_one.get(f"/api/games/{at_two}/").status_code == 404
        if number == 2:
            # Table 2's link is revoked: it stops at once, table 1 goes on.
            revoked = TableLink.objects.get(night=night, table_number=2)
            response = event.call(
                "delete", f"/api/clubs/{event.club.slug}/table-links/{revoked.pk}/"
            )
            assert response.status_code == 200 and response.json()["is_live"] is False
            assert table_two.get("/api/table/").status_code == 404
            assert table_two.get(f"/api/games/{at_two}/").status_code == 404
            assert table_one.get("/api/table/", HTTP_IF_NONE_MATCH=etag).status_code == 304

    # Three games, one after another, at table 1, by one link; an earlier one is still its own.
    assert len(set(seen)) == 3
    assert table_one.get(f"/api/games/{seen[0]}/").status_code == 200
    win_game(event, at_two, side=0)

    # The night closes: the links open no game any more and say why.
    event.ok("post", f"/api/nights/{night.pk}/close/")
    closed = table_one.get("/api/table/", HTTP_IF_NONE_MATCH=etag)
    assert closed.status_code == 200 and closed["ETag"] != etag
    state = closed.json()
    assert (state["status"], state["follows"], state["games"], state["current_game"]) == (
        "event_over",
        False,
        [],
        None,
    )
    assert table_one.get(f"/api/games/{seen[-1]}/").status_code == 404
    listed = event.ok("get", f"/api/clubs/{event.club.slug}/table-links/")["results"]
    assert {(row["night"], row["table"]): row["is_live"] for row in listed} == {
        (night.pk, 1): False,
        (night.pk, 2): False,
    }
    assert {row["label"] for row in listed} == {"Tuesday, table 1", "Tuesday, table 2"}
    # Its games stay the night's, at their tables.
    detail = event.ok("get", f"/api/nights/{night.pk}/")
    assert detail["tables"] == [{"table": 1, "games": seen}, {"table": 2, "games": [at_two]}]
    assert sorted(detail["games"]) == sorted([*seen, at_two])


def test_starting_a_game_at_a_night_table_is_refused_storing_nothing():
    event = build_event(players=4)
    night = _night(event)
    first, second, third, fourth = event.players
    url = f"/api/nights/{night.pk}/games/"
    stranger = make_player(make_club("elsewhere"), "Stranger")
    before = _stored()
    for body, status, code, pointer in (
        (
            {"game": "25", "seats": [first.pk, second.pk], "table": 0},
            400,
            "invalid_table",
            "/table",
        ),
        (
            {"game": "25", "seats": [first.pk, second.pk], "table": 100},
            400,
            "invalid_table",
            "/table",
        ),
        (
            {"game": "25", "seats": [first.pk, stranger.pk], "table": 1},
            400,
            "unknown_player",
            "/seats/1",
        ),
        (
            {"game": "25", "seats": [first.pk, second.pk], "table": 1, "tournament_match": 1},
            400,
            "unknown_field",
            "/tournament_match",
        ),
    ):
        refused = event.call("post", url, body)
        assert refused.status_code == status, refused.content
        error = refused.json()["errors"][0]
        assert (error["code"], error.get("pointer")) == (code, pointer), error
        assert _stored() == before
    # A player (not a scorer) may not start one; a scorekeeper may, once per Idempotency-Key.
    body = {
        "game": "25",
        "seats": [first.pk, second.pk],
        "table": 4,
        "first_dealer": 1,
        "stake": "0.20",
    }
    assert event.call("post", url, body, role="player").status_code == 403
    assert _stored() == before
    started = event.call("post", url, body, role="scorekeeper", **{"Idempotency-Key": "k1"})
    again = event.call("post", url, body, role="scorekeeper", **{"Idempotency-Key": "k1"})
    assert (started.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true" and again.json()["id"] == started.json()["id"]
    game = Game.objects.get(pk=started.json()["id"])
    assert (game.first_dealer, game.stake_minor, game.created_by) == (
        1,
        20,
        event.world.users["scorekeeper"],
    )
    assert NightGame.objects.get(game=game).table_number == 4
    assert started["Location"] == f"/api/games/{game.pk}/"
    # The night closes: no more games.
    win_game(event, game.pk, side=0)
    event.ok("post", f"/api/nights/{night.pk}/close/")
    stored = _stored()
    closed = event.call("post", url, {"game": "25", "seats": [third.pk, fourth.pk], "table": 2})
    assert closed.status_code == 409
    assert closed.json()["errors"][0]["code"] == "night_closed"
    assert _stored() == stored


def test_a_night_table_link_through_the_api_and_refusals():
    event = build_event(players=4)
    night = _night(event)
    organiser = event.world.users["organiser"]
    url = f"/api/clubs/{event.club.slug}/table-links/"
    body = event.ok("post", url, {"night": night.pk, "table": 3}, status=201)
    assert (body["night"], body["table"], body["tournament"], body["expires_at"]) == (
        night.pk,
        3,
        None,
        None,
    )
    assert body["label"] == "Tuesday, table 3" and body["code"] and body["token"]
    for refused_body, pointer in (
        ({"night": night.pk}, "/table"),
        ({"night": night.pk, "table": 100}, "/table"),
        ({"night": night.pk + 99, "table": 1}, "/night"),
        ({"night": night.pk, "table": 1, "game": 1}, "/game"),
    ):
        refused = event.call("post", url, refused_body)
        assert refused.status_code == 400, refused.content
        error = refused.json()["errors"][0]
        assert (error["code"], error["pointer"]) == ("invalid_table", pointer)
    # The default count is the largest table a game was started at; more can be asked for.
    _start(event, night, 2, event.players[:2])
    made = table_services.create_night_table_links(night=night, user=organiser)
    assert [link.table_number for link in made] == [1, 2]
    made = table_services.create_night_table_links(night=night, user=organiser, tables=4)
    assert [link.table_number for link in made] == [4]  # table 3 has its link already
    assert table_services.count_live_event_links(night) == 4
    win_game(event, NightGame.objects.get(night=night).game_id, side=0)
    event.ok("post", f"/api/nights/{night.pk}/close/")
    night.refresh_from_db()
    with pytest.raises(Exception) as refused_close:
        table_services.create_night_table_links(night=night, user=organiser, tables=2)
    assert refused_close.value.code == "event_closed"
    refused = event.call("post", url, {"night": night.pk, "table": 1})
    assert refused.json()["errors"][0]["pointer"] == "/night"


def test_the_night_tablets_poll_is_conditional_and_its_304_costs_two_queries():
    event = build_event(players=4)
    night = _night(event)
    organiser = event.world.users["organiser"]
    _link, token, code = table_services.create_table_link(
        club=event.club, user=organiser, night_id=night.pk, table_number=1
    )
    game_id = _start(event, night, 1, event.players[:2])["id"]
    for credential in (token, code):
        client = table_link_client(credential)
        first = client.get("/api/table/")
        etag = first["ETag"]
        assert first.status_code == 200 and first.json()["current_game"] == game_id
        again = count_queries(client.get, "/api/table/", HTTP_IF_NONE_MATCH=etag, status=304)
        assert again.response["ETag"] == etag
        assert again.count == 2, again.sql
