"""The public league pages: a federation's leagues, one league's table and fixtures, the feeds.

What it does: ``index`` lists the federation's leagues; ``league`` shows the table
(``leagues.standings.league_table``: the tie-breaks applied, the penalty points with their
reasons beside the team and listed under the table) and the fixtures round by round with their
dates (a postponed fixture shows its first date), status and score, the teams with a bye in each
round, and links to each team's and club's calendar; ``team_calendar`` and ``club_calendar``
serve the iCalendar feeds (``leagues.ical``, ``text/calendar``). Anyone may read them (no
login): a league's table is public, as the federation's rankings are.

The pages also take the forms of those who run a league (``web.leagues.forms``, through
``leagues.services``): ``league`` takes the federation's organisers' forms (postpone a fixture,
give a walkover, give a penalty), ``fixture`` shows one fixture and its state (waiting for the
other captain, disputed with the reason, accepted) and takes its captains' forms (enter the result
on paper, or — the home team's captain — table by table from the home club's finished games,
shown by the players' names and scores; accept it, dispute it); ``team`` shows a team's captain
and players and takes the forms of its captain and the federation's organisers (add one of the
club's players, take one off). Only those the forms are for see them; a post by anyone else is
refused (an anonymous one is sent to the login page; a signed-in one 403). A refusal of the
services is shown beside its form with its status, nothing stored; a success redirects to the
page.

What it does not do: decide the rules (``leagues.services``) or compute the table
(``leagues.standings``).
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from config.problems import Problem
from federations.permissions import is_organiser
from leagues import selectors
from leagues.ical import fixtures_calendar
from leagues.models import OPEN_STATUSES, FixtureStatus
from leagues.permissions import captained_sides, is_captain, may_manage_team
from leagues.standings import league_table
from web.console.access import ProblemShown
from web.leagues import forms


@require_safe
def index(request: HttpRequest, federation_slug: str) -> HttpResponse:
    federation = selectors.get_federation(slug=federation_slug)
    context = {
        "federation": federation,
        "title": federation.name,
        "leagues": selectors.list_leagues(federation=federation),
    }
    return render(request, "leagues/index.html", context)


def _may_post(request: HttpRequest, allowed) -> HttpResponse | None:
    """None when the post may go on; the login page for an anonymous visitor; 403 otherwise."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not allowed():
        raise PermissionDenied("This form is not yours.")
    return None


@require_http_methods(["GET", "HEAD", "POST"])
def league(request: HttpRequest, federation_slug: str, league_slug: str) -> HttpResponse:
    federation = selectors.get_federation(slug=federation_slug)
    league = selectors.get_league(federation=federation, slug=league_slug)
    problem = None
    if request.method == "POST":
        refused = _may_post(request, lambda: is_organiser(request.user, federation))
        if refused is not None:
            return refused
        action = request.POST.get("action", "")
        if action not in forms.LEAGUE_ACTIONS:
            return HttpResponse("Unknown action.", status=400, content_type="text/plain")
        try:
            forms.league_act(request, league, action)
        except Problem as error:
            problem = ProblemShown(error)
        else:
            return redirect("league_pages:league", federation.slug, league.slug)
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
        "organiser": is_organiser(request.user, federation),
        "problem": problem,
        "posted": request.POST if problem else {},
    }
    context["postponable"], context["walkover"] = forms.open_fixtures(fixtures)
    return render(
        request, "leagues/league.html", context, status=problem.status if problem else 200
    )


