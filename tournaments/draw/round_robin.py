"""Round robin schedules: everyone meets everyone, at tables of two or more.

What it does: ``schedule`` returns every round of a round robin at once (it depends on nothing
but the entrants, so a service may store it up front or draw it round by round); ``next_round``
returns the round after those played, refusing while one is incomplete.

- Tables of two use the *circle method*: the first entrant stays put, the others rotate one place
  each round; with an odd count a dummy makes the numbers even and whoever meets it has a bye.
  ``n - 1`` rounds (``n`` when odd) meet every pair exactly once; asking for more rounds repeats
  the cycle with the seats swapped (a double round robin).
- Tables of k > 2 are *balanced groups*: each round the entrants are split into tables so that
  pairs meet as evenly as possible. When there are q * q entrants at tables of q, with q in
  ``AFFINE_ORDERS``, the rounds are the parallel classes of the affine plane of order q, so every
  pair meets exactly once in q + 1 rounds (and again in the next q + 1). Otherwise it is a
  *heuristic*, round by round: seeded random starts improved by ``swiss.improve_grouping`` with
  the number of earlier meetings as the pair cost, keeping the best start. Entrants play every
  round when the count allows (``min_table_size`` permits short tables); otherwise the byes go
  to those with the fewest so far, in rotation. The default number of rounds, ceil((n-1)/(k-1)),
  is the fewest in which everyone could meet everyone.

What it does not do: score or rank (``ranking``), or store anything.

Terms: *round*, *table*, *bye* as in ``types``; *meeting*: two entrants at one table in a round.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

from tournaments.draw.errors import N_, DrawError, check_count, check_entrants
from tournaments.draw.swiss import improve_grouping
from tournaments.draw.types import (
    PlayedRound,
    RoundDraw,
    Table,
    check_rounds,
    pair_key,
    table_sizes,
)

AFFINE_ORDERS = (2, 3, 4, 5, 7)
RESTARTS = 3
EVEN_OUT_STEPS = 60_000

# Multiplication in GF(4) = GF(2)[x] / (x^2 + x + 1), elements 0, 1, x, x + 1 written 0..3;
# addition is exclusive or.
_GF4_TIMES = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)


def _field(order: int):
    """(add, multiply) for the finite field of ``order`` elements (a prime, or 4)."""
    if order == 4:
        return (lambda a, b: a ^ b), (lambda a, b: _GF4_TIMES[a][b])
    return (lambda a, b: (a + b) % order), (lambda a, b: (a * b) % order)


def _affine_rounds(entrants: tuple[int, ...], order: int) -> list[list[list[int]]]:
    """The q + 1 parallel classes of the affine plane: point (x, y) is entrant x * q + y."""
    add, multiply = _field(order)
    rounds = []
    for slope in range(order):
        tables = [[] for _ in range(order)]
        for x in range(order):
            for y in range(order):
                # The line y = slope * x + c holds the point; c = y - slope * x (in the field).
                offset = next(c for c in range(order) if add(multiply(slope, x), c) == y)
                tables[offset].append(entrants[x * order + y])
        rounds.append(tables)
    rounds.append([[entrants[x * order + y] for y in range(order)] for x in range(order)])
    return rounds


def _circle_round(entrants: tuple[int, ...], index: int) -> RoundDraw:
    """Round ``index`` (from 0) of the circle method; odd cycles swap the seats."""
    players: list[int | None] = list(entrants)
    if len(players) % 2:
        players.append(None)
    count = len(players)
    cycle, step = divmod(index, count - 1)
    rotating = players[1:]
    rotating = rotating[len(rotating) - step :] + rotating[: len(rotating) - step]
    arranged = [players[0], *rotating]
    tables, byes = [], []
    for seat in range(count // 2):
        first, second = arranged[seat], arranged[count - 1 - seat]
        # Alternate who takes seat 0 so nobody always sits first.
        if (seat == 0 and step % 2 == 1) != (cycle % 2 == 1):
            first, second = second, first
        if first is None or second is None:
            byes.append(first if second is None else second)
        else:
            tables.append(Table((first, second)))
    return RoundDraw(tuple(tables), tuple(byes))


def _choose_byes(
    entrants: tuple[int, ...], bye_count: int, byes_had: Counter, round_index: int
) -> list[int]:
    """The ``bye_count`` entrants with the fewest byes, ties broken in rotation by round."""
    count = len(entrants)
    rotation = {
        entrant: (index - round_index * bye_count) % count for index, entrant in enumerate(entrants)
    }
    ordered = sorted(entrants, key=lambda entrant: (byes_had[entrant], -rotation[entrant]))
    return ordered[:bye_count]


def _grouped_rounds(
    entrants: tuple[int, ...],
    table_size: int,
    rounds: int,
    min_table_size: int | None,
    seed: int | str,
) -> list[RoundDraw]:
    sizes, bye_count = table_sizes(len(entrants), table_size, min_table_size)
    position = {entrant: index for index, entrant in enumerate(entrants)}
    if bye_count == 0 and table_size in AFFINE_ORDERS and len(entrants) == table_size**2:
        design = _affine_rounds(entrants, table_size)
        return [
            RoundDraw(tuple(Table(tuple(table)) for table in design[index % len(design)]))
            for index in range(rounds)
        ]
    grouped: list[tuple[list[list[int]], list[int]]] = []
    met: Counter[tuple[int, int]] = Counter()
    byes_had: Counter[int] = Counter()
    for round_index in range(rounds):
        byes = _choose_byes(entrants, bye_count, byes_had, round_index)
        playing = [entrant for entrant in entrants if entrant not in byes]

        def pair_cost(first: int, second: int) -> int:
            return met[pair_key(first, second)]

        best, best_cost = None, None
        generator = random.Random(f"{seed}:{round_index}")
        for _ in range(RESTARTS):
            generator.shuffle(playing)
            start, tables = 0, []
            for size in sizes:
                tables.append(playing[start : start + size])
                start += size
            tables = improve_grouping(tables, pair_cost)
            cost = sum(
                pair_cost(first, second)
                for table in tables
                for index, first in enumerate(table)
                for second in table[index + 1 :]
            )
            if best_cost is None or cost < best_cost:
                best, best_cost = tables, cost
        for table in best:
            for index, first in enumerate(table):
                for second in table[index + 1 :]:
                    met[pair_key(first, second)] += 1
        byes_had.update(byes)
        grouped.append((best, byes))
    _even_out([tables for tables, _ in grouped], met, entrants, random.Random(f"{seed}:even"))
    draws: list[RoundDraw] = []
    for tables, byes in grouped:
        tables = [sorted(table, key=position.__getitem__) for table in tables]
        tables.sort(key=lambda table: position[table[0]])
        ordered_byes = tuple(sorted(byes, key=position.__getitem__))
        draws.append(RoundDraw(tuple(Table(tuple(table)) for table in tables), ordered_byes))
    return draws


def _grow(count: int) -> int:
    """(count + 1) cubed minus count cubed: the cost of one more meeting of a pair."""
    return 3 * count * count + 3 * count + 1


def _even_out(
    rounds: list[list[list[int]]], met: Counter, entrants: Sequence[int], generator: random.Random
) -> None:
    """Simulated annealing over the whole schedule, in place: lower the sum of cubed meetings.

    With the number of meetings fixed, the sum over pairs of (meetings) cubed is smallest when
    every pair meets as often as every other, give or take one (cubes rather than squares make a
    pair meeting three times cost more than two pairs meeting twice); that floor is known, so the
    search stops as soon as it is reached, or after ``EVEN_OUT_STEPS`` tries. A try swaps two
    entrants at different tables of one round; a worse swap is kept with a probability that
    shrinks as the search cools, so the search can leave local minima. Byes are not moved.
    """
    count = len(entrants)
    index_of = {entrant: index for index, entrant in enumerate(entrants)}
    # Work on indices and a matrix of meetings: this loop is the hot path of the schedule.
    matrix = [[0] * count for _ in range(count)]
    for (first, second), meetings in met.items():
        matrix[index_of[first]][index_of[second]] = meetings
        matrix[index_of[second]][index_of[first]] = meetings
    work = [[[index_of[entrant] for entrant in table] for table in tables] for tables in rounds]
    pair_count = count * (count - 1) // 2
    usual, extra = divmod(sum(met.values()), pair_count)
    floor = (pair_count - extra) * usual**3 + extra * (usual + 1) ** 3
    current = sum(meetings**3 for meetings in met.values())
    candidates = [tables for tables in work if len(tables) > 1]
    if not candidates:
        return
    best_cost, best = current, [[list(table) for table in tables] for tables in work]
    for step in range(EVEN_OUT_STEPS):
        if current == floor:
            break
        tables = generator.choice(candidates)
        first_table, second_table = generator.sample(tables, 2)
        seat = generator.randrange(len(first_table))
        other_seat = generator.randrange(len(second_table))
        entrant, other = first_table[seat], second_table[other_seat]
        entrant_row, other_row = matrix[entrant], matrix[other]
        delta = 0
        for mate in first_table:
            if mate != entrant:
                delta += _grow(other_row[mate]) - _grow(entrant_row[mate] - 1)
        for mate in second_table:
            if mate != other:
                delta += _grow(entrant_row[mate]) - _grow(other_row[mate] - 1)
        if delta > 0:
            temperature = 4.0 * (0.01 ** (step / EVEN_OUT_STEPS))
            if generator.random() >= math.exp(-delta / temperature):
                continue
        for mate in first_table:
            if mate != entrant:
                entrant_row[mate] -= 1
                matrix[mate][entrant] -= 1
                other_row[mate] += 1
                matrix[mate][other] += 1
        for mate in second_table:
            if mate != other:
                other_row[mate] -= 1
                matrix[mate][other] -= 1
                entrant_row[mate] += 1
                matrix[mate][entrant] += 1
        first_table[seat], second_table[other_seat] = other, entrant
        current += delta
        if current < best_cost:
            best_cost, best = current, [[list(table) for table in tables] for tables in work]
    for tables, kept in zip(rounds, best, strict=True):
        tables[:] = [[entrants[index] for index in table] for table in kept]


def default_rounds(entrant_count: int, table_size: int) -> int:
    """Rounds for everyone to meet everyone: n - 1 (n if odd) at two, else ceil((n-1)/(k-1))."""
    if table_size == 2:
        return entrant_count - 1 if entrant_count % 2 == 0 else entrant_count
    return -(-(entrant_count - 1) // (table_size - 1))


def schedule(
    entrants: Sequence[int],
    *,
    table_size: int = 2,
    rounds: int | None = None,
    min_table_size: int | None = None,
    seed: int | str = 0,
) -> tuple[RoundDraw, ...]:
    """Every round of the round robin, round 1 first (deterministic for a given ``seed``).

    Raises ``too_few_entrants`` below one full table, ``invalid_table_size`` and
    ``invalid_option`` for sizes and counts out of range, and the entrant errors of ``types``.
    """
    entrants = check_entrants(entrants, minimum=1)
    table_size = check_count("table_size", table_size, minimum=2)
    table_sizes(len(entrants), table_size, min_table_size)  # validates the sizes
    if rounds is None:
        rounds = default_rounds(len(entrants), table_size)
    rounds = check_count("rounds", rounds, minimum=1)
    if table_size == 2:
        return tuple(_circle_round(entrants, index) for index in range(rounds))
    return tuple(_grouped_rounds(entrants, table_size, rounds, min_table_size, seed))


def next_round(
    entrants: Sequence[int],
    played: Sequence[PlayedRound],
    *,
    table_size: int = 2,
    rounds: int | None = None,
    min_table_size: int | None = None,
    seed: int | str = 0,
) -> RoundDraw:
    """The round after ``played`` in ``schedule(...)`` with the same arguments.

    Raises ``round_incomplete`` when a played round lacks a result and ``tournament_complete``
    when every round of the schedule has been drawn.
    """
    all_rounds = schedule(
        entrants,
        table_size=table_size,
        rounds=rounds,
        min_table_size=min_table_size,
        seed=seed,
    )
    if isinstance(played, PlayedRound) or not isinstance(played, Sequence):
        raise DrawError("invalid_result", N_("played must be a sequence of PlayedRound"))
    check_rounds(played, check_entrants(entrants))
    if len(played) >= len(all_rounds):
        raise DrawError(
            "tournament_complete",
            N_("all %(all_rounds_count)s rounds have already been drawn"),
            params={"all_rounds_count": len(all_rounds)},
        )
    return all_rounds[len(played)]
