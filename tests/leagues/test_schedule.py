"""The double round robin (leagues.schedule): every pair twice, once at each home, a team at most
once a round, a bye with an odd number of teams, home games spread."""

from collections import Counter

import pytest

from leagues.schedule import double_round_robin, single_round_robin


@pytest.mark.parametrize("count", range(2, 13))
def test_every_pair_meets_twice_once_at_each_home(count):
    teams = [f"t{index}" for index in range(count)]
    rounds = double_round_robin(teams)
    pairings = Counter(pairing for each in rounds for pairing in each)
    expected = {(home, away) for home in teams for away in teams if home != away}
    assert set(pairings) == expected
    assert set(pairings.values()) == {1}
    assert len(rounds) == 2 * (count - 1 if count % 2 == 0 else count)


@pytest.mark.parametrize("count", range(2, 13))
def test_each_team_plays_at_most_once_a_round_and_odd_counts_have_one_bye_a_round(count):
    teams = list(range(count))
    for pairings in double_round_robin(teams):
        playing = [team for pairing in pairings for team in pairing]
        assert len(playing) == len(set(playing))
        assert len(playing) == count - (count % 2)


@pytest.mark.parametrize("count", [3, 5, 7])
def test_with_an_odd_count_each_team_has_one_bye_in_each_half(count):
    rounds = single_round_robin(list(range(count)))
    byes = Counter(
        team for pairings in rounds for team in range(count) if all(team not in p for p in pairings)
    )
    assert byes == dict.fromkeys(range(count), 1)


@pytest.mark.parametrize("count", range(2, 13))
def test_home_games_of_a_half_are_spread(count):
    half = single_round_robin(list(range(count)))
    homes = Counter(home for pairings in half for home, _ in pairings)
    played = count - 1
    assert all(abs(homes[team] - played / 2) <= 1 for team in range(count))


def test_four_teams_exactly():
    assert double_round_robin(["A", "B", "C", "D"]) == [
        [("A", "D"), ("C", "B")],
        [("C", "A"), ("B", "D")],
        [("A", "B"), ("D", "C")],
        [("D", "A"), ("B", "C")],
        [("A", "C"), ("D", "B")],
        [("B", "A"), ("C", "D")],
    ]


def test_edge_cases():
    assert double_round_robin([]) == []
    assert double_round_robin(["A"]) == []
    with pytest.raises(ValueError):
        double_round_robin(["A", "A"])
