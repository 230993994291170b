"""The engine accepts every hand the computer players produce: 10,000 random games in all,
split by game over three test files (``test_engine_accepts_25.py``, ``…_45.py``, ``…_110.py``) so
the two test workers share them.

Each game is played by ``play_game`` with random seat counts, levels (easy or club per seat),
house rules (both values of the classic options) and first dealer; every hand is recorded card
by card in the engine's ``GameState`` (the engine's full check of a record, the same one the API
runs); a refusal is collected with its code, pointer and detail. Every fifth game is recorded
again as trick-winner entries in a fresh game, which must reach the same totals.
"""

from __future__ import annotations

import random

from computer_players import play_game, trick_winner_entry
from rules_engine import HouseRules, RulesError, new_game
from rules_engine.presets import preset

GAMES = 10_000
# 110 games are the longest (an auction, a kitty, up to five seats, many hands): fewer of them,
# still some 30,000 hands of 110.
SHARE = {"25": 4_000, "45": 4_000, "110": 2_000}
assert sum(SHARE.values()) == GAMES


def _setup(game: str, rng: random.Random):
    if game == "25":
        rules = HouseRules.for_game(
            "25",
            rob_discard=rng.choice(("any_card", "not_the_ace")),
            ace_of_hearts_lead=rng.choice(("trump_lead", "trump_then_hearts")),
        )
        return rng.randint(2, 6), rules, None
    if game == "45":
        if rng.random() < 0.5:
            return 3, preset("classic_45").rules(), None
        return 4, HouseRules.for_game("45"), [[0, 2], [1, 3]]
    rules = HouseRules.for_game(
        "110", ace_of_hearts_lead=rng.choice(("trump_lead", "trump_then_hearts"))
    )
    return rng.randint(3, 5), rules, None


def play_many(game: str, seed: int) -> tuple[list, int, int]:
    """(refusals, games finished, hands recorded) over ``SHARE[game]`` random games."""
    rng = random.Random(seed)
    refusals = []
    finished = 0
    hands = 0
    for number in range(SHARE[game]):
        seats, rules, sides = _setup(game, rng)
        levels = [rng.choice(("easy", "club")) for _ in range(seats)]
        first_dealer = rng.randrange(seats)
        try:
            played = play_game(
                game,
                seat_count=seats,
                levels=levels,
                rng=rng,
                rules=rules,
                sides=sides,
                first_dealer=first_dealer,
            )
        except RulesError as error:
            refusals.append((number, error.code, error.pointer, error.detail))
            continue
        finished += played.state.finished
        hands += len(played.card_records)
        if number % 5 == 0:
            state = new_game(game, seats, sides=sides, first_dealer=first_dealer, rules=rules)
            for record, result in zip(played.card_records, played.results, strict=True):
                entry = record if result.kind == "redeal" else trick_winner_entry(record, result)
                state = state.record(entry)[1]
            assert state.totals == played.state.totals
    return refusals, finished, hands
