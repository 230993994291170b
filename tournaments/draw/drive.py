"""Drives (the Irish "25 drive", the Canadian "45s card party"): winners move up table by table.

What it does: ``first_game`` seats everyone at tables, head table first; after each game
``next_game`` moves the winners of every table up one table and the others stay or move down, and
re-seats each table, splitting partners who arrive together. ``moves`` reports who goes where.
The standings are cumulative (``ranking.compute_standings`` over every game's results, e.g.
ranked by ``match_wins`` then ``points_for``).

What it does not do: decide a game (the rules engine does), rank, or store anything.

Terms:
- *head table*: table 1, the top; the *foot table* is the last. Tables are numbered from 1.
- *entrant*: an individual or a fixed partnership (a team id that fills one place at a table;
  the service seats its members with ``seat_sides``).
- *progressive partners*: with ``sides_per_table`` set, individuals at a table are dealt into
  that many sides for one game and partnered only for that game.
- *winners*: the best ``winners_per_table`` entrants of a table's game by its placings (with
  progressive partners, the winning side); the cut must not fall inside a tie.
- *movement* ``losers_stay``: winners move up one table, the others stay; the head table's winners
  stay at the head and its losers go to the foot table.
  *movement* ``losers_down``: winners move up one table, the others move down one; the head
  table's winners stay at the head and the foot table's losers stay at the foot.
  Both keep every table full when winners are exactly half a table. When they are not, the
  tables are refilled in ladder order: everyone sorted by (table they are sent to, arriving from
  below / staying / arriving from above, table they come from, placing there) and cut into
  tables of the table size.
- *seating*: arrivals from the table below are listed first, then those from the same table,
  then those from above, each group in placing order; with progressive partners this list is
  dealt round the sides (1st to side A, 2nd to side B, ...), so two partners arriving together
  are split, and the sides then sit alternately (``seat_sides``): partners never sit side by side.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.draw.errors import N_, DrawError, check_count, check_entrants
from tournaments.draw.types import MatchResult, Table

MOVEMENTS = ("losers_stay", "losers_down")


@dataclass(frozen=True)
class DriveRules:
    """How a drive is played: entrants per table, games, partnering, winners, movement."""

    table_size: int
    games: int
    sides_per_table: int | None = None
    winners_per_table: int | None = None
    movement: str = "losers_stay"

    def __post_init__(self) -> None:
        check_count("table_size", self.table_size, minimum=2)
        check_count("games", self.games, minimum=1)
        if self.movement not in MOVEMENTS:
            raise DrawError(
                "invalid_option",
                N_("movement must be one of %(MOVEMENTS)s, got %(movement)r"),
                params={"MOVEMENTS": MOVEMENTS, "movement": self.movement},
            )
        if self.sides_per_table is not None:
            sides = check_count("sides_per_table", self.sides_per_table, minimum=2)
            if sides >= self.table_size or self.table_size % sides:
                raise DrawError(
                    "invalid_table_size",
                    N_("%(table_size)s entrants cannot form %(sides)s sides of two or more"),
                    params={"table_size": self.table_size, "sides": sides},
                )
        if self.winners_per_table is not None:
            check_count("winners_per_table", self.winners_per_table, minimum=1)
        winners = self.winners
        if winners >= self.table_size:
            raise DrawError(
                "invalid_table_size",
                N_("%(winners)s winners leave nobody to lose at a table"),
                params={"winners": winners},
            )
        if self.sides_per_table is not None and winners % self.side_size:
            raise DrawError(
                "invalid_option",
                N_("%(winners)s winners are not whole sides of %(side_size)s"),
                params={"winners": winners, "side_size": self.side_size},
            )

    @property
    def side_size(self) -> int:
        return self.table_size // (self.sides_per_table or self.table_size)

    @property
    def winners(self) -> int:
        """``winners_per_table``, by default one side, or half the table without sides."""
        if self.winners_per_table is not None:
            return self.winners_per_table
        if self.sides_per_table is not None:
            return self.side_size
        return max(self.table_size // 2, 1)


@dataclass(frozen=True)
class DriveGame:
    """One game of a drive: its number (from 1) and its tables, head table first."""

    number: int
    tables: tuple[Table, ...]


@dataclass(frozen=True)
class Move:
    """Where an entrant plays next: table numbers from 1 (1 = head)."""

    entrant: int
    from_table: int
    to_table: int


def seat_sides(sides: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Seat order (clockwise) for equal sides, alternating: seat i holds side i mod s.

    Pairs sit opposite at 4, 6, 8 or 10 seats; three sides of two or of three alternate. Raises
    ``invalid_table_size`` when the sides differ in size.
    """
    sides = [tuple(side) for side in sides]
    if not sides or len({len(side) for side in sides}) != 1:
        raise DrawError(
            "invalid_table_size",
            N_("sides %(sides)r must all be the same size"),
            params={"sides": sides},
        )
    check_entrants([entrant for side in sides for entrant in side])
    count = len(sides)
    return tuple(sides[seat % count][seat // count] for seat in range(count * len(sides[0])))


def _table(rules: DriveRules, entrants: Sequence[int]) -> Table:
    """A table seated from ``entrants`` in order, dealt into sides when partners progress."""
    if rules.sides_per_table is None:
        return Table(tuple(entrants))
    count = rules.sides_per_table
    sides = [tuple(entrants[index::count]) for index in range(count)]
    return Table(seat_sides(sides), tuple(sides))


def first_game(
    entrants: Sequence[int], rules: DriveRules, *, seed: int | str | None = None
) -> DriveGame:
    """Game 1: entrants seated in the given order (shuffled first when ``seed`` is given).

    Raises ``too_few_entrants`` below one table and ``invalid_entrant_count`` when the entrants
    do not fill whole tables.
    """
    if not isinstance(rules, DriveRules):
        raise DrawError("invalid_option", N_("rules must be DriveRules"))
    entrants = list(check_entrants(entrants, minimum=rules.table_size))
    if len(entrants) % rules.table_size:
        raise DrawError(
            "invalid_entrant_count",
            N_("%(entrants_count)s entrants do not fill tables of %(table_size)s"),
            params={"entrants_count": len(entrants), "table_size": rules.table_size},
        )
    if seed is not None:
        random.Random(str(seed)).shuffle(entrants)
    size = rules.table_size
    tables = tuple(
        _table(rules, entrants[start : start + size]) for start in range(0, len(entrants), size)
    )
    return DriveGame(1, tables)


def _results_by_table(game: DriveGame, results: Sequence[MatchResult]) -> list[MatchResult]:
    """One result per table of ``game``, in table order, each checked against its table."""
    if isinstance(results, MatchResult) or not isinstance(results, Sequence):
        raise DrawError("invalid_result", N_("results must be a sequence of MatchResult"))
    number_of = {frozenset(table.entrants): number for number, table in enumerate(game.tables)}
    found: dict[int, MatchResult] = {}
    for result in results:
        if not isinstance(result, MatchResult):
            raise DrawError(
                "invalid_result", N_("%(result)r is not a MatchResult"), params={"result": result}
            )
        number = number_of.get(frozenset(result.table.entrants))
        if number is None:
            raise DrawError(
                "invalid_result",
                N_("%(entrants)r is not a table of game %(number)s"),
                params={"entrants": result.table.entrants, "number": game.number},
            )
        if number in found:
            raise DrawError(
                "invalid_result",
                N_("two results for table %(value)s"),
                params={"value": number + 1},
            )
        table = game.tables[number]
        if {frozenset(side) for side in result.table.all_sides} != {
            frozenset(side) for side in table.all_sides
        }:
            raise DrawError(
                "invalid_result",
                N_("the result for table %(value)s changes the sides"),
                params={"value": number + 1},
            )
        found[number] = result
    for number in range(len(game.tables)):
        if number not in found:
            raise DrawError(
                "round_incomplete",
                N_("table %(value)s of game %(number)s has no result"),
                params={"value": number + 1, "number": game.number},
            )
    return [found[number] for number in range(len(game.tables))]


def _placed(rules: DriveRules, result: MatchResult, number: int) -> tuple[list[int], list[int]]:
    """(winners, others) of a table, each in placing order."""
    ordered = list(result.ordered())
    covered = 0
    for group in result.placings:
        covered += len(group)
        if covered >= rules.winners:
            break
    if covered != rules.winners:
        raise DrawError(
            "invalid_result",
            N_("table %(number)s: the placings tie across the %(winners)s winning places"),
            params={"number": number, "winners": rules.winners},
        )
    return ordered[: rules.winners], ordered[rules.winners :]


def _ladder(rules: DriveRules, game: DriveGame, results: Sequence[MatchResult]):
    """Entrants in ladder order with (to_table, from_table), both from 1."""
    ordered = _results_by_table(game, results)
    count = len(game.tables)
    ladder: list[tuple[int, int, int, int]] = []
    for number, result in enumerate(ordered, start=1):
        winners, others = _placed(rules, result, number)
        for place, entrant in enumerate(winners):
            ladder.append((max(number - 1, 1), number, place, entrant))
        for place, entrant in enumerate(others, start=len(winners)):
            if rules.movement == "losers_down":
                target = min(number + 1, count)
            else:
                target = count if number == 1 else number
            ladder.append((target, number, place, entrant))

    # Arrivals from below come first at a table, then stayers, then arrivals from above; the
    # head table's losers sent to the foot (losers_stay) count as arriving from below the foot.
    def sort_key(entry: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        target, origin, place, _ = entry
        arriving = -1 if origin > target else 0 if origin == target else 1
        if origin == 1 and target == count and count > 1 and rules.movement == "losers_stay":
            arriving = -1
        return (target, arriving, origin, place)

    ladder.sort(key=sort_key)
    return ladder


def moves(rules: DriveRules, game: DriveGame, results: Sequence[MatchResult]) -> tuple[Move, ...]:
    """Where every entrant plays the next game, table by table from the head (ladder order)."""
    ladder = _ladder(rules, game, results)
    return tuple(
        Move(entrant, origin, index // rules.table_size + 1)
        for index, (_, origin, _, entrant) in enumerate(ladder)
    )


def next_game(
    rules: DriveRules,
    game: DriveGame,
    results: Sequence[MatchResult],
    newcomers: Sequence[int] = (),
) -> DriveGame:
    """The next game after ``game``, from one ``MatchResult`` per table (any order).

    ``newcomers``: late arrivals, in the order they joined; they start at the foot table, after
    everyone already in the ladder. Raises ``round_incomplete`` when a table has no result,
    ``invalid_result`` for a result that is not for one of the tables or ties across the
    winners' cut, ``invalid_entrant_count`` when the newcomers leave a table part-filled, and
    ``tournament_complete`` after the last game of ``rules.games``.
    """
    if game.number >= rules.games:
        raise DrawError(
            "tournament_complete",
            N_("the drive has %(games)s games"),
            params={"games": rules.games},
        )
    size = rules.table_size
    ladder = [entrant for *_, entrant in _ladder(rules, game, results)]
    if newcomers:
        ladder += check_entrants([*ladder, *newcomers])[len(ladder) :]
        if len(ladder) % size:
            raise DrawError(
                "invalid_entrant_count",
                f"with {len(newcomers)} late arrival(s) the drive has {len(ladder)} entrants, "
                f"which do not fill tables of {size}: enter {size - len(ladder) % size} more "
                "before drawing",
            )
    tables = tuple(
        _table(rules, ladder[start : start + size]) for start in range(0, len(ladder), size)
    )
    return DriveGame(game.number + 1, tables)
