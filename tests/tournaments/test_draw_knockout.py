"""Knockout brackets: seeding, byes, progressive advancing, whole tournaments and their ranking."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import draw_error_code
from tournaments.draw import MatchResult, Table, compute_standings, knockout
from tournaments.draw.drive import seat_sides
from tournaments.draw.matches import match_result


def ready_keys(bracket, results) -> list[tuple]:
    return [(table.key, table.table.entrants) for table in knockout.advance(bracket, results)]


def test_standard_seeding_of_sixteen():
    bracket = knockout.plan_bracket([seed * 10 for seed in range(1, 17)])
    seeds = [tuple(entrant // 10 for entrant in table) for table in bracket.slots]
    assert seeds == [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)]
    assert bracket.rounds == 4


def test_byes_go_to_the_top_seeds():
    bracket = knockout.plan_bracket(list(range(1, 14)))
    first = knockout.first_round(bracket)
    assert first.byes == (1, 2, 3)
    assert [table.table.entrants for table in first.tables] == [
        (8, 9),
        (4, 13),
        (5, 12),
        (7, 10),
        (6, 11),
    ]
    assert [table.key for table in first.tables] == [(1, 1), (1, 2), (1, 3), (1, 5), (1, 7)]


@given(st.integers(min_value=2, max_value=140))
def test_two_sided_brackets_seat_everyone_once_with_byes_to_the_top(count):
    bracket = knockout.plan_bracket(list(range(1, count + 1)))
    slots = 2**bracket.rounds
    assert slots >= count > slots // 2
    seated = [entrant for table in bracket.slots for entrant in table if entrant is not None]
    assert sorted(seated) == list(range(1, count + 1))
    assert set(knockout.first_round(bracket).byes) == set(range(1, slots - count + 1))
    for first, second in bracket.slots:
        if second is not None:
            assert first + second == slots + 1


@given(
    st.sampled_from([(3, 1), (4, 1), (4, 2), (6, 2), (6, 3), (8, 4)]),
    st.integers(min_value=0, max_value=200),
)
def test_tables_of_k_seat_everyone_once_and_the_strongest_tables_get_the_byes(shape, extra):
    table_size, advancing = shape
    count = table_size + extra
    bracket = knockout.plan_bracket(
        list(range(1, count + 1)), table_size=table_size, advancing=advancing
    )
    seated = [entrant for table in bracket.slots for entrant in table if entrant is not None]
    assert sorted(seated) == list(range(1, count + 1))
    # Every round-1 table keeps the entrants expected to advance from it ...
    seated_per_table = [sum(entrant is not None for entrant in table) for table in bracket.slots]
    assert min(seated_per_table) >= advancing
    # ... and the empty seats fall to the tables of the best seeds first.
    by_strength = sorted(bracket.slots, key=lambda table: min(e for e in table if e is not None))
    empties = [sum(entrant is None for entrant in table) for table in by_strength]
    assert empties == sorted(empties, reverse=True)
    # Seeds 1 .. g start in different parts of the bracket: they cannot meet before the final.
    if bracket.rounds > 1:
        group = table_size // advancing
        part = len(bracket.slots) // group
        homes = {
            index // part
            for index, table in enumerate(bracket.slots)
            for entrant in table
            if entrant is not None and entrant <= group
        }
        assert len(homes) == group


@settings(max_examples=60)
@given(st.integers(min_value=2, max_value=40), st.booleans(), st.randoms(use_true_random=False))
def test_a_whole_two_sided_knockout_plays_out(count, third_place, chance):
    entrants = list(range(100, 100 + count))
    if count < 3:
        third_place = False
    bracket = knockout.plan_bracket(entrants, third_place=third_place)
    results: dict[tuple[int, int], MatchResult] = {}
    while True:
        ready = knockout.advance(bracket, results)
        if not ready:
            break
        for table in ready:
            order = list(table.table.entrants)
            chance.shuffle(order)
            results[table.key] = MatchResult.build(table.table, order)
    assert knockout.is_complete(bracket, results)
    played_for_third = 1 if third_place and (bracket.rounds, 1) in results else 0
    assert len(results) == count - 1 + played_for_third
    champion = knockout.champion(bracket, results)
    assert champion == results[(bracket.rounds, 0)].ordered()[0]
    standings = compute_standings(
        entrants, results.values(), primary=knockout.stage_keys(bracket, results), tie_breaks=()
    )
    assert standings[0].entrant == champion and standings[0].rank == 1
    assert standings[1].rank == 2


# The 2 v 2 knockout of 16 teams, best of 3. Teams 101..116 are seeds 1..16; each game is won by
# the team listed. Upsets: 9 beats 8, 10 beats 7, 5 beats 4, 3 beats 2, and 3 wins the final.
GAMES = {
    (1, 0): [101, 101],
    (1, 1): [108, 109, 109],
    (1, 2): [104, 113, 104],
    (1, 3): [105, 105],
    (1, 4): [102, 102],
    (1, 5): [110, 107, 110],
    (1, 6): [103, 103],
    (1, 7): [111, 106, 106],
    (2, 0): [109, 101, 101],
    (2, 1): [105, 105],
    (2, 2): [102, 102],
    (2, 3): [106, 103, 103],
    (3, 0): [101, 105, 101],
    (3, 1): [103, 103],
    (4, 0): [103, 101, 103],
    (4, 1): [102, 102],
}


def test_a_two_v_two_knockout_of_sixteen_teams_best_of_three():
    teams = list(range(101, 117))
    bracket = knockout.plan_bracket(teams, third_place=True)
    first = knockout.first_round(bracket)
    assert first.byes == ()
    assert [table.table.entrants for table in first.tables] == [
        (101, 116),
        (108, 109),
        (104, 113),
        (105, 112),
        (102, 115),
        (107, 110),
        (103, 114),
        (106, 111),
    ]
    # Each team is two players; the service seats them partners opposite.
    assert seat_sides([(1011, 1012), (1161, 1162)]) == (1011, 1161, 1012, 1162)

    results: dict[tuple[int, int], MatchResult] = {}
    tables = {table.key: table.table for table in first.tables}

    def play(key, expect_new):
        """Play the match at ``key`` game by game; then check exactly which tables opened."""
        games = GAMES[key]
        for played in range(1, len(games)):
            assert match_result(tables[key], games[:played], mode="best_of", games=3) is None
        result = match_result(tables[key], games, mode="best_of", games=3)
        assert result is not None and result.winners == (games[-1],)
        before = {table.key for table in knockout.advance(bracket, results)}
        results[key] = result
        after = knockout.advance(bracket, results)
        opened = {table.key: table.table.entrants for table in after if table.key not in before}
        assert opened == expect_new
        for table in after:
            tables[table.key] = table.table

    play((1, 0), {})
    play((1, 1), {(2, 0): (101, 109)})
    play((1, 2), {})
    play((1, 3), {(2, 1): (104, 105)})
    play((1, 4), {})
    play((1, 5), {(2, 2): (102, 110)})
    assert draw_error_code(knockout.round_draw, bracket, 2, results) == "round_incomplete"
    play((1, 6), {})
    play((1, 7), {(2, 3): (103, 106)})
    assert [table.key for table in knockout.round_draw(bracket, 2, results).tables] == [
        (2, 0),
        (2, 1),
        (2, 2),
        (2, 3),
    ]
    play((2, 0), {})
    play((2, 1), {(3, 0): (101, 105)})
    play((2, 2), {})
    play((2, 3), {(3, 1): (102, 103)})
    play((3, 0), {})
    play((3, 1), {(4, 0): (101, 103), (4, 1): (105, 102)})
    assert knockout.advance(bracket, results)[1].is_third_place
    play((4, 0), {})
    assert not knockout.is_complete(bracket, results)
    play((4, 1), {})
    assert knockout.is_complete(bracket, results)
    assert knockout.champion(bracket, results) == 103
    assert draw_error_code(knockout.round_draw, bracket, 5, results) == "tournament_complete"

    standings = compute_standings(
        teams,
        results.values(),
        primary=knockout.stage_keys(bracket, results),
        tie_breaks=("games_won",),
    )
    assert {line.entrant: line.rank for line in standings} == {
        103: 1,
        101: 2,
        102: 3,
        105: 4,
        # Out in the quarter-finals, by games won: 109 and 106 won 3, 104 and 110 won 2.
        109: 5,
        106: 5,
        104: 7,
        110: 7,
        # Out in round 1: a game won, then none.
        108: 9,
        113: 9,
        107: 9,
        111: 9,
        116: 13,
        112: 13,
        115: 13,
        114: 13,
    }


def test_tables_of_four_with_two_advancing_and_a_third_place_table():
    bracket = knockout.plan_bracket(list(range(1, 17)), table_size=4, advancing=2, third_place=True)
    assert bracket.slots == ((1, 8, 12, 16), (4, 6, 9, 13), (2, 7, 11, 15), (3, 5, 10, 14))
    results: dict[tuple[int, int], MatchResult] = {}

    def decide(key, placings):
        ready = {table.key: table.table for table in knockout.advance(bracket, results)}
        results[key] = MatchResult.build(ready[key], placings)

    decide((1, 0), [1, 12, 8, 16])
    decide((1, 1), [4, 6, 9, 13])
    assert ready_keys(bracket, results)[-1] == ((2, 0), (1, 12, 4, 6))
    decide((1, 2), [15, 2, 7, 11])
    decide((1, 3), [3, 5, 14, 10])
    decide((2, 0), [6, 1, 12, 4])
    decide((2, 1), [2, 3, 15, 5])
    assert ready_keys(bracket, results) == [((3, 0), (6, 1, 2, 3)), ((3, 1), (12, 4, 15, 5))]
    decide((3, 0), [1, 3, 6, 2])
    decide((3, 1), [15, 12, 4, 5])
    standings = compute_standings(
        list(range(1, 17)),
        results.values(),
        primary=knockout.stage_keys(bracket, results),
        tie_breaks=(),
    )
    assert [(line.entrant, line.rank) for line in standings] == [
        (1, 1),
        (3, 2),
        (6, 3),
        (2, 4),
        (15, 5),
        (12, 6),
        (4, 7),
        (5, 8),
        (7, 9),
        (8, 9),
        (9, 9),
        (14, 9),
        (10, 13),
        (11, 13),
        (13, 13),
        (16, 13),
    ]


def test_a_short_handed_first_round_and_walkovers():
    bracket = knockout.plan_bracket(list(range(1, 10)), table_size=4, advancing=2)
    first = knockout.first_round(bracket)
    assert [table.table.entrants for table in first.tables] == [(4, 6, 9)]
    assert first.byes == (1, 8, 2, 7, 3, 5)
    result = MatchResult.build(first.tables[0].table, [9, 4, 6])
    assert ready_keys(bracket, {(1, 1): result}) == [((2, 0), (1, 8, 9, 4)), ((2, 1), (2, 7, 3, 5))]
    walkover = MatchResult.build(Table((1, 8)), [1, 8])
    assert draw_error_code(knockout.advance, bracket, {(1, 0): walkover}) == "invalid_result"


def test_three_entrants_with_a_third_place_walkover():
    bracket = knockout.plan_bracket([7, 8, 9], third_place=True)
    assert knockout.first_round(bracket).byes == (7,)
    results = {(1, 1): MatchResult.build(Table((8, 9)), [9, 8])}
    assert ready_keys(bracket, results) == [((2, 0), (7, 9))]
    assert knockout.round_draw(bracket, 2, results).byes == (8,)
    results[(2, 0)] = MatchResult.build(Table((7, 9)), [9, 7])
    assert knockout.is_complete(bracket, results)
    assert knockout.stage_keys(bracket, results) == {9: (2, 1, -1), 7: (2, 1, -2), 8: (2, 0, 0)}


def test_results_that_do_not_fit_the_bracket_are_refused():
    bracket = knockout.plan_bracket([1, 2, 3, 4])
    drawn = MatchResult.build(Table((1, 4)), [(1, 4)])
    assert draw_error_code(knockout.advance, bracket, {(1, 0): drawn}) == "invalid_result"
    wrong_table = MatchResult.build(Table((1, 3)), [1, 3])
    assert draw_error_code(knockout.advance, bracket, {(1, 0): wrong_table}) == "invalid_result"
    early = MatchResult.build(Table((1, 2)), [1, 2])
    assert draw_error_code(knockout.advance, bracket, {(2, 0): early}) == "invalid_result"
    assert draw_error_code(knockout.advance, bracket, [early]) == "invalid_result"
    four = knockout.plan_bracket(list(range(1, 9)), table_size=4, advancing=2)
    tie = MatchResult.build(Table((1, 4, 6, 8)), [1, (4, 6), 8])
    assert draw_error_code(knockout.advance, four, {(1, 0): tie}) == "invalid_result"


def test_bad_bracket_shapes_are_refused():
    assert draw_error_code(knockout.plan_bracket, [1, 2, 3, 4], table_size=4, advancing=3) == (
        "invalid_table_size"
    )
    assert draw_error_code(knockout.plan_bracket, [1, 2], table_size=2, advancing=2) == (
        "invalid_table_size"
    )
    assert draw_error_code(knockout.plan_bracket, [1, 2, 3], table_size=4) == "too_few_entrants"
    assert draw_error_code(knockout.plan_bracket, [1, 2, 2]) == "duplicate_entrant"
    assert draw_error_code(knockout.plan_bracket, [1, 2], third_place=True) == "invalid_option"
    assert (
        draw_error_code(knockout.plan_bracket, list(range(9)), table_size=3, third_place=True)
        == "invalid_option"
    )
    assert draw_error_code(knockout.plan_bracket, [1, 2], table_size=1) == "invalid_option"
    bracket = knockout.plan_bracket([1, 2, 3, 4])
    assert draw_error_code(knockout.round_draw, bracket, 0, {}) == "invalid_option"


def test_an_entrant_through_to_an_unformed_table_ranks_above_those_still_playing():
    # Seven entrants: seed 1 has a walkover; 4 v 5, 2 v 7 and 3 v 6 play.
    bracket = knockout.plan_bracket([1, 2, 3, 4, 5, 6, 7])
    assert [table.table.entrants for table in knockout.first_round(bracket).tables] == [
        (4, 5),
        (2, 7),
        (3, 6),
    ]
    # 7 beats 2; the semi-final 7 goes to waits for 3 v 6, and 1's waits for 4 v 5.
    results = {(1, 2): MatchResult.build(Table((2, 7)), [7, 2])}
    assert ready_keys(bracket, results) == [((1, 1), (4, 5)), ((1, 3), (3, 6))]
    keys = knockout.stage_keys(bracket, results)
    assert keys == {
        1: (2, 0, 0),
        7: (2, 0, 0),
        4: (1, 0, 0),
        5: (1, 0, 0),
        3: (1, 0, 0),
        6: (1, 0, 0),
        2: (1, 0, -2),
    }
    standings = compute_standings(
        [1, 2, 3, 4, 5, 6, 7], results.values(), primary=keys, tie_breaks=("match_wins",)
    )
    assert [(line.rank, line.entrant) for line in standings] == [
        (1, 7),
        (2, 1),
        (3, 3),
        (3, 4),
        (3, 5),
        (3, 6),
        (7, 2),
    ]
    # Once the other semi-final's feeders are decided the winners meet there; still (2, 0, 0).
    results[(1, 3)] = MatchResult.build(Table((3, 6)), [3, 6])
    keys = knockout.stage_keys(bracket, results)
    assert (keys[7], keys[3], keys[6], keys[1]) == ((2, 0, 0), (2, 0, 0), (1, 0, -2), (2, 0, 0))
    # A semi-final winner waiting for the other semi-final is already in the final.
    results[(2, 1)] = MatchResult.build(Table((7, 3)), [3, 7])
    keys = knockout.stage_keys(bracket, results)
    assert (keys[3], keys[7], keys[4], keys[1]) == ((3, 1, 0), (2, 0, -2), (1, 0, 0), (2, 0, 0))


def test_a_table_holds_who_is_through_before_its_other_feeder_is_decided():
    # Six entrants with a third-place table: seeds 1 and 2 have byes (round-1 tables 0 and 2),
    # 4 v 5 and 3 v 6 play.
    bracket = knockout.plan_bracket([1, 2, 3, 4, 5, 6], third_place=True)
    assert bracket.slots == ((1, None), (4, 5), (2, None), (3, 6))
    feeders = knockout.feeders_of(bracket, {})
    # The walkovers' entrants are through at once; the tables they wait for say None.
    assert feeders[(2, 0)] == (((1, 0), (1,)), ((1, 1), None))
    assert feeders[(2, 1)] == (((1, 2), (2,)), ((1, 3), None))
    assert feeders[(3, 0)] == (((2, 0), None), ((2, 1), None))
    assert feeders[(3, 1)] == (((2, 0), None), ((2, 1), None))
    # 5 beats 4: 5 joins 1 at once, before 3 v 6 is decided.
    results = {(1, 1): MatchResult.build(Table((4, 5)), [5, 4])}
    feeders = knockout.feeders_of(bracket, results)
    assert feeders[(2, 0)] == (((1, 0), (1,)), ((1, 1), (5,)))
    assert feeders[(2, 1)] == (((1, 2), (2,)), ((1, 3), None))
    # 1 beats 5 in the first semi-final: 1 is through to the final, 5 to the third-place table.
    results[(2, 0)] = MatchResult.build(Table((1, 5)), [1, 5])
    feeders = knockout.feeders_of(bracket, results)
    assert feeders[(3, 0)] == (((2, 0), (1,)), ((2, 1), None))
    assert feeders[(3, 1)] == (((2, 0), (5,)), ((2, 1), None))
