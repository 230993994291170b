"""Twenty-Five: the game ends the moment a side reaches 25, trick by trick (the hand stops there),
and a side taking all five tricks from no score wins double stakes (rules.md "25")."""

import pytest

from rules_engine import BestTrump, new_game, parse_card
from tests.helpers import error_of
from tests.rules_engine.fixtures.examples import example_a, example_j


def test_example_a_seats_alone():
    result, after = new_game("25", 4).record(example_a())
    assert result.trick_winners == (2, 1, 0, 0, 2)
    assert result.points == (10, 5, 10, 0)
    # Known from the cards, but worth nothing in 25.
    assert result.best_trump == BestTrump(seat=2, card=parse_card("5S"), trick=4)
    assert after.totals == (10, 5, 10, 0)
    assert after.next_dealer == 1


def stop_game():
    # Side 0 (seats 0, 2) starts on 10: after tricks 1, 3 and 4 of example A it stands on 25.
    return new_game("25", 4, sides=[[0, 2], [1, 3]], totals=[10, 0])


def test_hand_stops_at_the_trick_that_reaches_25():
    record = example_a()
    record["tricks"] = record["tricks"][:4]
    result, after = stop_game().record(record)
    assert result.trick_winners == (2, 1, 0, 0)
    assert result.points == (15, 5)
    assert result.reached == (3, None)
    assert after.totals == (25, 5)
    assert after.finished is True
    assert after.winner == 0
    assert after.double_stake is False


def test_record_going_past_the_target_is_refused():
    error = error_of(stop_game().record, example_a())
    assert error.code == "wrong_trick_count"
    assert error.pointer == "/tricks"
    assert error.detail == (
        "side 0 reached 25 in trick 4, where the game ends, but 5 tricks are recorded"
    )


def test_record_stopping_early_without_a_winner_is_refused():
    record = example_a()
    record["tricks"] = record["tricks"][:3]
    error = error_of(stop_game().record, record)
    assert error.code == "wrong_trick_count"
    assert error.pointer == "/tricks"
    assert error.detail.startswith("only 3 tricks are recorded, but no side reached 25")


def test_a_short_hand_needs_its_deal():
    record = example_a(deal=False)
    record["tricks"] = record["tricks"][:4]
    error = error_of(stop_game().record, record)
    assert (error.code, error.pointer) == ("invalid_record", "/deal")


def test_trick_winner_entry_stops_at_the_target():
    record = {"dealer": 0, "trump": "S", "trick_winners": [2, 1, 0, 0]}
    result, after = stop_game().record(record)
    assert result.points == (15, 5)
    assert after.winner == 0
    record["trick_winners"] = [2, 1, 0, 0, 2]
    error = error_of(stop_game().record, record)
    assert (error.code, error.pointer) == ("wrong_trick_count", "/trick_winners")
    record["trick_winners"] = [2, 1, 0]
    error = error_of(stop_game().record, record)
    assert (error.code, error.pointer) == ("wrong_trick_count", "/trick_winners")


@pytest.mark.parametrize("count", [0, 6])
def test_trick_winner_count_out_of_range(count):
    record = {"dealer": 0, "trump": "S", "trick_winners": [1] * count}
    error = error_of(new_game("25", 4).record, record)
    assert (error.code, error.pointer) == ("wrong_trick_count", "/trick_winners")


@pytest.mark.parametrize("with_deal", [True, False])
def test_all_five_tricks_from_zero_doubles_the_stake(with_deal):
    result, after = new_game("25", 4).record(example_j(deal=with_deal))
    assert result.trick_winners == (1, 1, 1, 1, 1)
    assert result.points == (0, 25, 0, 0)
    assert result.reached == (None, 4, None, None)
    assert after.finished is True
    assert after.winner == 1
    assert after.double_stake is True
    assert after.summary() == {
        "status": "finished",
        "winner": 1,
        "next_dealer": 1,
        "double_stake": True,
    }


def test_no_double_stake_when_the_house_rule_is_off():
    state = new_game("25", 4, rules={"jink_doubles_stake": False})
    _, after = state.record(example_j())
    assert after.winner == 1
    assert after.double_stake is False


def test_no_double_stake_for_a_side_that_had_scored_before():
    # Seat 1 scores 5 in hand 1, loses them to a renege deduction in hand 2, then takes all
    # five tricks of hand 3 from a total of 0: it had a score in this game, so single stakes.
    state = new_game("25", 4, rules={"renege_penalty": "deduct", "renege_deduction": 5})
    _, state = state.record({"dealer": 0, "trump": "S", "trick_winners": [1, 0, 2, 3, 0]})
    assert state.totals == (10, 5, 5, 5)
    renege = {
        "dealer": 1,
        "trump": "S",
        "trick_winners": [0, 2, 3, 1, 0],
        "renege": {"seat": 1, "trick": 3},
    }
    _, state = state.record(renege)
    assert state.totals == (20, 0, 10, 10)
    _, state = state.record({"dealer": 2, "trump": "S", "trick_winners": [1, 1, 1, 1, 1]})
    assert state.totals == (20, 25, 10, 10)
    assert state.winner == 1
    assert state.double_stake is False


def test_no_double_stake_for_carried_in_score():
    record = {"dealer": 0, "trump": "S", "trick_winners": [1, 1, 1, 1]}
    _, after = new_game("25", 4, totals=[0, 5, 0, 0]).record(record)
    assert after.totals == (0, 25, 0, 0)
    assert after.winner == 1
    assert after.double_stake is False


def test_recording_into_a_finished_game():
    _, after = new_game("25", 4).record(example_j())
    error = error_of(after.record, {"dealer": 1, "trump": "S", "trick_winners": [0, 0, 0, 0, 0]})
    assert error.code == "game_over"
    assert error.pointer == ""
    assert error.detail == "the game is over: side 1 won in hand 1"


def test_dealer_must_be_the_next_dealer():
    _, after = new_game("25", 4).record(example_a())
    error = error_of(after.record, example_a())
    assert error.code == "wrong_dealer"
    assert error.pointer == "/dealer"
    assert error.detail == "seat 0 is recorded as dealer, but seat 1 deals hand 2"


def test_the_deal_passes_to_the_left():
    state = new_game("25", 3, first_dealer=2, rules={"target": 100})
    dealers = []
    for _ in range(4):
        dealers.append(state.next_dealer)
        _, state = state.record(
            {"dealer": state.next_dealer, "trump": "D", "trick_winners": [0, 1, 2, 0, 1]}
        )
    assert dealers == [2, 0, 1, 2]
