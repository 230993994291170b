"""The leagues' page forms: the captains' result forms, the organisers' league forms.

What it does: reads a posted form, refuses bad input like the API does (a ``Problem`` naming the
pointer: ``invalid``, ``required``, ``invalid_date``; nothing stored) and calls
``leagues.services`` — the same checks, problems and audit as the API:

- ``captain_act`` (the fixture page, ``CAPTAIN_ACTIONS``): enter the result on paper (tables won
  by each side) or table by table (``enter_tables``: for each table one of the home club's
  finished games and the side the home team held, posted as ``table_N`` = ``"game:side"``, the
  choices ``table_choices`` gives, sent as the API's ``tables``), accept it, dispute it with a
  reason; ``captain_fields`` names the table form's fields in a refusal's pointers;
- ``team_act`` (a team's page, ``TEAM_ACTIONS``: its captain and the federation's organisers):
  add one of the club's players to the team, take one off;
- ``league_act`` (the league page, the federation's organisers, ``LEAGUE_ACTIONS``): postpone a
  fixture to a new date, give a walkover, give a penalty with a reason;
- ``federation_act`` (the federation's organisers' page, ``FEDERATION_ACTIONS``): create a league,
  enter a member club's team (name, captain), draw the fixtures; ``FIELDS`` renames their
  pointers to the page's field names (the page has other forms with a ``name``);
  ``federation_context`` gives that page its leagues, clubs and players.

What it does not do: decide who may (the views check first; which captain answers is checked in
``leagues.services``), or render anything.
"""

from __future__ import annotations

import datetime
import re

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from clubs.models import Player
from config.problems import Problem
from federations import selectors as federation_selectors
from federations.models import Federation
from games.models import GameType
from leagues import selectors, services
from leagues.models import OPEN_STATUSES, FixtureStatus, League, TeamFormat

SLUG = re.compile(r"[-a-zA-Z0-9_]+")  # as a web address's <slug:> takes it
CAPTAIN_ACTIONS = ("enter", "enter_tables", "accept", "dispute")
TEAM_ACTIONS = ("add_player", "remove_player")
TABLE_CHOICE = re.compile(r"([0-9]{1,10}):([01])")
LEAGUE_ACTIONS = ("postpone", "walkover", "penalty")
FEDERATION_ACTIONS = ("new_league", "league_team", "draw_fixtures")

FIELDS = {
    "new_league": {"name": "league_name", "slug": "league_slug"},
    "league_team": {"name": "team_name", "club": "team_club"},
    "draw_fixtures": {},
}


def _get(post, name: str) -> str:
    """The field's text, stripped (a NUL character never arrives: config.middleware refuses it)."""
    return (post.get(name) or "").strip()


def _number(post, name: str, low: int, high: int, *, default: int | None = None) -> int:
    text = _get(post, name)
    if not text and default is not None:
        return default
    try:
        value = int(text)
    except ValueError:
        raise Problem(
            code="invalid", detail=_("Give a whole number."), pointer=f"/{name}"
        ) from None
    if not low <= value <= high:
        raise Problem(
            code="invalid",
            detail=_("From %(low)d to %(high)d.") % {"low": low, "high": high},
            pointer=f"/{name}",
        )
    return value


def _date(post, name: str, *, required: bool = True) -> datetime.date | None:
    text = _get(post, name)
    if not text and not required:
        return None
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise Problem(
            code="invalid_date", detail=_("Not a valid date."), pointer=f"/{name}"
        ) from None


def _text(post, name: str, limit: int, detail: str) -> str:
    text = _get(post, name)
    if not text or len(text) > limit:
        raise Problem(code="required", detail=detail, pointer=f"/{name}")
    return text


def captain_act(request, fixture, action: str) -> None:
    """One captain's form of the fixture page (``CAPTAIN_ACTIONS``)."""
    user, post = request.user, request.POST
    if action == "enter":
        tables = fixture.league.tables_per_fixture
        services.enter_result(
            fixture=fixture,
            user=user,
            home_score=_number(post, "home_score", 0, tables),
            away_score=_number(post, "away_score", 0, tables),
        )
    elif action == "enter_tables":
        chosen = _chosen_tables(post, fixture.league.tables_per_fixture)
        if not chosen:
            raise Problem(
                code="required",
                detail=_("Choose the game of one table at least."),
                pointer="/tables",
            )
        services.enter_result(
            fixture=fixture,
            user=user,
            tables=[{"game": game, "home_side": side} for _number, game, side in chosen],
        )
    elif action == "accept":
        services.accept_result(fixture=fixture, user=user)
    else:
        reason = _text(post, "reason", 500, _("Give the reason (500 characters at most)."))
        services.dispute_result(fixture=fixture, user=user, reason=reason)


def _chosen_tables(post, tables: int) -> list[tuple[int, int, int]]:
    """(table number, game id, home side) of each table given a game, in table order."""
    chosen = []
    for number in range(1, tables + 1):
        text = _get(post, f"table_{number}")
        if not text:
            continue  # a table abandoned, or not played: it counts for nobody
        match = TABLE_CHOICE.fullmatch(text)
        if match is None:
            raise Problem(
                code="invalid", detail=_("Choose one of the games."), pointer=f"/table_{number}"
            )
        chosen.append((number, int(match[1]), int(match[2])))
    return chosen


def captain_fields(action: str, post, tables: int) -> dict[str, str]:
    """The page's field of each pointer a refusal of the table form names."""
    if action != "enter_tables":
        return {}
    try:
        chosen = _chosen_tables(post, tables)
    except Problem:
        return {}
    fields = {}
    for index, (number, _game, _side) in enumerate(chosen):
        for end in ("", "/game", "/home_side"):
            fields[f"/tables/{index}{end}"] = f"table_{number}"
    return fields


