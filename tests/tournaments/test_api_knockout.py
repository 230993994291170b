"""Knockouts played through the API: every hand entered, every advance and the final ranking.

The chain under test is the production one: a trick-winner hand recorded through the games API
finishes a game, games schedules ``match_progress_task`` after the commit (run in process here),
the match is decided from its games, and the next round's table fills with the winners.
"""

from __future__ import annotations

import pytest

from games.models import Game
from tests.tournaments.play_helpers import build_event, by_lot, seeds_of, win_match

pytestmark = pytest.mark.django_db


def table_seeds(match: dict, seed_of: dict[int, int]) -> tuple[int, ...]:
    return tuple(seed_of[slot["entrant"]] for slot in match["entrants"])


def round_tables(event, tournament_id: int, number: int) -> list[dict]:
    rounds = {round_["number"]: round_ for round_ in event.rounds(tournament_id)}
    return rounds[number]["matches"] if number in rounds else []


# Winner seed and how many games the loser takes first, per round, table by table.
PLAN = {
    1: [(1, 0), (9, 1), (4, 0), (12, 1), (2, 0), (7, 0), (3, 0), (6, 0)],
    2: [(1, 0), (12, 0), (7, 1), (3, 0)],
    3: [(12, 0), (3, 0)],
    4: [(3, 1)],
}
EXPECTED_TABLES = {
    1: [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)],
    2: [(1, 9), (4, 12), (2, 7), (3, 6)],
    3: [(1, 12), (7, 3)],
    4: [(12, 3)],
}


@pytest.mark.slow  # 16 teams, best of three: ~40 s with two workers
def test_auction_45_knockout_of_16_teams_in_best_of_three():
    event = build_event(players=0, teams=16)
    tournament = event.create_tournament(
        name="Spring Cup",
        game="auction45",
        format="knockout",
        entrant_kind="team",
        table_size=2,
        match_rule="best_of",
        match_games=3,
        stake="0.50",
        house_rules={"renege_penalty": "void_hand"},
        lots_seed=7,
        entrants=[{"team": team.pk, "seed": index + 1} for index, team in enumerate(event.teams)],
    )
    tournament_id = tournament["id"]
    seed_of = seeds_of(event, tournament_id)
    entrant_of = {seed: entrant for entrant, seed in seed_of.items()}

    round_one = event.draw(tournament_id)
    assert round_one["name"] == "Round 1"
    assert [table_seeds(match, seed_of) for match in round_one["matches"]] == EXPECTED_TABLES[1]
    assert [round_["number"] for round_ in event.rounds(tournament_id)] == [1]

    # Every match starts with one game: teams alternate (partners never neighbours), the
    # tournament's house rules and stake are frozen on it.
    first = round_one["matches"][0]
    game = event.game(first["games"][0]["id"])
    team_one, team_sixteen = event.teams[0], event.teams[15]
    members = {
        team.pk: [member.player_id for member in team.team_members.order_by("position")]
        for team in (team_one, team_sixteen)
    }
    assert [seat["player"]["id"] for seat in game["seats"]] == [
        members[team_one.pk][0],
        members[team_sixteen.pk][0],
        members[team_one.pk][1],
        members[team_sixteen.pk][1],
    ]
    assert [side["seats"] for side in game["sides"]] == [[0, 2], [1, 3]]
    assert [side["team"]["id"] for side in game["sides"]] == [team_one.pk, team_sixteen.pk]
    assert game["stake"] == "0.50"
    assert game["house_rules"]["renege_penalty"] == "void_hand"
    assert game["house_rules"]["target"] == 120

    for number in (1, 2, 3, 4):
        tables = round_tables(event, tournament_id, number)
        assert [table_seeds(match, seed_of) for match in tables] == EXPECTED_TABLES[number]
        for index, (match, (winner_seed, losses_first)) in enumerate(
            zip(tables, PLAN[number], strict=True)
        ):
            position = table_seeds(match, seed_of).index(winner_seed)
            decided = win_match(
                event, tournament_id, match["id"], position, losses_first=losses_first
            )
            assert decided["winners"] == [entrant_of[winner_seed]]
            assert len(decided["games"]) == 2 + losses_first
            assert decided["entrants"][position]["games_won"] == 2
            assert decided["entrants"][position]["advances"] is True
            assert decided["entrants"][1 - position]["games_won"] == losses_first
            # The next round fills as matches are decided: one table per decided pair.
            if number < 4:
                following = round_tables(event, tournament_id, number + 1)
                assert len(following) == (index + 1) // 2
                for next_match in following:
                    assert next_match["status"] == "in_progress"
                    assert [game["status"] for game in next_match["games"]] == ["in_progress"]
                    assert {slot["source_place"] for slot in next_match["entrants"]} == {1}

    final = event.tournament(tournament_id)
    assert final["status"] == "finished"
    assert final["rounds_drawn"] == 4
    names = [round_["name"] for round_ in event.rounds(tournament_id)]
    assert names == ["Round 1", "Quarter-finals", "Semi-finals", "Final"]

    standings = event.standings(tournament_id)
    order = [row["entrant"]["id"] for row in standings]
    expected = (
        [entrant_of[seed] for seed in (3, 12, 1, 7, 2)]
        + by_lot(7, [entrant_of[4], entrant_of[6]])
        + [entrant_of[9]]
        + by_lot(7, [entrant_of[8], entrant_of[5]])
        + by_lot(7, [entrant_of[seed] for seed in (16, 13, 15, 10, 14, 11)])
    )
    assert order == expected
    assert [row["rank"] for row in standings] == list(range(1, 17))
    champion = standings[0]
    assert (champion["match_wins"], champion["games_won"], champion["points_for"]) == (4, 8, 960)
    assert champion["points_against"] == 120  # the one game lost in the final
    assert champion["tricks_won"] == 80
    runner_up = standings[1]
    assert (runner_up["match_wins"], runner_up["games_won"]) == (3, 7)

    bracket = event.ok("get", f"/api/tournaments/{tournament_id}/bracket/")
    assert bracket["winners"] == [entrant_of[3]]
    assert [len(round_["tables"]) for round_ in bracket["rounds"]] == [8, 4, 2, 1]
    assert {table["kind"] for round_ in bracket["rounds"] for table in round_["tables"]} == {
        "match"
    }
    # 34 games were played (four matches went to a third game), each attached to its match.
    assert Game.objects.filter(match_link__match__tournament_id=tournament_id).count() == 34


