"""The fast builder of the hottest response: a hand just recorded, with its game's summary.

What it does: ``recorded_hand`` builds the body of ``POST /api/games/{id}/hands/`` as plain dicts
over the rows the service returned. Recording a hand is the hottest path of the API, and a
serializer tree per response would cost more there than the rules do; every other response is
rendered by its serializer (``games.api.outputs``). The shape is ``HandWithGameOutput``'s, key
for key and in the same order: tests/games/test_representations.py keeps the two equal over
many hands (variants, irregularities, corrections, teams, stakes, finished games).

What it does not do: look anything up in the database (the hand's users and players are read
only when set, as the serializer reads them), or document the shape (the serializer does).
"""

from __future__ import annotations

from typing import Any

from rest_framework.fields import DateTimeField

from games.models import Game, Hand
from rules_engine.results import per_side

# Timestamps are written as the serializers write them (ISO 8601, "Z" for UTC).
_TIMESTAMP = DateTimeField()


def _user(user) -> dict[str, Any]:
    return {"id": user.pk, "username": user.username}


def _player(player) -> dict[str, Any]:
    return {"id": player.pk, "name": player.display_name}


def recorded_hand(hand: Hand, game: Game) -> dict[str, Any]:
    """``HandWithGameOutput(hand, context={"game": game}).data``, built by hand."""
    result = hand.result
    return {
        "number": hand.number,
        "kind": result["kind"],
        "dealer": hand.dealer,
        "trump": result["trump"],
        "trick_winners": list(result["trick_winners"]),
        "points": result["points"],
        "best_trump": result["best_trump"],
        "bid": result["bid"],
        "reached": result["reached"],
        "renege": result["renege"],
        "rob": result["rob"],
        "totals": per_side(hand.totals_after),
        "record": hand.record,
        "entered_by": _user(hand.entered_by) if hand.entered_by_id else None,
        "entered_at": _TIMESTAMP.to_representation(hand.entered_at),
        "confirmed_by": _player(hand.confirmed_by) if hand.confirmed_by_id else None,
        "scored_by": _player(hand.scored_by) if hand.scored_by_id else None,
        "accepted_by_organiser": (
            _user(hand.accepted_by_organiser) if hand.accepted_by_organiser_id else None
        ),
        "table_link": hand.table_link_id,
        "updated_at": _TIMESTAMP.to_representation(hand.updated_at),
        "game": {
            "status": game.status,
            "winner": game.winner_side,
            "next_dealer": game.next_dealer,
            "double_stake": game.double_stake,
            "hands_played": game.hands_played,
        },
    }
