"""The engine accepts every hand the computer players produce: 10,000 random games of 25, 45
and 110 (random seat counts, levels and house rules), zero refusals.

Each game's hands are recorded card by card in the engine's ``GameState`` by ``play_game``
(the engine's full check of a record, the same one the API runs); every fifth game's hands are
also recorded again as trick-winner entries in a fresh game, which must give the same totals.
"""

import random

from computer_players import play_game
from rules_engine import HouseRules, RulesError, new_game
from rules_engine.house_rules import preset

GAMES = 10_000


def _setup(rng: random.Random) -> tuple[str, int, HouseRules, list[list[int]] | None]:
    game = rng.choice(("25", "45", "110"))
    if game == "25":
        seats = rng.randint(2, 6)
        rules = HouseRules.for_game(
            "25",
            rob_discard=rng.choice(("any_card", "not_the_ace")),
            ace_of_hearts_lead=rng.choice(("trump_lead", "trump_then_hearts")),
        )
        return game, seats, rules, None
    if game == "45":
        if rng.random() < 0.5:
            return game, 3, preset("classic_45").rules(), None
        return game, 4, HouseRules.for_game("45"), [[0, 2], [1, 3]]
    seats = rng.randint(3, 5)
    rules = HouseRules.for_game(
        "110", ace_of_hearts_lead=rng.choice(("trump_lead", "trump_then_hearts"))
    )
    return game, seats, rules, None


def test_ten_thousand_games_without_a_refusal():
    rng = random.Random(20261201)
    refusals = []
    played_per_game = {"25": 0, "45": 0, "110": 0}
    unfinished = 0
    for number in range(GAMES):
        game, seats, rules, sides = _setup(rng)
        levels = [rng.choice(("easy", "club")) for _ in range(seats)]
        try:
            played = play_game(game, seat_count=seats, levels=levels, rng=rng, rules=rules,
                               sides=sides, first_dealer=rng.randrange(seats))
        except RulesError as error:
            refusals.append((number, game, error.code, error.pointer, error.detail))
            continue
        played_per_game[game] += 1
        unfinished += not played.state.finished
        if number % 5 == 0:
            # The same game as trick-winner entries gives the same totals.
            state = new_game(game, seats, sides=sides, first_dealer=played.card_records[0][
                "dealer"], rules=rules)
            for record, result in zip(played.card_records, played.results, strict=True):
                entry = _trick_winner_entry(record, result)
                state = state.record(entry)[1]
            assert state.totals == played.state.totals
    assert refusals == []
    assert unfinished == 0
    assert sum(played_per_game.values()) == GAMES
    assert min(played_per_game.values()) > GAMES // 4


def _trick_winner_entry(record, result):
    from computer_players import trick_winner_entry

    if result.kind == "redeal":
        return record
    return trick_winner_entry(record, result)
