"""Standings: tallies and the tie-break chain, on worked examples."""

from __future__ import annotations

import hashlib
from fractions import Fraction

from tests.helpers import draw_error_code
from tournaments.draw import MatchResult, ScoringRule, Table, compute_standings, tally
from tournaments.draw.ranking import lot


def beat(winner: int, loser: int, winner_points: int = 25, loser_points: int = 0) -> MatchResult:
    return MatchResult.build(
        Table((winner, loser)),
        [winner, loser],
        points={winner: winner_points, loser: loser_points},
        games_won={winner: 1},
    )


# Four entrants, every pair once: 1, 2 and 3 beat each other in a cycle; 4 beats only 3.
ROUND_ROBIN = [
    beat(1, 2, 25, 10),
    beat(3, 1, 25, 20),
    beat(2, 3, 25, 5),
    beat(1, 4, 25, 0),
    beat(2, 4, 25, 15),
    beat(4, 3, 25, 24),
]


def order(standings) -> list[int]:
    return [line.entrant for line in standings]


def ranks(standings) -> dict[int, int]:
    return {line.entrant: line.rank for line in standings}


def test_tally_adds_up_matches():
    lines = tally([1, 2, 3, 4], ROUND_ROBIN)
    assert lines[1].match_wins == 2 and lines[1].match_losses == 1
    assert lines[1].match_points == 4
    assert lines[3].match_points == 2
    assert lines[1].points_for == 70
    assert lines[1].points_against == 35
    assert lines[4].points_difference == 40 - 74
    assert lines[2].opponents == (1, 3, 4)
    assert lines[2].games_won == 2


def test_head_to_head_separates_entrants_level_on_points():
    standings = compute_standings(
        [1, 2, 3, 4], ROUND_ROBIN, tie_breaks=("match_points", "head_to_head")
    )
    # 1 and 2 have 4 points, and 1 beat 2; 3 and 4 have 2 points, and 4 beat 3.
    assert order(standings) == [1, 2, 4, 3]
    assert ranks(standings) == {1: 1, 2: 2, 4: 3, 3: 4}
    assert standings[0].values == {"match_points": 4, "head_to_head": 2}


def test_points_for_and_points_difference_and_buchholz_chains():
    by_points = compute_standings([1, 2, 3, 4], ROUND_ROBIN, tie_breaks=("points_for",))
    assert order(by_points) == [1, 2, 3, 4]
    by_difference = compute_standings([1, 2, 3, 4], ROUND_ROBIN, tie_breaks=("points_difference",))
    assert [line.tally.points_difference for line in by_difference] == [35, 15, -16, -34]
    by_buchholz = compute_standings([1, 2, 3, 4], ROUND_ROBIN, tie_breaks=("buchholz",))
    # Opponents' match points: 1 and 2 met (4, 2, 2); 3 and 4 met (4, 4, 2).
    assert [(line.entrant, line.buchholz, line.rank) for line in by_buchholz] == [
        (3, 10, 1),
        (4, 10, 1),
        (1, 8, 3),
        (2, 8, 3),
    ]


def test_head_to_head_is_applied_again_to_a_smaller_tied_group():
    results = [beat(1, 2), beat(2, 3), beat(3, 1), beat(1, 3), beat(2, 4), beat(3, 4)]
    # 1, 2 and 3 all have 4 match points. Among the three, 1 scores 4 (two wins) and 2 and 3
    # score 2 each; between 2 and 3 alone, 2 beat 3.
    standings = compute_standings(
        [1, 2, 3, 4], results, tie_breaks=("match_points", "head_to_head", "lots"), seed=99
    )
    assert order(standings) == [1, 2, 3, 4]
    assert ranks(standings) == {1: 1, 2: 2, 3: 3, 4: 4}
    # Buchholz instead leaves 1 and 3 level (12 each): they share rank 1 without lots.
    by_buchholz = compute_standings([1, 2, 3, 4], results, tie_breaks=("match_points", "buchholz"))
    assert ranks(by_buchholz) == {1: 1, 3: 1, 2: 3, 4: 4}


