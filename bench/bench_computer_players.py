"""Benchmark of the computer players' strength: ``club`` against two ``easy`` players at 45.

What it does: plays 2,000 deal sequences of three-player Forty-Five (the ``classic_45`` preset),
each one three times with the club player at seat 0, 1 and 2 in turn and the same two easy
players (same seeds) in the other seats; the same deals come out in the same order each time
(one seeded shuffle stream per sequence), so luck of the cards is shared by every seat. Prints
the club player's win rate with its 95% (Wilson) interval, the rate per seat, and the time per
game. The issue's goal is a rate of at least 45% (a random player wins about a third).

What it does not do: assert anything (strength and speed are measured, not tested).

Run: ``.venv/bin/python bench/bench_computer_players.py [sequences]`` from the project root.
"""

from __future__ import annotations

import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from computer_players import play_game  # noqa: E402
from rules_engine.presets import preset  # noqa: E402

SEQUENCES = 2_000
Z = 1.96


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    rate = wins / games
    denominator = 1 + Z * Z / games
    centre = (rate + Z * Z / (2 * games)) / denominator
    half = Z * math.sqrt(rate * (1 - rate) / games + Z * Z / (4 * games * games)) / denominator
    return centre - half, centre + half


def main(sequences: int = SEQUENCES) -> None:
    rules = preset("classic_45").rules()
    wins_per_seat = [0, 0, 0]
    games = 0
    start = time.perf_counter()
    for sequence in range(sequences):
        easy_seeds = (sequence * 7 + 1, sequence * 7 + 2)
        for club_seat in range(3):
            levels = ["easy"] * 3
            levels[club_seat] = "club"
            seeds = [0, 0, 0]
            others = iter(easy_seeds)
            for seat in range(3):
                seeds[seat] = sequence if seat == club_seat else next(others)
            played = play_game(
                "45",
                seat_count=3,
                levels=levels,
                rules=rules,
                rng=random.Random(1_000_003 * sequence),
                seeds=seeds,
            )
            games += 1
            wins_per_seat[club_seat] += played.state.winner == club_seat
    elapsed = time.perf_counter() - start
    wins = sum(wins_per_seat)
    low, high = wilson(wins, games)
    print(
        f"club v two easy players, 45 (classic_45), {sequences} deal sequences x 3 seats "
        f"= {games} games"
    )
    print(
        f"  club win rate {wins / games:.1%}  95% interval [{low:.1%}, {high:.1%}]  "
        f"(goal: at least 45%; a random player wins about 33%)"
    )
    per_seat = ", ".join(
        f"seat {seat}: {wins_per_seat[seat] / (games / 3):.1%}" for seat in range(3)
    )
    print(f"  per seat of the club player: {per_seat}")
    print(f"  {elapsed / games * 1000:.2f} ms per game (play and the engine's check of each hand)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else SEQUENCES)
