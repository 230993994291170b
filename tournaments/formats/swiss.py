"""The Swiss policy: rounds paired on the standings so far, over a chosen number of rounds.

What it does: checks that a Swiss has its ``round_count``; draws each round with
``tournaments.draw.swiss`` from the rounds' aggregates (``bridge.swiss_history_of``: match points,
byes and who met whom, never the rounds' matches themselves), pairing the entrants checked in —
late arrivals included; every later match depends on an earlier result, and a changed result
redraws the later rounds while nothing in them has begun (``RoundByRound``).

What it does not do: store or start anything itself (``RoundByRound``, ``bridge``, the callers).

Locks: as ``tournaments.formats.base``.
"""

from __future__ import annotations

from tournaments import bridge, rounds
from tournaments.draw import swiss as swiss_draw
from tournaments.draw.types import RoundDraw
from tournaments.formats.base import round_count_required
from tournaments.formats.round_by_round import RoundByRound, present_order
from tournaments.models import Format, Tournament


class SwissPolicy(RoundByRound):
    format = Format.SWISS
    options = frozenset({"min_table_size", "round_count", "bye_rule"})
    default_tie_breaks = (
        "match_points",
        "buchholz",
        "head_to_head",
        "games_won",
        "points_difference",
        "lots",
    )
    accepts_late_entrants = True
    draws_from_results = True

    def check_settings(self, values: dict, pointer: str) -> list[dict]:
        return round_count_required(values, pointer)

    def next_draw(self, tournament: Tournament) -> tuple[int, RoundDraw]:
        history = bridge.swiss_history_of(tournament, bridge.scoring_of(tournament))
        if not history.rounds:
            rounds.start_tournament(tournament)
        order = present_order(tournament) if history.rounds else bridge.draw_order_of(tournament)
        return history.rounds, swiss_draw.next_round_after(
            order,
            history,
            total_rounds=tournament.round_count or 1,
            table_size=tournament.table_size,
            min_table_size=tournament.min_table_size,
        )
