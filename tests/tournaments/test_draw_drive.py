"""Drives: winners move up, partners split and sit opposite, cumulative standings."""

from __future__ import annotations

import random

from tests.helpers import draw_error_code
from tournaments.draw import MatchResult, Table, compute_standings, drive
from tournaments.draw.drive import DriveGame, DriveRules


def side_wins(table: Table, side_index: int, points=(25, 10)) -> MatchResult:
    """The result of one game at ``table``: side ``side_index`` wins."""
    winners = table.sides[side_index]
    losers = tuple(entrant for entrant in table.entrants if entrant not in winners)
    scored = {entrant: points[0] for entrant in winners} | {
        entrant: points[1] for entrant in losers
    }
    return MatchResult.build(table, [winners, losers], points=scored)


def test_seat_sides_alternate_partners():
    assert drive.seat_sides([(1, 3), (2, 4)]) == (1, 2, 3, 4)
    assert drive.seat_sides([(1, 4), (2, 5), (3, 6)]) == (1, 2, 3, 4, 5, 6)
    assert drive.seat_sides([(1, 2, 3), (4, 5, 6), (7, 8, 9)]) == (1, 4, 7, 2, 5, 8, 3, 6, 9)
    assert draw_error_code(drive.seat_sides, [(1, 2), (3,)]) == "invalid_table_size"
    assert draw_error_code(drive.seat_sides, [(1, 2), (2, 3)]) == "duplicate_entrant"


def test_eight_players_one_game_worked_by_hand():
    rules = DriveRules(table_size=4, games=3, sides_per_table=2)
    game = drive.first_game([1, 2, 3, 4, 5, 6, 7, 8], rules)
    assert game.tables == (
        Table((1, 2, 3, 4), ((1, 3), (2, 4))),
        Table((5, 6, 7, 8), ((5, 7), (6, 8))),
    )
    results = [side_wins(game.tables[0], 1), side_wins(game.tables[1], 0)]
    # Head table: 2 and 4 won and stay; 5 and 7 come up from table 2 and are split between the
    # sides. The head table's losers 1 and 3 go to the foot, where 6 and 8 lost and stay.
    after = drive.next_game(rules, game, results)
    assert after == DriveGame(
        2,
        (
            Table((5, 7, 2, 4), ((5, 2), (7, 4))),
            Table((1, 3, 6, 8), ((1, 6), (3, 8))),
        ),
    )
    assert {
        (move.entrant, move.from_table, move.to_table) for move in drive.moves(rules, game, results)
    } == {(2, 1, 1), (4, 1, 1), (5, 2, 1), (7, 2, 1), (1, 1, 2), (3, 1, 2), (6, 2, 2), (8, 2, 2)}


def test_a_25_drive_of_24_players_at_six_tables_of_four():
    rules = DriveRules(table_size=4, games=6, sides_per_table=2)
    players = list(range(101, 125))
    game = drive.first_game(players, rules)
    assert len(game.tables) == 6
    chance = random.Random(25)
    all_results: list[MatchResult] = []
    wins = dict.fromkeys(players, 0)
    points = dict.fromkeys(players, 0)
    while True:
        for table in game.tables:
            # Partners sit opposite: seats 0 and 2, seats 1 and 3.
            assert table.sides == (
                (table.entrants[0], table.entrants[2]),
                (table.entrants[1], table.entrants[3]),
            )
        results = []
        for table in game.tables:
            losing_points = chance.randrange(0, 25, 5)
            result = side_wins(table, chance.randrange(2), points=(25, losing_points))
            results.append(result)
            for entrant in result.winners:
                wins[entrant] += 1
            for entrant in table.entrants:
                points[entrant] += result.points_of(entrant)
        all_results.extend(results)
        if game.number == rules.games:
            assert draw_error_code(drive.next_game, rules, game, results) == "tournament_complete"
            break
        following = drive.next_game(rules, game, results)
        assert following.number == game.number + 1
        where = {
            entrant: number
            for number, table in enumerate(following.tables, start=1)
            for entrant in table.entrants
        }
        for number, (table, result) in enumerate(zip(game.tables, results, strict=True), 1):
            winners = result.winners
            losers = tuple(entrant for entrant in table.entrants if entrant not in winners)
            # Winners move up one table; the head table's winners stay at the head.
            assert {where[entrant] for entrant in winners} == {max(number - 1, 1)}
            # Losers stay; the head table's losers go to the foot table.
            assert {where[entrant] for entrant in losers} == {6 if number == 1 else number}
            # Those who partnered each other now sit on different sides.
            for pair in (winners, losers):
                new_table = following.tables[where[pair[0]] - 1]
                assert new_table.side_of(pair[0]) != new_table.side_of(pair[1])
        game = following
    standings = compute_standings(players, all_results, tie_breaks=("match_wins", "points_for"))
    assert len(all_results) == 36
    for line in standings:
        assert line.tally.match_wins == wins[line.entrant]
        assert line.tally.points_for == points[line.entrant]
        better = sum(
            1
            for other in players
            if (wins[other], points[other]) > (wins[line.entrant], points[line.entrant])
        )
        assert line.rank == better + 1


