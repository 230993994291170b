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
standings' order; the Kilkenny County Championship (a federation event at The Marble City, the
top four of each club's season table) has its eight entrants exactly, seeded, one passed over
(Mary Byrne, taken for the first club), three new host club players linked to their people, its
knockout's first round drawn with two matches played, shown on the organisers' page and the
host club's public event page; a second run changes nothing.
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
    FederationEvent,
    FederationEventEntrant,
    FederationPlayer,
    FederationRole,
    PlayerLink,
)
from leagues.models import Fixture, League, LeagueTeam, Penalty
from leagues.standings import league_table
from rankings.models import FederationRating, RankedGame
from tests.clubs.factories import make_user
from tournaments.models import Match

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
            FederationEvent,
            FederationEventEntrant,
            Match,
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
    # 34 club players, and three the event made at its host club for players of the demo club
    assert players.count() == 37 and links.count() == 37
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
    assert ranked_games.count() == 14  # two nights of three tables at each club, two event games
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
    _check_the_event(federation, out.getvalue())

    before = _state()
    again = StringIO()
    call_command("load_demo", "--admin", "admin", stdout=again)
    assert _state() == before
    assert "Found federation Kilkenny County Board" in again.getvalue()
    assert "Found event Kilkenny County Championship" in again.getvalue()


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


def _check_the_event(federation, output: str) -> None:
    event = FederationEvent.objects.get(federation=federation)
    assert (
        event.name,
        event.status,
        event.host_club.slug,
        event.game,
        event.format,
        event.rule,
        event.quota,
        event.selected_season_year,
        event.settings,
    ) == (
        "Kilkenny County Championship",
        "created",
        "marble-city",
        "25",
        "knockout",
        "top_n",
        4,
        timezone.localdate().year,
        {"table_size": 2, "is_public": True},
    )
    # the clubs' firsts, then their seconds...; Mary Byrne, first at The Marble City, enters
    # once, for The Hole in the Wall (the first club by name): The Marble City's fifth comes in
    entrants = [
        (
            each.seed,
            each.club.slug,
            each.place,
            each.player.display_name,
            each.host_player.club.slug,
        )
        for each in event.entrants.select_related("club", "player", "host_player__club")
    ]
    assert sorted(entrants) == [
        (1, "hole-in-the-wall", 1, "Frank Hogan", "marble-city"),
        (2, "marble-city", 2, "Ann Cody", "marble-city"),
        (3, "hole-in-the-wall", 2, "Peggy Keane", "marble-city"),
        (4, "marble-city", 3, "Noreen Dowling", "marble-city"),
        (5, "hole-in-the-wall", 3, "Bridget Kelly", "marble-city"),
        (6, "marble-city", 4, "Ger Phelan", "marble-city"),
        (7, "hole-in-the-wall", 4, "Mary Byrne", "marble-city"),
        (8, "marble-city", 5, "Johnny Murphy", "marble-city"),
    ]
    guests = Player.objects.filter(
        club__slug="marble-city", display_name__in=["Frank Hogan", "Peggy Keane", "Bridget Kelly"]
    )
    assert sorted(
        PlayerLink.objects.current()
        .filter(federation=federation, player__in=guests)
        .values_list("player__display_name", "how")
    ) == [("Bridget Kelly", "event"), ("Frank Hogan", "event"), ("Peggy Keane", "event")]
    for guest in guests:  # the same person as the demo club's player of that name
        people = PlayerLink.objects.current().filter(
            federation=federation, player__display_name=guest.display_name
        )
        assert people.values("federation_player").distinct().count() == 1
        assert people.count() == 2

    tournament = event.tournament
    assert (tournament.name, tournament.club.slug, tournament.game, tournament.format) == (
        "Kilkenny County Championship",
        "marble-city",
        "25",
        "knockout",
    )
    matches = [
        (
            match.round.number,
            match.table,
            match.status,
            [slot.entrant.player.display_name for slot in match.slots.order_by("position")],
        )
        for match in tournament.matches.select_related("round").order_by("round__number", "table")
    ]
    assert matches == [
        (1, 1, "decided", ["Frank Hogan", "Johnny Murphy"]),
        (1, 2, "decided", ["Noreen Dowling", "Bridget Kelly"]),
        (1, 3, "in_progress", ["Ann Cody", "Mary Byrne"]),
        (1, 4, "in_progress", ["Peggy Keane", "Ger Phelan"]),
        (2, 1, "in_progress", ["Johnny Murphy", "Bridget Kelly"]),  # the winners so far
    ]
    assert (
        "Created event Kilkenny County Championship at The Marble City: 8 entrants, round 1 "
        "drawn, 2 matches played"
    ) in output

    organiser = Client()
    organiser.force_login(federation.roles.get(user__username="organiser").user)
    page = organiser.get("/federations/kilkenny/").content.decode()
    section = page.split(f'id="event-{event.pk}"')[1].split("</section>")[0]
    assert "Kilkenny County Championship" in section and "Tournament created" in section
    assert re.findall(r"<tr><td>(\d)</td><td>([^<]+)</td>", section) == [
        (str(seed), name) for seed, _club, _place, name, _host in sorted(entrants)
    ]
    assert f'href="/clubs/marble-city/console/events/{tournament.pk}/"' in section
    public = Client().get(f"/clubs/marble-city/tournaments/{tournament.pk}/")
    assert public.status_code == 200
    assert "Kilkenny County Championship" in public.content.decode()
