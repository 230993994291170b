"""The knockout policy: a bracket planned at round 1 that fills itself as tables are decided.

What it does: checks a knockout's settings (how many go through from a table, the third-place
match); draws round 1 only — later rounds fill by themselves: after each result ``advance``
stores every table whose entrants are now known (``tournaments.draw.knockout.advance``), replaces
the entrants of a table not begun whose feeders changed, removes a table whose feeders are no
longer decided (an undo), marks each round complete once every table of the bracket's round is
stored and decided, and finishes the tournament with its final. Who goes through is each table's
first ``advancing_per_table`` (ties split by tricks then lots); the matches depending on a result
are those later ones its entrants reached, and theirs in turn. The standings rank by how far
each entrant got (``knockout.stage_keys``) before the tie-breaks.

What it does not do: store or start anything itself beyond the rows (``bridge``; the callers
start the matches returned), or reset begun dependents (``corrections``).

Locks: as ``tournaments.formats.base``.

Terms: *knockout key* — ``(round number, table - 1)`` (``bridge``).
"""

from __future__ import annotations

import logging

from django.utils.translation import gettext

from tournaments import bridge, rounds
from tournaments.draw import knockout as knockout_draw
from tournaments.draw.errors import DrawError
from tournaments.draw.types import MatchResult
from tournaments.formats.base import (
    Advanced,
    Drawn,
    FormatPolicy,
    StandingsInput,
    break_ties,
    settings_error,
)
from tournaments.models import Format, Match, MatchStatus, Tournament, TournamentStatus

logger = logging.getLogger(__name__)


def _round_complete(bracket, results, number: int) -> bool:
    """Every table of the bracket's round ``number`` is stored and decided."""
    try:
        draw = knockout_draw.round_draw(bracket, number, results)
    except DrawError:
        return False
    return all(table.key in results for table in draw.tables)


