"""What the permission matrix (tests/test_permission_matrix.py) needs from games.

``add_game_to_world(world)`` starts a 2 v 2 game of 25 in the world's club with one hand recorded
and returns the path values of the games routes (``game_id``, ``number``); ``GAME_BODIES`` are
valid request bodies for the games routes that take one.
"""

from __future__ import annotations

from games import services

FIRST_HAND = {"dealer": 3, "trump": "S", "trick_winners": [0, 1, 1, 2, 2]}


def add_game_to_world(world) -> dict:
    game = services.create_game(
        club=world.club,
        user=world.users["organiser"],
        game="25",
        seat_player_ids=[player.pk for player in world.players[:4]],
        teams=[[0, 2], [1, 3]],
        first_dealer=3,
        stake_minor=20,
    )
    services.record_hand(game_id=game.pk, user=world.users["organiser"], record=dict(FIRST_HAND))
    return {"game_id": game.pk, "number": 1}


GAME_BODIES = {
    ("games:game-list", "POST"): lambda world: {
        "game": "25",
        "seats": [player.pk for player in world.players[:4]],
        "teams": [[0, 2], [1, 3]],
    },
    # Hand 2: seat 0 deals after hand 1.
    ("games:hand-list", "POST"): lambda world: {"dealer": 0, "misdeal": True},
    ("games:hand-detail", "PUT"): lambda world: dict(FIRST_HAND, trump="H"),
    ("games:legal-plays", "POST"): lambda world: {
        "hand": ["5S", "KH", "2C"],
        "trick": ["QH"],
        "trump": "S",
    },
}
