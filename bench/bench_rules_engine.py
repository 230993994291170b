"""Benchmark: how fast the rules engine checks a hand record, against json.loads of its text.

What it does: builds a fixed set of random legal 45 hands (4 seats, 2 v 2, seeded), each as a
card-by-card record with its deal, without its deal, and as a trick-winner entry; then times
``GameState.record`` on each shape and ``json.loads`` on the same records' JSON text, on one core,
and prints hands checked per second and the ratio engine time / json.loads time. The goal
(issue 2) is a card-by-card hand in at most 20 times the json.loads time.

What it does not do: assert anything (speed is reported, never asserted), or include parsing the
JSON in the engine's time (the service receives the dict from DRF).

Run: ``.venv/bin/python bench/bench_rules_engine.py [--hands N] [--repeat R] [--calls C]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules_engine import new_game  # noqa: E402
from tests.rules_engine.fixtures.hands import play_hand, to_trick_winners  # noqa: E402

SEATS = 4
SIDES = [[0, 2], [1, 3]]


def build_cases(hand_count: int) -> dict[str, list[tuple[object, dict, str]]]:
    """Per shape, (state, record, JSON text) for ``hand_count`` hands, dealers in rotation."""
    rng = random.Random(20240601)
    cases: dict[str, list[tuple[object, dict, str]]] = {
        "card-by-card, with deal": [],
        "card-by-card, no deal": [],
        "trick-winner entry": [],
    }
    for index in range(hand_count):
        state = new_game("45", SEATS, sides=SIDES, first_dealer=index % SEATS)
        hand = play_hand(state, rng, include_deal=True)
        with_deal = hand.record
        without_deal = {key: value for key, value in with_deal.items() if key != "deal"}
        trick_winners = to_trick_winners(state, hand)
        for name, record in zip(cases, (with_deal, without_deal, trick_winners), strict=True):
            state.record(record)  # every case must be valid, or the timing means nothing
            cases[name].append((state, record, json.dumps(record)))
    return cases


def per_hand_best_times(
    items: list[tuple[object, dict, str]], repeat: int, calls: int
) -> tuple[float, float]:
    """Mean over the hands of each hand's best time for json.loads and for ``record``.

    Each hand is timed in short bursts (``calls`` calls), json.loads and the engine alternately,
    ``repeat`` times, keeping the best burst of each: other processes share the two cores, and
    short alternating bursts are the way to see both at the same, least disturbed, speed.
    """
    clock = time.perf_counter
    loads = json.loads
    total_json = total_engine = 0.0
    for state, record, text in items:
        best_json = best_engine = float("inf")
        for _ in range(repeat):
            start = clock()
            for _ in range(calls):
                loads(text)
            middle = clock()
            for _ in range(calls):
                state.record(record)
            end = clock()
            best_json = min(best_json, middle - start)
            best_engine = min(best_engine, end - middle)
        total_json += best_json / calls
        total_engine += best_engine / calls
    return total_json / len(items), total_engine / len(items)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--calls", type=int, default=20)
    arguments = parser.parse_args(argv)
    cases = build_cases(arguments.hands)
    print(
        f"rules engine, game 45, {SEATS} seats (2 v 2), {arguments.hands} distinct hands, each "
        f"timed best of {arguments.repeat} bursts of {arguments.calls} calls, one core"
    )
    print(f"{'shape':<26}{'hands/s':>12}{'µs/hand':>10}{'json.loads µs':>15}{'ratio':>8}")
    for name, items in cases.items():
        json_time, engine_time = per_hand_best_times(items, arguments.repeat, arguments.calls)
        print(
            f"{name:<26}{1 / engine_time:>12,.0f}{engine_time * 1e6:>10.1f}"
            f"{json_time * 1e6:>15.2f}{engine_time / json_time:>8.1f}x"
        )
    print("goal: a card-by-card hand in at most 20x the json.loads time of its record")
    return 0


if __name__ == "__main__":
    sys.exit(main())
