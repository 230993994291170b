"""Which cards a seat may play next, for a tablet's card picker.

What it does: ``legal_plays_for(game, hand=..., trick=..., trump=... | turn_up=...)`` answers with
the cards of ``hand`` that may be played to ``trick`` (the cards played so far to the current
trick, leader first; empty when the seat leads) under the game's frozen house rules (which trumps
may be withheld, whether the ace of hearts follows hearts), and for every other card why not. The
engine's follow rules decide (``rules_engine.order``); nothing is stored.

What it does not do: know whose turn it is or what was played in earlier tricks — the tablet
sends the position it is asking about. A whole hand is checked when it is recorded.

Errors (400): ``invalid_card`` (pointer "/hand/2" or "/trick/0"), ``duplicate_card`` (the same
card twice in hand and trick), ``invalid_trump`` ("/trump"), ``invalid_record`` (neither or both
of trump and turn_up; a trick already complete).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from config.problems import Problem, localized_text, rules_error_to_problem
from games import bridge
from games.models import Game
from rules_engine import RulesError
from rules_engine.cards import parse_card, parse_suit
from rules_engine.order import legal_plays, why_illegal


def _cards(texts: list[str], pointer: str) -> list:
    cards = []
    for index, text in enumerate(texts):
        try:
            cards.append(parse_card(text))
        except RulesError as error:
            raise rules_error_to_problem(error.with_pointer(f"{pointer}/{index}")) from error
    return cards


def _trump(trump: str | None, turn_up: str | None) -> str:
    if (trump is None) == (turn_up is None):
        raise Problem(
            code="invalid_record",
            detail=gettext("Send either trump (the trump suit) or turn_up (the turned-up card)."),
            pointer="" if trump is None else "/turn_up",
        )
    try:
        if trump is not None:
            return parse_suit(trump)
    except RulesError as error:
        raise rules_error_to_problem(error.with_pointer("/trump")) from error
    return _cards([turn_up], "/turn_up")[0].suit


def legal_plays_for(
    game: Game,
    *,
    hand: list[str],
    trick: list[str],
    trump: str | None = None,
    turn_up: str | None = None,
) -> dict[str, Any]:
    """``{"trump", "legal": [cards], "illegal": [{"card", "reason"}]}`` (cards in hand order)."""
    suit = _trump(trump, turn_up)
    held = _cards(hand, "/hand")
    played = _cards(trick, "/trick")
    seen: dict = {}
    for pointer, card in [(f"/hand/{i}", c) for i, c in enumerate(held)] + [
        (f"/trick/{i}", c) for i, c in enumerate(played)
    ]:
        if card in seen:
            raise Problem(
                code="duplicate_card",
                detail=gettext("%(card)s appears twice (at %(first)s and %(second)s).")
                % {"card": card, "first": seen[card], "second": pointer},
                pointer=pointer,
            )
        seen[card] = pointer
    seat_count = len(game.side_of_seat)
    if len(played) >= seat_count:
        raise Problem(
            code="invalid_record",
            detail=gettext("The trick already has %(count)s cards; this game has %(seats)s seats.")
            % {"count": len(played), "seats": seat_count},
            pointer="/trick",
        )
    rules = bridge.rules_of(game)
    legal = legal_plays(held, played, suit, rules)
    legal_set = set(legal)
    illegal = [
        # The engine's phrase, in the reader's language (Accept-Language).
        {"card": str(card), "reason": localized_text(why_illegal(held, played, card, suit, rules))}
        for card in held
        if card not in legal_set
    ]
    return {"trump": suit, "legal": [str(card) for card in legal], "illegal": illegal}
