"""A table link that belongs to a physical table: table N of an event, in every round.

The organiser makes every table's link in one step; the link at table N opens that table's game
of the latest released round, follows the movement through three released rounds with no new
code, says so when nobody plays at it or the event is over, and a revoked one stops at once while
the others go on. The tablet's one polling endpoint (GET /api/table/) answers 304 to an unchanged
table after two queries.
"""

from __future__ import annotations

import pytest

from table_links import services as table_services
from table_links.models import TableLink
from table_links.selectors import digest
from tests.helpers import count_queries, table_link_client
from tests.tournaments.play_helpers import build_event, game_at, win_game
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def _drive(event, players):
    tournament = event.create_tournament(
        name="Parish Drive",
        game="25",
        format="drive",
        table_size=4,
        sides_per_table=2,
        round_count=3,
        private_draws=True,
        lots_seed=7,
        entrants=[{"player": player.pk} for player in players],
    )
    return tournament["id"]


def _release(event, tournament_id, number):
    event.ok("post", f"/api/tournaments/{tournament_id}/rounds/{number}/release/")


def _play_round(event, tournament_id, round_number, tables):
    for table in range(1, tables + 1):
        win_game(event, game_at(tournament_id, round_number, table), side=table % 2)


def test_a_table_link_follows_its_table_through_three_released_rounds_and_a_revoked_one_stops():
    event = build_event(players=12)
    tournament_id = _drive(event, event.players)
    tournament = Tournament.objects.get(pk=tournament_id)
    organiser = event.world.users["organiser"]

    # Before the first draw: as many tables as the entrants fill; one step makes them all.
    made = table_services.create_event_table_links(tournament=tournament, user=organiser)
    assert [link.table_number for link in made] == [1, 2, 3]
    assert all(link.expires_at is None and link.salt for link in made)
    # Doing it again makes none: every table has its link.
    assert table_services.create_event_table_links(tournament=tournament, user=organiser) == []
    secrets = {link.table_number: table_services.reveal_table_link(link) for link in made}
    for link in made:
        token, code = secrets[link.table_number]
        assert link.token_hash == digest(token) and link.code_hash == digest(code)
    # Table 1's tablet by its token, table 2's by its short code (as typed), table 3's token.
    clients = {
        1: table_link_client(secrets[1][0]),
        2: table_link_client(table_services.format_code(secrets[2][1]).lower()),
        3: table_link_client(secrets[3][0]),
    }

    event.draw(tournament_id)  # private: the tablets see nothing yet
    state = clients[1].get("/api/table/").json()
    assert (state["status"], state["current_game"], state["round"]) == ("waiting", None, None)
    assert state["label"] == "Parish Drive, table 1"

    seen = {}
    for round_number in (1, 2, 3):
        _release(event, tournament_id, round_number)
        for table, client in clients.items():
            if table == 2 and round_number == 3:
                continue
            state = client.get("/api/table/").json()
            expected = game_at(tournament_id, round_number, table)
            assert (state["status"], state["round"], state["current_game"]) == (
                "playing",
                round_number,
                expected,
            )
            assert state["match"]["round"] == round_number and state["match"]["table"] == table
            assert client.get(f"/api/games/{expected}/").status_code == 200
            seen.setdefault(table, []).append(expected)
        if round_number == 2:
            # Table 2's link is revoked: it stops at once, the other tables go on.
            revoked = TableLink.objects.get(tournament_id=tournament_id, table_number=2)
            response = event.call(
                "delete", f"/api/clubs/{event.club.slug}/table-links/{revoked.pk}/"
            )
            assert response.status_code == 200 and response.json()["is_live"] is False
            assert clients[2].get("/api/table/").status_code == 404
            assert clients[2].get(f"/api/games/{seen[2][-1]}/").status_code == 404
            assert clients[1].get("/api/table/").status_code == 200
            assert clients[3].get("/api/table/").status_code == 200
        _play_round(event, tournament_id, round_number, 3)

    # Three rounds, three different games at table 1, by one link; the last one is finished.
    assert len(set(seen[1])) == 3 and len(set(seen[3])) == 3
    state = clients[1].get("/api/table/").json()
    assert state["games"][-1]["status"] == "finished" and state["follows"] is True
    # An earlier round's game of the same table is still that tablet's (a late correction).
    assert clients[1].get(f"/api/games/{seen[1][0]}/").status_code == 200
    # Another table's game is not.
    assert clients[1].get(f"/api/games/{seen[3][0]}/").status_code == 404

    # The event closes: the link opens no game any more and says why.
    event.ok("post", f"/api/tournaments/{tournament_id}/close/")
    state = clients[1].get("/api/table/").json()
    assert (state["status"], state["follows"], state["games"], state["current_game"]) == (
        "event_over",
        False,
        [],
        None,
    )
    assert clients[1].get(f"/api/games/{seen[1][-1]}/").status_code == 404
    listed = event.ok("get", f"/api/clubs/{event.club.slug}/table-links/")["results"]
    assert {row["table"]: row["is_live"] for row in listed} == {1: False, 2: False, 3: False}


