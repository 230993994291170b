"""Drives played through the API: winners move up table by table, cumulative totals decide.

Every game is entered as trick-winner hands through the games API; each finished round draws the
next by itself (``auto_advance``), and the tests check where every entrant went.
"""

from __future__ import annotations

import pytest

from games.models import Game
from tests.tournaments.play_helpers import build_event, by_lot, seeds_of, win_match

pytestmark = pytest.mark.django_db


def sides_of(match: dict) -> list[list[int]]:
    sides: dict[int, list[int]] = {}
    for slot in match["entrants"]:
        sides.setdefault(slot["side"], []).append(slot["entrant"])
    return [sides[index] for index in sorted(sides)]


def play_round(event, tournament_id: int, matches: list[dict], winning_side) -> dict[int, tuple]:
    """Let ``winning_side(table)`` win at each table; returns table -> (winners, losers)."""
    outcome = {}
    for match in matches:
        side = winning_side(match["table"])
        sides = sides_of(match)
        position = next(slot["position"] for slot in match["entrants"] if slot["side"] == side)
        decided = win_match(event, tournament_id, match["id"], position)
        assert decided["winners"] == sides[side]
        outcome[match["table"]] = (sides[side], sides[1 - side])
    return outcome


def expected_next_tables(outcome: dict[int, tuple], table_count: int) -> dict[int, set]:
    """Losers stay, winners move up one table, the head table's losers go to the foot."""
    tables: dict[int, set] = {number: set() for number in range(1, table_count + 1)}
    for number, (winners, losers) in outcome.items():
        tables[max(number - 1, 1)].update(winners)
        tables[table_count if number == 1 else number].update(losers)
    return tables


def test_twenty_five_drive_of_24_players_at_tables_of_four():
    event = build_event(players=24)
    tournament = event.create_tournament(
        name="Friday 25 Drive",
        game="25",
        format="drive",
        table_size=4,
        sides_per_table=2,
        round_count=3,
        stake="0.20",
        lots_seed=99,
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )
    tournament_id = tournament["id"]
    seed_of = seeds_of(event, tournament_id)
    entrant_of = {seed: entrant for entrant, seed in seed_of.items()}

    round_one = event.draw(tournament_id)
    matches = round_one["matches"]
    assert len(matches) == 6
    # Seeded entrants sit in seed order, partners across the table: seats 0 and 2 v 1 and 3.
    for match in matches:
        base = 4 * (match["table"] - 1)
        seats = [entrant_of[base + offset] for offset in (1, 2, 3, 4)]
        assert [slot["entrant"] for slot in match["entrants"]] == seats
        assert sides_of(match) == [[seats[0], seats[2]], [seats[1], seats[3]]]
        game = event.game(match["games"][0]["id"])
        assert [side["seats"] for side in game["sides"]] == [[0, 2], [1, 3]]
        assert game["stake"] == "0.20"

    wins = dict.fromkeys(seed_of, 0)
    plans = {1: lambda table: (table + 1) % 2, 2: lambda table: 0, 3: lambda table: 1}
    for number in (1, 2, 3):
        rounds = event.rounds(tournament_id)
        assert [round_["number"] for round_ in rounds] == list(range(1, number + 1))
        outcome = play_round(event, tournament_id, rounds[-1]["matches"], plans[number])
        for winners, _ in outcome.values():
            for entrant in winners:
                wins[entrant] += 1
        rounds = event.rounds(tournament_id)
        if number < 3:
            following = {match["table"]: match for match in rounds[number]["matches"]}
            expected = expected_next_tables(outcome, 6)
            for table, members in expected.items():
                match = following[table]
                assert {slot["entrant"] for slot in match["entrants"]} == members
                # Two entrants arriving together from one table are split up as partners.
                for side in sides_of(match):
                    origins = [
                        next(t for t, (w, lo) in outcome.items() if entrant in w + lo)
                        for entrant in side
                    ]
                    assert origins[0] != origins[1], (table, side, origins)
        else:
            assert rounds[-1]["status"] == "complete"

    assert event.tournament(tournament_id)["status"] == "finished"
    assert Game.objects.filter(match_link__match__tournament_id=tournament_id).count() == 18

    standings = event.standings(tournament_id)
    assert [row["entrant"]["id"] for row in standings] == [
        entrant
        for count in (3, 2, 1, 0)
        for entrant in by_lot(99, [e for e, won in wins.items() if won == count])
    ]
    for row in standings:
        won = wins[row["entrant"]["id"]]
        assert (row["match_wins"], row["points_for"], row["tricks_won"]) == (won, 25 * won, 5 * won)
    assert [row["rank"] for row in standings] == list(range(1, 25))
    assert standings[0]["tie_break_values"]["match_wins"] == 3


