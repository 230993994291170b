"""A snapshot of everything games store, to prove a refused request stored nothing."""

from __future__ import annotations

from games.models import (
    Game,
    GameSeat,
    GameSide,
    Hand,
    IdempotencyRecord,
    LedgerEntry,
)


def database_snapshot() -> dict:
    """Row counts of every games table (history included) and each game's mutable state."""
    return {
        "games": Game.objects.count(),
        "seats": GameSeat.objects.count(),
        "sides": GameSide.objects.count(),
        "hands": list(Hand.objects.order_by("id").values_list("id", "number", "record", "result")),
        "ledger": LedgerEntry.objects.count(),
        "idempotency": IdempotencyRecord.objects.count(),
        "game_history": Game.history.count(),
        "hand_history": Hand.history.count(),
        "game_state": list(
            Game.objects.order_by("id").values_list(
                "id", "version", "status", "winner_side", "totals", "next_dealer", "hands_played"
            )
        ),
    }
