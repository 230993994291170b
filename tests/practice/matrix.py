"""The practice table's part of the permission matrix: a practice game owned by the world's
player (the person at seat 0 leads, so any card of theirs may be played) and a puzzle link."""

from __future__ import annotations

from practice.puzzles import puzzle_position, puzzle_token
from practice.services import load_table, start_practice_game
from tests.practice.helpers import set_deal

# Dealer 2: seat 0 (the player) gets the first five cards and leads the first trick.
MATRIX_DEAL = "7D 8H 9H 10H JH | KD 2C 3C 6C 7C | QD 3D 2H 4H 8C"

PRACTICE_BODIES = {
    ("practice:start", "POST"): lambda world: {"game": "25", "level": "easy"},
    ("practice:move", "POST"): lambda world: {"kind": "play", "card": "7D"},
}


def add_practice_game_to_world(world) -> dict[str, object]:
    game = start_practice_game(player=world.users["player"], session_key="", game="45")
    set_deal(game, MATRIX_DEAL, "4S", dealer=2)
    table = load_table(game)
    token = puzzle_token(puzzle_position(table.hand.view(0), ["You", "Nora", "Finn"]))
    return {"practice_game_id": game.pk, "token": token}