def test_drive_of_individuals_each_for_themselves_moves_losers_down():
    event = build_event(players=6)
    tournament = event.create_tournament(
        name="Cut-throat drive",
        game="25",
        format="drive",
        table_size=3,
        round_count=2,
        movement="losers_down",
        lots_seed=5,
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )
    tournament_id = tournament["id"]
    entrant_of = {seed: entrant for entrant, seed in seeds_of(event, tournament_id).items()}
    round_one = event.draw(tournament_id)
    assert [[slot["entrant"] for slot in match["entrants"]] for match in round_one["matches"]] == [
        [entrant_of[1], entrant_of[2], entrant_of[3]],
        [entrant_of[4], entrant_of[5], entrant_of[6]],
    ]
    for match in round_one["matches"]:
        decided = win_match(event, tournament_id, match["id"], 0)
        # The two players who took nothing are placed by lot: the cut needs an order.
        losers = [slot["entrant"] for slot in match["entrants"][1:]]
        assert decided["placings"] == [[match["entrants"][0]["entrant"]]] + [
            [entrant] for entrant in by_lot(5, losers)
        ]
    second = event.rounds(tournament_id)[1]["matches"]
    table_two_losers = by_lot(5, [entrant_of[5], entrant_of[6]])
    table_one_losers = by_lot(5, [entrant_of[2], entrant_of[3]])
    # Ladder order: the winner coming up from table 2, table 1's winner, then table 2's losers
    # staying, then table 1's losers coming down; cut into tables of three.
    assert [[slot["entrant"] for slot in match["entrants"]] for match in second] == [
        [entrant_of[4], entrant_of[1], table_two_losers[0]],
        [table_two_losers[1], *table_one_losers],
    ]
    for match in second:
        win_match(event, tournament_id, match["id"], 1)
    assert event.tournament(tournament_id)["status"] == "finished"
    standings = event.standings(tournament_id)
    # Seed 1 won at the head table twice.
    assert (standings[0]["entrant"]["id"], standings[0]["match_wins"]) == (entrant_of[1], 2)
    assert sum(row["match_wins"] for row in standings) == 4


def test_forty_fives_card_party_of_fixed_partners():
    event = build_event(players=0, teams=8)
    tournament = event.create_tournament(
        name="45s card party",
        game="45",
        format="drive",
        entrant_kind="team",
        table_size=2,
        round_count=2,
        entrants=[{"team": team.pk, "seed": index + 1} for index, team in enumerate(event.teams)],
    )
    tournament_id = tournament["id"]
    entrant_of = {seed: entrant for entrant, seed in seeds_of(event, tournament_id).items()}
    matches = event.draw(tournament_id)["matches"]
    assert [[slot["entrant"] for slot in match["entrants"]] for match in matches] == [
        [entrant_of[1], entrant_of[2]],
        [entrant_of[3], entrant_of[4]],
        [entrant_of[5], entrant_of[6]],
        [entrant_of[7], entrant_of[8]],
    ]
    game = event.game(matches[0]["games"][0]["id"])
    assert [side["seats"] for side in game["sides"]] == [[0, 2], [1, 3]]
    assert game["house_rules"]["target"] == 45
    for match in matches:
        win_match(event, tournament_id, match["id"], 1)  # the even seeds win
    second = event.rounds(tournament_id)[1]["matches"]
    assert [{slot["entrant"] for slot in match["entrants"]} for match in second] == [
        {entrant_of[2], entrant_of[4]},
        {entrant_of[6], entrant_of[3]},
        {entrant_of[8], entrant_of[5]},
        {entrant_of[7], entrant_of[1]},
    ]
