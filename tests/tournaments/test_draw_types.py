"""The shared values of the draw: tables, results, rounds, table sizes and DrawError codes."""

from __future__ import annotations

import ast
import pathlib

import pytest

from tests.helpers import draw_error_code
from tournaments.draw import (
    DrawError,
    MatchResult,
    PlayedRound,
    RoundDraw,
    ScoringRule,
    Table,
    meetings,
    repeat_pairs,
    table_sizes,
)
from tournaments.draw.errors import check_entrants
from tournaments.draw.types import check_rounds


def test_draw_error_is_a_value_error_with_a_stable_code():
    error = DrawError("duplicate_entrant", "entrant 3 is listed more than once")
    assert isinstance(error, ValueError)
    assert error.as_dict() == {
        "code": "duplicate_entrant",
        "detail": "entrant 3 is listed more than once",
    }
    with pytest.raises(ValueError, match="unknown DrawError code"):
        DrawError("no_such_code", "x")


def test_check_entrants_refuses_duplicates_non_ints_and_too_few():
    assert check_entrants([4, 2, 9]) == (4, 2, 9)
    assert draw_error_code(check_entrants, [1, 2, 1]) == "duplicate_entrant"
    assert draw_error_code(check_entrants, [1, "2"]) == "invalid_entrant"
    assert draw_error_code(check_entrants, [1, True]) == "invalid_entrant"
    assert draw_error_code(check_entrants, "12") == "invalid_entrant"
    assert draw_error_code(check_entrants, [1], minimum=2) == "too_few_entrants"


def test_table_sides_must_split_the_table():
    table = Table((1, 2, 3, 4), ((1, 3), (2, 4)))
    assert table.side_of(3) == (1, 3)
    assert table.opponents_of(1) == (2, 4)
    assert Table((5, 6)).all_sides == ((5,), (6,))
    assert draw_error_code(Table, (1, 2, 3, 4), ((1, 3), (2,))) == "invalid_table_size"
    assert draw_error_code(Table, (1, 2, 2)) == "duplicate_entrant"


def test_match_result_build_aligns_statistics_with_seats():
    table = Table((7, 3, 5))
    result = MatchResult.build(
        table, [5, (7, 3)], games_won={5: 2}, points={7: 10, 3: 10, 5: 25}, tricks=[1, 2, 2]
    )
    assert result.placings == ((5,), (7, 3))
    assert result.games_won == (0, 0, 2)
    assert result.points == (10, 10, 25)
    assert result.rank_of(3) == 2
    assert result.ordered() == (5, 7, 3)
    assert [result.outcome_of(entrant) for entrant in (5, 7, 3)] == ["win", "loss", "loss"]
    assert result.tricks_of(3) == 2


def test_match_result_outcomes_with_partners_and_draws():
    partners = Table((1, 2, 3, 4), ((1, 3), (2, 4)))
    result = MatchResult.build(partners, [(2, 4), (1, 3)])
    assert result.outcome_of(4) == "win"
    assert result.outcome_of(1) == "loss"
    drawn = MatchResult.build(Table((8, 9)), [(8, 9)])
    assert drawn.outcome_of(8) == "draw"


def test_match_result_refuses_bad_placings_and_statistics():
    table = Table((1, 2))
    partners = Table((1, 2, 3, 4), ((1, 3), (2, 4)))
    assert draw_error_code(MatchResult.build, table, [1]) == "invalid_result"
    assert draw_error_code(MatchResult.build, table, [1, 2, 3]) == "invalid_result"
    assert draw_error_code(MatchResult.build, table, [1, 1]) == "invalid_result"
    assert draw_error_code(MatchResult.build, partners, [1, 2, 3, 4]) == "invalid_result"
    assert draw_error_code(MatchResult.build, table, [1, 2], games_won={1: -1}) == "invalid_result"
    assert draw_error_code(MatchResult.build, table, [1, 2], points={9: 3}) == "invalid_result"
    assert draw_error_code(MatchResult.build, table, [1, 2], tricks=[1]) == "invalid_result"
    assert draw_error_code(MatchResult.build, table, "12") == "invalid_result"
    # Negative points are fine: bidding games set a side back.
    assert MatchResult.build(table, [2, 1], points={1: -20, 2: 55}).points == (-20, 55)


def test_round_draw_refuses_an_entrant_twice():
    assert draw_error_code(RoundDraw, (Table((1, 2)), Table((3, 1)))) == "duplicate_entrant"
    assert draw_error_code(RoundDraw, (Table((1, 2)),), (2,)) == "duplicate_entrant"
    assert RoundDraw((Table((1, 2)),), (3,)).entrants == (1, 2, 3)


def test_scoring_rule_values_are_checked():
    assert draw_error_code(ScoringRule, win="2") == "invalid_option"
    assert draw_error_code(ScoringRule, bye_is_match_win=1) == "invalid_option"


def test_table_sizes_full_tables_or_balanced_short_tables():
    assert table_sizes(10, 4) == ((4, 4), 2)
    assert table_sizes(10, 4, 3) == ((4, 3, 3), 0)
    assert table_sizes(9, 4, 3) == ((3, 3, 3), 0)
    assert table_sizes(13, 4, 4) == ((4, 4, 4), 1)
    assert table_sizes(7, 2) == ((2, 2, 2), 1)
    assert draw_error_code(table_sizes, 3, 4) == "too_few_entrants"
    assert draw_error_code(table_sizes, 8, 4, 5) == "invalid_table_size"
    assert draw_error_code(table_sizes, 8, 1) == "invalid_option"


def test_check_rounds_needs_complete_rounds_of_known_entrants():
    draw = RoundDraw((Table((1, 2)), Table((3, 4))), ())
    first = MatchResult.build(Table((2, 1)), [2, 1])
    second = MatchResult.build(Table((3, 4)), [4, 3])
    results, byes = check_rounds([PlayedRound(draw, (first, second))], [1, 2, 3, 4])
    assert results == [first, second] and not byes
    assert draw_error_code(check_rounds, [PlayedRound(draw, (first,))], [1, 2, 3, 4]) == (
        "round_incomplete"
    )
    stranger = MatchResult.build(Table((1, 3)), [1, 3])
    assert draw_error_code(check_rounds, [PlayedRound(draw, (stranger,))], [1, 2, 3, 4]) == (
        "invalid_result"
    )
    assert draw_error_code(check_rounds, [PlayedRound(draw, (first,))], [1, 2, 3]) == (
        "invalid_entrant"
    )
    assert draw_error_code(check_rounds, [PlayedRound(draw, (first, first))], [1, 2, 3, 4]) == (
        "invalid_result"
    )


def test_meetings_count_opponents_not_partners():
    partners = Table((1, 2, 3, 4), ((1, 3), (2, 4)))
    results = [
        MatchResult.build(partners, [(1, 3), (2, 4)]),
        MatchResult.build(Table((1, 2)), [1, 2]),
    ]
    met = meetings(results)
    assert met == {(1, 2): 2, (1, 4): 1, (2, 3): 1, (3, 4): 1}
    assert repeat_pairs(RoundDraw((Table((2, 1)), Table((3, 4)))), met) == 3


def test_the_draw_package_imports_nothing_from_django():
    root = pathlib.Path(__file__).resolve().parents[2] / "tournaments" / "draw"
    imported = set()
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module.split(".")[0])
    assert imported <= {
        "__future__",
        "collections",
        "dataclasses",
        "fractions",
        "hashlib",
        "math",
        "networkx",
        "random",
        "tournaments",
    }
