"""The demo's federation (web/demo_federation.py), loaded by ``manage.py load_demo``.

What it checks: the county board exists with its two member clubs (accepted, by the demo
organiser), its organisers (the demo organiser, and the ``--admin`` account); every active player
of both clubs is linked, one federation player each, except the two people playing at both clubs
(Mary Byrne, the same account; Tom Ryan, linked by the organiser) who are one federation player
with a link at each club; games were played at both clubs after they joined and ranked; the
public ranking page answers 200 and lists exactly the ranked players; the Kilkenny Winter League
(web/demo_league.py) has its four teams (two per club, captained by the demo accounts and
``noreen``), twelve fixtures drawn, five played (entered by one captain, accepted by the other),
one postponed, six scheduled, and one penalty, and its public page lists the table's teams in the
standings' order; a second run changes nothing.
"""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from clubs.models import Player
from federations.models import (
    Federation,
    FederationAuditEntry,
    FederationPlayer,
    FederationRole,
    PlayerLink,
)
from leagues.models import Fixture, League, LeagueTeam, Penalty
from leagues.standings import league_table
from rankings.models import FederationRating, RankedGame
from tests.clubs.factories import make_user

pytestmark = pytest.mark.django_db

TABLE_TEAM = re.compile(r'<th scope="row">([^<]+)</th><td class="num">')
NAME_CELL = re.compile(r'<a class="jump" href="/f/kilkenny/rankings/players/(\d+)/">([^<]+)</a>')


def _state() -> tuple:
    return tuple(
        list(model.objects.order_by("pk").values_list("pk", flat=True))
        for model in (
            Federation,
            FederationRole,
            FederationPlayer,
            PlayerLink,
            FederationAuditEntry,
            FederationRating,
            RankedGame,
            League,
            LeagueTeam,
            Fixture,
            Penalty,
        )
    )


def test_the_demo_federation():
    make_user("admin", is_staff=True, is_superuser=True)
    out = StringIO()
    call_command("load_demo", "--admin", "admin", stdout=out)
    federation = Federation.objects.get(slug="kilkenny")
    assert federation.name == "Kilkenny County Board"
    members = federation.memberships.filter(accepted_at__isnull=False, left_at__isnull=True)
    assert sorted(members.values_list("club__slug", "accepted_by__username")) == [
        ("hole-in-the-wall", "organiser"),
        ("marble-city", "organiser"),
    ]
    assert sorted(federation.roles.values_list("user__username", flat=True)) == [
        "admin",
        "organiser",
    ]

    links = PlayerLink.objects.current().filter(federation=federation)
    players = Player.objects.filter(club__slug__in=["hole-in-the-wall", "marble-city"])
    assert players.count() == 34 and links.count() == 34
    assert FederationPlayer.objects.filter(federation=federation).count() == 32
    both = {
        name: sorted(
            links.filter(federation_player__display_name=name).values_list(
                "player__club__slug", "how"
            )
        )
        for name in ("Mary Byrne", "Tom Ryan")
    }
    assert both == {
        "Mary Byrne": [("hole-in-the-wall", "same_account"), ("marble-city", "same_account")],
        "Tom Ryan": [("hole-in-the-wall", "organiser"), ("marble-city", "organiser")],
    }
    mary = FederationPlayer.objects.get(federation=federation, display_name="Mary Byrne")
    assert sorted(mary.links.values_list("player__user__username", flat=True)) == [
        "player",
        "player",
    ]

    ranked_games = RankedGame.objects.filter(federation=federation)
    assert ranked_games.count() == 12  # two nights of three tables at each club
    assert sorted(set(ranked_games.values_list("game__club__slug", flat=True))) == [
        "hole-in-the-wall",
        "marble-city",
    ]
    ratings = FederationRating.objects.filter(federation=federation, games__gt=0)
    ranked = {(row.federation_player_id, row.federation_player.display_name) for row in ratings}

    page = Client().get("/f/kilkenny/rankings/")
    assert page.status_code == 200
    shown = {
        (int(pk), name.replace("&#x27;", "'"))
        for pk, name in NAME_CELL.findall(page.content.decode())
    }
    assert shown == ranked and len(shown) == ratings.count() > 10
    assert "Created federation Kilkenny County Board" in out.getvalue()
    _check_the_league(federation, out.getvalue())

    before = _state()
    again = StringIO()
    call_command("load_demo", "--admin", "admin", stdout=again)
    assert _state() == before
    assert "Found federation Kilkenny County Board" in again.getvalue()


def _check_the_league(federation, output: str) -> None:
    league = League.objects.get(federation=federation)
    assert (league.name, league.slug, league.variant, league.team_format) == (
        "Kilkenny Winter League",
        "winter-league",
        "45",
        "2v2",
    )
    assert [
        (
            team.name,
            team.club.slug,
            team.captain.display_name,
            team.captain.user.username,
            team.players.count(),
        )
        for team in league.teams.order_by("name")
    ] == [
        ("Marble Aces", "marble-city", "Mary Byrne", "player", 4),
        ("Marble Jinks", "marble-city", "Noreen Dowling", "noreen", 4),
        ("Wall Knaves", "hole-in-the-wall", "Bridget Kelly", "organiser", 4),
        ("Wall Robbers", "hole-in-the-wall", "Seán Murphy", "scorekeeper", 4),
    ]
    fixtures = league.fixtures.all()
    assert fixtures.count() == 12 and max(f.round for f in fixtures) == 6
    statuses = sorted(fixtures.values_list("round", "status"))
    assert statuses == [
        (1, "played"),
        (1, "played"),
        (2, "played"),
        (2, "played"),
        (3, "played"),
        (3, "postponed"),
        *[(number, "scheduled") for number in (4, 4, 5, 5, 6, 6)],
    ]
    for fixture in fixtures.filter(status="played"):
        captains = {fixture.home.captain.user, fixture.away.captain.user}
        assert {fixture.entered_by, fixture.accepted_by} == captains
        assert fixture.entered_for.captain.user == fixture.entered_by
    postponed = fixtures.get(status="postponed")
    last_round = fixtures.filter(round=6).first().date
    assert postponed.original_date < timezone.localdate() < last_round < postponed.date
    assert list(league.penalties.values_list("team__name", "points", "reason")) == [
        (
            "Marble Jinks",
            1,
            "Round 2 started 40 minutes late: the team was not at the tables on time.",
        )
    ]
    table = league_table(league)
    assert [(row.name, row.played, row.penalties, row.points) for row in table] == [
        ("Marble Aces", 3, 0, 4),
        ("Wall Knaves", 2, 0, 2),  # level with the Jinks: ahead by the fixture between them
        ("Marble Jinks", 3, 1, 2),
        ("Wall Robbers", 2, 0, 1),
    ]
    page = Client().get("/f/kilkenny/leagues/winter-league/")
    assert page.status_code == 200
    assert TABLE_TEAM.findall(page.content.decode()) == [row.name for row in table]
    assert "Created league Kilkenny Winter League" in output
