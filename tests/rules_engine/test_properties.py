"""Properties (Hypothesis) of the whole engine on random legal hands.

- Every card ``legal_plays`` offers at a point of a hand is accepted in a card-by-card record,
  and every other card of the hand is refused with ``illegal_play`` pointing at that play.
- Random legal games played to the end score the right points: the trick winners, the best trump
  and every side's points agree with what the simulation worked out on its own (5 per trick, the
  best-trump bonus: 25 a hand without one, 30 with one, less when a 25 hand stops early, and
  only the bidder's score changed by its bid), and the winner is a side at the target.
- A correction replayed from the start gives the same states as recording the corrected hands
  afresh, and as replaying from the stored state before the corrected hand; stored states never
  change.

The random hands come from ``fixtures/hands.py``, which plays with ``legal_plays`` and
``trick_winner`` only, never with the record checker under test.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules_engine import RulesError, legal_plays, new_game, replay
from tests.rules_engine.fixtures.hands import play_hand, to_trick_winners

CONFIGS = [
    ("25", 2, None),
    ("25", 4, None),
    ("25", 6, [[0, 2, 4], [1, 3, 5]]),
    ("45", 3, None),
    ("45", 4, [[0, 2], [1, 3]]),
    ("55", 3, None),
    ("110", 4, [[0, 2], [1, 3]]),
    ("220", 5, None),
    ("auction45", 4, [[0, 2], [1, 3]]),
    ("auction45", 6, [[0, 2, 4], [1, 3, 5]]),
]
PRIVILEGES = [["5", "J", "AH"], ["5"], [], ["5", "J", "AH", "A"], ["J", "A"]]
MAX_HANDS = 40

configs = st.sampled_from(CONFIGS)
follow_rules = st.fixed_dictionaries(
    {
        "renege_privilege": st.sampled_from(PRIVILEGES),
        "ace_of_hearts_follows_hearts": st.booleans(),
    }
)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def start(config, rules=None, first_dealer=0):
    game, seats, sides = config
    return new_game(game, seats, sides=sides, rules=rules, first_dealer=first_dealer)


@SETTINGS
@given(config=configs, rules=follow_rules, seed=seeds, data=st.data())
def test_legal_cards_accepted_and_others_refused(config, rules, seed, data):
    state = start(config, rules, first_dealer=data.draw(st.integers(0, config[1] - 1)))
    include_deal = data.draw(st.booleans())
    first = play_hand(state, random.Random(seed), include_deal=include_deal)
    plays = [
        (trick, position)
        for trick, seats in enumerate(first.play_seats)
        for position in range(len(seats))
    ]
    target = data.draw(st.sampled_from(plays))
    trick, position = target
    held = first.hands_before[trick][position]
    so_far = first.record["tricks"][trick][:position]
    legal = legal_plays(held, so_far, first.trump, state.rules)

    for card in held:
        rng = random.Random(seed)

        def chooser(legal_cards, trick_index, position_index, seat, card=card, rng=rng):
            if (trick_index, position_index) == target:
                return card
            return rng.choice(legal_cards)

        forced = play_hand(state, rng, chooser, include_deal=include_deal)
        assert forced.hands_before[trick][position] == held  # same hand up to the forced play
        if card in legal:
            event("legal card")
            result, _ = state.record(forced.record)
            assert list(result.trick_winners) == forced.trick_winners
        else:
            event("illegal card")
            try:
                state.record(forced.record)
            except RulesError as error:
                assert [(single.code, single.pointer) for single in error.errors] == [
                    ("illegal_play", f"/tricks/{trick}/{position}")
                ]
                assert error.detail.startswith(
                    f"seat {forced.play_seats[trick][position]} "
                    f"played {card} to trick {trick + 1}, but "
                )
            else:
                raise AssertionError(f"{card} at {target} was accepted but is not legal")


def expected_points(state, hand):
    """Each side's points for a simulated hand, worked out from the simulation alone (who took
    each trick, who played the best trump, the bid), never from the engine's result."""
    rules = state.rules
    side_of_seat = state.side_of_seat
    taken = [0] * len(state.sides)
    for seat in hand.trick_winners:
        taken[side_of_seat[seat]] += rules.trick_points
    if hand.best_trump is not None:
        # The highest trump of the hand takes its trick: the bonus goes to its player's side.
        taken[side_of_seat[hand.best_trump[0]]] += rules.best_trump_bonus
    points = list(taken)
    if hand.bidder is not None:
        amount = int(
            next(call["call"] for call in hand.record["bidding"] if call["call"] != "pass")
        )
        side = side_of_seat[hand.bidder]
        if amount == rules.jink_bid:
            all_five = all(side_of_seat[seat] == side for seat in hand.trick_winners)
            points[side] = amount if all_five else -amount
        elif taken[side] < amount:
            points[side] = -amount
        elif amount == 30 and rules.made_thirty_scores is not None:
            points[side] = rules.made_thirty_scores
    return points


