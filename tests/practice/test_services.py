"""The practice table's services: whole games of 45, 25 and 110 against the computer, each hand
a card-by-card record the engine checked; an illegal card refused with the engine's reason."""

import pytest

from practice import services
from practice.models import PracticeHand
from practice.services import (
    PracticeError,
    advance_practice_game,
    load_table,
    play_practice_move,
    start_practice_game,
)
from rules_engine import HouseRules, new_game, replay
from tests.practice.helpers import SeededSecrets, play_to_the_end, set_deal


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user(username="learner")


# How each seeded game ends (the person's seat played by a club player, tests.practice.helpers):
# (winner, totals, hands). Read from a run: a change to the computer players' play, to the
# services' draws from ``secrets`` or to the engine's scoring changes them.
SEEDED_ENDS = {
    "45": (1, [35, 45, 10], 3),
    "25": (1, [0, 25, 5], 2),
    "110": (1, [70, 115, 25], 7),
}


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["45", "25", "110"])
def test_a_whole_game_against_the_computer(player, game, monkeypatch):
    monkeypatch.setattr(services, "secrets", SeededSecrets(2026))
    practice = start_practice_game(player=player, session_key="", game=game)
    play_to_the_end(practice)
    practice.refresh_from_db()
    hands = list(PracticeHand.objects.filter(practice_game=practice))
    assert practice.finished
    assert (practice.winner, practice.totals, len(hands)) == SEEDED_ENDS[game]
    rules = HouseRules.from_dict(practice.house_rules)
    assert practice.totals[practice.winner] >= rules.target  # the winner reached the target
    assert [hand.number for hand in hands] == list(range(1, len(hands) + 1))
    # The stored records replay in the engine to the stored totals and the same winner.
    start = new_game(game, 3, rules=rules, first_dealer=practice.first_dealer)
    final = replay(start, [hand.record for hand in hands])[-1][1]
    assert list(final.totals) == practice.totals
    assert final.winner == practice.winner
    assert all("tricks" in hand.record or "bidding" in hand.record for hand in hands)
    assert all(len(hand.deck) == 52 for hand in hands)


@pytest.mark.django_db
def test_45_is_the_classic_preset_and_an_illegal_card_is_refused(player):
    practice = start_practice_game(player=player, session_key="", game="45")
    assert practice.rules_name == "classic_45"
    assert practice.house_rules["ace_of_hearts_lead"] == "trump_then_hearts"
    assert practice.house_rules["rob_discard"] == "not_the_ace"
    # Dealer 1: seat 2 gets the first five and leads (a club player leads its king), then
    # the person (seat 0) holds 7D and must follow diamonds or trump. Spades trumps, AS unheld.
    set_deal(practice, "KD 2C 3C 6C 7C | 7D 8H 9H 10H JH | QD 3D 2H 4H 8C", "4S", dealer=1)
    assert load_table(practice).hand.turn() == ("play", 2)
    table = advance_practice_game(practice_game=practice)
    assert [str(card) for card in table.hand.trick] == ["KD"]
    assert table.hand.turn() == ("play", 0)
    with pytest.raises(PracticeError) as caught:
        play_practice_move(practice_game=practice, move={"kind": "play", "card": "8H"})
    assert (caught.value.code, caught.value.status) == ("illegal_play", 400)
    assert caught.value.detail == "diamonds were led and the hand held 7D: follow suit or trump"
    practice.refresh_from_db()
    assert practice.moves == [{"kind": "play", "seat": 2, "card": "KD"}]
    table = play_practice_move(practice_game=practice, move={"kind": "play", "card": "7D"})
    assert [str(card) for card in table.hand.trick] == ["KD", "7D"]