def test_byes_go_to_the_top_seeds_and_the_bracket_shows_them():
    event = build_event(players=6)
    tournament = event.create_tournament(
        name="Small Cup",
        game="25",
        format="knockout",
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )
    tournament_id = tournament["id"]
    seed_of = seeds_of(event, tournament_id)
    entrant_of = {seed: entrant for entrant, seed in seed_of.items()}
    round_one = event.draw(tournament_id)
    assert [table_seeds(match, seed_of) for match in round_one["matches"]] == [(4, 5), (3, 6)]
    assert [match["table"] for match in round_one["matches"]] == [2, 4]

    bracket = event.ok("get", f"/api/tournaments/{tournament_id}/bracket/")
    first = bracket["rounds"][0]
    assert [(table["table"], table["kind"]) for table in first["tables"]] == [
        (1, "walkover"),
        (2, "match"),
        (3, "walkover"),
        (4, "match"),
    ]
    assert first["tables"][0]["entrants"] == [entrant_of[1]]
    assert [round_["name"] for round_ in bracket["rounds"]] == [
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]
    assert [table["kind"] for table in bracket["rounds"][1]["tables"]] == ["waiting", "waiting"]

    win_match(event, tournament_id, round_one["matches"][0]["id"], 1)  # 5 beats 4
    semis = round_tables(event, tournament_id, 2)
    assert [table_seeds(match, seed_of) for match in semis] == [(1, 5)]
    assert semis[0]["entrants"][0]["source_match"] is None  # seed 1 had a bye
    assert semis[0]["entrants"][1]["source_match"] == round_one["matches"][0]["id"]

    # Mid-round standings: 2 waits (bye) for the winner of 3 v 6, which is still playing; it is
    # through to the semi-finals, so it ranks with 1 and 5, above 3 and 6, and 4 is last. 5 won
    # a match; 1 and 2 are level on everything and split by lot.
    seed = event.tournament(tournament_id)["lots_seed"]
    standings = event.standings(tournament_id)
    assert [row["entrant"]["id"] for row in standings] == [
        entrant_of[5],
        *by_lot(seed, [entrant_of[1], entrant_of[2]]),
        *by_lot(seed, [entrant_of[3], entrant_of[6]]),
        entrant_of[4],
    ]