def test_lots_are_reproducible_from_the_seed():
    expected = int.from_bytes(hashlib.sha256(b"tournament-7:3").digest()[:8], "big")
    assert lot("tournament-7", 3) == expected
    entrants = list(range(1, 9))
    first = compute_standings(entrants, [], tie_breaks=("lots",), seed="tournament-7")
    again = compute_standings(entrants, [], tie_breaks=("lots",), seed="tournament-7")
    assert order(first) == order(again)
    assert order(first) == sorted(entrants, key=lambda e: lot("tournament-7", e), reverse=True)
    assert [line.rank for line in first] == list(range(1, 9))
    other = compute_standings(entrants, [], tie_breaks=("lots",), seed="tournament-8")
    assert order(other) == sorted(entrants, key=lambda e: lot("tournament-8", e), reverse=True)


def test_points_against_at_a_table_of_three_is_the_opponents_average():
    result = MatchResult.build(Table((1, 2, 3)), [1, 3, 2], points={1: 25, 2: 10, 3: 16})
    lines = tally([1, 2, 3], [result])
    assert lines[1].points_against == 13
    assert lines[2].points_difference == Fraction(-21, 2)


def test_byes_are_scored_by_the_rule():
    rule = ScoringRule(win=3, draw=1, loss=0, bye=3, bye_is_match_win=True)
    lines = tally([1, 2, 3], [beat(1, 2)], byes=[3, 3], scoring=rule)
    assert lines[3].match_points == 6 and lines[3].match_wins == 2 and lines[3].byes == 2
    plain = tally([1, 2, 3], [], byes={3: 1}, scoring=ScoringRule(bye=1, bye_is_match_win=False))
    assert plain[3].match_points == 1 and plain[3].match_wins == 0


def test_tricks_and_games_chains_and_draws():
    drawn = MatchResult.build(Table((1, 2)), [(1, 2)], tricks={1: 3, 2: 2})
    standings = compute_standings([1, 2], [drawn], tie_breaks=("match_wins", "tricks_won"))
    assert order(standings) == [1, 2]
    assert standings[0].tally.match_draws == 1 and standings[0].tally.match_points == 1


def test_partners_are_not_opponents_in_the_standings():
    table = Table((1, 2, 3, 4), ((1, 3), (2, 4)))
    result = MatchResult.build(table, [(1, 3), (2, 4)], points={1: 25, 3: 25, 2: 15, 4: 15})
    lines = tally([1, 2, 3, 4], [result])
    assert lines[1].match_wins == 1 and lines[3].match_wins == 1
    assert lines[1].opponents == (2, 4)
    assert lines[1].points_against == 15


def test_bad_chains_and_unknown_entrants_are_refused():
    assert draw_error_code(compute_standings, [1, 2], [], tie_breaks=("elo",)) == "invalid_option"
    assert draw_error_code(compute_standings, [1, 2], [], tie_breaks="lots") == "invalid_option"
    assert draw_error_code(compute_standings, [1, 2], [], tie_breaks=("lots", "lots")) == (
        "invalid_option"
    )
    assert draw_error_code(compute_standings, [1, 2], [beat(1, 3)]) == "invalid_entrant"
    assert draw_error_code(tally, [1, 2], [], byes=[5]) == "invalid_entrant"
    assert draw_error_code(compute_standings, [1, 2], [], primary={1: 1}) == "invalid_option"


def test_primary_orders_before_the_chain():
    standings = compute_standings(
        [1, 2, 3, 4], ROUND_ROBIN, primary={1: 0, 2: 0, 3: 1, 4: 0}, tie_breaks=("points_for",)
    )
    assert order(standings) == [3, 1, 2, 4]
    assert standings[0].values == {"primary": 1}
