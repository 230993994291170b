"""The engine accepts every hand of 45 the computer players produce (see acceptance.py)."""

import pytest

from tests.computer_players.acceptance import SHARE, play_many


@pytest.mark.slow  # thousands of computer-played games: 10 to 50 s
def test_every_hand_of_45_is_accepted():
    refusals, finished, hands = play_many("45", seed=45_2026)
    assert refusals == []
    assert finished == SHARE["45"]
    assert hands >= SHARE["45"]