def test_tables_of_four_send_the_top_two_through():
    event = build_event(players=8)
    tournament = event.create_tournament(
        name="Fours",
        game="25",
        format="knockout",
        table_size=4,
        advancing_per_table=2,
        lots_seed=11,
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )
    tournament_id = tournament["id"]
    seed_of = seeds_of(event, tournament_id)
    entrant_of = {seed: entrant for entrant, seed in seed_of.items()}
    round_one = event.draw(tournament_id)
    assert [table_seeds(match, seed_of) for match in round_one["matches"]] == [
        (1, 4, 6, 8),
        (2, 3, 5, 7),
    ]
    # Seat 2 (seed 6) wins table 1; the three others take nothing, so second place is drawn
    # by tricks (none) and then by lot.
    decided = win_match(event, tournament_id, round_one["matches"][0]["id"], 2)
    losers = [entrant_of[seed] for seed in (1, 4, 8)]
    expected_second = by_lot(11, losers)[0]
    assert decided["placings"] == [[entrant_of[6]], *[[entrant] for entrant in by_lot(11, losers)]]
    assert [slot["entrant"] for slot in decided["entrants"] if slot["advances"]] == sorted(
        [entrant_of[6], expected_second], key=[entrant_of[s] for s in (1, 4, 6, 8)].index
    )
    decided = win_match(event, tournament_id, round_one["matches"][1]["id"], 0)
    second_table = by_lot(11, [entrant_of[seed] for seed in (3, 5, 7)])
    final = round_tables(event, tournament_id, 2)
    assert len(final) == 1
    assert [slot["entrant"] for slot in final[0]["entrants"]] == [
        entrant_of[6],
        expected_second,
        entrant_of[2],
        second_table[0],
    ]
    win_match(event, tournament_id, final[0]["id"], 3)
    assert event.tournament(tournament_id)["status"] == "finished"
    standings = event.standings(tournament_id)
    assert standings[0]["entrant"]["id"] == second_table[0]
    assert [row["rank"] for row in standings][:4] == [1, 2, 3, 4]


def test_third_place_match_between_the_semi_final_losers():
    event = build_event(players=4)
    tournament = event.create_tournament(
        name="With bronze",
        game="25",
        format="knockout",
        third_place_match=True,
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )
    tournament_id = tournament["id"]
    seed_of = seeds_of(event, tournament_id)
    entrant_of = {seed: entrant for entrant, seed in seed_of.items()}
    semis = event.draw(tournament_id)["matches"]
    assert [table_seeds(match, seed_of) for match in semis] == [(1, 4), (2, 3)]
    win_match(event, tournament_id, semis[0]["id"], 1)  # 4 beats 1
    win_match(event, tournament_id, semis[1]["id"], 0)  # 2 beats 3
    last_round = round_tables(event, tournament_id, 2)
    assert [(match["table"], match["is_third_place"]) for match in last_round] == [
        (1, False),
        (2, True),
    ]
    assert table_seeds(last_round[0], seed_of) == (4, 2)
    assert table_seeds(last_round[1], seed_of) == (1, 3)
    assert {slot["source_place"] for slot in last_round[1]["entrants"]} == {2}
    win_match(event, tournament_id, last_round[0]["id"], 1)  # 2 wins the final
    assert event.tournament(tournament_id)["status"] == "in_progress"
    win_match(event, tournament_id, last_round[1]["id"], 1)  # 3 takes third place
    assert event.tournament(tournament_id)["status"] == "finished"
    standings = event.standings(tournament_id)
    assert [row["entrant"]["id"] for row in standings] == [
        entrant_of[seed] for seed in (2, 4, 3, 1)
    ]
    assert [row["rank"] for row in standings] == [1, 2, 3, 4]
