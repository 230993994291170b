"""Swiss and round robin tournaments played through the API, with their standings.

Covers: drawing each round in a click (``auto_advance`` off) or by itself, byes to the lowest
ranked entrant without one and scored by the stated rule, no repeat opponents, the round robin
schedules (circle method; the affine plane at tables of three), the tie-break chain (head to head
re-applied, lots from the stored seed) and the standings' ETag.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from tests.tournaments.play_helpers import build_event, by_lot, win_match

pytestmark = pytest.mark.django_db


def seeded(event, **settings) -> tuple[int, dict[int, int]]:
    tournament = event.create_tournament(
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
        **settings,
    )
    entrants = event.ok("get", f"/api/tournaments/{tournament['id']}/entrants/")
    return tournament["id"], {entrant["seed"]: entrant["id"] for entrant in entrants}


def pairs(round_: dict) -> list[tuple[int, ...]]:
    return [
        tuple(slot["entrant"] for slot in match["entrants"])
        for match in round_["matches"]
        if not match["is_bye"]
    ]


def byes(round_: dict) -> list[int]:
    return [match["entrants"][0]["entrant"] for match in round_["matches"] if match["is_bye"]]


def play_by_seed(event, tournament_id: int, round_: dict, seed_of: dict[int, int]) -> None:
    """The better seed wins every match of the round."""
    for match in round_["matches"]:
        if match["is_bye"]:
            assert match["status"] == "decided"
            continue
        seeds = [seed_of[slot["entrant"]] for slot in match["entrants"]]
        win_match(event, tournament_id, match["id"], seeds.index(min(seeds)))


@pytest.mark.slow  # every round played through the API: ~15 s
def test_swiss_of_seven_with_byes_drawn_one_click_at_a_time():
    event = build_event(players=7)
    tournament_id, entrant_of = seeded(
        event,
        name="Swiss",
        game="25",
        format="swiss",
        round_count=3,
        bye_rule="draw",
        auto_advance=False,
        lots_seed=3,
    )
    seed_of = {entrant: seed for seed, entrant in entrant_of.items()}
    round_one = event.draw(tournament_id)
    assert pairs(round_one) == [
        (entrant_of[1], entrant_of[4]),
        (entrant_of[2], entrant_of[5]),
        (entrant_of[3], entrant_of[6]),
    ]
    assert byes(round_one) == [entrant_of[7]]

    # The round is not complete: drawing again is refused and stores nothing.
    refused = event.call("post", f"/api/tournaments/{tournament_id}/rounds/")
    assert refused.status_code == 409
    assert refused.json()["code"] == "round_incomplete"

    met: set[frozenset] = set()
    had_bye = set(byes(round_one))
    current = round_one
    for number in (1, 2, 3):
        for pair in pairs(current):
            assert frozenset(pair) not in met, "repeat opponents"
            met.add(frozenset(pair))
        play_by_seed(event, tournament_id, current, seed_of)
        rounds = event.rounds(tournament_id)
        assert len(rounds) == number  # auto_advance is off: nothing drawn by itself
        assert rounds[-1]["status"] == "complete"
        if number == 3:
            break
        table = event.standings(tournament_id)
        current = event.draw(tournament_id)
        # The bye goes to the lowest-ranked entrant who has not had one; the pairing rank is
        # the score, then the seed.
        without_bye = [row for row in table if row["entrant"]["id"] not in had_bye]
        lowest = min(without_bye, key=lambda row: (row["match_points"], -row["entrant"]["seed"]))
        assert byes(current) == [lowest["entrant"]["id"]]
        had_bye.update(byes(current))
        # Near-score tables: entrants meet an opponent on the same score where one is free.
        points = {row["entrant"]["id"]: row["match_points"] for row in table}
        gaps = sorted(abs(points[first] - points[second]) for first, second in pairs(current))
        assert gaps[0] == 0
        # Exactly: round 2 has 1, 2, 3 on two points, 7 on one (its bye), 4, 5, 6 on none, so 3
        # floats down to 7 and 6 sits out; round 3 has 1 and 3 on four, 2 and 4 on two, 6 and 7
        # on one and 5, the only one left without a bye, on none.
        expected_pairs, expected_bye = {
            1: ([(1, 2), (3, 7), (4, 5)], 6),
            2: ([(1, 3), (2, 4), (6, 7)], 5),
        }[number]
        assert pairs(current) == [
            (entrant_of[first], entrant_of[second]) for first, second in expected_pairs
        ]
        assert byes(current) == [entrant_of[expected_bye]]

    assert event.tournament(tournament_id)["status"] == "finished"
    done = event.call("post", f"/api/tournaments/{tournament_id}/rounds/")
    assert (done.status_code, done.json()["code"]) == (409, "tournament_complete")

    standings = event.standings(tournament_id)
    assert standings[0]["entrant"]["id"] == entrant_of[1]
    assert (standings[0]["match_wins"], standings[0]["match_points"]) == (3, 6)
    for row in standings:
        # A bye scores as a draw: one match point, and it is not a match win.
        assert row["match_points"] == 2 * row["match_wins"] + row["byes"]
        assert row["matches_played"] + row["byes"] == 3
    assert sum(row["byes"] for row in standings) == 3
    # Match points 6, 4, 4, 3, 2, 1, 1: 3 and 2 are split by Buchholz (opponents 6, 7 and 1
    # scored 3 + 1 + 6 = 10; opponents 5, 1 and 4 scored 1 + 6 + 2 = 9), and so are 7 and 5
    # (opponents 3 and 6: 4 + 3 = 7; opponents 2 and 4: 4 + 2 = 6). Byes add nothing to it.
    assert [
        (row["rank"], seed_of[row["entrant"]["id"]], row["match_points"], row["buchholz"])
        for row in standings
    ] == [
        (1, 1, 6, 10),
        (2, 3, 4, 10),
        (3, 2, 4, 9),
        (4, 6, 3, 5),
        (5, 4, 2, 11),
        (6, 7, 1, 7),
        (7, 5, 1, 6),
    ]


@pytest.mark.slow  # every round played through the API: ~15 s
def test_round_robin_of_four_ranks_ties_by_head_to_head():
    event = build_event(players=4)
    tournament_id, entrant_of = seeded(
        event,
        name="League",
        game="25",
        format="round_robin",
        lots_seed=1,
    )
    seed_of = {entrant: seed for seed, entrant in entrant_of.items()}
    winners_by_round = {
        1: {frozenset({1, 4}): 1, frozenset({2, 3}): 2},
        2: {frozenset({1, 3}): 3, frozenset({2, 4}): 2},
        3: {frozenset({1, 2}): 1, frozenset({3, 4}): 4},
    }
    event.draw(tournament_id)
    for number in (1, 2, 3):
        current = event.rounds(tournament_id)[number - 1]
        seeds_at_tables = [frozenset(seed_of[e] for e in pair) for pair in pairs(current)]
        assert set(seeds_at_tables) == set(winners_by_round[number])
        for match in current["matches"]:
            seeds = [seed_of[slot["entrant"]] for slot in match["entrants"]]
            winner = winners_by_round[number][frozenset(seeds)]
            win_match(event, tournament_id, match["id"], seeds.index(winner))
    assert len(event.rounds(tournament_id)) == 3
    assert event.tournament(tournament_id)["status"] == "finished"

    standings = event.standings(tournament_id)
    # 1 and 2 have two wins each and 1 beat 2; 4 and 3 have one each and 4 beat 3.
    assert [row["entrant"]["id"] for row in standings] == [
        entrant_of[seed] for seed in (1, 2, 4, 3)
    ]
    assert [row["match_points"] for row in standings] == [4, 4, 2, 2]
    assert standings[0]["tie_break_values"]["head_to_head"] == 2
    assert standings[1]["tie_break_values"]["head_to_head"] == 0


def test_round_robin_cycle_falls_to_the_configured_chain_and_lots():
    event = build_event(players=4)
    tournament_id, entrant_of = seeded(
        event,
        name="Cycle",
        game="25",
        format="round_robin",
        lots_seed=1234,
        tie_breaks=["match_points", "head_to_head", "points_difference", "lots"],
    )
    seed_of = {entrant: seed for seed, entrant in entrant_of.items()}
    # 1 beats 2, 2 beats 3, 3 beats 1, and all three beat 4.
    beats = {frozenset({1, 2}): 1, frozenset({2, 3}): 2, frozenset({1, 3}): 3}
    event.draw(tournament_id)
    for number in (1, 2, 3):
        current = event.rounds(tournament_id)[number - 1]
        for match in current["matches"]:
            seeds = [seed_of[slot["entrant"]] for slot in match["entrants"]]
            winner = beats.get(frozenset(seeds), min(seeds))
            win_match(event, tournament_id, match["id"], seeds.index(winner))
    response = event.call("get", f"/api/tournaments/{tournament_id}/standings/")
    assert response.status_code == 200
    body = response.json()
    assert body["tie_breaks"] == ["match_points", "head_to_head", "points_difference", "lots"]
    assert "computed_at" in body
    expected = by_lot(1234, [entrant_of[seed] for seed in (1, 2, 3)]) + [entrant_of[4]]
    assert [row["entrant"]["id"] for row in body["standings"]] == expected
    assert [row["rank"] for row in body["standings"]] == [1, 2, 3, 4]

    etag = response.headers["ETag"]
    again = event.call(
        "get", f"/api/tournaments/{tournament_id}/standings/", **{"If-None-Match": etag}
    )
    assert again.status_code == 304
    assert again.headers["ETag"] == etag

    # The chain may change at any time; the standings (and their ETag) follow.
    chain = {"tie_breaks": ["match_points", "lots"]}
    event.ok("patch", f"/api/tournaments/{tournament_id}/", chain)
    changed = event.call(
        "get", f"/api/tournaments/{tournament_id}/standings/", **{"If-None-Match": etag}
    )
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    assert changed.json()["tie_breaks"] == ["match_points", "lots"]


@pytest.mark.slow  # every round played through the API: ~15 s
def test_round_robin_of_nine_at_tables_of_three_meets_everyone_once():
    event = build_event(players=9)
    tournament_id, entrant_of = seeded(
        event,
        name="Cut-throat 45",
        game="45",
        format="round_robin",
        table_size=3,
    )
    seed_of = {entrant: seed for seed, entrant in entrant_of.items()}
    event.draw(tournament_id)
    met: list[frozenset] = []
    for number in (1, 2, 3, 4):
        current = event.rounds(tournament_id)[number - 1]
        assert [len(table) for table in pairs(current)] == [3, 3, 3]
        for table in pairs(current):
            met.extend(frozenset(pair) for pair in combinations(table, 2))
        play_by_seed(event, tournament_id, current, seed_of)
    assert sorted(met, key=sorted) == sorted(
        (frozenset(pair) for pair in combinations(entrant_of.values(), 2)), key=sorted
    )
    assert len(event.rounds(tournament_id)) == 4
    assert event.tournament(tournament_id)["status"] == "finished"
    standings = event.standings(tournament_id)
    assert standings[0]["entrant"]["id"] == entrant_of[1]
    assert standings[0]["match_wins"] == 4


def test_a_swiss_draw_from_the_aggregates_is_the_draw_of_the_rounds_read_whole():
    """The service draws a swiss round from the history's aggregates
    (``bridge.swiss_history_of``): the same round as ``swiss.next_round`` over the rounds read
    whole, with every stored result."""
    from tournaments import bridge
    from tournaments.draw import RoundDraw, Table, swiss
    from tournaments.models import Tournament

    event = build_event(players=7)
    tournament_id, entrant_of = seeded(
        event,
        name="Swiss",
        game="25",
        format="swiss",
        round_count=3,
        auto_advance=False,
    )
    seed_of = {entrant: seed for seed, entrant in entrant_of.items()}
    round_one = event.draw(tournament_id)
    play_by_seed(event, tournament_id, round_one, seed_of)
    tournament = Tournament.objects.get(pk=tournament_id)
    whole = bridge.played_rounds_of(tournament)
    assert any(result.points for result in whole[0].results)
    expected = swiss.next_round(bridge.draw_order_of(tournament), whole, total_rounds=3)
    round_two = event.draw(tournament_id)
    assert (
        RoundDraw(tuple(Table(pair) for pair in pairs(round_two)), tuple(byes(round_two)))
        == expected
    )
