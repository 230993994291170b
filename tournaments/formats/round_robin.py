"""The round robin policy: a schedule fixed from the start, every entrant at every round.

What it does: draws each round of ``tournaments.draw.round_robin``'s schedule (the rounds asked
for, or by default enough for everyone to meet everyone); refuses (409 ``entrants_absent``) to
draw while an entrant drawn so far is checked out, since the schedule seats them every round.
Nothing depends on a result: a changed one redraws nothing.

What it does not do: store or start anything itself (``RoundByRound``, ``bridge``, the callers).

Locks: as ``tournaments.formats.base``.
"""

from __future__ import annotations

from django.utils.translation import gettext

from config.problems import Problem
from tournaments import bridge, rounds
from tournaments.draw import ranking
from tournaments.draw import round_robin as round_robin_draw
from tournaments.draw.types import PlayedRound, RoundDraw
from tournaments.formats.round_by_round import RoundByRound, present_order
from tournaments.models import Format, Tournament


def refuse_absent(tournament: Tournament, played: list[PlayedRound]) -> None:
    """A round robin's schedule seats everyone drawn so far in every round: refused (409
    ``entrants_absent``, naming them) while one of them is checked out. A swiss or a drive
    draws without them instead."""
    drawn = {entrant for round_ in played for entrant in round_.draw.entrants}
    absent = tournament.entrants.filter(pk__in=drawn, is_present=False).select_related(
        "player", "team"
    )
    names = sorted(entrant.name for entrant in absent)
    if names:
        raise Problem(
            code="entrants_absent",
            detail=gettext(
                "%(names)s checked out, but a round robin seats every entrant in every round: "
                "check them in again to draw round %(number)s."
            )
            % {"names": ", ".join(names), "number": len(played) + 1},
            pointer="",
        )


class RoundRobinPolicy(RoundByRound):
    format = Format.ROUND_ROBIN
    options = frozenset({"min_table_size", "round_count", "bye_rule"})
    default_tie_breaks = ranking.DEFAULT_TIE_BREAKS

    def round_count(self, tournament: Tournament) -> int | None:
        if tournament.round_count:
            return tournament.round_count
        return round_robin_draw.default_rounds(
            len(bridge.draw_order_of(tournament)), tournament.table_size
        )

    def next_draw(self, tournament: Tournament) -> tuple[int, RoundDraw]:
        played = bridge.played_rounds_of(tournament)
        if not played:
            rounds.start_tournament(tournament)
        else:
            refuse_absent(tournament, played)
        order = present_order(tournament) if played else bridge.draw_order_of(tournament)
        return len(played), round_robin_draw.next_round(
            order,
            played,
            table_size=tournament.table_size,
            rounds=tournament.round_count,
            min_table_size=tournament.min_table_size,
            seed=tournament.lots_seed,
        )
