"""Correcting and undoing hands: recomputed totals, changed winners, reopened games, the ledger,
the history, and the If-Match rules (428 without, 412 when stale)."""

from __future__ import annotations

import pytest

from games.models import LedgerEntry
from tests.games.helpers_db import database_snapshot


def put_hand(table, game_id, number, record, etag=None, role="scorekeeper", query=""):
    headers = {} if etag is None else {"If-Match": etag}
    return table.client(role).put(
        f"/api/games/{game_id}/hands/{number}/{query}", record, format="json", headers=headers
    )


def delete_hand(table, game_id, number, etag=None, role="scorekeeper"):
    headers = {} if etag is None else {"If-Match": etag}
    return table.client(role).delete(f"/api/games/{game_id}/hands/{number}/", headers=headers)


def etag_of(table, game_id):
    return table.client().get(f"/api/games/{game_id}/")["ETag"]


def ledger_net(table, game_id):
    return table.client().get(f"/api/games/{game_id}/ledger/").json()["net"]


@pytest.fixture
def three_players(table):
    """25 for three players, two hands in: totals 15, 20, 15; seat 2 deals next."""
    game = table.new_game("25", 3, first_dealer=0, stake="0.10")
    for record in (
        {"dealer": 0, "trump": "S", "trick_winners": [0, 1, 2, 0, 1]},
        {"dealer": 1, "trump": "H", "trick_winners": [2, 0, 1, 2, 1]},
    ):
        assert table.post_hand(game["id"], record).status_code == 201
    return game