class KnockoutPolicy(FormatPolicy):
    format = Format.KNOCKOUT
    plans_a_bracket = True
    options = frozenset({"advancing_per_table", "third_place_match"})
    default_tie_breaks = ("match_wins", "games_won", "points_difference", "lots")

    def check_settings(self, values: dict, pointer: str) -> list[dict]:
        table_size = values["table_size"]
        advancing = values.get("advancing_per_table") or 1
        if advancing >= table_size or table_size % advancing:
            return [
                settings_error(
                    "invalid_table_size",
                    gettext(
                        "%(advancing)s advancing from tables of %(size)s: the number "
                        "advancing must divide the table size and be smaller than it."
                    )
                    % {"advancing": advancing, "size": table_size},
                    f"{pointer}/advancing_per_table",
                )
            ]
        if values.get("third_place_match") and table_size // advancing != 2:
            return [
                settings_error(
                    "option_not_applicable",
                    gettext("A third-place match needs half of each table to advance."),
                    f"{pointer}/third_place_match",
                )
            ]
        return []

    def round_count(self, tournament: Tournament) -> int | None:
        bracket = self.planned_bracket(tournament)
        return bracket.rounds if bracket is not None else None

    def planned_bracket(self, tournament: Tournament) -> knockout_draw.Bracket | None:
        return bridge.bracket_of(tournament) if tournament.draw_order else None

    def advancing_per_table(self, tournament: Tournament) -> int:
        return tournament.advancing_per_table or 1

    def rank_table(self, tournament: Tournament, result: MatchResult) -> MatchResult:
        return break_ties(result, tournament.lots_seed)

    def draw_next_round(self, tournament: Tournament, user) -> Drawn:
        """Round 1 only: the next rounds fill by themselves (``advance``)."""
        if bridge.rounds_with_matches(tournament):
            undecided = Match.objects.filter(tournament=tournament).exclude(
                status=MatchStatus.DECIDED
            )
            if undecided.exists():
                raise DrawError(
                    "round_incomplete",
                    "a knockout fills its next round by itself as matches are decided; "
                    "some matches are still undecided",
                )
            raise DrawError("tournament_complete", "the knockout is complete")
        rounds.start_tournament(tournament)
        bridge.bracket_of(tournament)  # refuses impossible settings before anything is stored
        advanced = self.advance(tournament, user, round_number=1, changed=True)
        return Drawn(tournament.rounds.order_by("number").first(), advanced.to_start)

    def advance(
        self, tournament: Tournament, user, *, round_number: int, changed: bool
    ) -> Advanced:
        """Fill the bracket from every decided table (whatever ``round_number`` and
        ``changed``: the bracket is recomputed whole, so this is safe to run again)."""
        bracket = bridge.bracket_of(tournament)
        # The rounds, matches and slots are loaded once, and kept in step below with what is
        # deleted and created, rather than reloaded for the round statuses.
        stored_rounds = bridge.rounds_with_matches(tournament)
        results = bridge.knockout_results_of(stored_rounds)
        try:
            tables = knockout_draw.advance(bracket, results)
        except DrawError as error:
            logger.warning("knockout %s cannot advance: %s", tournament.pk, error.detail)
            return Advanced()
        round_matches = {
            round_.number: (round_, list(round_.matches.all())) for round_ in stored_rounds
        }
        existing = {
            (round_.number, match.table - 1): match
            for round_, match in sorted(
                (
                    (round_, match)
                    for round_, matches in round_matches.values()
                    for match in matches
                ),
                key=lambda pair: (pair[1].round_id, pair[1].table),
            )
        }
        wanted = {table.key for table in tables}
        deleted = []

        def delete(key: tuple[int, int], match: Match) -> None:
            # Only undecided matches are deleted (a decided one has begun), so ``results`` stays
            # the decided tables.
            rounds.delete_unplayed_games(match)
            round_matches[key[0]][1].remove(match)
            match._history_user = user
            match.delete()
            deleted.append(key)

        # An undecided table whose feeders are no longer decided (an undo) waits again: remove
        # it while nothing has been played there.
        for key, match in existing.items():
            if (
                match.status != MatchStatus.DECIDED
                and key not in wanted
                and not rounds.is_begun(match)
            ):
                delete(key, match)
        to_create = []
        for table in tables:
            match = existing.get(table.key)
            if match is not None and match.pk is not None:
                if {slot.entrant_id for slot in match.slots.all()} == set(table.table.entrants):
                    continue
                if rounds.is_begun(match):
                    logger.warning("knockout match %s has begun with other entrants", match.pk)
                    continue
                delete(table.key, match)
            to_create.append(table)
        created: list[Match] = []
        round_drawn = None
        if to_create:
            sources = bridge.knockout_sources(tournament, to_create)
            new_matches = []
            for table in to_create:
                if table.round_number not in round_matches:
                    round_matches[table.round_number] = (
                        bridge.create_round(tournament, table.round_number, user),
                        [],
                    )
                    round_drawn = max(round_drawn or 0, table.round_number)
                previous = table.round_number - 1
                new_matches.append(
                    bridge.NewMatch(
                        round_matches[table.round_number][0],
                        table.position + 1,
                        table.table,
                        is_third_place=table.is_third_place,
                        sources={
                            entrant_id: sources[(previous, entrant_id)]
                            for entrant_id in table.table.entrants
                            if (previous, entrant_id) in sources
                        },
                    )
                )
            created = bridge.create_matches(new_matches, user=user)
            for new, match in zip(new_matches, created, strict=True):
                # Undecided (pending, or in progress once started): ``results`` is unchanged.
                round_matches[new.round.number][1].append(match)
        rounds.write_round_statuses(
            user,
            (
                (
                    round_,
                    all(match.status == MatchStatus.DECIDED for match in matches)
                    and _round_complete(bracket, results, round_.number),
                )
                for round_, matches in (round_matches[number] for number in sorted(round_matches))
            ),
        )
        finished = knockout_draw.is_complete(bracket, results)
        moved = rounds.set_tournament_status(
            tournament, TournamentStatus.FINISHED if finished else TournamentStatus.IN_PROGRESS
        )
        return Advanced(
            round_drawn=round_drawn,
            to_start=created,
            tables_changed=bool(deleted or created),
            status_changed=moved,
        )

    def dependents_of(self, match: Match) -> list[Match]:
        """The later matches ``match``'s entrants reached, and those theirs reached in turn."""
        dependents: dict[int, Match] = {}
        frontier = {slot.entrant_id for slot in match.slots.all()}
        for other in sorted(
            self._later_matches(match), key=lambda other: (other.round.number, other.table)
        ):
            entrants = {slot.entrant_id for slot in other.slots.all()}
            if entrants & frontier:
                dependents[other.pk] = other
                frontier |= entrants
        return sorted(dependents.values(), key=lambda other: (-other.round.number, other.table))

    def standings_input(self, tournament: Tournament) -> StandingsInput:
        """The released rounds read with their matches and slots (the stages need them), and
        the order of the stages each entrant reached (None if the bracket cannot say)."""
        if not tournament.draw_order:
            return super().standings_input(tournament)
        released = [
            round_
            for round_ in bridge.rounds_with_matches(tournament)
            if round_.released_at is not None
        ]
        results, byes, by_key = bridge.knockout_results_and_byes(released)
        drawn = {
            slot.entrant_id
            for round_ in released
            for match in round_.matches.all()
            for slot in match.slots.all()
            if slot.entrant_id is not None
        }
        try:
            primary = knockout_draw.stage_keys(bridge.bracket_of(tournament), by_key)
        except DrawError:
            primary = None
        return StandingsInput(results, byes, drawn, primary)
