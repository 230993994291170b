"""The fast builder of a recorded hand (``games.representations.recorded_hand``) writes exactly
what its serializer (``games.representations.HandWithGameOutput``) renders: the same keys in
the same order and the same values, compared as JSON text.

Over every whole game of tests/games/test_api_whole_games.py (25 in teams and for themselves, 45,
110, Auction 45; trick-winner and card-by-card entries; stakes on and off; in play and finished),
plus a misdeal, a renege corrected away in a game with a club team and a stake, and hands with
who scored, accepted and entered them set (or not). Each POST's body is compared too, so the view
really answers with the builder's shape.
"""

from __future__ import annotations

import json

import pytest

from games import representations, selectors
from games.models import Game, Hand
from games.representations import HandWithGameOutput
from tests.clubs.factories import make_team
from tests.games.test_api_whole_games import WHOLE_GAMES, record_for


def as_text(data) -> str:
    """JSON text as the renderer writes it (key order kept)."""
    return json.dumps(data, cls=json.JSONEncoder, ensure_ascii=False)


def assert_builder_equals_serializer(game_id: int) -> int:
    """Every stored hand of the game, built both ways; returns how many were compared."""
    game = selectors.get_game(game_id=game_id)
    hands = list(selectors.list_hands(game=game))
    for hand in hands:
        built = representations.recorded_hand(hand, game)
        rendered = HandWithGameOutput(hand, context={"game": game}).data
        assert as_text(built) == as_text(rendered)
        assert list(built) == list(rendered)
    return len(hands)


def post_and_compare(table, game_id: int, record: dict) -> dict:
    response = table.post_hand(game_id, record)
    assert response.status_code == 201, response.json()
    body = response.json()
    hand = selectors.get_hand(game=Game.objects.get(pk=game_id), number=body["number"])
    game = selectors.get_game(game_id=game_id)
    rendered = HandWithGameOutput(hand, context={"game": game}).data
    assert list(body) == list(rendered)
    assert body == json.loads(as_text(rendered))
    return body


@pytest.mark.django_db
@pytest.mark.parametrize("entry", ["trick_winners", "cards"])
@pytest.mark.parametrize("stake", [None, "0.30"])
@pytest.mark.parametrize("name", list(WHOLE_GAMES))
def test_recorded_hands_of_whole_games(table, name, stake, entry):
    whole = WHOLE_GAMES[name]
    body = {"first_dealer": whole.first_dealer}
    if stake is not None:
        body["stake"] = stake
    if whole.teams is not None:
        body["teams"] = whole.teams
    game = table.new_game(whole.game, whole.seats, **body)
    for plan in whole.plans:
        post_and_compare(table, game["id"], record_for(whole, plan, entry))
    assert Game.objects.get(pk=game["id"]).status == "finished"
    assert assert_builder_equals_serializer(game["id"]) == len(whole.plans)


@pytest.mark.django_db
def test_irregular_corrected_and_accepted_hands(table):
    team = make_team(table.club, "The pair", [table.players[0], table.players[2]])
    game = table.new_game(
        "25",
        4,
        teams=[{"seats": [0, 2], "team": team.pk}, [1, 3]],
        first_dealer=3,
        stake="0.20",
    )
    game_id = game["id"]
    post_and_compare(table, game_id, {"dealer": 3, "misdeal": True})
    post_and_compare(
        table,
        game_id,
        {
            "dealer": 3,
            "trump": "S",
            "trick_winners": [0, 1, 1, 2, 2],
            "renege": {"seat": 1, "trick": 2},
        },
    )
    etag = table.client().get(f"/api/games/{game_id}/")["ETag"]
    # The renege corrected away: the hand is played again with other trick winners.
    corrected = table.client().put(
        f"/api/games/{game_id}/hands/2/",
        {"dealer": 3, "trump": "S", "trick_winners": [1, 1, 2, 2, 0]},
        format="json",
        headers={"If-Match": etag},
    )
    assert corrected.status_code == 200, corrected.json()
    # Who scored, accepted and entered a hand, as a table with confirm_hands stores them.
    players = table.players
    user = table.world.users["organiser"]
    Hand.objects.filter(game_id=game_id, number=1).update(
        confirmed_by=players[1], scored_by=players[0], accepted_by_organiser=user
    )
    Hand.objects.filter(game_id=game_id, number=2).update(scored_by=players[2], entered_by=None)
    assert assert_builder_equals_serializer(game_id) == 2
