"""Benchmark of the pure tournament draw: prints timings, asserts nothing about speed.

What it does: times drawing a 1,024-entrant knockout (plan, first round, and advancing through the
whole bracket as results arrive), and a Swiss round of 500 entrants after several simulated rounds
(so repeats are possible), with the number of repeat pairings in each round. A few smaller
figures follow (Swiss at tables of four, balanced round-robin groups, a drive).

What it does not do: touch a database; results are simulated from a fixed random seed, so two runs
draw the same rounds (timings vary with the machine).

Run: ``.venv/bin/python bench/bench_draw.py`` from the project root.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def timed(action):
    start = time.perf_counter()
    value = action()
    return value, time.perf_counter() - start


def random_results(tables, chance):
    from tournaments.draw import MatchResult

    results = []
    for table in tables:
        order = list(table.entrants)
        chance.shuffle(order)
        results.append(MatchResult.build(table, order))
    return results


def bench_knockout(chance) -> None:
    from tournaments.draw import knockout

    entrants = list(range(1, 1025))
    bracket, planned = timed(lambda: knockout.plan_bracket(entrants))
    first, drawn = timed(lambda: knockout.first_round(bracket))
    print(
        f"knockout 1,024 entrants: plan {planned * 1000:.1f} ms, first round "
        f"({len(first.tables)} tables) {drawn * 1000:.1f} ms"
    )
    results = {}
    calls, total = 0, 0.0
    while True:
        ready, spent = timed(lambda: knockout.advance(bracket, results))
        calls, total = calls + 1, total + spent
        if not ready:
            break
        for table, result in zip(
            ready, random_results([t.table for t in ready], chance), strict=True
        ):
            results[table.key] = result
    print(
        f"  played through round by round: {len(results)} matches, {calls} advance calls, "
        f"{total * 1000:.1f} ms in all; champion {knockout.champion(bracket, results)}"
    )
    four = list(range(1, 1025))
    bracket, planned = timed(lambda: knockout.plan_bracket(four, table_size=4, advancing=2))
    print(f"knockout 1,024 entrants at tables of 4, top 2 advance: plan {planned * 1000:.1f} ms")


def bench_swiss(chance, entrant_count: int, table_size: int, rounds: int) -> None:
    from tournaments.draw import PlayedRound, meetings, repeat_pairs, swiss

    entrants = list(range(1, entrant_count + 1))
    played = []
    print(f"swiss {entrant_count} entrants at tables of {table_size}, {rounds} rounds:")
    for number in range(1, rounds + 1):
        draw, spent = timed(
            lambda: swiss.next_round(entrants, played, total_rounds=rounds, table_size=table_size)
        )
        met = meetings(result for round_ in played for result in round_.results)
        print(
            f"  round {number}: drawn in {spent * 1000:8.1f} ms, "
            f"repeat pairings {repeat_pairs(draw, met)}, byes {len(draw.byes)}"
        )
        played.append(PlayedRound(draw, tuple(random_results(draw.tables, chance))))


def bench_round_robin() -> None:
    from tournaments.draw import round_robin

    for count, table_size in ((16, 4), (24, 4), (30, 3), (100, 2)):
        schedule, spent = timed(
            lambda count=count, table_size=table_size: round_robin.schedule(
                list(range(count)), table_size=table_size
            )
        )
        met = {}
        for draw in schedule:
            for table in draw.tables:
                for index, first in enumerate(table.entrants):
                    for second in table.entrants[index + 1 :]:
                        key = (min(first, second), max(first, second))
                        met[key] = met.get(key, 0) + 1
        pairs = count * (count - 1) // 2
        print(
            f"round robin {count} at tables of {table_size}: {len(schedule)} rounds in "
            f"{spent * 1000:.1f} ms; pairs met 0/1/2+ times: {pairs - len(met)}/"
            f"{sum(1 for value in met.values() if value == 1)}/"
            f"{sum(1 for value in met.values() if value > 1)}"
        )


def bench_drive(chance) -> None:
    from tournaments.draw import MatchResult, drive

    rules = drive.DriveRules(table_size=4, games=20, sides_per_table=2)
    game = drive.first_game(range(1, 401), rules)
    start = time.perf_counter()
    while game.number < rules.games:
        results = [
            MatchResult.build(table, [table.sides[side], table.sides[1 - side]])
            for table in game.tables
            for side in [chance.randrange(2)]
        ]
        game = drive.next_game(rules, game, results)
    spent = time.perf_counter() - start
    print(f"drive 400 players at 100 tables of 4, 20 games: {spent * 1000:.1f} ms in all")


def main() -> None:
    chance = random.Random(2024)
    bench_knockout(chance)
    bench_swiss(chance, 500, 2, 7)
    bench_swiss(chance, 120, 4, 5)
    bench_round_robin()
    bench_drive(chance)


if __name__ == "__main__":
    main()
