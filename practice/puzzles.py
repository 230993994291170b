"""Shareable puzzles: a position of a practice hand, signed into a link ("what should I play?").

What it does: ``puzzle_token`` packs what the person saw when it was their turn to play (the
rules, their cards, the turn-up or trumps, the tricks so far and the trick on the table, the
totals) into a signed, compressed token (``django.core.signing``); ``read_puzzle`` checks and
unpacks it (a 404 ``PracticeError("invalid_puzzle")`` when tampered with). The position holds only
what that seat could see, so sharing it gives nothing away. Nothing is stored: the link is the
puzzle.

What it does not do: say what the best card is; the puzzle page shows the legal cards, from the
engine, on request.
"""

from __future__ import annotations

from typing import Any

from django.core import signing

from computer_players import SeatView
from practice.services import PracticeError

SALT = "practice.puzzle"


def puzzle_position(view: SeatView, names: list[str]) -> dict[str, Any]:
    """The JSON-ready position of ``view`` (a seat to play), with the seats' ``names``."""
    return {
        "game": view.rules.game,
        "house_rules": view.rules.to_dict(),
        "seat": view.seat,
        "names": names,
        "dealer": view.dealer,
        "hand": [str(card) for card in view.hand],
        "turn_up": None if view.turn_up is None else str(view.turn_up),
        "trump": view.trump,
        "bid": None if view.bid is None else list(view.bid),
        "tricks": [
            {
                "leader": trick.leader,
                "cards": [str(card) for card in trick.cards],
                "winner": trick.winner,
            }
            for trick in view.tricks
        ],
        "trick_leader": view.trick_leader,
        "trick": [str(card) for card in view.trick],
        "totals": list(view.totals),
    }


def puzzle_token(position: dict[str, Any]) -> str:
    return signing.dumps(position, salt=SALT, compress=True)


def read_puzzle(token: str) -> dict[str, Any]:
    try:
        return signing.loads(token, salt=SALT)
    except signing.BadSignature:
        raise PracticeError("invalid_puzzle", "this puzzle link is broken or was altered") from None
