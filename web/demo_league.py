"""The demo federation's league, half played, for ``manage.py load_demo``.

What it does: ``build_demo_league(federation, home=..., second=..., organiser=..., password=...)``
makes, through ``leagues.services`` only, the "Kilkenny Winter League" (``winter-league``: 45,
a pair of each team at each of two tables) of the county board with four teams, two per club,
each a captain and three players of its club (``TEAMS``). The captains are accounts, so the
demo's logins can enter and accept results: the demo ``organiser`` captains the Wall Knaves
(linked to the demo club's player Bridget Kelly), the demo ``scorekeeper`` (Seán Murphy) the
Wall Robbers, the demo ``player`` (Mary Byrne, at The Marble City too) the Marble Aces, and the
account ``noreen`` (Noreen Dowling, made here with the demo password) the Marble Jinks. The
organiser draws the double round robin (six rounds a week apart, the first three in the past),
the first three rounds are played but one fixture (``POSTPONED``): each result is entered on
paper by one captain and accepted by the other (``RESULTS``), the postponed fixture moves to
after the last round, and the Marble Jinks lose a point (``PENALTY``). So the league page
``/f/kilkenny/leagues/winter-league/`` shows a table, a penalty, five fixtures played, one
postponed and six to come. ``ensure_demo_league`` adds the league to a demo federation made
before leagues existed, and does nothing when the league is there (a second run changes
nothing).

What it does not do: play the fixtures' tables in the table app (the results are the captains'
paper scores), give a walkover, or leave a result waiting or disputed.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from clubs import services as club_services
from clubs.models import Club, Player, Role
from leagues import services
from leagues.models import League

LEAGUE_SLUG = "winter-league"
LEAGUE_NAME = "Kilkenny Winter League"
TEAMS = [
    # (club: "home" or "second", team name, captain's account, captain, players)
    ("home", "Wall Knaves", "organiser", "Bridget Kelly", ["Paddy O'Brien", "Nora Walsh"]),
    ("home", "Wall Robbers", "scorekeeper", "Seán Murphy", ["Mick Brennan", "Siobhán Daly"]),
    ("second", "Marble Aces", "player", "Mary Byrne", ["Ger Phelan", "Breda Comerford"]),
    ("second", "Marble Jinks", "noreen", "Noreen Dowling", ["Johnny Murphy", "Ann Cody"]),
]
TEAM_FOURTH = {
    "Wall Knaves": "Kathleen Doyle",
    "Wall Robbers": "Jimmy Nolan",
    "Marble Aces": "Martin Brennan",
    "Marble Jinks": "Kieran Walsh",
}
NEW_ACCOUNTS = {"noreen"}
"""Captains' accounts this step makes (the others are the demo's own)."""
ROUNDS_PLAYED = 3
"""The first half of the double round robin (four teams: six rounds, three a half)."""
POSTPONED = (3, 0)
"""(round, index in the round's fixtures) of the fixture postponed instead of played."""
RESULTS = [(2, 0), (1, 1), (2, 0), (0, 2), (1, 1)]
"""The paper scores (home, away: tables won) of the played fixtures, in round order."""
PENALTY = (
    "Marble Jinks",
    1,
    "Round 2 started 40 minutes late: the team was not at the tables on time.",
)


def ensure_demo_league(
    federation: Any, *, home: Club, second: Club, organiser: Any, password: str, out: Any
) -> None:
    """The loader's step: the league, unless the federation has it already."""
    league = League.objects.filter(federation=federation, slug=LEAGUE_SLUG).first()
    if league is not None:
        out.write(f"Found league {league.name}")
        return
    build_demo_league(
        federation, home=home, second=second, organiser=organiser, password=password, out=out
    )


def build_demo_league(
    federation: Any, *, home: Club, second: Club, organiser: Any, password: str, out: Any
) -> League:
    today = timezone.localdate()
    first_day = today - timedelta(days=20)  # rounds 1 to 3 past, 4 to 6 to come
    league = services.create_league(
        federation=federation,
        user=organiser,
        name=LEAGUE_NAME,
        slug=LEAGUE_SLUG,
        variant="45",
        team_format="2v2",
        tables_per_fixture=2,
        season_start=first_day,
        season_end=first_day + timedelta(days=70),
    )
    clubs = {"home": home, "second": second}
    captains = {}
    for club_key, name, account, captain_name, names in TEAMS:
        club = clubs[club_key]
        user = _account(account, password, club)
        captain = _captain(club, captain_name, user)
        players = [
            Player.objects.get(club=club, display_name=n) for n in (*names, TEAM_FOURTH[name])
        ]
        team = services.add_team(
            league=league,
            user=organiser,
            club=club,
            name=name,
            captain_id=captain.pk,
            player_ids=[player.pk for player in players],
        )
        captains[team.pk] = user
    fixtures = services.generate_fixtures(league=league, user=organiser, days_between=7)
    results = iter(RESULTS)
    last_round = max(fixture.round for fixture in fixtures)
    for number in range(1, ROUNDS_PLAYED + 1):
        in_round = sorted((f for f in fixtures if f.round == number), key=lambda f: f.pk)
        for index, fixture in enumerate(in_round):
            if (number, index) == POSTPONED:
                services.postpone_fixture(
                    fixture=fixture,
                    user=organiser,
                    new_date=first_day + timedelta(days=7 * last_round),
                )
                continue
            home_score, away_score = next(results)
            # The home captain enters, the away captain accepts; every other fixture the
            # other way round, as either captain may enter.
            enters, accepts = fixture.home_id, fixture.away_id
            if index % 2:
                enters, accepts = accepts, enters
            services.enter_result(
                fixture=fixture,
                user=captains[enters],
                home_score=home_score,
                away_score=away_score,
            )
            services.accept_result(fixture=fixture, user=captains[accepts])
    team_name, points, reason = PENALTY
    services.give_penalty(
        league=league,
        user=organiser,
        team=league.teams.get(name=team_name),
        points=points,
        reason=reason,
    )
    out.write(
        f"Created league {league.name}: {len(TEAMS)} teams, {len(fixtures)} fixtures, "
        f"{len(RESULTS)} played, one postponed, one penalty"
    )
    return league


def _account(username: str, password: str, club: Club):
    """The captain's account: a demo account, or one made here (a player of the club)."""
    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    if user is None and username in NEW_ACCOUNTS:
        user = user_model.objects.create_user(username=username, password=password)
        club_services.add_membership(club=club, username=username, role=Role.PLAYER)
    return user


def _captain(club: Club, name: str, user) -> Player:
    """The club's player ``name``, linked to the captain's account if not yet."""
    player = Player.objects.get(club=club, display_name=name)
    if player.user_id is None:
        player = club_services.update_player(player=player, username=user.username)
    return player
