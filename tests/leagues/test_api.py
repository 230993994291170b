"""The leagues API's bodies and refusals: exact answers, problem documents naming the pointer,
nothing stored by a refusal."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.services import issue_device_token
from federations.models import FederationAuditEntry
from leagues.models import Fixture, League, LeagueTeam, Penalty
from tests.leagues.factories import LeagueWorld
from tests.rankings.seed import T0, finished_game

pytestmark = pytest.mark.django_db

URL = "/api/federations/county/leagues/winter/"


def _client(user) -> Client:
    _, token = issue_device_token(user=user, device="test")
    return Client(HTTP_AUTHORIZATION=f"Token {token}")


def _post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


@pytest.fixture
def world():
    world = LeagueWorld()
    world.draw()
    return world


def _fixture(world, home="north", away="south") -> Fixture:
    return Fixture.objects.get(league=world.league, home=world.teams[home], away=world.teams[away])


def make_finished_game(club, players, variant="45"):
    return finished_game(club, [players[:2], players[2:4]], 0, T0, variant=variant)


def _problem(response, status, code, pointer=None):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    body = response.json()
    assert body["code"] == code or body["errors"][0]["code"] == code, body
    if pointer is not None:
        assert [error["pointer"] for error in body["errors"]] == [pointer], body


def test_the_league_reads(world):
    body = Client().get(URL).json()
    assert body["slug"] == "winter" and body["tables_per_fixture"] == 2
    assert [row["name"] for row in body["table"]] == ["East A", "North A", "South A"]
    assert {row["position"] for row in body["table"]} == {1}
    listed = Client().get("/api/federations/county/leagues/").json()
    assert [league["slug"] for league in listed] == ["winter"]
    north = world.teams["north"].pk
    mine = Client().get(URL + f"fixtures/?team={north}").json()
    assert len(mine) == 4 and all(north in (f["home"], f["away"]) for f in mine)
    assert len(Client().get(URL + "fixtures/?club=south").json()) == 4
    assert Client().get(URL + "fixtures/?club=west").status_code == 404


def test_bad_league_bodies_are_problems_and_store_nothing(world):
    organiser = _client(world.organiser)
    url = "/api/federations/county/leagues/"
    base = {"name": "X", "slug": "x", "season_start": "2026-09-01", "season_end": "2026-12-01"}
    _problem(_post(organiser, url, {**base, "colour": "red"}), 400, "unknown_field", "/colour")
    _problem(_post(organiser, url, {**base, "season_end": "soon"}), 400, "invalid", "/season_end")
    _problem(
        _post(organiser, url, {**base, "season_end": "2026-01-01"}),
        400,
        "invalid_range",
        "/season_end",
    )
    _problem(_post(organiser, url, {**base, "tables_per_fixture": 0}), 400, "min_value")
    _problem(_post(organiser, url, {**base, "slug": "winter"}), 400, "unique", "/slug")
    assert League.objects.count() == 1


def test_bad_team_bodies(world):
    organiser = _client(world.organiser)
    spring = _post(
        organiser,
        "/api/federations/county/leagues/",
        {
            "name": "Spring",
            "slug": "spring",
            "season_start": "2027-01-01",
            "season_end": "2027-05-01",
        },
    )
    assert spring.status_code == 201
    url = "/api/federations/county/leagues/spring/teams/"
    captain = world.players["north"][0].pk
    _problem(
        _post(organiser, url, {"club": "nowhere", "name": "N", "captain": captain}),
        400,
        "unknown_club",
        "/club",
    )
    _problem(
        _post(organiser, url, {"club": "west", "name": "W", "captain": world.west_player.pk}),
        409,
        "not_a_member",
        "/club",
    )
    _problem(
        _post(
            organiser, url, {"club": "north", "name": "N", "captain": world.players["south"][0].pk}
        ),
        400,
        "unknown_player",
        "/captain",
    )
    _problem(
        _post(
            organiser,
            url,
            {
                "club": "north",
                "name": "N",
                "captain": captain,
                "players": [world.players["south"][1].pk],
            },
        ),
        400,
        "unknown_player",
        "/players/0",
    )
    _problem(
        _post(organiser, URL + "teams/", {"club": "north", "name": "N2", "captain": captain}),
        409,
        "fixtures_drawn",
    )
    assert LeagueTeam.objects.filter(league__slug="spring").count() == 0


def test_bad_results_store_nothing(world):
    fixture = _fixture(world)
    north = _client(world.captains["north"])
    url = URL + f"fixtures/{fixture.pk}/result/"
    _problem(_post(north, url, {"home_score": 1}), 400, "required", "/away_score")
    _problem(
        _post(north, url, {"home_score": 2, "away_score": 1}), 400, "invalid_score", "/home_score"
    )
    _problem(
        _post(
            north, url, {"home_score": 1, "away_score": 1, "tables": [{"game": 1, "home_side": 0}]}
        ),
        400,
        "invalid",
        "/tables",
    )
    elsewhere = make_finished_game(world.clubs["south"], world.players["south"][:4], variant="45")
    _problem(
        _post(north, url, {"tables": [{"game": elsewhere.pk, "home_side": 0}]}),
        400,
        "wrong_game",
        "/tables/0/game",
    )
    _problem(
        _post(north, url, {"tables": [{"game": 99999999, "home_side": 0}]}),
        400,
        "wrong_game",
        "/tables/0/game",
    )
    _problem(
        _post(north, url, {"tables": [{"game": elsewhere.pk, "home_side": 2}]}),
        400,
        "max_value",
        "/tables/0/home_side",
    )
    fixture.refresh_from_db()
    assert (fixture.status, fixture.home_score, fixture.tables.count()) == ("scheduled", None, 0)
    accept = URL + f"fixtures/{fixture.pk}/accept/"
    _problem(_client(world.captains["south"]).post(accept), 409, "nothing_to_accept")


def test_a_game_is_one_table_of_one_fixture(world):
    fixture, other = _fixture(world), _fixture(world, "north", "east")
    game = make_finished_game(world.clubs["north"], world.players["north"][:4], variant="45")
    north = _client(world.captains["north"])
    body = {"tables": [{"game": game.pk, "home_side": 0}]}
    assert _post(north, URL + f"fixtures/{fixture.pk}/result/", body).status_code == 200
    _problem(
        _post(north, URL + f"fixtures/{other.pk}/result/", body),
        409,
        "game_taken",
        "/tables/0/game",
    )
    twice = {"tables": [{"game": game.pk, "home_side": 0}, {"game": game.pk, "home_side": 1}]}
    _problem(
        _post(north, URL + f"fixtures/{fixture.pk}/result/", twice),
        400,
        "wrong_game",
        "/tables/1/game",
    )


def test_bad_organiser_bodies(world):
    organiser = _client(world.organiser)
    fixture = _fixture(world)
    _problem(
        _post(organiser, URL + f"fixtures/{fixture.pk}/postpone/", {"date": "2027-07-01"}),
        400,
        "invalid_range",
        "/date",
    )
    _problem(
        _post(
            organiser, URL + f"fixtures/{fixture.pk}/walkover/", {"team": world.teams["east"].pk}
        ),
        400,
        "not_in_fixture",
        "/team",
    )
    _problem(
        _post(
            organiser,
            URL + "penalties/",
            {"team": world.teams["east"].pk, "points": 2, "reason": ""},
        ),
        400,
        "blank",
        "/reason",
    )
    _problem(
        _post(
            organiser,
            URL + "penalties/",
            {"team": world.teams["east"].pk, "points": 0, "reason": "x"},
        ),
        400,
        "min_value",
        "/points",
    )
    _problem(_post(organiser, URL + "fixtures/", {}), 409, "fixtures_drawn")
    assert Penalty.objects.count() == 0
    fixture.refresh_from_db()
    assert fixture.status == "scheduled"
    kinds = set(FederationAuditEntry.objects.values_list("kind", flat=True))
    assert "penalty_given" not in kinds and "fixture_postponed" not in kinds


def test_a_penalty_retried_with_its_idempotency_key_is_given_once(world):
    organiser = _client(world.organiser)
    body = json.dumps({"team": world.teams["east"].pk, "points": 1, "reason": "Late"})
    first, again = (
        organiser.post(
            URL + "penalties/", body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k-1"
        )
        for _ in range(2)
    )
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert Penalty.objects.count() == 1


def test_a_team_s_players_change_through_the_api(world):
    north = world.players["north"]
    team = world.teams["north"]
    url = URL + f"teams/{team.pk}/players/"
    captain = _client(world.captains["north"])
    response = _post(captain, url, {"player": north[4].pk})
    assert response.status_code == 201, response.content
    assert response.json()["players"] == sorted(player.pk for player in north[:5])
    response = _client(world.organiser).delete(f"{url}{north[1].pk}/")
    assert response.status_code == 200
    assert response.json()["players"] == sorted(p.pk for p in [north[0], *north[2:5]])
    kinds = FederationAuditEntry.objects.filter(federation=world.county).order_by("id")
    assert list(kinds.values_list("kind", flat=True))[-2:] == [
        "league_player_added",
        "league_player_removed",
    ]

    before = sorted(team.players.values_list("pk", flat=True))
    _problem(
        _post(captain, url, {"player": world.players["south"][5].pk}),
        400,
        "unknown_player",
        "/player",
    )
    _problem(_post(captain, url, {"player": north[2].pk}), 400, "duplicate_player", "/player")
    _problem(_post(captain, url, {"player": north[2].pk, "x": 1}), 400, "unknown_field")
    _problem(_post(captain, url, {"player": "abc"}), 400, "invalid", "/player")
    _problem(captain.delete(f"{url}{north[0].pk}/"), 409, "captain_stays", "/player")
    _problem(captain.delete(f"{url}{north[7].pk}/"), 400, "unknown_player", "/player")
    south = _client(world.captains["south"])
    assert _post(south, url, {"player": north[6].pk}).status_code == 403
    assert south.delete(f"{url}{north[2].pk}/").status_code == 403
    assert sorted(team.players.values_list("pk", flat=True)) == before
