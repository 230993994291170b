"""Deciding best-of-N and first-to-K matches from game winners."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers import draw_error_code
from tournaments.draw import DrawError, Table, decide_match, match_result


@pytest.mark.parametrize(
    ("winners", "expected"),
    [
        ([], None),
        ([1], None),
        ([1, 1], 1),
        ([1, 2], None),
        ([1, 2, 2], 2),
        ([2, 1, 1], 1),
    ],
)
def test_best_of_three_between_two(winners, expected):
    assert decide_match(winners, "best_of", 3, entrants=[1, 2]) == expected


def test_best_of_is_decided_when_nobody_can_catch_up():
    # Best of 5 between two: 3 wins decide it, 2-0 does not.
    assert decide_match([4, 4], "best_of", 5, entrants=[4, 9]) is None
    assert decide_match([4, 4, 4], "best_of", 5, entrants=[4, 9]) == 4
    # Three at a table, best of 3: 2-0-0 after two games is decided (the others can reach 1).
    assert decide_match([5, 5], "best_of", 3, entrants=[5, 6, 7]) == 5
    # 1-1-1 after three games is level: the play-off game decides.
    assert decide_match([5, 6, 7], "best_of", 3, entrants=[5, 6, 7]) is None
    assert decide_match([5, 6, 7, 6], "best_of", 3, entrants=[5, 6, 7]) == 6


def test_best_of_an_even_number_plays_off_a_tie():
    assert decide_match([1, 2], "best_of", 2, entrants=[1, 2]) is None
    assert decide_match([1, 2, 2], "best_of", 2, entrants=[1, 2]) == 2


def test_first_to():
    assert decide_match([3, 8, 3, 8], "first_to", 3, entrants=[3, 8]) is None
    assert decide_match([3, 8, 3, 8, 8], "first_to", 3, entrants=[3, 8]) == 8
    assert decide_match([3], "first_to", 1) == 3


def test_games_after_the_decision_and_bad_input_are_refused():
    assert draw_error_code(decide_match, [1, 1, 2], "best_of", 3, entrants=[1, 2]) == (
        "match_decided"
    )
    assert draw_error_code(decide_match, [1, 3], "best_of", 3, entrants=[1, 2]) == "invalid_entrant"
    assert draw_error_code(decide_match, [1], "best_two", 3) == "invalid_option"
    assert draw_error_code(decide_match, [1], "best_of", 0) == "invalid_option"
    assert draw_error_code(decide_match, ["1"], "best_of", 3) == "invalid_entrant"


@given(st.lists(st.sampled_from([1, 2]), max_size=7), st.sampled_from([1, 3, 5, 7]))
def test_best_of_n_between_two_is_the_first_to_a_majority(winners, games):
    """For two entrants and odd N, best of N is exactly first to (N + 1) / 2."""
    needed = (games + 1) // 2
    try:
        best_of = decide_match(winners, "best_of", games, entrants=[1, 2])
    except DrawError as error:
        best_of = error.code
    try:
        first_to = decide_match(winners, "first_to", needed, entrants=[1, 2])
    except DrawError as error:
        first_to = error.code
    assert best_of == first_to


def test_match_result_places_by_games_then_points():
    table = Table((11, 12, 13))
    assert match_result(table, [11], mode="best_of", games=3) is None
    result = match_result(
        table, [12, 13, 12], mode="best_of", games=3, points={11: 20, 12: 25, 13: 15}
    )
    assert result.placings == ((12,), (13,), (11,))
    assert result.games_won == (0, 2, 1)
    assert result.points == (20, 25, 15)
    level = match_result(Table((11, 12, 13)), [12, 12], mode="first_to", games=2)
    assert level.placings == ((12,), (11, 13))


def test_match_result_counts_a_partner_win_for_the_side():
    table = Table((1, 2, 3, 4), ((1, 3), (2, 4)))
    result = match_result(table, [1, 2, 3], mode="best_of", games=3)
    assert result.placings == ((1, 3), (2, 4))
    assert result.games_won == (2, 1, 2, 1)
    assert draw_error_code(match_result, table, [5], mode="best_of", games=3) == "invalid_entrant"
