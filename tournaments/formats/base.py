"""The protocol every tournament format's policy follows, and what its steps return.

What it does: ``FormatPolicy`` is what a format decides, in one place per format: which options
it takes and how it checks them (``check_settings``), how many rounds it plays
(``round_count``), how it draws its next round (``draw_next_round``) and advances after a match
(``advance``), who goes through from a table (``advancing_per_table``, ``rank_table``), what
depends on a match (``dependents_of``), its default tie-breaks, whether a late arrival may enter
under way, and what the standings and the bracket read (``standings_input``,
``planned_bracket``). ``Drawn`` and ``Advanced`` say what a draw or an advance stored, so that
the callers announce exactly that rather than infer it.

What it does not do: start games (the callers start the matches a step returns, with
``play.start_matches``), lock anything, or call a service or a task (import-linter forbids it:
the services call the policies, never the reverse).

Locks: every method that writes (``draw_next_round``, ``advance``) expects the caller to hold the
tournament row's lock (``progress.lock_tournament``) inside a transaction; the others only read.

Terms: *cutting a table* — a knockout or a drive splits a decided table between those who go
through (or move up) and the others, so the ties at that table are split (``break_ties``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import ClassVar

from django.utils.translation import gettext

from tournaments import bridge
from tournaments.draw import knockout as knockout_draw
from tournaments.draw import ranking
from tournaments.draw.types import MatchResult
from tournaments.models import Match, Round, Tournament


@dataclass(frozen=True)
class Drawn:
    """A round a policy drew and stored: the round, and its new tables' matches, whose first
    games the caller starts (``play.start_matches``)."""

    round: Round
    matches: list[Match]


@dataclass(frozen=True)
class Advanced:
    """What a policy's ``advance`` stored after a match's result: the round it drew (its
    number; None when none), the matches whose first games the caller starts, whether it created
    or deleted tables (a knockout's next tables, the later rounds of a swiss redrawn), and
    whether the tournament's status moved (in progress, finished)."""

    round_drawn: int | None = None
    to_start: list[Match] = field(default_factory=list)
    tables_changed: bool = False
    status_changed: bool = False

    @property
    def stored(self) -> bool:
        """Something the standings are computed from moved (rounds, tables or the status)."""
        return self.round_drawn is not None or self.tables_changed or self.status_changed


@dataclass(frozen=True)
class StandingsInput:
    """What the standings rank (``standings.compute_standings``): the decided results and the
    byes of the released rounds, every entrant drawn in them, and the order that comes before
    the tie-breaks (a knockout's stages; None: the tie-breaks alone)."""

    results: list[MatchResult]
    byes: list[int]
    drawn: set[int]
    primary: list | None = None


def settings_error(code: str, detail: str, pointer: str) -> dict:
    """One error of ``check_settings``, as ``configuration`` collects them."""
    return {"code": code, "detail": detail, "pointer": pointer}


def round_count_required(values: dict, pointer: str) -> list[dict]:
    """A format played over a chosen number of rounds needs ``round_count``."""
    if values.get("round_count"):
        return []
    return [
        settings_error(
            "required",
            gettext("A %(format)s needs round_count, the number of rounds to play.")
            % {"format": values["format"]},
            f"{pointer}/round_count",
        )
    ]


def break_ties(result: MatchResult, seed: int) -> MatchResult:
    """The result with every tied placing group split: more tricks first, then by lot.

    Knockouts and drives cut each table between those who go through (or up) and the others,
    and the draw refuses a cut inside a tie; sides level on games and points at one table are
    therefore separated by the tricks they took, and then by a drawing of lots from the
    tournament's stored seed (``ranking.lot``), so the same results always give the same order.
    Partners stay together.
    """
    table = result.table
    placings: list[tuple[int, ...]] = []
    for group in result.placings:
        sides: list[tuple[int, ...]] = []
        for entrant in group:
            side = table.side_of(entrant)
            if side not in sides:
                sides.append(side)
        sides.sort(key=lambda side: (-result.tricks_of(side[0]), -ranking.lot(seed, min(side))))
        placings.extend(sides)
    if tuple(placings) == result.placings:
        return result
    return MatchResult(table, tuple(placings), result.games_won, result.points, result.tricks)


class FormatPolicy(ABC):
    """One format's decisions (see the module docstring); one instance per format, chosen once
    by ``tournaments.formats.policy_for``."""

    format: ClassVar[str]
    # The format-specific options (``configuration.FORMAT_OPTIONS``) this format takes.
    options: ClassVar[frozenset[str]] = frozenset()
    default_tie_breaks: ClassVar[tuple[str, ...]]
    # A tournament under way takes a late arrival into its next draw.
    accepts_late_entrants: ClassVar[bool] = False
    # Its rounds are planned as a bracket (``planned_bracket``): pages draw it, name its rounds
    # from the end and show each entrant's stage.
    plans_a_bracket: ClassVar[bool] = False

    # --- settings -------------------------------------------------------------------------

    def check_settings(self, values: dict, pointer: str) -> list[dict]:
        """The errors of this format's own rules in a full set of settings (``settings_error``
        dicts; none by default)."""
        return []

    def tie_breaks(self, tournament: Tournament) -> tuple[str, ...]:
        """The tournament's tie-break chain, or the format's default."""
        return tuple(tournament.tie_breaks) or self.default_tie_breaks

    @abstractmethod
    def round_count(self, tournament: Tournament) -> int | None:
        """How many rounds the tournament plays (None while that is not known yet)."""

    # --- drawing and advancing --------------------------------------------------------------

    @abstractmethod
    def draw_next_round(self, tournament: Tournament, user) -> Drawn:
        """Draw and store the next round (round 1: ``rounds.start_tournament`` first); raises
        ``DrawError`` or a ``Problem`` when it cannot be drawn now."""

    @abstractmethod
    def advance(
        self, tournament: Tournament, user, *, round_number: int, changed: bool
    ) -> Advanced:
        """Bring the rounds and the tournament's status up to date with the stored result of a
        match of round ``round_number`` (``changed``: its placings changed)."""

    # --- who goes through, what depends on what ----------------------------------------------

    def advancing_per_table(self, tournament: Tournament) -> int:
        """How many of a decided table go through (knockout) or move up (drive); else the
        winner."""
        return 1

    def rank_table(self, tournament: Tournament, result: MatchResult) -> MatchResult:
        """A decided table's result as the format stores it (by default as its games left it)."""
        return result

    @abstractmethod
    def dependents_of(self, match: Match) -> list[Match]:
        """The matches whose entrants or draw came from ``match``'s result, latest round
        first (``corrections``)."""

    def _later_matches(self, match: Match) -> list[Match]:
        return list(
            Match.objects.filter(tournament=match.tournament, round__number__gt=match.round.number)
            .select_related("round")
            .prefetch_related("slots")
        )

    # --- what the reads need -----------------------------------------------------------------

    def planned_bracket(self, tournament: Tournament) -> knockout_draw.Bracket | None:
        """The planned bracket of a format that has one, once drawn (None: rounds are listed as
        stored)."""
        return None

    def standings_input(self, tournament: Tournament) -> StandingsInput:
        """What the standings rank: the released rounds' results and byes read as plain rows
        (two queries, no models), no order before the tie-breaks."""
        results, byes, drawn = bridge.released_results_of(tournament)
        return StandingsInput(results, byes, drawn)
