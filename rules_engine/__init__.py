"""Jink rules engine: the rules of the Spoil Five family in pure Python (no Django, no I/O).

What it does: parses cards, orders them, says which plays are legal, and checks and scores whole
hand records (api.md) game by game: ``new_game(...)`` then ``state.record(hand)``, which returns
the hand's ``HandResult`` and a new immutable ``GameState``. Every refusal is a ``RulesError``
with a stable ``code`` and a JSON ``pointer`` into the record. See docs/rules_engine.md.

What it does not do: store games, know players or money, or talk HTTP (the Django apps do).
"""

from rules_engine.cards import (
    ACE_OF_HEARTS,
    FULL_PACK,
    RANKS,
    SUITS,
    Card,
    canonical_record,
    parse_card,
    parse_suit,
)
from rules_engine.errors import ERROR_CODES, RulesError
from rules_engine.game import GameState, new_game, replay
from rules_engine.house_rules import GAMES, HouseRules
from rules_engine.order import (
    best_trump_index,
    is_trump,
    legal_plays,
    trick_winner,
    trump_rank,
    why_illegal,
)
from rules_engine.results import BestTrump, BidResult, HandResult, Renege

__all__ = [
    "canonical_record",
    "ACE_OF_HEARTS",
    "ERROR_CODES",
    "FULL_PACK",
    "GAMES",
    "RANKS",
    "SUITS",
    "BestTrump",
    "BidResult",
    "Card",
    "GameState",
    "HandResult",
    "HouseRules",
    "Renege",
    "RulesError",
    "best_trump_index",
    "is_trump",
    "legal_plays",
    "new_game",
    "parse_card",
    "parse_suit",
    "replay",
    "trick_winner",
    "trump_rank",
    "why_illegal",
]
