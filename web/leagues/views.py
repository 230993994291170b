"""The public league pages: a federation's leagues, one league's table and fixtures, the feeds.

What it does: ``index`` lists the federation's leagues; ``league`` shows the table
(``leagues.standings.league_table``: the tie-breaks applied, the penalty points with their
reasons beside the team and listed under the table) and the fixtures round by round with their
dates (a postponed fixture shows its first date), status and score, the teams with a bye in each
round, and links to each team's and club's calendar; ``team_calendar`` and ``club_calendar``
serve the iCalendar feeds (``leagues.ical``, ``text/calendar``). Anyone may read them (no
login): a league's table is public, as the federation's rankings are.

What it does not do: write anything (the API's captains and organisers do), or compute the table
(``leagues.standings``).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from leagues import selectors
from leagues.ical import fixtures_calendar
from leagues.standings import league_table


@require_safe
def index(request: HttpRequest, federation_slug: str) -> HttpResponse:
    federation = selectors.get_federation(slug=federation_slug)
    context = {
        "federation": federation,
        "title": federation.name,
        "leagues": selectors.list_leagues(federation=federation),
    }
    return render(request, "leagues/index.html", context)


@require_safe
def league(request: HttpRequest, federation_slug: str, league_slug: str) -> HttpResponse:
    federation = selectors.get_federation(slug=federation_slug)
    league = selectors.get_league(federation=federation, slug=league_slug)
    fixtures = list(selectors.list_fixtures(league=league))
    rounds: dict[int, list] = {}
    for fixture in fixtures:
        rounds.setdefault(fixture.round, []).append(fixture)
    teams = list(selectors.list_teams(league=league))
    rounds_shown = []
    for number, round_fixtures in sorted(rounds.items()):
        playing = {
            team for fixture in round_fixtures for team in (fixture.home_id, fixture.away_id)
        }
        byes = ", ".join(team.name for team in teams if team.pk not in playing)
        rounds_shown.append((number, round_fixtures, byes))
    context = {
        "federation": federation,
        "league": league,
        "title": f"{league.name} · {federation.name}",
        "rows": league_table(league),
        "penalties": selectors.list_penalties(league=league),
        "rounds": rounds_shown,
        "teams": teams,
        "clubs": sorted({team.club for team in teams}, key=lambda club: club.name),
    }
    return render(request, "leagues/league.html", context)


def _calendar(request: HttpRequest, fixtures, name: str, filename: str) -> HttpResponse:
    text = fixtures_calendar(fixtures, name=name, host=request.get_host().split(":")[0])
    response = HttpResponse(text, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}.ics"'
    return response


@require_safe
def team_calendar(
    request: HttpRequest, federation_slug: str, league_slug: str, team_id: int
) -> HttpResponse:
    federation = selectors.get_federation(slug=federation_slug)
    league = selectors.get_league(federation=federation, slug=league_slug)
    team = selectors.get_team(league=league, team_id=team_id)
    fixtures = selectors.list_fixtures(league=league, team=team)
    return _calendar(request, fixtures, f"{team.name} · {league.name}", f"{league.slug}-{team.pk}")


@require_safe
def club_calendar(
    request: HttpRequest, federation_slug: str, league_slug: str, club_slug: str
) -> HttpResponse:
    federation = selectors.get_federation(slug=federation_slug)
    league = selectors.get_league(federation=federation, slug=league_slug)
    club = selectors.get_club_of_league(league=league, slug=club_slug)
    fixtures = selectors.list_fixtures(league=league, club=club)
    return _calendar(
        request, fixtures, f"{club.name} · {league.name}", f"{league.slug}-{club.slug}"
    )
