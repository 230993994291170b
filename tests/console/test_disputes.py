"""A disputed table: flagged through the API (scorers) or the board, shown on the live board with
its note, resolved by an organiser; both ends are in the audit trail with who and when."""

from __future__ import annotations

import pytest

from tests.helpers import logged_in_client
from tests.tournaments.play_helpers import build_event
from tournaments.models import AuditEntry, Match

pytestmark = pytest.mark.django_db


def _round(public_draw: bool = True):
    event = build_event(players=0, teams=4)
    tournament = event.create_tournament(
        name="Drive",
        game="45",
        format="drive",
        entrant_kind="team",
        table_size=2,
        round_count=3,
        private_draws=not public_draw,
        entrants=[{"team": team.pk} for team in event.teams[:4]],
    )
    event.draw(tournament["id"])
    match = Match.objects.filter(tournament_id=tournament["id"]).order_by("table").first()
    return event, tournament, match


def test_a_scorekeeper_flags_a_table_and_an_organiser_resolves_it():
    event, tournament, match = _round()
    url = f"/api/matches/{match.pk}/dispute/"
    flagged = event.ok("post", url, {"note": "Renege claimed in hand 3"}, role="scorekeeper")
    assert (flagged["disputed"], flagged["note"], flagged["disputed_by"]) == (
        True,
        "Renege claimed in hand 3",
        event.world.users["scorekeeper"].username,
    )
    assert event.ok("get", url, role="player")["disputed"] is True
    assert event.call("delete", url, role="scorekeeper").status_code == 403
    resolved = event.ok("delete", url, {"resolution": "No renege: hand stands"})
    assert (resolved["disputed"], resolved["note"]) == (False, "")
    entries = list(
        AuditEntry.objects.filter(match=match).order_by("id").values_list("kind", "user", "details")
    )
    users = event.world.users
    assert entries == [
        (
            "dispute_flagged",
            users["scorekeeper"].pk,
            {"round": 1, "table": match.table, "note": "Renege claimed in hand 3"},
        ),
        (
            "dispute_resolved",
            users["organiser"].pk,
            {
                "round": 1,
                "table": match.table,
                "note": "Renege claimed in hand 3",
                "resolution": "No renege: hand stands",
            },
        ),
    ]
    # resolving again changes nothing and writes nothing
    assert event.ok("delete", url)["disputed"] is False
    assert AuditEntry.objects.filter(match=match).count() == 2


def test_a_dispute_needs_a_short_note():
    event, _, match = _round()
    url = f"/api/matches/{match.pk}/dispute/"
    empty = event.call("post", url, {"note": ""}, role="scorekeeper")
    assert empty.status_code == 400
    long = event.call("post", url, {"note": "x" * 201}, role="scorekeeper")
    assert long.status_code == 400
    assert [error["pointer"] for error in long.json()["errors"]] == ["/note"]
    unknown = event.call("post", url, {"note": "Renege", "notes": []}, role="scorekeeper")
    assert unknown.status_code == 400
    assert [(error["code"], error["pointer"]) for error in unknown.json()["errors"]] == [
        ("unknown_field", "/notes")
    ]
    match.refresh_from_db()
    assert match.disputed_at is None
    event.ok("post", url, {"note": "Renege"}, role="scorekeeper")
    refused = event.call("delete", url, {"resolution": "Stands", "why": "x"})
    assert [(error["code"], error["pointer"]) for error in refused.json()["errors"]] == [
        ("unknown_field", "/why")
    ]
    assert refused.status_code == 400
    match.refresh_from_db()
    assert match.disputed_at is not None  # still disputed: nothing resolved


def test_a_private_draw_hides_its_tables_dispute_from_the_scorekeeper():
    event, _, match = _round(public_draw=False)
    url = f"/api/matches/{match.pk}/dispute/"
    assert event.call("post", url, {"note": "x"}, role="scorekeeper").status_code == 404
    assert event.ok("post", url, {"note": "Seats mixed up"})["disputed"] is True


def test_the_board_shows_the_dispute_and_resolves_it():
    event, tournament, match = _round()
    client = logged_in_client(event.world.users["organiser"])
    url = f"/clubs/{event.club.slug}/console/events/{tournament['id']}/board/"
    refused = client.post(
        url, {"action": "dispute", "round": "1", "match": str(match.pk), "note": "  "}
    )
    assert refused.status_code == 400
    assert "Say in a few words what is disputed." in refused.content.decode()
    flagged = client.post(
        url, {"action": "dispute", "round": "1", "match": str(match.pk), "note": "Score sheet lost"}
    )
    assert flagged.status_code == 302
    page = client.get(url + "?round=1").content.decode()
    assert f'id="board-table-{match.table}" data-state="disputed"' in page
    assert "Score sheet lost" in page
    assert 'name="action" value="resolve"' in page
    resolved = client.post(
        url, {"action": "resolve", "round": "1", "match": str(match.pk), "resolution": "Re-counted"}
    )
    assert resolved.status_code == 302
    match.refresh_from_db()
    assert (match.disputed_at, match.dispute_note) == (None, "")
    page = client.get(url + "?round=1").content.decode()
    name = event.world.users["organiser"].username
    assert f"Dispute resolved by {name}" in page and "Re-counted" in page
