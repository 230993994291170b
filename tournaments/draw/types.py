"""Shared values of the tournament draw: tables, rounds, match results and scoring.

What it does: defines the frozen dataclasses every draw module takes and returns, checks them when
they are built (a bad value raises ``DrawError`` at once, never later in a draw), and offers the
small helpers several formats share (checking an entrant list, splitting entrants into tables,
collecting the results of played rounds).

What it does not do: draw, pair, rank or store anything. It imports nothing from Django.

Terms:
- *entrant*: a plain ``int`` id of whoever takes one place in the draw: a player, or a team that
  plays as one unit. The draw never knows which; the service maps ids to players or teams.
- *table*: the entrants who play one match together, in seat order (clockwise from seat 0).
- *side*: entrants at a table who score together (partners). A table without declared sides has
  one side per entrant. Sides appear where a format partners individuals at the table (a drive).
- *placings*: the finishing order of a match as groups of entrants, best first; entrants in the
  same group tied. ``((7,), (3,))`` means 7 beat 3; ``((7, 3),)`` is a drawn match.
- *win / draw / loss*: an entrant wins a match when its side is alone in the first placing group,
  draws when the first group holds several sides including its own, and loses otherwise.
- *bye*: a round in which an entrant has no table; it is scored by ``ScoringRule``.
- *round*: one set of tables drawn together (``RoundDraw``) plus the entrants with a bye.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.draw.errors import N_, DrawError, check_count, check_entrant_id, check_entrants


@dataclass(frozen=True)
class Table:
    """Entrants playing one match together, in seat order, with their sides when partnered.

    ``sides`` is empty when every entrant plays for itself; otherwise it partitions ``entrants``.
    """

    entrants: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        entrants = check_entrants(self.entrants, minimum=1)
        object.__setattr__(self, "entrants", entrants)
        if self.sides:
            sides = tuple(
                tuple(check_entrant_id(entrant) for entrant in side) for side in self.sides
            )
            members = [entrant for side in sides for entrant in side]
            if any(not side for side in sides) or sorted(members) != sorted(entrants):
                raise DrawError(
                    "invalid_table_size",
                    N_("sides %(sides)r must split the table %(entrants)r into non-empty parts"),
                    params={"sides": sides, "entrants": entrants},
                )
            object.__setattr__(self, "sides", sides)

    @classmethod
    def stored(cls, entrants: tuple[int, ...], sides: tuple[tuple[int, ...], ...] = ()) -> Table:
        """A table read back from rows that were checked when they were stored: built without
        checking again (the standings read every table of a tournament on each recomputation)."""
        table = object.__new__(cls)
        object.__setattr__(table, "entrants", entrants)
        object.__setattr__(table, "sides", sides)
        return table

    @property
    def size(self) -> int:
        return len(self.entrants)

    @property
    def all_sides(self) -> tuple[tuple[int, ...], ...]:
        """The sides, one per entrant when none were declared."""
        return self.sides or tuple((entrant,) for entrant in self.entrants)

    def side_of(self, entrant: int) -> tuple[int, ...]:
        for side in self.all_sides:
            if entrant in side:
                return side
        raise DrawError(
            "invalid_entrant",
            N_("entrant %(entrant)s is not at table %(entrants)r"),
            params={"entrant": entrant, "entrants": self.entrants},
        )

    def opponents_of(self, entrant: int) -> tuple[int, ...]:
        """Entrants at the table on another side than ``entrant``, in seat order."""
        side = self.side_of(entrant)
        return tuple(other for other in self.entrants if other not in side)


@dataclass(frozen=True)
class RoundDraw:
    """One round: its tables (in table order, table 1 first) and the entrants with a bye."""

    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", tuple(self.tables))
        object.__setattr__(self, "byes", tuple(self.byes))
        check_entrants(
            [entrant for table in self.tables for entrant in table.entrants] + list(self.byes),
            minimum=0,
        )

    @property
    def entrants(self) -> tuple[int, ...]:
        return tuple(entrant for table in self.tables for entrant in table.entrants) + self.byes


def _aligned(name: str, table: Table, values: object, *, allow_negative: bool) -> tuple[int, ...]:
    """A per-entrant statistic as a tuple aligned with ``table.entrants`` (``()`` when absent)."""
    if values is None or values == ():
        return ()
    if isinstance(values, Mapping):
        unknown = set(values) - set(table.entrants)
        if unknown:
            raise DrawError(
                "invalid_result",
                N_("%(name)s names entrants not at the table: %(unknown)s"),
                params={"name": name, "unknown": unknown},
            )
        values = tuple(values.get(entrant, 0) for entrant in table.entrants)
    values = tuple(values)  # type: ignore[arg-type]
    if len(values) != table.size:
        raise DrawError(
            "invalid_result",
            N_("%(name)s needs one value per seat, got %(values)r"),
            params={"name": name, "values": values},
        )
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int):
            raise DrawError(
                "invalid_result",
                N_("%(name)s values are ints, got %(value)r"),
                params={"name": name, "value": value},
            )
        if value < 0 and not allow_negative:
            raise DrawError(
                "invalid_result",
                N_("%(name)s cannot be negative, got %(value)s"),
                params={"name": name, "value": value},
            )
    return values


@dataclass(frozen=True)
class MatchResult:
    """The decided outcome of one match (or one drive game) at one table.

    ``placings`` are groups of entrants, best first (see the module docstring); partners must share
    a group. ``games_won``, ``points`` and ``tricks`` are per entrant, aligned with
    ``table.entrants``, or empty when not recorded (they then count as 0). Points may be negative
    (bidding games set a side back). Use ``MatchResult.build`` to pass mappings and flat placings.
    """

    table: Table
    placings: tuple[tuple[int, ...], ...]
    games_won: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    tricks: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        placings = tuple(
            (group,) if isinstance(group, int) else tuple(group) for group in self.placings
        )
        members = [check_entrant_id(entrant) for group in placings for entrant in group]
        if any(not group for group in placings) or sorted(members) != sorted(self.table.entrants):
            raise DrawError(
                "invalid_result",
                N_(
                    "placings %(placings)r must list each entrant of table %(entrants)r exactly "
                    "once"
                ),
                params={"placings": placings, "entrants": self.table.entrants},
            )
        group_of = {entrant: index for index, group in enumerate(placings) for entrant in group}
        for side in self.table.all_sides:
            if len({group_of[entrant] for entrant in side}) != 1:
                raise DrawError(
                    "invalid_result",
                    N_("partners %(side)r must share a placing"),
                    params={"side": side},
                )
        object.__setattr__(self, "placings", placings)
        for name in ("games_won", "tricks"):
            values = _aligned(name, self.table, getattr(self, name), allow_negative=False)
            object.__setattr__(self, name, values)
        object.__setattr__(
            self, "points", _aligned("points", self.table, self.points, allow_negative=True)
        )

    @classmethod
    def build(
        cls,
        table: Table,
        placings: Sequence[int | Sequence[int]],
        *,
        games_won: Mapping[int, int] | Sequence[int] | None = None,
        points: Mapping[int, int] | Sequence[int] | None = None,
        tricks: Mapping[int, int] | Sequence[int] | None = None,
    ) -> MatchResult:
        """A result from placings (a bare id is a group of one) and per-entrant mappings."""
        if isinstance(placings, str | bytes) or not isinstance(placings, Sequence):
            raise DrawError(
                "invalid_result",
                N_("placings must be a sequence, got %(placings)r"),
                params={"placings": placings},
            )
        return cls(table, tuple(placings), games_won or (), points or (), tricks or ())  # type: ignore[arg-type]

    @classmethod
    def stored(
        cls,
        table: Table,
        placings: tuple[tuple[int, ...], ...],
        games_won: tuple[int, ...],
        points: tuple[int, ...],
        tricks: tuple[int, ...],
    ) -> MatchResult:
        """A result read back from a row checked when it was stored (``build`` checked it):
        the fields as they are kept, aligned with ``table.entrants``, not checked again."""
        result = object.__new__(cls)
        object.__setattr__(result, "table", table)
        object.__setattr__(result, "placings", placings)
        object.__setattr__(result, "games_won", games_won)
        object.__setattr__(result, "points", points)
        object.__setattr__(result, "tricks", tricks)
        return result

    @property
    def winners(self) -> tuple[int, ...]:
        """The first placing group."""
        return self.placings[0]

    def rank_of(self, entrant: int) -> int:
        """1 for the first placing group, 2 for the next, and so on."""
        for index, group in enumerate(self.placings):
            if entrant in group:
                return index + 1
        raise DrawError(
            "invalid_entrant",
            N_("entrant %(entrant)s is not in this result"),
            params={"entrant": entrant},
        )

    def ordered(self) -> tuple[int, ...]:
        """Entrants best first (ties in their placing group's order)."""
        return tuple(entrant for group in self.placings for entrant in group)

    def outcome_of(self, entrant: int) -> str:
        """``"win"``, ``"draw"`` or ``"loss"`` for ``entrant`` (see the module docstring)."""
        first = self.placings[0]
        if entrant not in first:
            return "loss"
        side = self.table.side_of(entrant)
        return "win" if set(first) == set(side) else "draw"

    def _stat(self, values: tuple[int, ...], entrant: int) -> int:
        if not values:
            return 0
        return values[self.table.entrants.index(entrant)]

    def games_won_by(self, entrant: int) -> int:
        return self._stat(self.games_won, entrant)

    def points_of(self, entrant: int) -> int:
        return self._stat(self.points, entrant)

    def tricks_of(self, entrant: int) -> int:
        return self._stat(self.tricks, entrant)


@dataclass(frozen=True)
class ScoringRule:
    """Match points for each outcome, and how a bye is scored.

    A bye gives ``bye`` match points; with ``bye_is_match_win`` it also counts as a match win for
    the "match wins" tie-break (the usual "a bye counts as a match win with N points" rule).
    """

    win: int = 2
    draw: int = 1
    loss: int = 0
    bye: int = 2
    bye_is_match_win: bool = True

    def __post_init__(self) -> None:
        for name in ("win", "draw", "loss", "bye"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise DrawError(
                    "invalid_option",
                    N_("scoring %(name)s must be an int, got %(value)r"),
                    params={"name": name, "value": value},
                )
        if not isinstance(self.bye_is_match_win, bool):
            raise DrawError("invalid_option", N_("scoring bye_is_match_win must be a bool"))


@dataclass(frozen=True)
class PlayedRound:
    """A drawn round and the results recorded for it so far (any order)."""

    draw: RoundDraw
    results: tuple[MatchResult, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "results", tuple(self.results))

    def result_for(self, table: Table) -> MatchResult | None:
        wanted = frozenset(table.entrants)
        for result in self.results:
            if frozenset(result.table.entrants) == wanted:
                return result
        return None

    @property
    def is_complete(self) -> bool:
        decided = {frozenset(result.table.entrants) for result in self.results}
        return all(frozenset(table.entrants) in decided for table in self.draw.tables)


def check_rounds(
    rounds: Sequence[PlayedRound], entrants: Sequence[int]
) -> tuple[list[MatchResult], Counter[int]]:
    """All results and bye counts of ``rounds``, after checking each round is complete and sound.

    Raises ``round_incomplete`` when a table has no result, ``invalid_result`` for a result whose
    table was not drawn in its round, and ``invalid_entrant`` for an id not among ``entrants``.
    """
    known = set(entrants)
    results: list[MatchResult] = []
    byes: Counter[int] = Counter()
    for number, played in enumerate(rounds, start=1):
        if not isinstance(played, PlayedRound):
            raise DrawError(
                "invalid_result",
                N_("round %(number)s is not a PlayedRound"),
                params={"number": number},
            )
        strangers = set(played.draw.entrants) - known
        if strangers:
            raise DrawError(
                "invalid_entrant",
                N_("round %(number)s has unknown entrants %(sorted_strangers)s"),
                params={"number": number, "sorted_strangers": sorted(strangers)},
            )
        drawn = {frozenset(table.entrants) for table in played.draw.tables}
        for result in played.results:
            if frozenset(result.table.entrants) not in drawn:
                raise DrawError(
                    "invalid_result",
                    N_(
                        "round %(number)s has a result for %(entrants)r, which is not one of its "
                        "tables"
                    ),
                    params={"number": number, "entrants": result.table.entrants},
                )
        if len({frozenset(result.table.entrants) for result in played.results}) != len(
            played.results
        ):
            raise DrawError(
                "invalid_result",
                N_("round %(number)s has two results for one table"),
                params={"number": number},
            )
        if not played.is_complete:
            raise DrawError(
                "round_incomplete",
                N_("round %(number)s still has tables without a result"),
                params={"number": number},
            )
        results.extend(played.results)
        byes.update(played.draw.byes)
    return results, byes


def table_sizes(
    count: int, table_size: int, min_table_size: int | None = None
) -> tuple[tuple[int, ...], int]:
    """How ``count`` entrants split into tables: (sizes, largest first; number of byes).

    Without ``min_table_size`` every table is full and the remainder get byes. With it, the
    entrants are spread over ``ceil(count / table_size)`` tables whose sizes differ by at most one,
    provided the smallest is at least ``min_table_size``; otherwise the remainder get byes.
    """
    table_size = check_count("table_size", table_size, minimum=2)
    if min_table_size is not None:
        check_count("min_table_size", min_table_size, minimum=2)
        if min_table_size > table_size:
            raise DrawError(
                "invalid_table_size",
                N_("min_table_size %(min_table_size)s exceeds table_size %(table_size)s"),
                params={"min_table_size": min_table_size, "table_size": table_size},
            )
    if count < table_size:
        raise DrawError(
            "too_few_entrants",
            N_("%(count)s entrants cannot fill a table of %(table_size)s"),
            params={"count": count, "table_size": table_size},
        )
    if min_table_size is not None and count % table_size:
        tables = -(-count // table_size)
        smallest, larger = divmod(count, tables)
        if smallest >= min_table_size:
            sizes = (smallest + 1,) * larger + (smallest,) * (tables - larger)
            return sizes, 0
    return (table_size,) * (count // table_size), count % table_size


def pair_key(first: int, second: int) -> tuple[int, int]:
    """An unordered pair of entrants as a sortable key."""
    return (first, second) if first < second else (second, first)


def meetings(results: Iterable[MatchResult]) -> Counter[tuple[int, int]]:
    """How often each pair of opponents (entrants on different sides) shared a table."""
    counts: Counter[tuple[int, int]] = Counter()
    for result in results:
        table = result.table
        for index, first in enumerate(table.entrants):
            side = table.side_of(first)
            for second in table.entrants[index + 1 :]:
                if second not in side:
                    counts[pair_key(first, second)] += 1
    return counts


def repeat_pairs(draw: RoundDraw, met: Mapping[tuple[int, int], int]) -> int:
    """Pairs of opponents in ``draw`` who already met (a pair met twice before counts twice)."""
    total = 0
    for table in draw.tables:
        for index, first in enumerate(table.entrants):
            side = table.side_of(first)
            for second in table.entrants[index + 1 :]:
                if second not in side:
                    total += met.get(pair_key(first, second), 0)
    return total
