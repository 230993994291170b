"""Lenient input is refused or normalised by one rule each, never stored as something else.

What it proves: a stake or entry fee written "1e5", "1_000", "+1" or " NaN" is a 400 naming the
field (games and tournaments alike) and nothing is created; a house-rules target of 10**30 or
1001 is a 400 ``invalid_house_rule`` at "/house_rules/target"; a card-by-card hand written in
lower case, with "t" for ten and suit symbols, is accepted and stored in canonical spelling (the
one rule: accept every spelling rules.md lists, store the canonical text), and its correction too.

What it does not do: list every spelling (tests/rules_engine/test_cards.py does).
"""

from __future__ import annotations

import pytest

from games.models import Game, Hand
from tournaments.models import Tournament

PLAIN_TRICKS = [
    ["KH", "QH", "JH", "10H"],
    ["KD", "QD", "JD", "10D"],
    ["9H", "8H", "7H", "6H"],
    ["9D", "8D", "7D", "6D"],
    ["5H", "4H", "3H", "2H"],
]
LOWER_TRICKS = [
    ["kh", "qh", "jh", "th"],
    ["kd", "qd", "jd", "10d"],
    ["9♥", "8♥", "7♥", "6♥"],
    ["9d", "8d", "7d", "6d"],
    ["5h", "4h", "3h", "2h"],
]


@pytest.mark.parametrize("stake", ["1e5", "1E+2", "1_000", "+1", "NaN", ".5", "1,00"])
def test_a_stake_that_is_not_plain_digits_is_refused(table, stake):
    response = table.client().post(
        f"/api/clubs/{table.club.slug}/games/",
        {"game": "25", "seats": table.player_ids(4), "stake": stake},
        format="json",
    )
    assert response.status_code == 400, response.json()
    assert response.json()["errors"][0]["pointer"] == "/stake"
    assert not Game.objects.exists()


@pytest.mark.parametrize("field", ["stake", "entry_fee"])
def test_tournament_money_follows_the_same_rule(table, field):
    response = table.client("organiser").post(
        f"/api/clubs/{table.club.slug}/tournaments/",
        {"name": "Cup", "game": "25", "format": "knockout", field: "1_000"},
        format="json",
    )
    assert response.status_code == 400, response.json()
    assert [error["pointer"] for error in response.json()["errors"]] == [f"/{field}"]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("target", [10**30, 1001, 0])
def test_a_target_the_games_cannot_reach_is_refused(table, target):
    response = table.client().post(
        f"/api/clubs/{table.club.slug}/games/",
        {"game": "25", "seats": table.player_ids(4), "house_rules": {"target": target}},
        format="json",
    )
    assert response.status_code == 400, response.json()
    body = response.json()
    assert body["code"] == "invalid_house_rule"
    assert body["errors"][0]["pointer"] == "/house_rules/target"
    assert not Game.objects.exists()


def test_lower_case_cards_are_accepted_and_stored_canonical(table):
    game = table.new_game("25", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    response = table.post_hand(game["id"], {"dealer": 3, "turn_up": "2s", "tricks": LOWER_TRICKS})
    assert response.status_code == 201, response.json()
    hand = Hand.objects.get(game_id=game["id"], number=1)
    assert hand.record == {"dealer": 3, "turn_up": "2S", "tricks": PLAIN_TRICKS}

    etag = response["ETag"]
    corrected = table.client().put(
        f"/api/games/{game['id']}/hands/1/",
        {"dealer": 3, "turn_up": "3♠", "tricks": LOWER_TRICKS},
        format="json",
        headers={"If-Match": etag},
    )
    assert corrected.status_code == 200, corrected.json()
    hand.refresh_from_db()
    assert hand.record == {"dealer": 3, "turn_up": "3S", "tricks": PLAIN_TRICKS}


def test_trick_winner_trump_is_stored_canonical(table):
    game = table.new_game("25", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    response = table.post_hand(
        game["id"], {"dealer": 3, "trump": "♠", "trick_winners": [0, 1, 0, 1, 0]}
    )
    assert response.status_code == 201, response.json()
    assert Hand.objects.get(game_id=game["id"]).record["trump"] == "S"
