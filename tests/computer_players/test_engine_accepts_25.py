"""The engine accepts every hand of 25 the computer players produce (see acceptance.py)."""

from tests.computer_players.acceptance import SHARE, play_many


def test_every_hand_of_25_is_accepted():
    refusals, finished, hands = play_many("25", seed=25_2026)
    assert refusals == []
    assert finished == SHARE["25"]
    assert hands >= SHARE["25"]
