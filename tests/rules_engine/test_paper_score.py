"""A game's final score from a paper sheet: rules_engine.paper and the "paper" hand record."""

import pytest

from rules_engine import HouseRules, RulesError, new_game
from rules_engine.paper import check_paper_score, unit_of


def pointers(error: RulesError) -> list[tuple[str, str]]:
    return [(single.code, single.pointer) for single in error.errors]


def check(game, scores, before=None, winner=None, **rules):
    house = HouseRules.for_game(game, **rules)
    return check_paper_score(
        house, scores, totals_before=before or [0] * len(scores), winner=winner
    )


@pytest.mark.parametrize(
    ("game", "scores", "winner", "double"),
    [
        ("45", [45, 30], 0, False),
        ("45", [20, 50], 1, False),
        ("45", [50, 45], 0, False),  # both passed 45 in the last hand: the higher total wins
        ("25", [25, 20], 0, False),
        ("25", [10, 25, 15], 1, False),
        ("25", [25, 0], 0, True),  # all five tricks from zero
        ("110", [115, -20], 0, False),  # bidding games go negative
        ("auction45", [125, 95], 0, False),
    ],
)
def test_accepted_scores(game, scores, winner, double):
    paper = check(game, scores)
    assert (paper.scores, paper.winner, paper.double_stake) == (tuple(scores), winner, double)


@pytest.mark.parametrize(
    ("game", "scores", "before", "expected"),
    [
        ("45", [45, 32], None, [("invalid_record", "/paper_score/1")]),
        (
            "45",
            [47, 33],
            None,
            [("invalid_record", "/paper_score/0"), ("invalid_record", "/paper_score/1")],
        ),
        ("45", [40, 30], None, [("invalid_record", "/paper_score")]),  # nobody at 45
        ("45", [45, 45], None, [("invalid_record", "/paper_score/1")]),  # a tie plays on
        ("45", [45], [0, 0], [("invalid_record", "/paper_score")]),  # one score per side
        ("45", [45, "30"], None, [("invalid_record", "/paper_score/1")]),
        ("45", [45, -5], None, [("invalid_record", "/paper_score/1")]),
        ("45", [75, 30], None, [("invalid_record", "/paper_score/0")]),  # 40 + 30 at most
        ("45", [45, 10], [0, 20], [("invalid_record", "/paper_score/1")]),  # went down
        ("25", [25, 25], None, [("invalid_record", "/paper_score/1")]),  # ends at the first
        ("25", [30, 10], None, [("invalid_record", "/paper_score/0")]),  # 20 + one trick
        ("110", [115, 110], None, [("invalid_record", "/winner")]),  # first to reach: say who
    ],
)
def test_refused_scores(game, scores, before, expected):
    with pytest.raises(RulesError) as caught:
        check(game, scores, before)
    assert pointers(caught.value) == expected


def test_first_to_reach_takes_the_named_winner_among_those_over_the_target():
    assert check("110", [115, 110], winner=1).winner == 1
    with pytest.raises(RulesError) as caught:
        check("110", [115, 20], winner=1)
    assert pointers(caught.value) == [("invalid_record", "/winner")]
    with pytest.raises(RulesError) as caught:
        check("110", [115, 20], winner=5)
    assert pointers(caught.value) == [("invalid_seat", "/winner")]


def test_the_unit_comes_from_the_rules():
    assert unit_of(HouseRules.for_game("45")) == 5
    assert unit_of(HouseRules.for_game("45", trick_points=2, best_trump_bonus=2)) == 2
    assert check("45", [46, 30], trick_points=2, best_trump_bonus=2).winner == 0


def test_no_double_when_the_winner_had_scored_or_the_loser_moved():
    house = HouseRules.for_game("25")
    assert not check_paper_score(
        house, [25, 0], totals_before=[0, 0], has_scored=[True, False]
    ).double_stake
    assert not check_paper_score(house, [25, 5], totals_before=[0, 0]).double_stake


def test_a_paper_record_ends_the_game_after_earlier_hands():
    state = new_game("45", 4, sides=[[0, 2], [1, 3]], first_dealer=1)
    result, state = state.record(
        {
            "dealer": 1,
            "trump": "H",
            "trick_winners": [0, 0, 1, 2, 3],
            "best_trump": {"seat": 0, "trick": 0},
        }
    )
    assert state.totals == (20, 10)
    result, state = state.record({"dealer": 2, "paper_score": [45, 30]})
    assert result.kind == "paper"
    assert result.points == (25, 20)
    assert (state.totals, state.finished, state.winner, state.next_dealer) == ((45, 30), True, 0, 3)
    assert result.to_dict()["points"] == {"0": 25, "1": 20}


def test_a_paper_record_is_refused_with_its_pointer_and_the_dealer_is_checked():
    state = new_game("45", 4, sides=[[0, 2], [1, 3]])
    with pytest.raises(RulesError) as caught:
        state.record({"dealer": 0, "paper_score": [45, 30], "trump": "H"})
    assert pointers(caught.value) == [("invalid_record", "/trump")]
    with pytest.raises(RulesError) as caught:
        state.record({"dealer": 1, "paper_score": [45, 30]})
    assert pointers(caught.value) == [("wrong_dealer", "/dealer")]
    _, after = new_game("25", 2).record({"dealer": 0, "paper_score": [25, 0]})
    assert (after.winner, after.double_stake) == (0, True)