def test_losers_move_down_and_the_foot_keeps_its_losers():
    rules = DriveRules(table_size=4, games=2, sides_per_table=2, movement="losers_down")
    game = drive.first_game(list(range(1, 13)), rules)
    results = [side_wins(table, 0) for table in game.tables]
    # Table 1 (1 2 3 4): 1, 3 won. Table 2 (5 6 7 8): 5, 7 won. Table 3 (9 .. 12): 9, 11 won.
    # Each table lists arrivals from below, then those staying, then arrivals from above.
    following = drive.next_game(rules, game, results)
    assert [table.entrants for table in following.tables] == [
        (5, 7, 1, 3),
        (9, 11, 2, 4),
        (10, 12, 6, 8),
    ]
    assert [table.sides for table in following.tables] == [
        ((5, 1), (7, 3)),
        ((9, 2), (11, 4)),
        ((10, 6), (12, 8)),
    ]


def test_a_drive_of_fixed_partnerships_one_team_against_another():
    rules = DriveRules(table_size=2, games=3)
    teams = [11, 12, 13, 14, 15, 16]
    game = drive.first_game(teams, rules)
    assert [table.entrants for table in game.tables] == [(11, 12), (13, 14), (15, 16)]
    results = [
        MatchResult.build(game.tables[0], [12, 11]),
        MatchResult.build(game.tables[1], [13, 14]),
        MatchResult.build(game.tables[2], [16, 15]),
    ]
    following = drive.next_game(rules, game, results)
    assert [table.entrants for table in following.tables] == [(13, 12), (16, 14), (11, 15)]


def test_individuals_with_one_winner_refill_in_ladder_order():
    rules = DriveRules(table_size=3, games=2)
    assert rules.winners == 1
    game = drive.first_game([1, 2, 3, 4, 5, 6], rules)
    results = [
        MatchResult.build(game.tables[0], [2, 1, 3]),
        MatchResult.build(game.tables[1], [6, 4, 5]),
    ]
    # Sent: 2 stays at the head, 6 comes up, 1 and 3 go to the foot, 4 and 5 stay there. The
    # head table needs a third: the first of the foot's arrivals (1, placed above 3) fills it.
    following = drive.next_game(rules, game, results)
    assert [table.entrants for table in following.tables] == [(6, 2, 1), (3, 4, 5)]


def test_a_shuffled_first_game_is_reproducible():
    rules = DriveRules(table_size=4, games=2, sides_per_table=2)
    first = drive.first_game(range(1, 17), rules, seed="club-night-3")
    assert first == drive.first_game(range(1, 17), rules, seed="club-night-3")
    assert sorted(e for table in first.tables for e in table.entrants) == list(range(1, 17))
    assert first != drive.first_game(range(1, 17), rules)


def test_bad_drives_are_refused():
    rules = DriveRules(table_size=4, games=2, sides_per_table=2)
    assert draw_error_code(drive.first_game, range(1, 11), rules) == "invalid_entrant_count"
    assert draw_error_code(drive.first_game, [1, 2, 3], rules) == "too_few_entrants"
    assert draw_error_code(DriveRules, table_size=4, games=2, sides_per_table=3) == (
        "invalid_table_size"
    )
    assert draw_error_code(DriveRules, table_size=4, games=2, sides_per_table=4) == (
        "invalid_table_size"
    )
    assert draw_error_code(DriveRules, table_size=4, games=0) == "invalid_option"
    assert draw_error_code(DriveRules, table_size=4, games=2, movement="sideways") == (
        "invalid_option"
    )
    assert draw_error_code(DriveRules, table_size=4, games=2, winners_per_table=4) == (
        "invalid_table_size"
    )
    assert (
        draw_error_code(DriveRules, table_size=6, games=2, sides_per_table=2, winners_per_table=2)
        == "invalid_option"
    )
    game = drive.first_game(range(1, 9), rules)
    one = [side_wins(game.tables[0], 0)]
    assert draw_error_code(drive.next_game, rules, game, one) == "round_incomplete"
    stranger = MatchResult.build(Table((1, 5)), [1, 5])
    assert draw_error_code(drive.next_game, rules, game, [*one, stranger]) == "invalid_result"
    twice = [side_wins(game.tables[0], 0), side_wins(game.tables[0], 1)]
    assert draw_error_code(drive.next_game, rules, game, twice) == "invalid_result"
    regrouped = MatchResult.build(Table((5, 6, 7, 8), ((5, 6), (7, 8))), [(5, 6), (7, 8)])
    assert draw_error_code(drive.next_game, rules, game, [*one, regrouped]) == "invalid_result"
    solo = DriveRules(table_size=4, games=2)
    solo_game = drive.first_game(range(1, 9), solo)
    tied = [
        MatchResult.build(solo_game.tables[0], [1, (2, 3), 4]),
        MatchResult.build(solo_game.tables[1], [5, 6, 7, 8]),
    ]
    assert draw_error_code(drive.next_game, solo, solo_game, tied) == "invalid_result"
