"""What a Swiss draw reads of the rounds played: each entrant's match points and byes, and who met
whom (``History``).

What it does: ``history_of`` builds the ``History`` from ``PlayedRound`` values (checked: complete,
of the given entrants only), ``match_points`` counts the match points alone (``ranking.tally``'s,
without its tie-break figures); the tournaments service builds the same ``History`` from a few
aggregate rows instead (``tournaments.bridge.swiss_history_of``). ``swiss`` pairs from it.

What it does not do: pair (``swiss``) or rank the standings (``ranking``). It imports nothing
from Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.draw.errors import N_, DrawError
from tournaments.draw.types import MatchResult, PlayedRound, ScoringRule, check_rounds, meetings


def match_points(
    entrants: Sequence[int],
    results: Sequence[MatchResult],
    byes_had: Mapping[int, int],
    scoring: ScoringRule | None = None,
) -> dict[int, int]:
    """Each entrant's match points, byes included: ``ranking.tally``'s ``match_points`` alone
    (``results`` and ``byes_had`` already checked by ``check_rounds``)."""
    scoring = scoring or ScoringRule()
    by_outcome = {"win": scoring.win, "draw": scoring.draw, "loss": scoring.loss}
    points = {entrant: scoring.bye * byes_had.get(entrant, 0) for entrant in entrants}
    for result in results:
        for entrant in result.table.entrants:
            points[entrant] += by_outcome[result.outcome_of(entrant)]
    return points


@dataclass(frozen=True)
class History:
    """What a Swiss draw needs of the rounds played, and nothing more: how many were drawn (all
    complete), each entrant's match points (byes included) and byes had, and how often each pair
    of opponents met (``types.meetings``, keyed by ``pair_key``). Entrants missing from a mapping
    count 0. ``history_of`` builds it from ``PlayedRound`` values; the tournaments service builds
    it from a few aggregate rows instead (``tournaments.bridge.swiss_history_of``), which is what
    keeps drawing round 12 as cheap as round 2."""

    rounds: int = 0
    scores: Mapping[int, int] = field(default_factory=dict)
    byes: Mapping[int, int] = field(default_factory=dict)
    met: Mapping[tuple[int, int], int] = field(default_factory=dict)


def history_of(
    entrants: Sequence[int], rounds: Sequence[PlayedRound], scoring: ScoringRule | None = None
) -> History:
    """The ``History`` of ``rounds`` (each checked: complete, and of ``entrants`` only)."""
    check_sequence(rounds)
    results, byes_had = check_rounds(rounds, entrants)
    return History(
        rounds=len(rounds),
        scores=match_points(entrants, results, byes_had, scoring),
        byes=byes_had,
        met=meetings(results),
    )


def check_sequence(rounds) -> None:
    if isinstance(rounds, PlayedRound) or not isinstance(rounds, Sequence):
        raise DrawError("invalid_result", N_("rounds must be a sequence of PlayedRound"))
