"""Round robin schedules: the circle method, balanced groups, and a tournament played through."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import draw_error_code
from tournaments.draw import (
    MatchResult,
    PlayedRound,
    compute_standings,
    round_robin,
)
from tournaments.draw.types import pair_key


def meeting_counts(schedule) -> Counter:
    counts: Counter = Counter()
    for draw in schedule:
        for table in draw.tables:
            for first, second in itertools.combinations(table.entrants, 2):
                counts[pair_key(first, second)] += 1
    return counts


@given(st.integers(min_value=2, max_value=30))
def test_circle_method_meets_every_pair_exactly_once(count):
    entrants = list(range(10, 10 + count))
    schedule = round_robin.schedule(entrants)
    assert len(schedule) == (count - 1 if count % 2 == 0 else count)
    counts = meeting_counts(schedule)
    assert set(counts) == {pair_key(a, b) for a, b in itertools.combinations(entrants, 2)}
    assert set(counts.values()) == {1}
    byes = Counter(entrant for draw in schedule for entrant in draw.byes)
    for draw in schedule:
        assert sorted(draw.entrants) == entrants
        assert len(draw.tables) == count // 2
    assert byes == (Counter(entrants) if count % 2 else Counter())
    # Nobody takes seat 0 much more often than anybody else.
    first_seats = Counter(draw_table.entrants[0] for d in schedule for draw_table in d.tables)
    played = len(schedule) - (1 if count % 2 else 0)
    assert all(abs(2 * first_seats[entrant] - played) <= 2 for entrant in entrants)


def test_circle_method_for_six():
    schedule = round_robin.schedule([1, 2, 3, 4, 5, 6])
    assert [[table.entrants for table in draw.tables] for draw in schedule] == [
        [(1, 6), (2, 5), (3, 4)],
        [(5, 1), (6, 4), (2, 3)],
        [(1, 4), (5, 3), (6, 2)],
        [(3, 1), (4, 2), (5, 6)],
        [(1, 2), (3, 6), (4, 5)],
    ]


def test_a_double_round_robin_swaps_the_seats():
    schedule = round_robin.schedule([1, 2, 3, 4], rounds=6)
    counts = meeting_counts(schedule)
    assert set(counts.values()) == {2}
    for first, second in zip(schedule[:3], schedule[3:], strict=True):
        assert [table.entrants[::-1] for table in first.tables] == [
            table.entrants for table in second.tables
        ]


@pytest.mark.parametrize(("count", "table_size"), [(4, 2), (9, 3), (16, 4), (25, 5)])
def test_q_squared_entrants_at_tables_of_q_meet_exactly_once(count, table_size):
    entrants = list(range(100, 100 + count))
    schedule = round_robin.schedule(entrants, table_size=table_size)
    assert len(schedule) == (table_size + 1 if table_size > 2 else 3)
    counts = meeting_counts(schedule)
    assert len(counts) == count * (count - 1) // 2 and set(counts.values()) == {1}
    assert all(not draw.byes and len(draw.entrants) == count for draw in schedule)


@pytest.mark.parametrize(
    ("count", "table_size", "min_table_size", "rounds"),
    [(12, 4, None, None), (12, 3, None, None), (20, 4, None, None), (8, 4, None, 7)],
)
def test_balanced_groups_meet_as_evenly_as_the_heuristic_finds(
    count, table_size, min_table_size, rounds
):
    entrants = list(range(1, count + 1))
    schedule = round_robin.schedule(
        entrants, table_size=table_size, min_table_size=min_table_size, rounds=rounds
    )
    assert schedule == round_robin.schedule(
        entrants, table_size=table_size, min_table_size=min_table_size, rounds=rounds
    )
    counts = meeting_counts(schedule)
    every_pair = [counts[pair_key(a, b)] for a, b in itertools.combinations(entrants, 2)]
    assert max(every_pair) - min(every_pair) <= 2
    assert max(every_pair) <= 3
    for draw in schedule:
        assert sorted(draw.entrants) == entrants and not draw.byes
        assert all(table.size == table_size for table in draw.tables)
    if (count, table_size, rounds) == (8, 4, 7):
        # A resolvable design exists (every pair three times) and the search finds it.
        assert set(every_pair) == {3}


def test_byes_rotate_when_the_tables_cannot_be_filled():
    schedule = round_robin.schedule(list(range(1, 11)), table_size=4)
    assert len(schedule) == 3
    byes = Counter(entrant for draw in schedule for entrant in draw.byes)
    assert all(len(draw.byes) == 2 for draw in schedule)
    assert sorted(byes.values()) == [1] * 6
    short = round_robin.schedule(list(range(1, 11)), table_size=4, min_table_size=3)
    assert all(not draw.byes for draw in short)
    assert all(sorted(t.size for t in draw.tables) == [3, 3, 4] for draw in short)


def play(draw, winner_of) -> PlayedRound:
    results = []
    for table in draw.tables:
        winner = winner_of(table.entrants)
        others = [entrant for entrant in table.entrants if entrant != winner]
        results.append(MatchResult.build(table, [winner, tuple(others)]))
    return PlayedRound(draw, tuple(results))


def test_a_two_sided_round_robin_played_round_by_round():
    entrants = [1, 2, 3, 4, 5, 6]
    upsets = {pair_key(1, 4): 4, pair_key(2, 3): 3}

    def winner_of(pair):
        return upsets.get(pair_key(*pair), min(pair))

    played: list[PlayedRound] = []
    for _ in range(5):
        draw = round_robin.next_round(entrants, played)
        assert draw == round_robin.schedule(entrants)[len(played)]
        played.append(play(draw, winner_of))
    assert draw_error_code(round_robin.next_round, entrants, played) == "tournament_complete"
    results = [result for round_ in played for result in round_.results]
    standings = compute_standings(entrants, results, tie_breaks=("match_points", "head_to_head"))
    # 1 and 3 have four wins and 1 beat 3; 2 and 4 have three and 2 beat 4.
    assert [(line.entrant, line.rank, line.tally.match_wins) for line in standings] == [
        (1, 1, 4),
        (3, 2, 4),
        (2, 3, 3),
        (4, 4, 3),
        (5, 5, 1),
        (6, 6, 0),
    ]


def test_a_round_robin_at_tables_of_three_played_through():
    entrants = list(range(1, 10))
    played: list[PlayedRound] = []
    for _ in range(4):
        played.append(play(round_robin.next_round(entrants, played, table_size=3), min))
    expected_wins = Counter(min(t.entrants) for p in played for t in p.draw.tables)
    standings = compute_standings(
        entrants, [r for p in played for r in p.results], tie_breaks=("match_wins",)
    )
    for line in standings:
        assert line.tally.match_wins == expected_wins[line.entrant]
        assert line.rank == 1 + sum(
            1 for other in entrants if expected_wins[other] > expected_wins[line.entrant]
        )
    assert standings[0].entrant == 1 and standings[0].tally.match_wins == 4


def test_next_round_refuses_an_incomplete_round_and_bad_shapes():
    entrants = [1, 2, 3, 4]
    draw = round_robin.next_round(entrants, [])
    half_played = PlayedRound(draw, (MatchResult.build(draw.tables[0], [1, 4]),))
    assert draw_error_code(round_robin.next_round, entrants, [half_played]) == "round_incomplete"
    assert draw_error_code(round_robin.schedule, [1, 2, 3], table_size=4) == "too_few_entrants"
    assert draw_error_code(round_robin.schedule, [1, 1, 2]) == "duplicate_entrant"
    assert draw_error_code(round_robin.schedule, [1, 2, 3], rounds=0) == "invalid_option"
    assert draw_error_code(round_robin.next_round, entrants, half_played) == "invalid_result"


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=5, max_value=14), st.sampled_from([3, 4]))
def test_balanced_groups_always_partition_each_round(count, table_size):
    entrants = list(range(count))
    schedule = round_robin.schedule(entrants, table_size=table_size, min_table_size=2)
    for draw in schedule:
        assert sorted(draw.entrants) == entrants
        assert all(2 <= table.size <= table_size for table in draw.tables)
    byes = Counter(entrant for draw in schedule for entrant in draw.byes)
    assert max(byes.values(), default=0) - min(byes[e] for e in entrants) <= 1
