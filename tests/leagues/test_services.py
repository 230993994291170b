"""The leagues' writes (leagues.services): exact outcomes, refusals storing nothing, the audit."""

from __future__ import annotations

from datetime import date

import pytest

from config.problems import Problem
from federations.models import FederationAuditEntry
from leagues import services
from leagues.models import Fixture, FixtureTable, League, LeagueTeam, Penalty
from leagues.standings import league_table
from tests.federations.factories import make_member
from tests.leagues.factories import SEASON, LeagueWorld, make_league

pytestmark = pytest.mark.django_db


def _fixture(world, home, away) -> Fixture:
    return Fixture.objects.get(league=world.league, home=world.teams[home], away=world.teams[away])


def test_drawing_three_teams_gives_six_rounds_a_week_apart_each_pair_at_each_home():
    world = LeagueWorld()
    fixtures = world.draw()
    assert len(fixtures) == 6
    rows = list(world.league.fixtures.order_by("round").values_list("round", "date"))
    assert rows == [
        (1, date(2026, 9, 1)),
        (2, date(2026, 9, 8)),
        (3, date(2026, 9, 15)),
        (4, date(2026, 9, 22)),
        (5, date(2026, 9, 29)),
        (6, date(2026, 10, 6)),
    ]
    pairs = {(f.home_id, f.away_id) for f in world.league.fixtures.all()}
    teams = [team.pk for team in world.teams.values()]
    assert pairs == {(a, b) for a in teams for b in teams if a != b}
    kinds = list(
        FederationAuditEntry.objects.filter(federation=world.county).values_list("kind", flat=True)
    )
    assert kinds == [
        "league_created",
        "league_team_added",
        "league_team_added",
        "league_team_added",
        "fixtures_generated",
    ]


def test_no_second_draw_and_no_team_after_the_draw():
    world = LeagueWorld()
    world.draw()
    with pytest.raises(Problem) as refused:
        world.draw()
    assert refused.value.code == "fixtures_drawn"
    with pytest.raises(Problem) as refused:
        services.add_team(
            league=world.league,
            user=world.organiser,
            club=world.clubs["north"],
            name="North B",
            captain_id=world.players["north"][5].pk,
            player_ids=[],
        )
    assert refused.value.code == "fixtures_drawn"
    assert world.league.fixtures.count() == 6 and world.league.teams.count() == 3


def test_a_draw_outside_the_season_or_with_one_team_is_refused_and_stores_nothing():
    world = LeagueWorld()
    with pytest.raises(Problem) as refused:
        services.generate_fixtures(
            league=world.league, user=world.organiser, first_date=date(2027, 4, 1)
        )
    assert (refused.value.code, refused.value.status_code) == ("invalid_range", 400)
    assert world.league.fixtures.count() == 0
    lonely = make_league(world.county, world.organiser, slug="lonely")
    with pytest.raises(Problem) as refused:
        services.generate_fixtures(league=lonely, user=world.organiser)
    assert refused.value.code == "too_few_teams"


def test_a_team_of_a_club_not_a_member_or_with_another_clubs_player_is_refused():
    world = LeagueWorld()
    with pytest.raises(Problem) as refused:
        services.add_team(
            league=world.league,
            user=world.organiser,
            club=world.west,
            name="West A",
            captain_id=world.west_player.pk,
            player_ids=[],
        )
    assert refused.value.code == "not_a_member"
    with pytest.raises(Problem) as refused:
        services.add_team(
            league=world.league,
            user=world.organiser,
            club=world.clubs["north"],
            name="North B",
            captain_id=world.players["north"][5].pk,
            player_ids=[world.players["south"][6].pk],
        )
    assert refused.value.code == "unknown_player"
    assert LeagueTeam.objects.filter(league=world.league).count() == 3


def test_the_captain_is_one_of_the_players():
    world = LeagueWorld()
    team = world.teams["north"]
    assert set(team.players.values_list("pk", flat=True)) == {
        player.pk for player in world.players["north"][:4]
    }


def test_a_league_slug_is_unique_in_its_federation_and_the_season_must_end_after_it_starts():
    world = LeagueWorld()
    with pytest.raises(Problem) as refused:
        make_league(world.county, world.organiser)
    assert refused.value.code == "unique"
    with pytest.raises(Problem) as refused:
        make_league(
            world.county,
            world.organiser,
            slug="backwards",
            season_start=date(2027, 1, 1),
            season_end=date(2026, 1, 1),
        )
    assert refused.value.code == "invalid_range"
    with pytest.raises(Problem) as refused:
        make_league(world.county, world.organiser, slug="odd", points_win=1, points_draw=2)
    assert refused.value.code == "invalid"
    make_league(world.other, world.rival)  # the same slug in another federation
    assert League.objects.filter(slug="winter").count() == 2


