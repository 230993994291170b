"""Dry runs: what recording or correcting a hand would do, computed by the engine, stored nowhere.

What it does:
- ``preview_hand(game_id, record, number, if_match)``: the same checks and problems as
  ``services.record_hand`` (``hand_conflict``, ``hand_out_of_sequence``, ``game_over``, 412, every
  engine error with its pointer) and, when the hand is accepted, the result the POST would store:
  the hand's points, the totals after it and the game after it. A tablet shows this as its
  summary before the scorekeeper confirms; for a 25 it also says whether the game ended at a
  trick, so the tablet stops taking tricks there.
- ``preview_correction(game_id, number, record, if_match)``: the replay ``services.correct_hand``
  would make, with the totals of every later hand before and after, so a correction shows which
  later totals change before it is confirmed.

What it does not do: store anything (no hand, no history, no idempotency record), lock anything
(a preview is advice; the real write checks again under the game's lock) or decide permissions.
"""

from __future__ import annotations

from django.utils.translation import gettext

from config.problems import Problem, rules_error_to_problem
from games import bridge
from games.models import Game, Hand
from games.services import _later_hand_problem, check_hand_number, etag_matches
from rules_engine import RulesError


def _game(game_id: int, if_match: str | None) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Problem(
            status=404, code="not_found", detail=gettext("No game %(game)s.") % {"game": game_id}
        )
    if if_match is not None and not etag_matches(if_match, game.etag):
        raise Problem(
            status=412,
            code="precondition_failed",
            detail=gettext("The game has changed: its ETag is now %(etag)s, not %(sent)s.")
            % {"etag": game.etag, "sent": if_match},
        )
    return game


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
    game = _game(game_id, if_match)
    check_hand_number(game, number)
    if game.is_finished:
        raise Problem(
            status=409,
            code="game_over",
            detail=gettext("Game %(game)s is finished; it takes no more hands.")
            % {"game": game.pk},
        )
    try:
        fields, result = bridge.play(game, record)
    except RulesError as error:
        raise rules_error_to_problem(error) from error
    return {
        "number": game.hands_played + 1,
        **result,
        "totals_before": _totals(game.totals),
        "totals": _totals(fields["totals"]),
        "game": _game_after(fields),
        "stored": False,
    }


def preview_correction(*, game_id: int, number: int, record: dict, if_match: str | None) -> dict:
    game = _game(game_id, if_match)
    hands = list(Hand.objects.filter(game=game).order_by("number"))
    if not any(hand.number == number for hand in hands):
        raise Problem(
            status=404,
            code="not_found",
            detail=gettext("Game %(game)s has no hand %(number)s.")
            % {"game": game.pk, "number": number},
        )
    state = bridge.start_for(game)
    changes = []
    corrected = None
    fields = bridge.fields_of(state)
    for hand in hands:
        hand_record = record if hand.number == number else hand.record
        try:
            state, fields, result = bridge.play_state(state, hand_record)
        except RulesError as error:
            if hand.number == number:
                raise rules_error_to_problem(error) from error
            raise _later_hand_problem(number, hand.number, error) from error
        if hand.number == number:
            corrected = result
        if hand.number >= number:
            changes.append(
                {
                    "number": hand.number,
                    "totals_before": _totals(hand.totals_after),
                    "totals_after": _totals(fields["totals"]),
                    "changed": hand.totals_after != fields["totals"],
                }
            )
    return {
        "number": number,
        **corrected,
        "totals": changes[0]["totals_after"],
        "hands": changes,
        "game": _game_after(fields),
        "winner_before": game.winner_side if game.is_finished else None,
        "stored": False,
    }