def test_a_table_empty_this_round_says_so_and_links_are_refused_on_a_closed_event():
    event = build_event(players=8)
    tournament_id = _drive(event, event.players)
    tournament = Tournament.objects.get(pk=tournament_id)
    organiser = event.world.users["organiser"]
    event.draw(tournament_id)
    # Table 3 of an event of two tables is refused; table 2 through the API is made.
    url = f"/api/clubs/{event.club.slug}/table-links/"
    refused = event.call("post", url, {"tournament": tournament_id, "table": 3})
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "invalid_table"
    assert refused.json()["errors"][0]["pointer"] == "/table"
    body = event.ok("post", url, {"tournament": tournament_id, "table": 2}, status=201)
    assert (body["tournament"], body["table"], body["expires_at"]) == (tournament_id, 2, None)
    # A table with no match in the released round is empty.
    link, token, _code = table_services.create_table_link(
        club=event.club, user=organiser, tournament_id=tournament_id, table_number=1
    )
    Match.objects.filter(tournament_id=tournament_id, table=1).update(table=9)
    _release(event, tournament_id, 1)
    state = table_link_client(token).get("/api/table/").json()
    assert (state["status"], state["round"], state["current_game"], state["follows"]) == (
        "empty",
        1,
        None,
        True,
    )
    Match.objects.filter(tournament_id=tournament_id, table=9).update(table=1)
    tournament.status = "closed"
    tournament.save(update_fields=["status"])
    with pytest.raises(Exception) as refused_close:
        table_services.create_event_table_links(tournament=tournament, user=organiser)
    assert refused_close.value.code == "event_closed"


def test_the_tablets_poll_is_conditional_and_its_304_costs_two_queries():
    event = build_event(players=8)
    tournament_id = _drive(event, event.players)
    tournament = Tournament.objects.get(pk=tournament_id)
    organiser = event.world.users["organiser"]
    link, token, code = table_services.create_table_link(
        club=event.club, user=organiser, tournament_id=tournament_id, table_number=1
    )
    event.draw(tournament_id)
    _release(event, tournament_id, 1)
    for credential in (token, code):
        client = table_link_client(credential)
        first = client.get("/api/table/")
        etag = first["ETag"]
        assert first.status_code == 200 and etag
        again = count_queries(client.get, "/api/table/", HTTP_IF_NONE_MATCH=etag, status=304)
        assert again.response["ETag"] == etag
        assert again.count == 2, again.sql
    # A hand stored at the table changes the ETag: the next poll is a 200 with the new totals.
    game_id = game_at(tournament_id, 1, 1)
    hand = {
        "dealer": event.game(game_id)["next_dealer"],
        "trump": "H",
        "trick_winners": [0, 1, 0, 1, 0],
    }
    client = table_link_client(token)
    etag = client.get("/api/table/")["ETag"]
    assert client.post(f"/api/games/{game_id}/hands/", hand, format="json").status_code == 201
    changed = client.get("/api/table/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["games"][0]["hands_played"] == 1
    # The round 2 release changes it too (nothing else does between).
    etag = changed["ETag"]
    assert client.get("/api/table/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    tournament.refresh_from_db()
    assert tournament.status != "closed"
