"""Swiss pairing: score groups, no repeats when avoidable, byes, and a tournament played through."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import draw_error_code
from tournaments.draw import (
    MatchResult,
    PlayedRound,
    RoundDraw,
    ScoringRule,
    Table,
    compute_standings,
    meetings,
    repeat_pairs,
    swiss,
    swiss_history,
)
from tournaments.draw.ranking import tally
from tournaments.draw.types import pair_key


def lowest_id_wins(draw: RoundDraw) -> PlayedRound:
    results = []
    for table in draw.tables:
        winner = min(table.entrants)
        losers = tuple(entrant for entrant in table.entrants if entrant != winner)
        results.append(MatchResult.build(table, [winner, losers]))
    return PlayedRound(draw, tuple(results))


def tables_of(draw: RoundDraw) -> list[tuple[int, ...]]:
    return [table.entrants for table in draw.tables]


def test_round_one_pairs_top_half_against_bottom_half():
    draw = swiss.next_round(range(1, 9), [], total_rounds=3)
    assert tables_of(draw) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert draw.byes == ()
    odd = swiss.next_round(range(1, 8), [], total_rounds=3)
    assert tables_of(odd) == [(1, 4), (2, 5), (3, 6)]
    assert odd.byes == (7,)


def test_a_swiss_of_eight_played_through():
    entrants = list(range(1, 9))
    played: list[PlayedRound] = []
    expected_rounds = [
        [(1, 5), (2, 6), (3, 7), (4, 8)],
        # Winners 1-4 on 2 points, losers 5-8 on 0: each group split top half v bottom half.
        [(1, 3), (2, 4), (5, 7), (6, 8)],
        # 1 and 2 won both; 3, 4, 5 and 6 won one; 7 and 8 none.
        [(1, 2), (3, 5), (4, 6), (7, 8)],
    ]
    for expected in expected_rounds:
        draw = swiss.next_round(entrants, played, total_rounds=3)
        assert tables_of(draw) == expected
        played.append(lowest_id_wins(draw))
    assert draw_error_code(swiss.next_round, entrants, played, total_rounds=3) == (
        "tournament_complete"
    )
    standings = compute_standings(
        entrants,
        [result for round_ in played for result in round_.results],
        tie_breaks=("match_points", "buchholz"),
    )
    assert [
        (line.entrant, line.rank, line.tally.match_points, line.buchholz) for line in standings
    ] == [
        (1, 1, 6, 10),
        (2, 2, 4, 12),
        (3, 3, 4, 10),
        (4, 4, 4, 6),
        (5, 5, 2, 12),
        (6, 6, 2, 8),
        (7, 7, 2, 6),
        (8, 8, 0, 8),
    ]


def test_byes_go_to_the_lowest_ranked_without_one_and_score_by_the_rule():
    entrants = [1, 2, 3, 4, 5]
    rule = ScoringRule(win=3, draw=1, loss=0, bye=3, bye_is_match_win=True)
    played: list[PlayedRound] = []
    byes = []
    for _ in range(5):
        draw = swiss.next_round(entrants, played, total_rounds=5, scoring=rule)
        byes.extend(draw.byes)
        played.append(lowest_id_wins(draw))
    # Everyone sits out exactly once, and round 1's bye went to the bottom seed.
    assert byes[0] == 5 and sorted(byes) == entrants
    lines = tally(entrants, [r for p in played for r in p.results], byes=byes, scoring=rule)
    # A bye is a match win worth 3 here, so every entrant's points are 3 per match win.
    assert all(line.byes == 1 for line in lines.values())
    assert all(line.match_points == 3 * line.match_wins for line in lines.values())
    assert [lines[entrant].match_wins for entrant in entrants] == [5, 4, 3, 2, 1]
    # Five rounds of five is a full round robin: every pair met exactly once.
    assert set(meetings(r for p in played for r in p.results).values()) == {1}


def test_repeats_happen_only_when_unavoidable():
    # Four entrants after three rounds have met everyone: round 4 must repeat, once per table.
    entrants = [1, 2, 3, 4]
    played: list[PlayedRound] = []
    for _ in range(3):
        played.append(lowest_id_wins(swiss.next_round(entrants, played, total_rounds=4)))
    draw = swiss.next_round(entrants, played, total_rounds=4)
    met = meetings(r for p in played for r in p.results)
    assert repeat_pairs(draw, met) == 2
    # 1 (6 points) meets 2 (4 points) again rather than anyone further down.
    assert tables_of(draw) == [(1, 2), (3, 4)]


def random_history(entrant_count: int, round_count: int, chance: random.Random):
    """Arbitrary earlier rounds (random pairings, random winners), as a club might have played."""
    entrants = list(range(1, entrant_count + 1))
    played = []
    for _ in range(round_count):
        shuffled = entrants[:]
        chance.shuffle(shuffled)
        byes = tuple(shuffled[: entrant_count % 2])
        pairs = [shuffled[i : i + 2] for i in range(entrant_count % 2, entrant_count, 2)]
        draw = RoundDraw(tuple(Table(tuple(pair)) for pair in pairs), byes)
        played.append(played_at_random(draw, chance))
    return entrants, played


def played_at_random(draw: RoundDraw, chance: random.Random) -> PlayedRound:
    """``draw`` with every table won in a random order."""
    results = []
    for table in draw.tables:
        order = list(table.entrants)
        chance.shuffle(order)
        results.append(MatchResult.build(table, order))
    return PlayedRound(draw, tuple(results))


def repeat_free_pairing_exists(entrants, met, bye_allowed) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(entrants)
    for first, second in itertools.combinations(entrants, 2):
        if not met.get(pair_key(first, second)):
            graph.add_edge(first, second)
    if len(entrants) % 2:
        graph.add_edges_from(("bye", entrant) for entrant in entrants if bye_allowed(entrant))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(matching) == len(entrants) + len(entrants) % 2


@settings(max_examples=150, deadline=None)
@given(
    st.integers(min_value=2, max_value=11),
    st.integers(min_value=0, max_value=6),
    st.randoms(use_true_random=False),
)
def test_no_repeat_and_no_second_bye_when_a_pairing_avoids_them(count, round_count, chance):
    entrants, played = random_history(count, round_count, chance)
    draw = swiss.next_round(entrants, played, total_rounds=round_count + 1)
    assert sorted(draw.entrants) == entrants
    assert len(draw.byes) == count % 2
    met = meetings(r for p in played for r in p.results)
    had_bye = {entrant for p in played for entrant in p.draw.byes}
    if repeat_free_pairing_exists(entrants, met, lambda entrant: True):
        assert repeat_pairs(draw, met) == 0
        if repeat_free_pairing_exists(entrants, met, lambda entrant: entrant not in had_bye):
            assert not set(draw.byes) & had_bye


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=40), st.randoms(use_true_random=False))
def test_round_one_pairs_within_the_one_score_group_in_swiss_order(count, chance):
    entrants = list(range(1, count + 1))
    chance.shuffle(entrants)
    draw = swiss.next_round(entrants, [], total_rounds=1)
    half = count // 2
    assert tables_of(draw) == [(entrants[i], entrants[half + i]) for i in range(half)]
    assert draw.byes == (tuple(entrants[-1:]) if count % 2 else ())


def test_tables_of_four_from_score_groups_without_repeats():
    entrants = list(range(1, 17))
    played: list[PlayedRound] = []
    draws = []
    for _ in range(3):
        draw = swiss.next_round(entrants, played, total_rounds=3, table_size=4)
        met = meetings(r for p in played for r in p.results)
        assert repeat_pairs(draw, met) == 0
        draws.append(tables_of(draw))
        played.append(lowest_id_wins(draw))
    assert draws[0] == [(1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15), (4, 8, 12, 16)]
    # The four round-1 winners (2 points) share the top table; the twelve others are spread so
    # nobody meets a round-1 opponent again.
    assert draws[1][0] == (1, 2, 3, 4)
    scores = {e: line.match_points for e, line in tally(entrants, played[0].results).items()}
    for table in draws[1][1:]:
        assert {scores[entrant] for entrant in table} == {0}


def test_short_tables_replace_byes_when_allowed():
    draw = swiss.next_round(range(1, 15), [], total_rounds=2, table_size=4, min_table_size=3)
    assert sorted(table.size for table in draw.tables) == [3, 3, 4, 4] and draw.byes == ()
    with_byes = swiss.next_round(range(1, 15), [], total_rounds=2, table_size=4)
    assert with_byes.byes == (13, 14)


def test_bad_requests_are_refused():
    entrants = [1, 2, 3, 4]
    draw = swiss.next_round(entrants, [], total_rounds=2)
    unfinished = PlayedRound(draw, (MatchResult.build(draw.tables[0], [1, 3]),))
    assert draw_error_code(swiss.next_round, entrants, [unfinished], total_rounds=2) == (
        "round_incomplete"
    )
    assert draw_error_code(swiss.next_round, [1, 2, 3], [], total_rounds=2, table_size=4) == (
        "too_few_entrants"
    )
    assert draw_error_code(swiss.next_round, [1, 2, 2], [], total_rounds=2) == "duplicate_entrant"
    assert draw_error_code(swiss.next_round, entrants, [], total_rounds=0) == "invalid_option"
    assert draw_error_code(swiss.next_round, entrants, unfinished, total_rounds=2) == (
        "invalid_result"
    )


@pytest.mark.parametrize("scoring", [None, ScoringRule(win=3, draw=1, loss=0, bye=1)])
def test_the_draws_match_points_are_the_tallys(scoring):
    """The swiss draw counts match points alone (swiss_history.match_points): the same as the full
    tally's, byes, draws and a club's scoring rule included, over rounds of 2- and 4-seat tables
    with an odd number of entrants (so there are byes)."""
    chance = random.Random(12)
    entrants = list(range(1, 16))
    played = []
    for table_size in (2, 2, 4, 2):
        draw = swiss.next_round(
            entrants, played, total_rounds=4, table_size=table_size, scoring=scoring
        )
        results = []
        for table in draw.tables:
            order = list(table.entrants)
            chance.shuffle(order)
            # Now and then the first two share first place (a draw).
            placings = [order[:2], *order[2:]] if chance.random() < 0.3 else order
            results.append(MatchResult.build(table, placings))
        played.append(PlayedRound(draw, tuple(results)))
    results = [result for round_ in played for result in round_.results]
    byes = Counter(entrant for round_ in played for entrant in round_.draw.byes)
    assert sum(byes.values()) > 0
    assert swiss_history.match_points(entrants, results, byes, scoring) == {
        entrant: line.match_points
        for entrant, line in tally(entrants, results, byes=byes, scoring=scoring).items()
    }


@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=33, max_value=140), st.randoms(use_true_random=False))
def test_large_fields_matched_in_parts_still_avoid_repeats_and_second_byes(count, chance):
    """Over LARGE_BRACKET entrants a score group is matched in parts, and a group or part that
    cannot be paired is merged with the next: every round of a long Swiss still seats everyone
    once, with no repeat and no second bye (both avoidable here: at most 8 rounds of 33+)."""
    entrants = list(range(1, count + 1))
    played: list[PlayedRound] = []
    for _ in range(8):
        draw = swiss.next_round(entrants, played, total_rounds=8)
        assert sorted(draw.entrants) == entrants
        assert repeat_pairs(draw, meetings(r for p in played for r in p.results)) == 0
        had_bye = {entrant for p in played for entrant in p.draw.byes}
        assert len(draw.byes) == count % 2 and not set(draw.byes) & had_bye
        played.append(played_at_random(draw, chance))


def test_a_group_that_cannot_be_paired_is_merged_with_its_neighbour_not_the_whole_field():
    no_byes = Counter(dict.fromkeys(range(1, 9), 0))
    # The two leaders (group 0) have met: both float into group 1, which pairs them with its
    # own members (no repeat), and the rest of group 1 pairs among itself.
    leaders = {1: 0, 2: 0, **dict.fromkeys(range(3, 9), 1)}
    assert sorted(
        swiss._pair_by_brackets(
            [1, 2, 3, 6, 4, 7, 5, 8],
            leaders,
            {pair_key(1, 2): 1},
            no_byes,
        )
    ) == [(3, 2), (6, 1), (7, 4), (8, 5)]
    # The last group (7 and 8) has met: it is merged with the group above, whose pairs are
    # undone and drawn again with it.
    last = {**dict.fromkeys(range(1, 7), 0), 7: 1, 8: 1}
    assert sorted(
        swiss._pair_by_brackets(
            list(range(1, 9)),
            last,
            {pair_key(7, 8): 1},
            no_byes,
        )
    ) == [(2, 1), (4, 3), (5, 7), (6, 8)]
