"""The table-link API, what a link allows and refuses, the hand preview and ``confirm_hands``.

What it proves: an organiser makes a link (token, short code, URL and an SVG QR code shown once;
only hashes stored; expiry at the end of the club's day); the link reads and scores exactly its
table's games, by token or by short code, and gets 404 with nothing stored on another game, on
club routes, on other API routes, after revocation and after expiry; a match's link follows the
match's games; the preview answers as the POST would (same problems) and stores nothing; a club
with ``confirm_hands`` needs a player of another side to accept each hand, recorded with it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Hand
from table_links.models import TableLink
from table_links.selectors import digest
from table_links.services import end_of_day
from tests.games.helpers_db import database_snapshot
from tests.helpers import logged_in_client, table_link_client

pytestmark = pytest.mark.django_db

FIRST_HAND_45 = {
    "dealer": 3,
    "trump": "S",
    "trick_winners": [0, 1, 0, 0, 1],
    "best_trump": {"seat": 0, "trick": 0},
}


def _games(table):
    first = table.new_game("45", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    second = table.new_game("45", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    return first, second


def _make_link(table, **body):
    response = table.client("organiser").post(
        f"/api/clubs/{table.club.slug}/table-links/", body, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()


def test_an_organiser_makes_a_link_shown_once_and_stored_hashed(table):
    first, _ = _games(table)
    body = _make_link(table, game=first["id"])
    link = TableLink.objects.get(pk=body["id"])
    assert link.token_hash == digest(body["token"])
    assert link.code_hash == digest(body["code"].replace("-", ""))
    assert body["token"] not in str(TableLink.objects.values().get(pk=link.pk))
    assert body["url"] == f"http://testserver/t/{body['token']}/"
    assert body["qr_svg"].startswith("<svg") and "QR code of the table link" in body["qr_svg"]
    assert len(body["code"]) == 11 and body["code"][5] == "-"
    assert body["label"] == f"Game {first['id']} (45)"
    assert body["is_live"] is True
    # The default expiry: midnight at the end of today in Dublin.
    assert link.expires_at == end_of_day(table.club)
    listed = table.client("organiser").get(f"/api/clubs/{table.club.slug}/table-links/").json()
    assert [row["id"] for row in listed["results"]] == [link.pk]
    assert "token" not in listed["results"][0] and "code" not in listed["results"][0]


def test_end_of_day_is_midnight_in_the_clubs_time_zone(table):
    late = datetime(2026, 6, 30, 23, 30, tzinfo=ZoneInfo("UTC"))  # 00:30 on 1 July in Dublin
    assert end_of_day(table.club, late) == datetime(
        2026, 7, 2, 0, 0, tzinfo=ZoneInfo("Europe/Dublin")
    )


def test_only_organisers_make_links_and_the_table_must_be_the_clubs(table):
    first, _ = _games(table)
    url = f"/api/clubs/{table.club.slug}/table-links/"
    assert table.client("scorekeeper").post(url, {"game": first["id"]}).status_code == 403
    refused = table.client("organiser").post(url, {"game": 999999}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "invalid_table"
    both = table.client("organiser").post(url, {}, format="json")
    assert both.json()["errors"][0]["pointer"] == "/game"
    past = table.client("organiser").post(
        url, {"game": first["id"], "expires_at": "2000-01-01T00:00:00Z"}, format="json"
    )
    assert past.json()["errors"][0]["code"] == "invalid_expiry"
    assert TableLink.objects.count() == 0


def test_a_link_scores_its_game_by_token_or_by_code(table):
    first, _ = _games(table)
    body = _make_link(table, game=first["id"])
    client = table_link_client(body["token"])
    game = client.get(f"/api/games/{first['id']}/")
    assert game.status_code == 200 and game.json()["id"] == first["id"]
    posted = client.post(
        f"/api/games/{first['id']}/hands/",
        dict(FIRST_HAND_45, number=1),
        format="json",
        headers={"Idempotency-Key": "k-1"},
    )
    assert posted.status_code == 201, posted.json()
    assert posted.json()["totals"] == {"0": 20, "1": 10}
    assert posted.json()["entered_by"]["username"] == "the-local-organiser"
    by_code = table_link_client(body["code"].lower())
    assert by_code.get(f"/api/games/{first['id']}/hands/").json()["count"] == 1
    state = client.get("/api/table/").json()
    assert state["current_game"] == first["id"]
    assert [game["totals"] for game in state["games"]] == [{"0": 20, "1": 10}]


def test_a_link_is_refused_everywhere_else_and_stores_nothing(table):
    first, second = _games(table)
    body = _make_link(table, game=first["id"])
    client = table_link_client(body["token"])
    before = database_snapshot()
    refusals = [
        client.get(f"/api/games/{second['id']}/"),
        client.post(f"/api/games/{second['id']}/hands/", FIRST_HAND_45, format="json"),
        client.post(f"/api/games/{second['id']}/hands/preview/", FIRST_HAND_45, format="json"),
        client.get(f"/api/games/{first['id']}/ledger/"),
        client.get(f"/api/clubs/{table.club.slug}/"),
        client.get(f"/api/clubs/{table.club.slug}/games/"),
        client.post(f"/api/clubs/{table.club.slug}/table-links/", {"game": first["id"]}),
        client.get("/api/auth/me/"),
        client.get("/api/clubs/"),
    ]
    assert [response.status_code for response in refusals] == [404] * len(refusals)
    assert database_snapshot() == before
    assert TableLink.objects.count() == 1


def test_a_revoked_or_expired_link_opens_nothing(table):
    first, _ = _games(table)
    revoked = _make_link(table, game=first["id"])
    expired = _make_link(table, game=first["id"])
    response = table.client("organiser").delete(
        f"/api/clubs/{table.club.slug}/table-links/{revoked['id']}/"
    )
    assert response.status_code == 200 and response.json()["is_live"] is False
    TableLink.objects.filter(pk=expired["id"]).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    for body in (revoked, expired):
        client = table_link_client(body["token"])
        assert client.get(f"/api/games/{first['id']}/").status_code == 404
        assert (
            client.post(
                f"/api/games/{first['id']}/hands/", FIRST_HAND_45, format="json"
            ).status_code
            == 404
        )
        assert table_link_client(body["code"]).get("/api/table/").status_code == 404
    assert Hand.objects.count() == 0
    assert table_link_client("not-a-token").get(f"/api/games/{first['id']}/").status_code == 404
    # Without a table link, /api/table/ is nobody's.
    assert table.client("organiser").get("/api/table/").status_code == 404


def test_the_preview_answers_as_the_post_and_stores_nothing(table):
    first, _ = _games(table)
    url = f"/api/games/{first['id']}/hands/preview/"
    client = table.client("scorekeeper")
    before = database_snapshot()
    preview = client.post(url, dict(FIRST_HAND_45, number=1), format="json")
    assert preview.status_code == 200, preview.json()
    body = preview.json()
    assert body["points"] == {"0": 20, "1": 10}
    assert body["totals_before"] == {"0": 0, "1": 0}
    assert body["totals"] == {"0": 20, "1": 10}
    assert body["game"] == {
        "status": "in_progress",
        "winner": None,
        "next_dealer": 0,
        "double_stake": False,
        "hands_played": 1,
    }
    assert body["stored"] is False
    wrong = client.post(url, dict(FIRST_HAND_45, trick_winners=[0, 1]), format="json")
    assert wrong.status_code == 400
    assert wrong.json()["errors"][0]["code"] == "wrong_trick_count"
    assert database_snapshot() == before
    posted = table.post_hand(first["id"], dict(FIRST_HAND_45, number=1))
    assert posted.status_code == 201
    conflict = client.post(url, dict(FIRST_HAND_45, number=1), format="json")
    assert conflict.status_code == 409 and conflict.json()["errors"][0]["code"] == "hand_conflict"
    assert (
        client.post(url, FIRST_HAND_45, format="json", headers={"If-Match": '"1-1"'}).status_code
        == 412
    )
    assert table.client("player").post(url, FIRST_HAND_45, format="json").status_code == 403


def test_a_25_preview_says_the_game_ended_mid_hand(table):
    game = table.new_game("25", 2, first_dealer=1)
    client = table.client("scorekeeper")
    url = f"/api/games/{game['id']}/hands/"
    assert (
        table.post_hand(
            game["id"], {"dealer": 1, "trump": "H", "trick_winners": [0, 0, 0, 0, 1]}
        ).status_code
        == 201
    )
    # Seat 0 has 20: one more trick ends the game at the first trick.
    preview = client.post(
        url + "preview/", {"dealer": 0, "trump": "S", "trick_winners": [0]}, format="json"
    )
    assert preview.status_code == 200, preview.json()
    assert preview.json()["game"]["status"] == "finished"
    assert preview.json()["game"]["winner"] == 0


def test_a_correction_preview_lists_the_later_totals_that_change(table):
    first, _ = _games(table)
    client = table.client("scorekeeper")
    table.post_hand(first["id"], FIRST_HAND_45)
    table.post_hand(
        first["id"],
        {
            "dealer": 0,
            "trump": "H",
            "trick_winners": [1, 1, 1, 0, 0],
            "best_trump": {"seat": 1, "trick": 0},
        },
    )
    before = database_snapshot()
    response = client.post(
        f"/api/games/{first['id']}/hands/1/preview/",
        dict(FIRST_HAND_45, trick_winners=[1, 1, 0, 0, 1], best_trump={"seat": 1, "trick": 0}),
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["hands"] == [
        {
            "number": 1,
            "totals_before": {"0": 20, "1": 10},
            "totals_after": {"0": 10, "1": 20},
            "changed": True,
        },
        {
            "number": 2,
            "totals_before": {"0": 30, "1": 30},
            "totals_after": {"0": 20, "1": 40},
            "changed": True,
        },
    ]
    assert database_snapshot() == before


def test_confirm_hands_needs_a_player_of_another_side(table):
    table.club.confirm_hands = True
    table.club.save()
    first, _ = _games(table)
    seats = first["seats"]
    missing = table.post_hand(first["id"], FIRST_HAND_45)
    assert missing.status_code == 400
    assert missing.json()["errors"][0] == {
        "code": "confirmation_required",
        "detail": "This club's hands must be accepted by a player of another side: send "
        "confirmed_by (a player id).",
        "pointer": "/confirmed_by",
    }
    outsider = table.post_hand(first["id"], dict(FIRST_HAND_45, confirmed_by=table.players[6].pk))
    assert outsider.json()["errors"][0]["code"] == "invalid_confirmation"
    # The scorekeeper plays seat 0 (side 0): a player of side 0 may not confirm for them.
    player = table.players[0]
    player.user = table.world.users["scorekeeper"]
    player.save()
    partner = table.post_hand(
        first["id"], dict(FIRST_HAND_45, confirmed_by=seats[2]["player"]["id"])
    )
    assert partner.json()["errors"][0]["code"] == "invalid_confirmation"
    assert Hand.objects.count() == 0
    accepted = table.post_hand(
        first["id"], dict(FIRST_HAND_45, confirmed_by=seats[1]["player"]["id"])
    )
    assert accepted.status_code == 201, accepted.json()
    assert accepted.json()["confirmed_by"] == {"id": seats[1]["player"]["id"], "name": "Bill"}
    assert Hand.objects.get().confirmed_by_id == seats[1]["player"]["id"]
    club = table.client("organiser").get(f"/api/clubs/{table.club.slug}/").json()
    assert club["confirm_hands"] is True


def test_a_tournament_tables_link_follows_the_matchs_games(table):
    from tournaments.services import create_tournament, draw_next_round, progress_match

    organiser = table.world.users["organiser"]
    final = create_tournament(
        club=table.club,
        user=organiser,
        values={"name": "Final", "game": "25", "format": "knockout", "match_games": 3},
        entrants=[{"player": player.pk} for player in table.players[2:4]],
    )
    match_id = draw_next_round(tournament_id=final.pk, user=organiser).matches.get().pk
    elsewhere, _ = _games(table)
    body = _make_link(table, match=match_id)
    assert body["label"] == "Final, round 1, table 1"
    client = table_link_client(body["token"])
    state = client.get("/api/table/").json()
    first = state["current_game"]
    assert [game["id"] for game in state["games"]] == [first]
    assert sorted(state["match"]["score"], key=lambda entry: entry["name"]) == [
        {"name": "Cait", "games_won": 0},
        {"name": "Dan", "games_won": 0},
    ]
    assert client.get(f"/api/games/{elsewhere['id']}/").status_code == 404
    game = client.get(f"/api/games/{first}/").json()
    winner = game["seats"][0]["player"]["name"]
    # Seat 0 takes every trick from zero: 25 in one hand, the game is over.
    hand = {"dealer": game["next_dealer"], "trump": "H", "trick_winners": [0, 0, 0, 0, 0]}
    assert client.post(f"/api/games/{first}/hands/", hand, format="json").status_code == 201
    progress_match(match_id=match_id)  # what the match's task does after the commit
    state = client.get("/api/table/").json()
    assert state["match"]["status"] == "in_progress"
    won = {entry["name"]: entry["games_won"] for entry in state["match"]["score"]}
    assert won == {winner: 1, ({"Cait", "Dan"} - {winner}).pop(): 0}
    assert [game["status"] for game in state["games"]] == ["finished", "in_progress"]
    second = state["current_game"]
    assert second == state["games"][1]["id"] != first
    # The link opens the match's next game, which did not exist when the link was made.
    assert client.get(f"/api/games/{second}/").status_code == 200


SECOND_HAND_45 = {
    "dealer": 0,
    "trump": "H",
    "trick_winners": [1, 1, 0, 0, 1],
    "best_trump": {"seat": 1, "trick": 0},
}


def test_hands_and_their_changes_name_the_table_link_they_came_through(table):
    first, _ = _games(table)
    body = _make_link(table, game=first["id"])
    link = table_link_client(body["token"])
    organiser = table.client("organiser")
    hands_url = f"/api/games/{first['id']}/hands/"
    recorded = link.post(
        hands_url, dict(FIRST_HAND_45, number=1), format="json", headers={"Idempotency-Key": "a"}
    )
    assert recorded.status_code == 201 and recorded.json()["table_link"] == body["id"]
    by_hand = organiser.post(
        hands_url, dict(SECOND_HAND_45, number=2), format="json", headers={"Idempotency-Key": "b"}
    )
    assert by_hand.status_code == 201 and by_hand.json()["table_link"] is None
    assert Hand.objects.get(game_id=first["id"], number=1).table_link_id == body["id"]
    assert Hand.objects.get(game_id=first["id"], number=2).table_link_id is None

    etag = link.get(f"/api/games/{first['id']}/").headers["ETag"]
    corrected = link.put(
        f"{hands_url}1/",
        dict(FIRST_HAND_45, trick_winners=[0, 1, 1, 0, 1]),
        format="json",
        headers={"If-Match": etag},
    )
    assert corrected.status_code == 200, corrected.json()
    etag = link.get(f"/api/games/{first['id']}/").headers["ETag"]
    undone = link.delete(f"{hands_url}2/", headers={"If-Match": etag})
    assert undone.status_code == 200, undone.json()

    history = organiser.get(f"/api/games/{first['id']}/history/").json()
    entries = history["results"] if isinstance(history, dict) else history
    hand_changes = [
        (entry["hand"], entry["reason"], entry["table_link"])
        for entry in entries
        if entry["object"] == "hand"
    ]
    assert hand_changes == [
        (1, "hand 1 recorded", body["id"]),
        (2, "hand 2 recorded", None),
        (1, "hand 1 corrected", body["id"]),
        (2, "recomputed after a correction of hand 1", body["id"]),
        (2, "hand 2 undone", body["id"]),
    ]
    browser = logged_in_client(table.world.users["organiser"])
    page = browser.get(f"/clubs/{table.club.slug}/games/{first['id']}/").content.decode()
    # Hand 1 came through the link; the undone hand 2 was recorded by the organiser, not at it.
    assert page.count(f"Recorded at the table via table link #{body['id']}") == 1
    assert f"Corrected by the-local-organiser at the table via table link #{body['id']}" in page
    assert f"Undone by the-local-organiser at the table via table link #{body['id']}" in page


def test_guessing_table_links_through_the_api_is_limited_with_the_pages(
    table, settings, monkeypatch
):
    settings.TABLE_CODE_GUESSES = 2
    settings.TABLE_CODE_WINDOW_SECONDS = 600
    clock = [1_800_000_000.0 + 30]  # 30 s into a window
    monkeypatch.setattr("table_links.guessing.time.time", lambda: clock[0])
    first, _ = _games(table)
    body = _make_link(table, game=first["id"])

    def as_guesser(credential):
        client = APIClient(REMOTE_ADDR="203.0.113.7")
        client.credentials(HTTP_AUTHORIZATION=f"Table {credential}")
        return client

    # One wrong link through the API, one wrong code typed on the page: the same allowance.
    assert as_guesser("not-a-token").get(f"/api/games/{first['id']}/").status_code == 404
    assert as_guesser(body["token"]).get(f"/api/games/{first['id']}/").status_code == 200
    assert Client(REMOTE_ADDR="203.0.113.7").get("/t/", {"code": "0000000000"}).status_code == 200
    before = database_snapshot()
    for refused in (
        as_guesser("another-guess").get("/api/table/"),
        as_guesser(body["token"]).get(f"/api/games/{first['id']}/"),
        as_guesser(body["token"]).post(
            f"/api/games/{first['id']}/hands/", dict(FIRST_HAND_45, number=1), format="json"
        ),
    ):
        assert refused.status_code == 429
        assert refused["Retry-After"] == "570"
        assert refused["Content-Type"] == "application/problem+json"
        assert refused.json()["status"] == 429
    assert database_snapshot() == before
    # Another address, and a session login, are not limited.
    other = APIClient(REMOTE_ADDR="198.51.100.2")
    other.credentials(HTTP_AUTHORIZATION=f"Table {body['token']}")
    assert other.get(f"/api/games/{first['id']}/").status_code == 200
    assert table.client("organiser").get(f"/api/games/{first['id']}/").status_code == 200
    # The next window: the link works again from the guesser's address.
    clock[0] += 570
    assert as_guesser(body["token"]).get(f"/api/games/{first['id']}/").status_code == 200