@SETTINGS
@given(config=configs, seed=seeds, data=st.data())
def test_games_to_the_end_score_the_right_points(config, seed, data):
    rng = random.Random(seed)
    state = start(config)
    rules = state.rules
    card_by_card = data.draw(st.booleans())
    for _ in range(MAX_HANDS):
        hand = play_hand(state, rng, include_deal=rng.random() < 0.5)
        record = hand.record if card_by_card else to_trick_winners(state, hand)
        result, after = state.record(record)
        tricks = len(hand.trick_winners)
        assert list(result.trick_winners) == hand.trick_winners
        if hand.best_trump is None or not (card_by_card or rules.best_trump_bonus):
            # A trick-winner entry names the best trump only where it scores.
            assert result.best_trump is None
        else:
            seat, card, trick = hand.best_trump
            assert (result.best_trump.seat, result.best_trump.trick) == (seat, trick)
            assert result.best_trump.card == (card if card_by_card else None)
        assert list(result.points) == expected_points(state, hand)
        if rules.game == "25":
            # 5 a trick, no bonus; a hand stops early only at the trick that ends the game.
            assert sum(result.points) == 5 * tricks
            assert tricks == 5 or after.finished
        elif rules.game == "45":
            assert sum(result.points) == (25 if hand.best_trump is None else 30)
            assert tricks == 5
        else:
            assert tricks == 5
        assert after.totals == tuple(
            total + points for total, points in zip(state.totals, result.points, strict=True)
        )
        assert after.hands_played == state.hands_played + 1
        at_target = [side for side, total in enumerate(after.totals) if total >= rules.target]
        if after.finished:
            assert after.winner in at_target
            if rules.game == "25":
                # The game ends the moment a side reaches 25: with the last trick recorded.
                assert after.winner == state.side_of_seat[hand.trick_winners[-1]]
            elif rules.game == "45":
                assert after.totals[after.winner] == max(after.totals)
        else:
            # Nobody at the target, or an exact tie between sides there plays on.
            tied = [after.totals[side] for side in at_target]
            assert not at_target or len(tied) != len(set(tied))
        state = after
        if state.finished:
            break


def record_all(initial, hands):
    """Record ``hands`` one by one from ``initial``: (outcomes, (index, code, pointer) or None)."""
    outcomes = []
    state = initial
    for index, hand in enumerate(hands):
        try:
            result, state = state.record(hand)
        except RulesError as error:
            return outcomes, (index, error.code, error.pointer)
        outcomes.append((result, state))
    return outcomes, None


def replay_all(initial, hands, offset=0):
    try:
        return replay(initial, hands), None
    except RulesError as error:
        index_text, _, rest = error.pointer[1:].partition("/")
        return None, (int(index_text) + offset, error.code, "/" + rest if rest else "")


@SETTINGS
@given(config=configs, seed=seeds, data=st.data())
def test_a_correction_replayed_equals_recording_afresh(config, seed, data):
    rng = random.Random(seed)
    initial = start(config)
    hands = []
    states = [initial]
    for _ in range(data.draw(st.integers(1, 8))):
        if states[-1].finished:
            break
        hand = play_hand(states[-1], rng, include_deal=True)
        record = hand.record if rng.random() < 0.5 else to_trick_winners(states[-1], hand)
        hands.append(record)
        states.append(states[-1].record(record)[1])
    snapshot = [state.to_dict() for state in states]

    index = data.draw(st.integers(0, len(hands) - 1))
    before = states[index]
    if data.draw(st.booleans()):
        replacement = {"dealer": before.next_dealer, "misdeal": True}
    else:
        replacement = to_trick_winners(before, play_hand(before, rng, include_deal=False))
    corrected = hands[:index] + [replacement] + hands[index + 1 :]

    fresh, fresh_error = record_all(initial, corrected)
    replayed, replay_error = replay_all(initial, corrected)
    from_before, partial_error = replay_all(before, corrected[index:], offset=index)

    assert fresh_error == replay_error == partial_error
    if fresh_error is None:
        assert replayed == fresh
        assert from_before == fresh[index:]
    # Stored states are values: nothing recorded since changed them.
    assert [state.to_dict() for state in states] == snapshot
    if len(fresh) > index:
        assert states[index].record(replacement) == fresh[index]
