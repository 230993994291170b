"""Reads of a federation's leagues, each scoped to one federation (nothing crosses federations).

What it does: fetches a league by its slug inside a federation, a team, a fixture or a member
club inside a league — an id of another league or federation is a 404 (``Http404``); lists the
leagues, teams, fixtures (of a team or of a club, for the calendar feeds) and penalties with the
related rows the API and the pages show.

What it does not do: check who asks (``leagues.permissions``), write (``leagues.services``), or
order the table (``leagues.standings``).
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.http import Http404

from clubs.models import Club, Player
from federations.models import Federation
from federations.selectors import get_federation
from games.models import Game, GameStatus
from leagues.models import Fixture, League, LeagueTeam, Penalty

__all__ = [
    "get_federation",
    "get_league",
    "get_team",
    "get_fixture",
    "get_club_of_league",
    "list_leagues",
    "list_teams",
    "list_fixtures",
    "list_penalties",
    "list_table_candidates",
    "list_team_candidates",
]

TABLE_CANDIDATES = 60
"""How many of the home club's latest finished games the result form offers."""


def _one(queryset, what: str):
    found = queryset.first()
    if found is None:
        raise Http404(f"No such {what}.")
    return found


def get_league(*, federation: Federation, slug: str) -> League:
    return _one(League.objects.filter(federation=federation, slug=slug), "league")


def list_leagues(*, federation: Federation) -> QuerySet[League]:
    return League.objects.filter(federation=federation).order_by("-season_start", "name", "id")


def _teams() -> QuerySet[LeagueTeam]:
    return LeagueTeam.objects.select_related("club", "captain").prefetch_related("players")


def get_team(*, league: League, team_id: int) -> LeagueTeam:
    return _one(_teams().filter(league=league, pk=team_id), "team")


def list_teams(*, league: League) -> QuerySet[LeagueTeam]:
    return _teams().filter(league=league).order_by("name", "id")


def _fixtures() -> QuerySet[Fixture]:
    return Fixture.objects.select_related(
        "league", "home__club", "home__captain", "away__club", "away__captain", "walkover_to"
    ).prefetch_related("tables")


def get_fixture(*, league: League, fixture_id: int) -> Fixture:
    return _one(_fixtures().filter(league=league, pk=fixture_id), "fixture")


def list_fixtures(
    *, league: League, team: LeagueTeam | None = None, club: Club | None = None
) -> QuerySet[Fixture]:
    fixtures = _fixtures().filter(league=league)
    if team is not None:
        fixtures = fixtures.filter(Q(home=team) | Q(away=team))
    if club is not None:
        fixtures = fixtures.filter(Q(home__club=club) | Q(away__club=club))
    return fixtures.order_by("round", "date", "id")


def get_club_of_league(*, league: League, slug: str) -> Club:
    """A club with a team in the league."""
    return _one(Club.objects.filter(slug=slug, league_teams__league=league).distinct(), "club")


def list_penalties(*, league: League) -> QuerySet[Penalty]:
    return (
        Penalty.objects.filter(league=league)
        .select_related("team", "created_by")
        .order_by("created_at", "id")
    )


def list_table_candidates(*, fixture: Fixture) -> list[Game]:
    """The home club's games that ``leagues.services.enter_result`` takes as a table of
    ``fixture``: finished, of the league's variant, won, two-sided, and not a table of another
    fixture — the latest ``TABLE_CANDIDATES``, newest first, with their seats' players."""
    games = (
        Game.objects.filter(
            club_id=fixture.home.club_id,
            variant=fixture.league.variant,
            status=GameStatus.FINISHED,
            winner_side__isnull=False,
        )
        .filter(Q(league_table__isnull=True) | Q(league_table__fixture=fixture))
        .prefetch_related("seats__player")
        .order_by("-created_at", "-id")
    )
    return [game for game in games[: TABLE_CANDIDATES * 2] if len(game.totals) == 2][
        :TABLE_CANDIDATES
    ]


def list_team_candidates(*, team: LeagueTeam) -> QuerySet[Player]:
    """The team's club's active players not in the team yet (whom its captain may add)."""
    return (
        Player.objects.filter(club_id=team.club_id, is_active=True)
        .exclude(league_teams=team)
        .order_by("display_name", "id")
    )
