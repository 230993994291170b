"""The paper score through the hands API: recorded like any hand (201, ledger, history,
idempotency), refused with the engine's pointer (422), corrected with PUT and undone."""

from __future__ import annotations

import pytest

from games.models import LedgerEntry


@pytest.fixture
def pairs(table):
    """45, 2 v 2 at 0.20 a head; seat 1 deals first."""
    return table.new_game("45", 4, teams=[[0, 2], [1, 3]], first_dealer=1, stake="0.20")


@pytest.mark.django_db
def test_a_paper_score_is_a_hand_that_ends_the_game_and_books_the_stake(table, pairs):
    response = table.client("scorekeeper").post(
        f"/api/games/{pairs['id']}/hands/",
        {"dealer": 1, "paper_score": [30, 45]},
        format="json",
        headers={"Idempotency-Key": "paper-1"},
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["kind"], body["points"], body["trick_winners"], body["totals"]) == (
        "paper",
        {"0": 30, "1": 45},
        [],
        {"0": 30, "1": 45},
    )
    assert body["game"]["status"] == "finished" and body["game"]["winner"] == 1
    assert body["record"] == {"dealer": 1, "paper_score": [30, 45]}
    again = table.client("scorekeeper").post(
        f"/api/games/{pairs['id']}/hands/",
        {"dealer": 1, "paper_score": [30, 45]},
        format="json",
        headers={"Idempotency-Key": "paper-1"},
    )
    assert again.status_code == 201 and again.json() == body  # replayed, not doubled
    amounts = sorted(
        LedgerEntry.objects.filter(game_id=pairs["id"]).values_list("amount_minor", flat=True)
    )
    assert amounts == [-20, -20, 20, 20]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("record", "code", "pointer"),
    [
        ({"dealer": 1, "paper_score": [45, 32]}, "invalid_record", "/paper_score/1"),
        ({"dealer": 1, "paper_score": [40, 30]}, "invalid_record", "/paper_score"),
        ({"dealer": 1, "paper_score": [45]}, "invalid_record", "/paper_score"),
        ({"dealer": 2, "paper_score": [45, 30]}, "wrong_dealer", "/dealer"),
        ({"dealer": 1, "paper_score": [45, 30], "trump": "S"}, "invalid_record", "/trump"),
    ],
)
def test_an_impossible_paper_score_is_refused_with_its_pointer(table, pairs, record, code, pointer):
    response = table.post_hand(pairs["id"], record)
    assert response.status_code == 400, response.json()
    problem = response.json()
    assert (problem["code"], [error["pointer"] for error in problem["errors"]]) == (code, [pointer])
    assert table.client().get(f"/api/games/{pairs['id']}/").json()["hands_played"] == 0


@pytest.mark.django_db
def test_a_played_hand_is_corrected_into_a_paper_score_and_undone(table, pairs):
    game_id = pairs["id"]
    first = {
        "dealer": 1,
        "trump": "S",
        "trick_winners": [0, 0, 1, 2, 3],
        "best_trump": {"seat": 0, "trick": 0},
    }
    assert table.post_hand(game_id, first).status_code == 201
    etag = table.client().get(f"/api/games/{game_id}/")["ETag"]
    response = table.client("scorekeeper").put(
        f"/api/games/{game_id}/hands/1/",
        {"dealer": 1, "paper_score": [50, 20]},
        format="json",
        headers={"If-Match": etag},
    )
    assert response.status_code == 200, response.json()
    assert response.json()["kind"] == "paper"
    game = table.client().get(f"/api/games/{game_id}/").json()
    assert (game["status"], game["winner"], game["totals"]) == ("finished", 0, {"0": 50, "1": 20})
    etag = table.client().get(f"/api/games/{game_id}/")["ETag"]
    undone = table.client("scorekeeper").delete(
        f"/api/games/{game_id}/hands/1/", headers={"If-Match": etag}
    )
    assert undone.status_code == 200, undone.json()
    assert (undone.json()["undone"]["number"], undone.json()["undone"]["kind"]) == (1, "paper")
    game = table.client().get(f"/api/games/{game_id}/").json()
    assert (game["status"], game["hands_played"]) == ("in_progress", 0)
