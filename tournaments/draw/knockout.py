"""Knockout brackets: seeding, byes to the top seeds, and filling each round as matches end.

What it does: ``plan_bracket`` fixes the whole bracket from the seeded entrants, the table size
and how many advance from each table; ``first_round`` lists the round-1 tables and byes;
``advance`` returns every table whose entrants are now all known and that still awaits a result,
so a service can create tables one by one as matches are decided; ``feeders_of`` says who is
already through to a table still waiting for another feeder; ``round_draw`` draws a whole
round at once (refusing while the round before is undecided); ``stage_keys`` and ``champion`` read
the outcome for the standings.

What it does not do: decide matches (``matches``), rank entrants level on stage (``ranking`` does,
with ``stage_keys`` as its primary key), or store anything.

Terms:
- *seed*: an entrant's position in the list given to ``plan_bracket``; seed 1 comes first.
- *table size* k and *advancing* m: each table of k entrants sends its best m to the next round.
  ``m`` must divide ``k``; the *group* g = k / m tables feed one table of the next round.
  Two-sided knockouts are k = 2, m = 1 (an entrant may be a team: "team v team").
- *slot*: a seat in round 1. Round 1 has k * g ** (rounds - 1) slots, the fewest that hold every
  entrant; slots without an entrant are byes. The layout is standard seeding, built backwards
  from the final: each table's expected advancers are dealt (in snake order) to its g feeder
  tables, and the next band of seeds fills the feeders, the weakest newcomers going to the
  strongest tables. For k = 2 this is the familiar 1 v 16, 8 v 9, 4 v 13, 5 v 12, ...; the empty
  slots (seeds beyond the entrant count) therefore fall to the top seeds.
- *walkover*: a table with no more than m entrants; they all advance without playing.
- *key*: ``(round_number, position)``, both from 1 and 0. The final is ``(rounds, 0)``; the
  optional third-place table is ``(rounds, 1)``: the entrants knocked out of the round before the
  final, when g = 2 (so they fit one table). A third-place table of one entrant is a walkover.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.draw.errors import N_, DrawError, check_count, check_entrants
from tournaments.draw.types import MatchResult, Table

Key = tuple[int, int]


@dataclass(frozen=True)
class Bracket:
    """A planned knockout. ``slots`` holds round 1: per table, per seat, an entrant or None."""

    entrants: tuple[int, ...]
    table_size: int
    advancing: int
    third_place: bool
    rounds: int
    slots: tuple[tuple[int | None, ...], ...]

    @property
    def group(self) -> int:
        return self.table_size // self.advancing

    def tables_in_round(self, round_number: int) -> int:
        return self.group ** (self.rounds - round_number)


@dataclass(frozen=True)
class BracketTable:
    """A table of the bracket with its key; ``table.entrants`` are in seat order."""

    round_number: int
    position: int
    table: Table
    is_third_place: bool = False

    @property
    def key(self) -> Key:
        return (self.round_number, self.position)


@dataclass(frozen=True)
class KnockoutRound:
    """The tables to play in one round and the entrants advancing from it by walkover."""

    round_number: int
    tables: tuple[BracketTable, ...]
    byes: tuple[int, ...]


def _seed_layout(rounds: int, table_size: int, advancing: int) -> list[list[int]]:
    """Round-1 tables as lists of seed numbers (1-based), built backwards from the final."""
    group = table_size // advancing
    tables = [list(range(1, table_size + 1))]
    slots = table_size
    for _ in range(rounds - 1):
        feeders: list[list[int]] = []
        for table in tables:
            groups: list[list[int]] = [[] for _ in range(group)]
            for index, seed in enumerate(sorted(table)):
                lap, offset = divmod(index, group)
                groups[offset if lap % 2 == 0 else group - 1 - offset].append(seed)
            feeders.extend(groups)
        newcomers = iter(range(slots * group, slots, -1))
        strongest_first = sorted(range(len(feeders)), key=lambda index: sorted(feeders[index]))
        for _ in range(table_size - advancing):
            for index in strongest_first:
                feeders[index].append(next(newcomers))
        tables = [sorted(feeder) for feeder in feeders]
        slots *= group
    return tables


def plan_bracket(
    entrants: Sequence[int],
    *,
    table_size: int = 2,
    advancing: int = 1,
    third_place: bool = False,
) -> Bracket:
    """The bracket for ``entrants`` in seed order.

    Raises ``invalid_table_size`` unless 1 <= advancing < table_size and advancing divides
    table_size; ``too_few_entrants`` below one full table; ``invalid_option`` for a third-place
    table when g != 2 or the bracket has a single round.
    """
    table_size = check_count("table_size", table_size, minimum=2)
    advancing = check_count("advancing", advancing, minimum=1)
    if advancing >= table_size or table_size % advancing:
        raise DrawError(
            "invalid_table_size",
            N_(
                "%(advancing)s advancing from tables of %(table_size)s: the number advancing must "
                "divide the table size and be smaller than it"
            ),
            params={"advancing": advancing, "table_size": table_size},
        )
    if not isinstance(third_place, bool):
        raise DrawError("invalid_option", N_("third_place must be a bool"))
    entrants = check_entrants(entrants, minimum=table_size)
    group = table_size // advancing
    rounds, slots = 1, table_size
    while slots < len(entrants):
        rounds, slots = rounds + 1, slots * group
    if third_place and (group != 2 or rounds < 2):
        raise DrawError(
            "invalid_option",
            N_("a third-place table needs half of each table to advance and at least two rounds"),
        )
    layout = _seed_layout(rounds, table_size, advancing)
    seats = tuple(
        tuple(entrants[seed - 1] if seed <= len(entrants) else None for seed in table)
        for table in layout
    )
    return Bracket(entrants, table_size, advancing, third_place, rounds, seats)


def _advancers(bracket: Bracket, key: Key, entrants: tuple[int, ...], result: MatchResult):
    """(advancing, knocked out) from a decided table; the cut must fall between placings."""
    if frozenset(result.table.entrants) != frozenset(entrants):
        raise DrawError(
            "invalid_result",
            N_("result for table %(key)s lists %(entrants)r, the table is %(entrants2)r"),
            params={"key": key, "entrants": result.table.entrants, "entrants2": entrants},
        )
    ordered = result.ordered()
    cut = bracket.advancing
    boundary = sum(len(group) for group in result.placings[: _groups_covering(result, cut)])
    if boundary != cut:
        raise DrawError(
            "invalid_result",
            N_("table %(key)s: the placings tie across the %(cut)s advancing places"),
            params={"key": key, "cut": cut},
        )
    return ordered[:cut], ordered[cut:]


def _groups_covering(result: MatchResult, count: int) -> int:
    covered = 0
    for index, group in enumerate(result.placings):
        covered += len(group)
        if covered >= count:
            return index + 1
    return len(result.placings)


def _resolve(bracket: Bracket, results: Mapping[Key, MatchResult]):
    """Every table known so far: key -> (entrants, advancers or None, knocked out or None)."""
    if not isinstance(results, Mapping):
        raise DrawError("invalid_result", N_("results must map (round, position) to a MatchResult"))
    known: dict[Key, tuple[tuple[int, ...], tuple | None, tuple | None]] = {}

    def settle(key: Key, entrants: tuple[int, ...], needed: int) -> None:
        result = results.get(key)
        if len(entrants) <= needed:
            if result is not None:
                raise DrawError(
                    "invalid_result",
                    N_("table %(key)s is a walkover and has no result"),
                    params={"key": key},
                )
            known[key] = (entrants, entrants, ())
        elif result is None:
            known[key] = (entrants, None, None)
        else:
            if not isinstance(result, MatchResult):
                raise DrawError(
                    "invalid_result",
                    N_("result for table %(key)s is not a MatchResult"),
                    params={"key": key},
                )
            advancing, out = _advancers(bracket, key, entrants, result)
            known[key] = (entrants, advancing, out)

    for position, seats in enumerate(bracket.slots):
        entrants = tuple(entrant for entrant in seats if entrant is not None)
        settle((1, position), entrants, bracket.advancing)
    for round_number in range(2, bracket.rounds + 1):
        for position in range(bracket.tables_in_round(round_number)):
            feeders = [
                known.get((round_number - 1, position * bracket.group + offset))
                for offset in range(bracket.group)
            ]
            if all(feeder is not None and feeder[1] is not None for feeder in feeders):
                entrants = tuple(entrant for feeder in feeders for entrant in feeder[1])
                settle((round_number, position), entrants, bracket.advancing)
    if bracket.third_place:
        semis = [
            known.get((bracket.rounds - 1, position))
            for position in range(bracket.tables_in_round(bracket.rounds - 1))
        ]
        if all(semi is not None and semi[2] is not None for semi in semis):
            entrants = tuple(entrant for semi in semis for entrant in semi[2])
            settle((bracket.rounds, 1), entrants, 1)
    strays = set(results) - set(known)
    if strays:
        raise DrawError(
            "invalid_result",
            N_("results for tables not yet drawn: %(sorted_strays)s"),
            params={"sorted_strays": sorted(strays)},
        )
    return known


def _bracket_table(bracket: Bracket, key: Key, entrants: tuple[int, ...]) -> BracketTable:
    is_third_place = bracket.third_place and key == (bracket.rounds, 1)
    return BracketTable(key[0], key[1], Table(entrants), is_third_place)


def first_round(bracket: Bracket) -> KnockoutRound:
    """Round 1: the tables to play and the entrants who advance by walkover (the byes)."""
    return round_draw(bracket, 1, {})


def round_draw(
    bracket: Bracket, round_number: int, results: Mapping[Key, MatchResult]
) -> KnockoutRound:
    """All tables of ``round_number`` to play, with its walkovers.

    Raises ``tournament_complete`` beyond the final and ``round_incomplete`` while a table of the
    round still waits for the round before.
    """
    round_number = check_count("round_number", round_number, minimum=1)
    if round_number > bracket.rounds:
        raise DrawError(
            "tournament_complete",
            N_("the bracket has %(rounds)s rounds, not %(round_number)s"),
            params={"rounds": bracket.rounds, "round_number": round_number},
        )
    known = _resolve(bracket, results)
    positions = range(bracket.tables_in_round(round_number))
    if round_number == bracket.rounds and bracket.third_place:
        positions = range(2)
    missing = [position for position in positions if (round_number, position) not in known]
    if missing:
        raise DrawError(
            "round_incomplete",
            N_("round %(value)s must be decided before round %(round_number)s is drawn"),
            params={"value": round_number - 1, "round_number": round_number},
        )
    tables, byes = [], []
    for position in positions:
        entrants, advancing, _ = known[(round_number, position)]
        needed = 1 if position == 1 and round_number == bracket.rounds else bracket.advancing
        if len(entrants) <= needed:
            byes.extend(entrants)
        else:
            tables.append(_bracket_table(bracket, (round_number, position), entrants))
    return KnockoutRound(round_number, tuple(tables), tuple(byes))


def advance(bracket: Bracket, results: Mapping[Key, MatchResult]) -> tuple[BracketTable, ...]:
    """Every table whose entrants are all known, that must be played and has no result yet.

    ``results`` maps table keys to decided ``MatchResult``s. A result whose table does not match
    the bracket, arrives before its table is drawn, or ties across the advancing places raises
    ``invalid_result``. Tables come in key order; the service creates those it lacks.
    """
    known = _resolve(bracket, results)
    return tuple(
        _bracket_table(bracket, key, entrants)
        for key, (entrants, advancing, _) in sorted(known.items())
        if advancing is None
    )


def feeders_of(
    bracket: Bracket, results: Mapping[Key, MatchResult]
) -> dict[Key, tuple[tuple[Key, tuple[int, ...] | None], ...]]:
    """Every table after round 1 with its feeder tables and what each sends it so far.

    Each feeder is ``(key, entrants)``: the entrants it sends — its advancing ones (a walkover's
    too), or for the third-place table the ones it knocked out — as soon as it is decided, and
    None while it is not. So a table shows who is already through before its other feeders are
    decided. Raises ``invalid_result`` as ``advance`` does.
    """
    known = _resolve(bracket, results)
    tables: dict[Key, tuple[tuple[Key, tuple[int, ...] | None], ...]] = {}
    for round_number in range(2, bracket.rounds + 1):
        for position in range(bracket.tables_in_round(round_number)):
            keys = [
                (round_number - 1, position * bracket.group + offset)
                for offset in range(bracket.group)
            ]
            tables[(round_number, position)] = tuple(
                (key, known[key][1] if key in known else None) for key in keys
            )
    if bracket.third_place:
        semi_finals = [
            (bracket.rounds - 1, position)
            for position in range(bracket.tables_in_round(bracket.rounds - 1))
        ]
        tables[(bracket.rounds, 1)] = tuple(
            (key, known[key][2] if key in known else None) for key in semi_finals
        )
    return tables


def is_complete(bracket: Bracket, results: Mapping[Key, MatchResult]) -> bool:
    """True when the final (and the third-place table, if any) is decided."""
    known = _resolve(bracket, results)
    keys = [(bracket.rounds, 0)] + ([(bracket.rounds, 1)] if bracket.third_place else [])
    return all(key in known and known[key][1] is not None for key in keys)


def champion(bracket: Bracket, results: Mapping[Key, MatchResult]) -> int | None:
    """The winner of the final, or None before it is decided."""
    result = results.get((bracket.rounds, 0))
    _resolve(bracket, results)
    return result.ordered()[0] if result is not None else None


def stage_keys(bracket: Bracket, results: Mapping[Key, MatchResult]) -> dict[int, tuple]:
    """How far each entrant got, as a ``ranking.compute_standings`` primary key (higher better).

    The key is (round of the entrant's last table, 1 for the final else 0, minus its placing
    there); an entrant still waiting at an undecided table has placing 0, above anyone already
    out of that round. So the final orders the top k, the third-place table the next ones, and
    entrants knocked out earlier rank below, level with those out in the same round and place.
    An entrant that went through (by result or walkover) to a table not yet formed — a sibling
    feeder is still undecided — already counts as waiting in the next round: it must not rank
    below the entrants still playing the round it has left.
    """
    known = _resolve(bracket, results)
    keys: dict[int, tuple] = {}

    def is_final(key: Key) -> int:
        return 1 if key == (bracket.rounds, 0) else 0

    for (round_number, position), (entrants, advancing, _) in sorted(known.items()):
        result = results.get((round_number, position))
        for entrant in entrants:
            placing = result.rank_of(entrant) if result is not None else 0
            keys[entrant] = (round_number, is_final((round_number, position)), -placing)
        following = (round_number + 1, position // bracket.group)
        if advancing and round_number < bracket.rounds and following not in known:
            for entrant in advancing:
                keys[entrant] = (following[0], is_final(following), 0)
    return keys
