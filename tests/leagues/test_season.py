"""A league season simulated through the API: the organiser creates the league, enters three
teams and draws the fixtures; the home captains play their fixtures' tables with the computer
players (``web.simulate.simulate_night``: every hand through the games API) and enter the
result table by table, or enter final scores on paper; the away captains accept (one disputes
first); a fixture is postponed, one is a walkover, a team is penalised. The league table the API
answers equals one recomputed here from the fixtures the API lists."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.services import issue_device_token
from games.models import Game
from tests.leagues.factories import LeagueWorld
from web.simulate import InProcessApi, simulate_night

pytestmark = pytest.mark.django_db

BASE = "/api/federations/county/leagues/"


class Api:
    def __init__(self, user) -> None:
        _, token = issue_device_token(user=user, device="season")
        self.client = Client(HTTP_AUTHORIZATION=f"Token {token}")

    def __call__(self, method: str, path: str, body=None, expect: int = 200):
        response = self.client.generic(
            method, path, json.dumps(body) if body is not None else "", "application/json"
        )
        assert response.status_code == expect, (path, response.status_code, response.content)
        return response.json() if response.content else None


def recompute(fixtures, teams, penalties, points=(2, 1, 0)):
    """The table from the fixtures' list, by hand (no league code)."""
    rows = {
        team["id"]: {"played": 0, "won": 0, "drawn": 0, "lost": 0, "for": 0, "against": 0}
        for team in teams
    }
    for fixture in fixtures:
        if fixture["status"] not in ("played", "walkover"):
            continue
        for mine, theirs, team in (
            (fixture["home_score"], fixture["away_score"], fixture["home"]),
            (fixture["away_score"], fixture["home_score"], fixture["away"]),
        ):
            row = rows[team]
            row["played"] += 1
            row["for"] += mine
            row["against"] += theirs
            row["won" if mine > theirs else "drawn" if mine == theirs else "lost"] += 1
    for team, row in rows.items():
        taken = sum(p["points"] for p in penalties if p["team"] == team)
        row["penalties"] = taken
        row["points"] = (
            row["won"] * points[0] + row["drawn"] * points[1] + row["lost"] * points[2] - taken
        )
    return rows


def test_a_simulated_season():
    world = LeagueWorld(clubs=("north", "south", "east"))
    organiser = Api(world.organiser)
    captains = {slug: Api(user) for slug, user in world.captains.items()}
    club_of_team = {}
    # A second league made through the API, its teams entered through the API.
    league = organiser(
        "POST",
        BASE,
        {
            "name": "Spring",
            "slug": "spring",
            "variant": "45",
            "team_format": "2v2",
            "tables_per_fixture": 2,
            "season_start": "2027-01-05",
            "season_end": "2027-05-31",
        },
        expect=201,
    )
    assert league["table"] == [] and league["points_win"] == 2
    url = BASE + "spring/"
    for slug in ("north", "south", "east"):
        team = organiser(
            "POST",
            url + "teams/",
            {
                "club": slug,
                "name": f"{slug.title()} Spring",
                "captain": world.players[slug][0].pk,
                "players": [player.pk for player in world.players[slug][1:4]],
            },
            expect=201,
        )
        club_of_team[team["id"]] = slug
    fixtures = organiser("POST", url + "fixtures/", {"days_between": 14}, expect=201)
    assert len(fixtures) == 6
    assert [f["round"] for f in fixtures] == [1, 2, 3, 4, 5, 6]

    first, second, third, fourth, fifth, sixth = fixtures
    # Round 1 is postponed by two days.
    moved = organiser("POST", url + f"fixtures/{first['id']}/postpone/", {"date": "2027-01-07"})
    assert (moved["status"], moved["date"], moved["original_date"]) == (
        "postponed",
        "2027-01-07",
        "2027-01-05",
    )
    # Four fixtures are played at the home club's tables by the computer players and entered
    # table by table; the away captain accepts (the third is disputed first, then re-entered).
    for number, fixture in enumerate((first, second, third, fifth)):
        home = club_of_team[fixture["home"]]
        away = club_of_team[fixture["away"]]
        report = simulate_night(
            api=InProcessApi(world.captains[home]),
            club_slug=home,
            tables=2,
            game_format="45-2v2",
            seed=100 + number,
        )
        assert report.refusals == [] and report.finished == 2
        tables = [{"game": game, "home_side": index % 2} for index, game in enumerate(report.games)]
        entered = captains[home](
            "POST", url + f"fixtures/{fixture['id']}/result/", {"tables": tables}
        )
        winners = [
            "home" if Game.objects.get(pk=t["game"]).winner_side == t["home_side"] else "away"
            for t in tables
        ]
        assert [t["winner"] for t in entered["tables"]] == winners
        assert (entered["home_score"], entered["away_score"]) == (
            winners.count("home"),
            winners.count("away"),
        )
        assert entered["status"] == "entered"
        if fixture is third:
            disputed = captains[away](
                "POST", url + f"fixtures/{fixture['id']}/dispute/", {"reason": "Table 2 swapped"}
            )
            assert disputed["status"] == "disputed"
            tables = [{"game": t["game"], "home_side": 1 - t["home_side"]} for t in tables]
            captains[home]("POST", url + f"fixtures/{fixture['id']}/result/", {"tables": tables})
        accepted = captains[away]("POST", url + f"fixtures/{fixture['id']}/accept/")
        assert accepted["status"] == "played"
    # The fourth on paper, accepted; the sixth is a walkover to the away team.
    home, away = club_of_team[fourth["home"]], club_of_team[fourth["away"]]
    captains[away](
        "POST", url + f"fixtures/{fourth['id']}/result/", {"home_score": 1, "away_score": 1}
    )
    captains[home]("POST", url + f"fixtures/{fourth['id']}/accept/")
    walkover = organiser("POST", url + f"fixtures/{sixth['id']}/walkover/", {"team": sixth["away"]})
    assert (walkover["status"], walkover["home_score"], walkover["away_score"]) == (
        "walkover",
        0,
        2,
    )
    penalty = organiser(
        "POST",
        url + "penalties/",
        {"team": sixth["home"], "points": 1, "reason": "Did not travel"},
        expect=201,
    )
    # The table equals the recomputation from the fixtures the API lists.
    detail = organiser("GET", url)
    listed = Client().get(url + "fixtures/").json()
    assert all(f["status"] in ("played", "walkover") for f in listed)
    expected = recompute(listed, detail["teams"], detail["penalties"])
    got = {
        row["team"]: {
            "played": row["played"],
            "won": row["won"],
            "drawn": row["drawn"],
            "lost": row["lost"],
            "for": row["tables_for"],
            "against": row["tables_against"],
            "penalties": row["penalties"],
            "points": row["points"],
        }
        for row in detail["table"]
    }
    assert got == expected
    assert sum(row["played"] for row in got.values()) == 12
    assert [row["points"] for row in detail["table"]] == sorted(
        (row["points"] for row in got.values()), reverse=True
    )
    penalised = next(row for row in detail["table"] if row["team"] == sixth["home"])
    assert penalised["penalty_reasons"] == ["Did not travel"]
    assert detail["penalties"] == [penalty]
    # The public page shows the table with the penalty's reason.
    page = Client().get("/f/county/leagues/spring/")
    assert page.status_code == 200
    assert "Did not travel" in page.content.decode()
