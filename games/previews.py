"""Dry runs: what recording or correcting a hand would do, computed by the engine, stored nowhere.

What it does:
- ``preview_hand(game_id, record, number, if_match)``: the plan ``services.record_hand`` would
  store (``games.plans.plan_new_hand``: the same checks and problems — ``hand_conflict``,
  ``hand_out_of_sequence``, ``game_over``, 412, every engine error with its pointer) rendered as
  the hand's points, the totals after it and the game after it. A tablet shows this as its
  summary before the scorekeeper confirms; for a 25 it also says whether the game ended at a
  trick, so the tablet stops taking tricks there.
- ``preview_correction(game_id, number, record, if_match)``: the replay ``services.correct_hand``
  would store (``games.plans.plan_correction``), with the totals of every later hand before and
  after, so a correction shows which later totals change before it is confirmed, and the result
  change (``winner_before``, ``winner_changed``).

What it does not do: store anything (no hand, no history, no idempotency record), lock anything
(a preview is advice; the real write plans again under the game's lock) or decide permissions.
"""

from __future__ import annotations

from games.models import Hand
from games.plans import load_game, plan_correction, plan_new_hand


def _game_after(fields: dict) -> dict:
    return {
        "status": fields["status"],
        "winner": fields["winner_side"],
        "next_dealer": fields["next_dealer"],
        "double_stake": fields["double_stake"],
        "hands_played": fields["hands_played"],
    }


def _totals(values) -> dict[str, int]:
    return {str(index): value for index, value in enumerate(values)}


def preview_hand(
    *, game_id: int, record: dict, number: int | None = None, if_match: str | None = None
) -> dict:
    game = load_game(game_id, if_match, lock=False)
    plan = plan_new_hand(game, record, number)
    return {
        "number": plan.number,
        **plan.result,
        "totals_before": _totals(game.totals),
        "totals": _totals(plan.fields["totals"]),
        "game": _game_after(plan.fields),
        "stored": False,
    }


def preview_correction(*, game_id: int, number: int, record: dict, if_match: str | None) -> dict:
    game = load_game(game_id, if_match, lock=False)
    hands = list(Hand.objects.filter(game=game).order_by("number"))
    plan = plan_correction(game, hands, number, record)
    changes = [
        {
            "number": hand.number,
            "totals_before": _totals(hand.totals_after),
            "totals_after": _totals(fields["totals"]),
            "changed": hand.totals_after != fields["totals"],
        }
        for hand, fields, _result in plan.replayed
        if hand.number >= number
    ]
    return {
        "number": number,
        **plan.corrected,
        "totals": changes[0]["totals_after"],
        "hands": changes,
        "game": _game_after(plan.fields),
        "winner_before": plan.change.winner_before,
        "winner_changed": plan.change.winner_changed,
        "stored": False,
    }
