"""Trick-winner entries: trick winners, the best trump, trumps and the informational rob
(api.md "Trick-winner entry")."""

import pytest

from rules_engine import new_game
from tests.helpers import error_of

PAIRS = [[0, 2], [1, 3]]


def base(**changes):
    record = {
        "dealer": 0,
        "trump": "S",
        "trick_winners": [2, 1, 0, 0, 2],
        "best_trump": {"seat": 2, "trick": 4},
    }
    record.update(changes)
    return record


def two_pairs(game: str = "45"):
    """A new game of ``game`` for four seats in two pairs."""
    return new_game(game, 4, sides=PAIRS)


def test_accepted():
    result, _ = two_pairs().record(base(rob={"seat": 1}))
    assert result.points == (25, 5)
    assert result.rob_seat == 1
    assert result.trump == "S"


def test_trump_spellings():
    result, _ = two_pairs().record(base(trump="♦"))
    assert result.trump == "D"


def test_best_trump_is_required_where_it_scores():
    record = base()
    del record["best_trump"]
    error = error_of(two_pairs().record, record)
    assert (error.code, error.pointer) == ("invalid_record", "/best_trump")
    # 25 has no bonus: not needed there.
    result, _ = two_pairs("25").record(record)
    assert result.best_trump is None


def test_best_trump_seat_must_have_taken_its_trick():
    error = error_of(two_pairs().record, base(best_trump={"seat": 0, "trick": 4}))
    assert error.code == "best_trump_mismatch"
    assert error.pointer == "/best_trump/seat"
    assert error.detail == (
        "seat 0 played the best trump in trick 5, so it took that trick (the highest trump always "
        "wins), but seat 2 is recorded as its winner"
    )


@pytest.mark.parametrize(
    ("best_trump", "code", "pointer"),
    [
        ({"seat": 2, "trick": 5}, "invalid_record", "/best_trump/trick"),
        ({"seat": 2, "trick": "4"}, "invalid_record", "/best_trump/trick"),
        ({"seat": 6, "trick": 4}, "invalid_seat", "/best_trump/seat"),
        ({"seat": 2}, "invalid_record", "/best_trump"),
        ({"seat": 2, "trick": 4, "player": 1}, "invalid_record", "/best_trump"),
        ({"seat": 2, "trick": 4, "card": "5H"}, "best_trump_mismatch", "/best_trump/card"),
        ({"seat": 2, "trick": 4, "card": "5Z"}, "invalid_card", "/best_trump/card"),
        ("5S", "invalid_record", "/best_trump"),
    ],
)
def test_malformed_best_trump(best_trump, code, pointer):
    error = error_of(two_pairs().record, base(best_trump=best_trump))
    assert (error.code, error.pointer) == (code, pointer)


def test_ace_of_hearts_is_always_a_trump_for_the_best_trump():
    result, _ = two_pairs().record(base(best_trump={"seat": 2, "trick": 4, "card": "AH"}))
    assert str(result.best_trump.card) == "AH"


@pytest.mark.parametrize(
    ("winners", "code", "pointer"),
    [
        ([2, 1, 0, 4, 2], "invalid_seat", "/trick_winners/3"),
        ([2, 1, 0, "0", 2], "invalid_record", "/trick_winners/3"),
        ([2, 1, 0, 0], "wrong_trick_count", "/trick_winners"),
        ("21002", "invalid_record", "/trick_winners"),
    ],
)
def test_malformed_trick_winners(winners, code, pointer):
    error = error_of(two_pairs().record, base(trick_winners=winners))
    assert (error.code, error.pointer) == (code, pointer)


@pytest.mark.parametrize(
    ("changes", "code", "pointer"),
    [
        ({"trump": "X"}, "invalid_trump", "/trump"),
        ({"trump": None}, "invalid_trump", "/trump"),
        ({"turn_up": "2H"}, "invalid_trump", "/trump"),
        ({"rob": {"seat": 9}}, "invalid_seat", "/rob/seat"),
        ({"rob": {"seat": 1, "discard": "XX"}}, "invalid_card", "/rob/discard"),
        ({"rob": 1}, "invalid_record", "/rob"),
        ({"deal": []}, "invalid_record", "/deal"),
        ({"kitty": []}, "invalid_record", "/kitty"),
    ],
)
def test_malformed_fields(changes, code, pointer):
    error = error_of(two_pairs().record, base(**changes))
    assert (error.code, error.pointer) == (code, pointer)


def test_missing_trump():
    record = base()
    del record["trump"]
    error = error_of(two_pairs().record, record)
    assert (error.code, error.pointer) == ("invalid_record", "/trump")


def test_trump_from_the_turn_up():
    record = base(turn_up="9S")
    del record["trump"]
    result, _ = two_pairs().record(record)
    assert result.trump == "S"


def test_turn_up_ace_robbed_by_another_seat():
    record = base(turn_up="AS", rob={"seat": 2})
    error = error_of(two_pairs().record, record)
    assert error.code == "illegal_rob"
    assert error.pointer == "/rob/seat"
    assert error.detail == (
        "the turn-up AS is the ace of trumps: only the dealer (seat 0) may rob it, not seat 2"
    )


def test_several_unknown_fields_are_all_reported():
    error = error_of(two_pairs().record, base(colour="red", weather="fine"))
    assert error.code == "invalid_record"
    assert [single.pointer for single in error.errors] == ["/colour", "/weather"]


def test_no_shape():
    error = error_of(two_pairs().record, {"dealer": 0, "trump": "S"})
    assert error.code == "invalid_record"
    assert error.pointer == ""
