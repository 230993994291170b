"""What the formats drawn a round at a time share (round robin, swiss, drive).

What it does: ``RoundByRound`` draws the next round from the rounds played (each format says how,
``next_draw``), stores it with one match per table and one per bye, and, after a match's result,
closes its round when its last match is decided and then finishes the tournament after its last
round or, with ``auto_advance``, draws the next one. A format whose draws read the results
(``draws_from_results``: swiss, drive) drops its later rounds when a result they were drawn from
changed and nothing in them has begun, so that they are drawn again; all of a later round's
matches depend on an earlier one's results there.

What it does not do: start games (the caller starts the matches returned) or refuse a change
whose dependents have begun (``corrections`` did before the change was stored).

Locks: ``draw_next_round`` and ``advance`` expect the caller to hold the tournament row's lock
inside a transaction (``tournaments.formats.base``).

Terms: *present order* — the draw order of the entrants checked in: those drawn before in their
fixed order, then late arrivals (entrants absent at round 1) in their planned order.
"""

from __future__ import annotations

import logging
from abc import abstractmethod
from typing import ClassVar

from tournaments import bridge, rounds
from tournaments.draw.types import RoundDraw
from tournaments.formats.base import Advanced, Drawn, FormatPolicy
from tournaments.models import Match, RoundStatus, Tournament, TournamentStatus

logger = logging.getLogger(__name__)


def present_order(tournament: Tournament) -> list[int]:
    """The draw order of the entrants checked in (see *present order*)."""
    entrants = list(tournament.entrants.all())
    present = {entrant.pk for entrant in entrants if entrant.is_present}
    fixed = bridge.draw_order_of(tournament)
    late = [
        entrant_id
        for entrant_id in bridge.planned_draw_order(tournament, entrants)
        if entrant_id not in fixed
    ]
    return [entrant_id for entrant_id in fixed + late if entrant_id in present]


def drop_rounds_after(tournament: Tournament, after: int, user) -> bool:
    """Delete the rounds after round ``after`` when nothing in them has begun; True if done."""
    later = list(Match.objects.filter(tournament=tournament, round__number__gt=after))
    if any(rounds.is_begun(match) for match in later if not match.is_bye):
        logger.warning("tournament %s: a result changed under rounds already begun", tournament.pk)
        return False
    for match in later:
        rounds.delete_unplayed_games(match)
    for round_ in tournament.rounds.filter(number__gt=after):
        round_._history_user = user
        round_.delete()
    return True


class RoundByRound(FormatPolicy):
    """A format whose rounds are drawn one at a time (see the module docstring)."""

    # The next round's draw reads the results so far (swiss, drive), so a changed result
    # redraws the later rounds; a round robin's schedule never depends on them.
    draws_from_results: ClassVar[bool] = False

    def round_count(self, tournament: Tournament) -> int | None:
        return tournament.round_count or 1

    @abstractmethod
    def next_draw(self, tournament: Tournament) -> tuple[int, RoundDraw]:
        """The number of rounds drawn so far and the next round's draw; round 1 calls
        ``rounds.start_tournament`` first."""

    def draw_next_round(self, tournament: Tournament, user) -> Drawn:
        """The rounds played so far are read as plain rows (``bridge.played_rounds_of``), not
        models; a swiss reads only their aggregates (``bridge.swiss_history_of``), so drawing
        its round 12 costs what drawing round 2 does."""
        drawn, draw = self.next_draw(tournament)
        round_, matches = bridge.save_round_draw(tournament, drawn + 1, draw, user)
        rounds.update_round_status(tournament, user, round_.number)
        return Drawn(round_, matches)

    def advance(
        self, tournament: Tournament, user, *, round_number: int, changed: bool
    ) -> Advanced:
        dropped = False
        if changed and self.draws_from_results:
            if tournament.rounds.filter(number__gt=round_number).exists():
                dropped = drop_rounds_after(tournament, round_number, user)
        stored = rounds.update_round_status(tournament, user, round_number)
        if not stored:
            return Advanced(tables_changed=dropped)
        if stored[-1].status != RoundStatus.COMPLETE:
            moved = rounds.set_tournament_status(tournament, TournamentStatus.IN_PROGRESS)
            return Advanced(tables_changed=dropped, status_changed=moved)
        if len(stored) >= self.round_count(tournament):
            moved = rounds.set_tournament_status(tournament, TournamentStatus.FINISHED)
            return Advanced(tables_changed=dropped, status_changed=moved)
        moved = rounds.set_tournament_status(tournament, TournamentStatus.IN_PROGRESS)
        if not tournament.auto_advance:
            return Advanced(tables_changed=dropped, status_changed=moved)
        drawn = self.draw_next_round(tournament, user)
        return Advanced(
            round_drawn=drawn.round.number,
            to_start=drawn.matches,
            tables_changed=dropped,
            status_changed=moved,
        )

    def dependents_of(self, match: Match) -> list[Match]:
        if not self.draws_from_results:
            return []
        return sorted(
            self._later_matches(match), key=lambda other: (-other.round.number, other.table)
        )