@pytest.fixture
def finished_pairs(table):
    """25, 2 v 2 at 0.20 a head: side 0 wins in the second hand's fourth trick."""
    game = table.new_game("25", 4, teams=[[0, 2], [1, 3]], first_dealer=3, stake="0.20")
    for record in (
        {"dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]},
        {"dealer": 0, "trump": "H", "trick_winners": [1, 3, 0, 2]},
    ):
        assert table.post_hand(game["id"], record).status_code == 201
    return game


@pytest.mark.django_db
def test_correcting_an_early_hand_recomputes_every_later_total(table, three_players):
    game_id = three_players["id"]
    etag = etag_of(table, game_id)
    response = put_hand(
        table, game_id, 1, {"dealer": 0, "trump": "S", "trick_winners": [2, 2, 0, 0, 1]}, etag
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["number"] == 1
    assert body["points"] == {"0": 10, "1": 5, "2": 10}
    assert body["totals"] == {"0": 10, "1": 5, "2": 10}
    assert body["outcome"] == {
        "status_before": "in_progress",
        "status_after": "in_progress",
        "winner_before": None,
        "winner_after": None,
        "winner_changed": False,
        "reopened": False,
        "finished": False,
        "ledger_rebooked": False,
        "recomputed_hands": [2],
    }
    assert response["ETag"] != etag
    hands = table.client().get(f"/api/games/{game_id}/hands/").json()["results"]
    assert [hand["totals"] for hand in hands] == [
        {"0": 10, "1": 5, "2": 10},
        {"0": 15, "1": 15, "2": 20},
    ]
    # Hand 2's record is untouched; only what follows from hand 1 changed.
    assert hands[1]["record"] == {"dealer": 1, "trump": "H", "trick_winners": [2, 0, 1, 2, 1]}
    assert hands[1]["points"] == {"0": 5, "1": 10, "2": 10}
    game = table.client().get(f"/api/games/{game_id}/").json()
    assert (game["status"], game["totals"]) == ("in_progress", {"0": 15, "1": 15, "2": 20})


@pytest.mark.django_db
def test_a_correction_can_finish_the_game(table, three_players):
    game_id = three_players["id"]
    # Seat 1 now has 15 after hand 1 and reaches 25 with hand 2's last trick.
    response = put_hand(
        table,
        game_id,
        1,
        {"dealer": 0, "trump": "S", "trick_winners": [1, 1, 1, 0, 2]},
        etag_of(table, game_id),
    )
    assert response.status_code == 200, response.json()
    outcome = response.json()["outcome"]
    assert (outcome["finished"], outcome["winner_after"], outcome["ledger_rebooked"]) == (
        True,
        1,
        True,
    )
    assert outcome["recomputed_hands"] == [2]
    seats = table.player_ids(3)
    assert ledger_net(table, game_id) == {
        str(seats[0]): "-0.10",
        str(seats[1]): "0.20",
        str(seats[2]): "-0.10",
    }


@pytest.mark.django_db
def test_a_correction_that_breaks_a_later_hand_is_refused_and_stores_nothing(table, three_players):
    game_id = three_players["id"]
    etag = etag_of(table, game_id)
    before = database_snapshot()
    # Seat 1 would have 20 after hand 1 and reach 25 in hand 2's third trick: hand 2's five
    # tricks are then too many.
    response = put_hand(
        table, game_id, 1, {"dealer": 0, "trump": "S", "trick_winners": [1, 1, 1, 1, 2]}, etag
    )
    assert response.status_code == 409
    problem = response.json()
    assert problem["code"] == "later_hand_invalid"
    assert problem["errors"][0]["code"] == "wrong_trick_count"
    assert problem["errors"][0]["pointer"] == "/hands/2/trick_winners"
    # A misdeal keeps the same dealer, so hand 2's dealer would be out of turn.
    response = put_hand(table, game_id, 1, {"dealer": 0, "misdeal": True}, etag)
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "wrong_dealer"
    assert database_snapshot() == before


@pytest.mark.django_db
def test_a_correction_that_changes_the_winner_says_so_and_rebooks_the_stake(table, finished_pairs):
    game_id = finished_pairs["id"]
    seats = table.player_ids(4)
    assert ledger_net(table, game_id) == {
        str(seats[0]): "0.20",
        str(seats[1]): "-0.20",
        str(seats[2]): "0.20",
        str(seats[3]): "-0.20",
    }
    etag = etag_of(table, game_id)
    response = put_hand(
        table, game_id, 2, {"dealer": 0, "trump": "H", "trick_winners": [1, 3, 1]}, etag
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["totals"] == {"0": 15, "1": 25}
    assert body["outcome"]["winner_changed"] is True
    assert (body["outcome"]["winner_before"], body["outcome"]["winner_after"]) == (0, 1)
    assert body["outcome"]["ledger_rebooked"] is True
    assert body["game"] == {
        "status": "finished",
        "winner": 1,
        "next_dealer": 1,
        "double_stake": False,
        "hands_played": 2,
    }
    assert ledger_net(table, game_id) == {
        str(seats[0]): "-0.20",
        str(seats[1]): "0.20",
        str(seats[2]): "-0.20",
        str(seats[3]): "0.20",
    }
    entries = table.client().get(f"/api/games/{game_id}/ledger/").json()["entries"]
    assert [(entry["booking"], entry["reason"], entry["amount"]) for entry in entries] == [
        (1, "stake", "0.20"),
        (1, "stake", "-0.20"),
        (1, "stake", "0.20"),
        (1, "stake", "-0.20"),
        (2, "reversal", "-0.20"),
        (2, "reversal", "0.20"),
        (2, "reversal", "-0.20"),
        (2, "reversal", "0.20"),
        (2, "stake", "-0.20"),
        (2, "stake", "0.20"),
        (2, "stake", "-0.20"),
        (2, "stake", "0.20"),
    ]
    assert sum(LedgerEntry.objects.values_list("amount_minor", flat=True)) == 0
    balances = table.client().get(f"/api/clubs/{table.club.slug}/balances/").json()
    assert {entry["player"]["id"]: entry["net"] for entry in balances["balances"]} == {
        seats[0]: "-0.20",
        seats[1]: "0.20",
        seats[2]: "-0.20",
        seats[3]: "0.20",
    }
    assert balances["transfers"] == [
        {
            "payer": {"id": seats[0], "name": "Ann"},
            "payee": {"id": seats[1], "name": "Bill"},
            "amount": "0.20",
        },
        {
            "payer": {"id": seats[2], "name": "Cait"},
            "payee": {"id": seats[3], "name": "Dan"},
            "amount": "0.20",
        },
    ]


@pytest.mark.django_db
def test_a_correction_that_reopens_the_game_says_so_and_reverses_the_stake(table, finished_pairs):
    game_id = finished_pairs["id"]
    response = put_hand(table, game_id, 2, {"dealer": 0, "misdeal": True}, etag_of(table, game_id))
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["kind"] == "misdeal"
    assert body["outcome"]["reopened"] is True
    assert body["outcome"]["winner_changed"] is True
    assert body["outcome"]["winner_after"] is None
    assert body["game"]["status"] == "in_progress"
    assert body["game"]["next_dealer"] == 0  # a misdeal: the same dealer deals again
    assert set(ledger_net(table, game_id).values()) == {"0.00"}
    # The game takes hands again.
    response = table.post_hand(
        game_id, {"number": 3, "dealer": 0, "trump": "D", "trick_winners": [1, 1, 0, 3]}
    )
    assert response.status_code == 201
    assert response.json()["totals"] == {"0": 20, "1": 25}
    assert response.json()["game"]["winner"] == 1
    seats = table.player_ids(4)
    assert ledger_net(table, game_id) == {
        str(seats[0]): "-0.20",
        str(seats[1]): "0.20",
        str(seats[2]): "-0.20",
        str(seats[3]): "0.20",
    }


@pytest.mark.django_db
def test_if_match_is_required_and_must_be_current(table, three_players):
    game_id = three_players["id"]
    record = {"dealer": 0, "trump": "S", "trick_winners": [2, 2, 0, 0, 1]}
    stale = etag_of(table, game_id)
    # Another tablet records a hand: the first tablet's ETag is now stale.
    assert table.post_hand(game_id, {"dealer": 2, "misdeal": True}).status_code == 201
    before = database_snapshot()
    missing = put_hand(table, game_id, 1, record)
    assert (missing.status_code, missing.json()["code"]) == (428, "precondition_required")
    response = put_hand(table, game_id, 1, record, stale)
    assert (response.status_code, response.json()["code"]) == (412, "precondition_failed")
    response = delete_hand(table, game_id, 3, stale)
    assert (response.status_code, response.json()["code"]) == (412, "precondition_failed")
    response = delete_hand(table, game_id, 3)
    assert (response.status_code, response.json()["code"]) == (428, "precondition_required")
    weak = put_hand(table, game_id, 1, record, "W/" + etag_of(table, game_id))
    assert weak.status_code == 412  # If-Match compares strongly: a weak tag never matches
    assert database_snapshot() == before
    # With the current ETag (or one of a list containing it) the correction goes through.
    current = etag_of(table, game_id)
    response = put_hand(table, game_id, 1, record, f'"0-0", {current}')
    assert response.status_code == 200


@pytest.mark.django_db
def test_recording_a_hand_with_a_stale_if_match_is_refused(table, three_players):
    game_id = three_players["id"]
    stale = etag_of(table, game_id)
    assert table.post_hand(game_id, {"dealer": 2, "misdeal": True}).status_code == 201
    before = database_snapshot()
    response = table.post_hand(game_id, {"dealer": 2, "misdeal": True}, **{"If-Match": stale})
    assert (response.status_code, response.json()["code"]) == (412, "precondition_failed")
    assert database_snapshot() == before
    current = etag_of(table, game_id)
    response = table.post_hand(game_id, {"dealer": 2, "misdeal": True}, **{"If-Match": current})
    assert (response.status_code, response.json()["number"]) == (201, 4)


@pytest.mark.django_db
@pytest.mark.parametrize("number", [2, True, 1.0, "1", None])
def test_a_correction_naming_another_number_than_its_url_is_refused(table, three_players, number):
    game_id = three_players["id"]
    record = {"number": number, "dealer": 0, "trump": "S", "trick_winners": [2, 2, 0, 0, 1]}
    before = database_snapshot()
    response = put_hand(table, game_id, 1, record, etag_of(table, game_id))
    assert (response.status_code, response.json()["errors"][0]["pointer"]) == (400, "/number")
    assert response.json()["code"] == "invalid_record"
    assert database_snapshot() == before
    # The same number as the URL is accepted (and not stored in the record).
    response = put_hand(table, game_id, 1, {**record, "number": 1}, etag_of(table, game_id))
    assert response.status_code == 200
    assert response.json()["record"] == {
        "dealer": 0,
        "trump": "S",
        "trick_winners": [2, 2, 0, 0, 1],
    }


@pytest.mark.django_db
def test_conditional_get_of_a_game(table, three_players):
    game_id = three_players["id"]
    response = table.client().get(f"/api/games/{game_id}/")
    etag = response["ETag"]
    assert etag == f'"{game_id}-3"'
    cached = table.client().get(f"/api/games/{game_id}/", headers={"If-None-Match": etag})
    assert cached.status_code == 304
    assert cached["ETag"] == etag
    assert table.client().get(f"/api/games/{game_id}/hands/")["ETag"] == etag
    assert table.client().get(f"/api/games/{game_id}/hands/2/")["ETag"] == etag


@pytest.mark.django_db
def test_undo_the_last_hand(table, three_players):
    game_id = three_players["id"]
    before_hand_2 = table.client().get(f"/api/games/{game_id}/hands/1/").json()
    response = delete_hand(table, game_id, 1, etag_of(table, game_id))
    assert (response.status_code, response.json()["code"]) == (409, "not_last_hand")
    response = delete_hand(table, game_id, 7, etag_of(table, game_id))
    assert response.status_code == 404
    response = delete_hand(table, game_id, 2, etag_of(table, game_id))
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["undone"]["number"] == 2
    assert body["totals"] == before_hand_2["totals"] == {"0": 10, "1": 10, "2": 5}
    assert body["game"]["next_dealer"] == 1
    assert body["game"]["hands_played"] == 1
    assert table.client().get(f"/api/games/{game_id}/hands/2/").status_code == 404
    # Hand 2 may be recorded again, differently.
    again = table.post_hand(
        game_id, {"number": 2, "dealer": 1, "trump": "D", "trick_winners": [0, 2, 1, 2, 0]}
    )
    assert again.status_code == 201
    assert again.json()["totals"] == {"0": 20, "1": 15, "2": 15}
    # Undo back to the start.
    for number in (2, 1):
        assert delete_hand(table, game_id, number, etag_of(table, game_id)).status_code == 200
    game = table.client().get(f"/api/games/{game_id}/").json()
    assert (game["totals"], game["next_dealer"], game["hands_played"], game["status"]) == (
        {"0": 0, "1": 0, "2": 0},
        0,
        0,
        "in_progress",
    )
    response = delete_hand(table, game_id, 1, etag_of(table, game_id))
    assert response.status_code == 404


@pytest.mark.django_db
def test_undoing_the_winning_hand_reopens_the_game_and_reverses_the_stake(table, finished_pairs):
    game_id = finished_pairs["id"]
    response = delete_hand(table, game_id, 2, etag_of(table, game_id))
    assert response.status_code == 200
    outcome = response.json()["outcome"]
    assert (outcome["reopened"], outcome["winner_changed"], outcome["ledger_rebooked"]) == (
        True,
        True,
        True,
    )
    assert set(ledger_net(table, game_id).values()) == {"0.00"}
    assert sum(LedgerEntry.objects.values_list("amount_minor", flat=True)) == 0


@pytest.mark.django_db
def test_players_may_not_correct_or_undo(table, three_players):
    game_id = three_players["id"]
    etag = etag_of(table, game_id)
    record = {"dealer": 0, "trump": "S", "trick_winners": [2, 2, 0, 0, 1]}
    before = database_snapshot()
    assert put_hand(table, game_id, 1, record, etag, role="player").status_code == 403
    assert delete_hand(table, game_id, 2, etag, role="player").status_code == 403
    assert put_hand(table, game_id, 1, record, etag, role="outsider").status_code == 404
    assert database_snapshot() == before
    assert put_hand(table, game_id, 1, record, etag, role="organiser").status_code == 200


@pytest.mark.django_db
def test_history_keeps_who_did_what_before_and_after(table, three_players):
    game_id = three_players["id"]
    put_hand(
        table,
        game_id,
        1,
        {"dealer": 0, "trump": "S", "trick_winners": [2, 2, 0, 0, 1]},
        etag_of(table, game_id),
        role="organiser",
    )
    delete_hand(table, game_id, 2, etag_of(table, game_id))
    history = table.client("player").get(f"/api/games/{game_id}/history/").json()["results"]
    reasons = [
        (entry["object"], entry["hand"], entry["action"], entry["reason"]) for entry in history
    ]
    assert reasons == [
        ("game", None, "created", "game created"),
        ("hand", 1, "created", "hand 1 recorded"),
        ("game", None, "changed", "hand 1 recorded"),
        ("hand", 2, "created", "hand 2 recorded"),
        ("game", None, "changed", "hand 2 recorded"),
        ("hand", 1, "changed", "hand 1 corrected"),
        ("hand", 2, "changed", "recomputed after a correction of hand 1"),
        ("game", None, "changed", "hand 1 corrected"),
        ("hand", 2, "deleted", "hand 2 undone"),
        ("game", None, "changed", "hand 2 undone"),
    ]
    correction = history[5]
    assert correction["by"]["username"] == "the-local-organiser"
    assert {
        "field": "record",
        "before": {"dealer": 0, "trump": "S", "trick_winners": [0, 1, 2, 0, 1]},
        "after": {"dealer": 0, "trump": "S", "trick_winners": [2, 2, 0, 0, 1]},
    } in (correction["changes"])
    assert {"field": "totals_after", "before": [10, 10, 5], "after": [10, 5, 10]} in (
        correction["changes"]
    )
    undo = history[9]
    assert {"field": "hands_played", "before": 2, "after": 1} in undo["changes"]
    assert history[0]["by"]["username"] == "the-local-scorekeeper"