def _side_names(game, side: int) -> str:
    return " & ".join(
        seat.player.display_name for seat in game.ordered_seats() if seat.side == side
    )


def table_choices(games) -> list[tuple[str, str]]:
    """Each game twice, once for each side the home team may have held: ``("game:side",
    "Home pair (home team) 25–12 Other pair, date")`` — the players' names and the scores."""
    choices = []
    for game in games:
        when = formats.date_format(timezone.localtime(game.created_at), "SHORT_DATETIME_FORMAT")
        for home in (0, 1):
            away = 1 - home
            label = _("%(home)s (home team) %(home_points)s–%(away_points)s %(away)s, %(when)s") % {
                "home": _side_names(game, home),
                "away": _side_names(game, away),
                "home_points": game.totals[home],
                "away_points": game.totals[away],
                "when": when,
            }
            choices.append((f"{game.pk}:{home}", label))
    return choices


def team_act(request, team, action: str) -> None:
    """One form of a team's page (``TEAM_ACTIONS``)."""
    player_id = _number(request.POST, "player", 1, 2**31 - 1)
    if action == "add_player":
        services.add_team_player(team=team, user=request.user, player_id=player_id)
    else:
        services.remove_team_player(team=team, user=request.user, player_id=player_id)


def _team(league: League, post, name: str = "team"):
    team_id = _number(post, name, 1, 2**31 - 1)
    team = league.teams.filter(pk=team_id).first()
    if team is None:
        raise Problem(code="not_found", detail=_("No such team."), pointer=f"/{name}")
    return team


def league_act(request, league: League, action: str) -> None:
    """One organisers' form of the league page (``LEAGUE_ACTIONS``)."""
    user, post = request.user, request.POST
    if action == "penalty":
        services.give_penalty(
            league=league,
            user=user,
            team=_team(league, post),
            points=_number(post, "points", 1, 100),
            reason=_text(post, "reason", 300, _("Give the reason (300 characters at most).")),
        )
        return
    fixture = selectors.get_fixture(
        league=league, fixture_id=_number(post, "fixture", 1, 2**31 - 1)
    )
    if action == "postpone":
        services.postpone_fixture(fixture=fixture, user=user, new_date=_date(post, "date"))
    else:
        services.give_walkover(fixture=fixture, user=user, team=_team(league, post))


def open_fixtures(fixtures) -> tuple[list, list]:
    """The fixtures an organiser may still postpone, and those they may give as a walkover."""
    postponable = [
        f for f in fixtures if f.status in (FixtureStatus.SCHEDULED, FixtureStatus.POSTPONED)
    ]
    walkover = [f for f in fixtures if f.status in (*OPEN_STATUSES, FixtureStatus.ENTERED)]
    return postponable, walkover


def _new_league(federation: Federation, user, post) -> None:
    name = _text(post, "name", 120, _("Give a name."))
    slug = _get(post, "slug")
    if not slug or len(slug) > 50 or not SLUG.fullmatch(slug):
        raise Problem(
            code="invalid",
            detail=_("Letters, digits and hyphens only, as in its web address."),
            pointer="/slug",
        )
    variant, team_format = _get(post, "variant"), _get(post, "team_format")
    for value, choices, pointer in (
        (variant, GameType.choices, "/variant"),
        (team_format, TeamFormat.choices, "/team_format"),
    ):
        if value not in dict(choices):
            raise Problem(code="invalid", detail=_("Choose one."), pointer=pointer)
    services.create_league(
        federation=federation,
        user=user,
        name=name,
        slug=slug,
        variant=variant,
        team_format=team_format,
        tables_per_fixture=_number(post, "tables_per_fixture", 1, 20, default=2),
        points_win=_number(post, "points_win", 0, 100, default=2),
        points_draw=_number(post, "points_draw", 0, 100, default=1),
        points_loss=_number(post, "points_loss", 0, 100, default=0),
        season_start=_date(post, "season_start"),
        season_end=_date(post, "season_end"),
    )


def federation_act(request, federation: Federation, action: str) -> None:
    """One league form of the federation's organisers' page (``FEDERATION_ACTIONS``)."""
    user, post = request.user, request.POST
    if action == "new_league":
        _new_league(federation, user, post)
        return
    league = selectors.get_league(federation=federation, slug=_get(post, "league"))
    if action == "league_team":
        club = federation_selectors.find_club(slug=_get(post, "club"))
        if club is None:
            raise Problem(code="unknown_club", detail=_("No club has this slug."), pointer="/club")
        services.add_team(
            league=league,
            user=user,
            club=club,
            name=_text(post, "name", 80, _("Give a name.")),
            captain_id=_number(post, "captain", 1, 2**31 - 1),
            player_ids=[],
        )
    else:
        services.generate_fixtures(
            league=league,
            user=user,
            first_date=_date(post, "first_date", required=False),
            days_between=_number(post, "days_between", 1, 60, default=7),
        )


def federation_context(federation: Federation) -> dict:
    clubs = federation_selectors.list_member_clubs(federation=federation)
    leagues = list(selectors.list_leagues(federation=federation).prefetch_related("teams__club"))
    for league in leagues:
        league.drawn = league.fixtures.exists()
    return {
        "leagues": leagues,
        "league_clubs": clubs,
        "league_players": Player.objects.filter(club__in=clubs, is_active=True)
        .select_related("club")
        .order_by("club__name", "display_name"),
        "variants": GameType.choices,
        "team_formats": TeamFormat.choices,
        "league_actions": (*FEDERATION_ACTIONS,),
    }