def test_paper_result_entered_then_accepted_counts_in_the_table():
    world = LeagueWorld()
    world.draw()
    fixture = _fixture(world, "north", "south")
    services.enter_result(fixture=fixture, user=world.captains["north"], home_score=2, away_score=0)
    fixture.refresh_from_db()
    assert (fixture.status, fixture.entered_for_id) == ("entered", world.teams["north"].pk)
    assert league_table(world.league)[0].played == 0  # not counted until accepted
    with pytest.raises(Problem) as refused:
        services.accept_result(fixture=fixture, user=world.captains["north"])
    assert refused.value.status_code == 403  # the same captain cannot accept their own entry
    services.accept_result(fixture=fixture, user=world.captains["south"])
    fixture.refresh_from_db()
    assert (fixture.status, fixture.accepted_by) == ("played", world.captains["south"])
    table = {row.name: row for row in league_table(world.league)}
    assert (table["North A"].won, table["North A"].points, table["North A"].tables_for) == (1, 2, 2)
    assert (table["South A"].lost, table["South A"].points, table["South A"].difference) == (
        1,
        0,
        -2,
    )
    with pytest.raises(Problem) as refused:
        services.enter_result(
            fixture=fixture, user=world.captains["south"], home_score=0, away_score=2
        )
    assert refused.value.code == "fixture_closed"


def test_a_disputed_result_is_entered_again_by_either_captain():
    world = LeagueWorld()
    world.draw()
    fixture = _fixture(world, "north", "south")
    services.enter_result(fixture=fixture, user=world.captains["north"], home_score=2, away_score=0)
    services.dispute_result(fixture=fixture, user=world.captains["south"], reason="It was 1-1")
    fixture.refresh_from_db()
    assert (fixture.status, fixture.dispute_reason) == ("disputed", "It was 1-1")
    with pytest.raises(Problem) as refused:
        services.accept_result(fixture=fixture, user=world.captains["south"])
    assert refused.value.code == "nothing_to_accept"
    services.enter_result(fixture=fixture, user=world.captains["south"], home_score=1, away_score=1)
    services.accept_result(fixture=fixture, user=world.captains["north"])
    fixture.refresh_from_db()
    assert (fixture.status, fixture.home_score, fixture.away_score) == ("played", 1, 1)
    assert fixture.dispute_reason == ""


def test_scores_beyond_the_tables_and_a_non_captain_are_refused():
    world = LeagueWorld()
    world.draw()
    fixture = _fixture(world, "north", "south")
    with pytest.raises(Problem) as refused:
        services.enter_result(
            fixture=fixture, user=world.captains["north"], home_score=2, away_score=1
        )
    assert refused.value.code == "invalid_score"
    with pytest.raises(Problem) as refused:
        services.enter_result(
            fixture=fixture, user=world.captains["east"], home_score=1, away_score=1
        )
    assert refused.value.status_code == 403
    fixture.refresh_from_db()
    assert (fixture.status, fixture.home_score) == ("scheduled", None)


def test_postpone_keeps_the_first_date_and_a_walkover_wins_every_table():
    world = LeagueWorld()
    world.draw()
    fixture = _fixture(world, "north", "south")
    first = fixture.date
    services.postpone_fixture(fixture=fixture, user=world.organiser, new_date=date(2026, 12, 1))
    services.postpone_fixture(fixture=fixture, user=world.organiser, new_date=date(2026, 12, 8))
    fixture.refresh_from_db()
    assert (fixture.status, fixture.date, fixture.original_date) == (
        "postponed",
        date(2026, 12, 8),
        first,
    )
    with pytest.raises(Problem) as refused:
        services.postpone_fixture(fixture=fixture, user=world.organiser, new_date=date(2027, 6, 1))
    assert refused.value.code == "invalid_range"
    services.give_walkover(fixture=fixture, user=world.organiser, team=world.teams["south"])
    fixture.refresh_from_db()
    assert (fixture.status, fixture.home_score, fixture.away_score, fixture.walkover_to_id) == (
        "walkover",
        0,
        2,
        world.teams["south"].pk,
    )
    with pytest.raises(Problem) as refused:
        services.postpone_fixture(fixture=fixture, user=world.organiser, new_date=date(2027, 1, 5))
    assert refused.value.code == "fixture_closed"
    other = _fixture(world, "east", "north")
    with pytest.raises(Problem) as refused:
        services.give_walkover(fixture=other, user=world.organiser, team=world.teams["south"])
    assert refused.value.code == "not_in_fixture"


def test_a_penalty_is_taken_off_with_its_reason():
    world = LeagueWorld()
    services.give_penalty(
        league=world.league,
        user=world.organiser,
        team=world.teams["east"],
        points=3,
        reason="Fielded an unregistered player",
    )
    row = {row.name: row for row in league_table(world.league)}["East A"]
    assert (row.penalties, row.points, row.penalty_reasons) == (
        3,
        -3,
        ["Fielded an unregistered player"],
    )
    assert row.position == 3
    assert Penalty.objects.get().created_by == world.organiser


def test_a_penalty_for_another_leagues_team_is_refused():
    world = LeagueWorld()
    other = make_league(world.county, world.organiser, slug="summer", **SEASON)
    with pytest.raises(Problem) as refused:
        services.give_penalty(
            league=other, user=world.organiser, team=world.teams["east"], points=1, reason="x"
        )
    assert refused.value.status_code == 404
    assert Penalty.objects.count() == 0


def test_a_member_club_may_field_two_teams():
    world = LeagueWorld()
    make_member(world.county, world.west)  # a club of two federations
    services.add_team(
        league=world.league,
        user=world.organiser,
        club=world.clubs["north"],
        name="North B",
        captain_id=world.players["north"][5].pk,
        player_ids=[world.players["north"][6].pk],
    )
    assert world.league.teams.filter(club=world.clubs["north"]).count() == 2
    assert FixtureTable.objects.count() == 0
