"""Properties (Hypothesis) of the whole engine on random legal hands.

- Every card ``legal_plays`` offers at a point of a hand is accepted in a card-by-card record,
  and every other card of the hand is refused with ``illegal_play`` pointing at that play.
- Random legal games played to the end score the right points: each hand distributes 5 per trick
  and the best-trump bonus (25 a hand without one, 30 with one, less when a 25 hand stops early);
  the bid only changes what the bidder scores.
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
SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


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
                assert error.detail.startswith(f"seat {forced.play_seats[trick][position]} "
                                               f"played {card} to trick {trick + 1}, but ")
            else:
                raise AssertionError(f"{card} at {target} was accepted but is not legal")


def taken_by_side(state, result):
    """Each side's trick points for the hand, counted from the result's winners and best trump."""
    rules = state.rules
    taken = [0] * len(state.sides)
    for trick, seat in enumerate(result.trick_winners):
        taken[state.side_of_seat[seat]] += rules.trick_points
        if result.best_trump is not None and result.best_trump.trick == trick:
            taken[state.side_of_seat[seat]] += rules.best_trump_bonus
    return taken


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
        taken = taken_by_side(state, result)
        tricks = len(result.trick_winners)
        bonus = rules.best_trump_bonus if result.best_trump is not None else 0
        assert sum(taken) == 5 * tricks + bonus
        if rules.game == "25":
            assert sum(result.points) == 5 * tricks
            assert tricks == 5 or after.finished
        elif rules.game == "45":
            assert sum(result.points) in (25, 30)
            assert tricks == 5
        if result.bid is None:
            assert list(result.points) == taken
        else:
            bidder_side = state.side_of_seat[result.bid.seat]
            for side, points in enumerate(result.points):
                if side != bidder_side:
                    assert points == taken[side]
            amount = result.bid.amount
            if result.bid.made:
                assert result.points[bidder_side] in (taken[bidder_side], rules.jink_bid,
                                                      rules.made_thirty_scores)
            else:
                assert result.points[bidder_side] == -amount
        assert after.totals == tuple(
            total + points for total, points in zip(state.totals, result.points, strict=True)
        )
        assert after.hands_played == state.hands_played + 1
        state = after
        if state.finished:
            assert state.totals[state.winner] >= rules.target
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
    corrected = hands[:index] + [replacement] + hands[index + 1:]

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