@require_http_methods(["GET", "HEAD", "POST"])
def fixture(
    request: HttpRequest, federation_slug: str, league_slug: str, fixture_id: int
) -> HttpResponse:
    federation = selectors.get_federation(slug=federation_slug)
    league = selectors.get_league(federation=federation, slug=league_slug)
    fixture = selectors.get_fixture(league=league, fixture_id=fixture_id)
    problem = None
    if request.method == "POST":
        refused = _may_post(request, lambda: bool(captained_sides(request.user, fixture)))
        if refused is not None:
            return refused
        action = request.POST.get("action", "")
        if action not in forms.CAPTAIN_ACTIONS:
            return HttpResponse("Unknown action.", status=400, content_type="text/plain")
        if action == "enter_tables" and not is_captain(request.user, fixture.home):
            # the form lists the home club's games: its team's captain enters from it
            raise PermissionDenied("This form is not yours.")
        try:
            forms.captain_act(request, fixture, action)
        except Problem as error:
            tables = league.tables_per_fixture
            problem = ProblemShown(error, forms.captain_fields(action, request.POST, tables))
            fixture = selectors.get_fixture(league=league, fixture_id=fixture_id)
        else:
            return redirect("league_pages:fixture", federation.slug, league.slug, fixture.pk)
    sides = captained_sides(request.user, fixture)
    status = fixture.status
    waiting = status == FixtureStatus.ENTERED
    answering = waiting and any(team.pk != fixture.entered_for_id for team in sides)
    may_enter = bool(sides) and status in (*OPEN_STATUSES, FixtureStatus.ENTERED)
    may_enter_tables = may_enter and fixture.home in sides
    action = request.POST.get("action") if problem else None
    beside = (
        (action == "enter" and may_enter)
        or (action == "enter_tables" and may_enter_tables)
        or (action in ("accept", "dispute") and answering)
    )
    context = {
        "federation": federation,
        "league": league,
        "fixture": fixture,
        "title": f"{fixture.home.name} v {fixture.away.name} · {league.name}",
        "captain": bool(sides),
        "may_enter": may_enter,
        "may_answer": answering,
        "tables": _table_rows(fixture, request.POST if problem else {}, problem)
        if may_enter_tables
        else None,
        "problem": problem,
        # a refusal whose form is no longer shown (the fixture changed meanwhile)
        "problem_elsewhere": None
        if problem is None or beside
        else [*problem.general, *(line for lines in problem.by_field.values() for line in lines)],
        "posted": request.POST if problem else {},
    }
    return render(
        request, "leagues/fixture.html", context, status=problem.status if problem else 200
    )


def _table_rows(fixture, posted, problem) -> dict:
    """The table-by-table form: the choices (the home club's games, by names and scores) and,
    for each table, its field, what was chosen and its refusals."""
    entered = {table.number: f"{table.game_id}:{table.home_side}" for table in fixture.tables.all()}
    rows = []
    for number in range(1, fixture.league.tables_per_fixture + 1):
        field = f"table_{number}"
        chosen = posted.get(field, "") if problem else entered.get(number, "")
        errors = problem.by_field.get(field, []) if problem else []
        rows.append({"number": number, "field": field, "chosen": chosen, "errors": errors})
    choices = forms.table_choices(selectors.list_table_candidates(fixture=fixture))
    return {"choices": choices, "rows": rows}


@require_http_methods(["GET", "HEAD", "POST"])
def team(
    request: HttpRequest, federation_slug: str, league_slug: str, team_id: int
) -> HttpResponse:
    federation = selectors.get_federation(slug=federation_slug)
    league = selectors.get_league(federation=federation, slug=league_slug)
    team = selectors.get_team(league=league, team_id=team_id)
    problem = None
    if request.method == "POST":
        refused = _may_post(request, lambda: may_manage_team(request.user, team))
        if refused is not None:
            return refused
        action = request.POST.get("action", "")
        if action not in forms.TEAM_ACTIONS:
            return HttpResponse("Unknown action.", status=400, content_type="text/plain")
        try:
            forms.team_act(request, team, action)
        except Problem as error:
            problem = ProblemShown(error)
        else:
            return redirect("league_pages:team", federation.slug, league.slug, team.pk)
        team = selectors.get_team(league=league, team_id=team_id)
    manager = may_manage_team(request.user, team)
    players = sorted(
        team.players.all(), key=lambda player: (player.pk != team.captain_id, player.display_name)
    )
    context = {
        "federation": federation,
        "league": league,
        "team": team,
        "title": f"{team.name} · {league.name}",
        "players": players,
        "manager": manager,
        "candidates": selectors.list_team_candidates(team=team) if manager else [],
        "problem": problem,
        "posted": request.POST if problem else {},
    }
    return render(request, "leagues/team.html", context, status=problem.status if problem else 200)


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
