"""The tournament draw: pure Python drawing, pairing, advancing and ranking (no Django).

What it does: takes plain data (entrant ids, tables, match results) and returns plain frozen
values, for four formats: ``knockout``, ``round_robin``, ``swiss`` and ``drive``; ``matches``
decides best-of-N / first-to-K matches from game winners, ``swiss_history`` is what a Swiss
draw reads of the rounds played, and ``ranking`` orders standings by a chain of tie-breaks.
Every bad input raises ``DrawError`` (``errors``) with a stable ``code``.

What it does not do: load or save anything. ``tournaments.bridge`` is the bridge: it reads
rounds and results from the database as these values and stores what the draw returns; the
format policies (``tournaments.formats``) call these functions.

Terms are defined in ``types`` (entrant, table, side, placings, bye, round) and in each module.
"""

from tournaments.draw import (
    drive,
    knockout,
    matches,
    ranking,
    round_robin,
    swiss,
    swiss_history,
)
from tournaments.draw.errors import ERROR_CODES, DrawError
from tournaments.draw.matches import decide_match, match_result
from tournaments.draw.ranking import TIE_BREAKS, Standing, Tally, compute_standings, tally
from tournaments.draw.types import (
    MatchResult,
    PlayedRound,
    RoundDraw,
    ScoringRule,
    Table,
    meetings,
    repeat_pairs,
    table_sizes,
)

FORMATS = ("knockout", "round_robin", "swiss", "drive")

__all__ = [
    "ERROR_CODES",
    "FORMATS",
    "TIE_BREAKS",
    "DrawError",
    "MatchResult",
    "PlayedRound",
    "RoundDraw",
    "ScoringRule",
    "Standing",
    "Table",
    "Tally",
    "compute_standings",
    "decide_match",
    "drive",
    "knockout",
    "match_result",
    "matches",
    "meetings",
    "ranking",
    "repeat_pairs",
    "round_robin",
    "swiss",
    "swiss_history",
    "table_sizes",
    "tally",
]
