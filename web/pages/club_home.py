"""The club page (``/clubs/<slug>/``): tonight first, then the season and everything older.

What it does: ``club_overview`` opens with what is on now: each event under way with its current
round and, once the reader said who they are, their table in it ("You: table 4"), and the games
in progress outside events; then the "This is me" picker: a player without an account linked to
them picks their name and the event pages show them their "tonight" panel — the pick is
remembered in this browser (a cookie, ``web.pages.tonight``), submitted as ``?player=<id>``
(``?player=`` forgets it). Then the events coming up and, folded on a phone (open on a wide
screen, ``static/js/pages/fold.js``), the club's season table with ratings
(``seasons.selectors.season_for_page``, ``templates/pages/_season_table.html``), the recent
results (each side named with its score), past events and the players (each linked to their
page); to organisers, the link to their console. Games of rounds not yet released are listed for
organisers only.

What it does not do: write to the database (the pick lives in the browser), or decide who may
read (``clubs.permissions``: members, or anybody when the club's standings are public).
"""

from __future__ import annotations

from collections import Counter

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubs import selectors as club_selectors
from clubs.permissions import role_in
from config.problems import Problem, problem_json_response
from games import selectors as game_selectors
from games.models import GameStatus
from games.money import format_money
from seasons import selectors as season_selectors
from tournaments import selectors as tournament_selectors
from web.pages import tonight
from web.pages.cards import game_card, with_events
from web.pages.explain import place_text
from web.pages.labels import (
    FORMATS,
    ROLES,
    TOURNAMENT_STATUSES,
    game_name,
    label,
    round_name,
)
from web.pages.tables import table_dom_id

IN_PROGRESS_LIMIT = 20
FINISHED_LIMIT = 10
TOURNAMENT_LIMIT = 20


def _tournament_card(club, tournament) -> dict:
    url = reverse("pages:tournament", kwargs={"slug": club.slug, "tournament_id": tournament.pk})
    card = {
        "name": tournament.name,
        "url": url,
        "game": game_name(tournament.game),
        "format": label(FORMATS, tournament.format),
        "status": label(TOURNAMENT_STATUSES, tournament.status),
        "status_code": tournament.status,
        "entrant_count": tournament.entrant_count,
        "created_at": tournament.created_at,
        "round": None,
        "my_table": None,
    }
    if tournament.current_round:
        total = tournament_selectors.knockout_round_total(tournament)
        card["round"] = round_name(tournament.current_round, total, tournament.table_size)
        my_round = getattr(tournament, "my_round", None)
        if my_round == tournament.current_round:
            card["my_table"] = {
                "number": tournament.my_table,
                "is_third_place": tournament.my_third_place,
                "url": f"{url}#{table_dom_id(my_round, tournament.my_table)}",
            }
    return card


def _season(club, user) -> dict:
    """The season table with each player's stakes in the club's currency ("+€1.20")."""
    season = season_selectors.season_for_page(club=club, user=user)
    shared = Counter(row["rank"] for row in season["rows"])
    season["rows"] = [
        {
            **row,
            "stakes": format_money(row["net_stakes_minor"], club, signed=True),
            "place": place_text(row["rank"], shared[row["rank"]] > 1),
        }
        for row in season["rows"]
    ]
    return season


@require_safe
def club_overview(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_selectors.get_readable_club(slug=slug, user=request.user)
    players = list(club_selectors.list_players(club=club).filter(is_active=True))
    picked = tonight.picked_player_id(request, slug)
    pick_change = "player" in request.GET
    if pick_change:
        value = request.GET["player"].strip()
        if value and not (value.isdigit() and any(p.pk == int(value) for p in players)):
            return problem_json_response(
                Problem(
                    code="unknown_player",
                    detail=_("No player with this id in this club."),
                    pointer=None,
                )
            )
        picked = int(value) if value else None
    # Games of rounds not yet released are left out for all but the organisers.
    games = with_events(
        game_selectors.without_private_draws(
            game_selectors.list_games(club=club), user=request.user, club=club
        )
    )
    # An event's games are on its own page: "on now" lists the games outside events.
    in_progress = list(
        games.filter(status=GameStatus.IN_PROGRESS, match_link__isnull=True)[:IN_PROGRESS_LIMIT]
    )
    finished = list(games.filter(status=GameStatus.FINISHED)[:FINISHED_LIMIT])
    role = role_in(request.user, club)
    own_player = next(
        (
            player
            for player in players
            if request.user.is_authenticated and player.user_id == request.user.pk
        ),
        None,
    )
    picked_player = next((player for player in players if player.pk == picked), None)
    me = own_player or picked_player
    tournaments = [
        _tournament_card(club, tournament)
        for tournament in tournament_selectors.with_rounds_of_player(
            tournament_selectors.list_tournaments(club=club, user=request.user),
            player_id=me.pk if me is not None else None,
        )[:TOURNAMENT_LIMIT]
    ]
    context = {
        "club": club,
        "role": label(ROLES, role) if role else None,
        "is_member": role is not None,
        "in_progress": [game_card(game) for game in in_progress],
        "finished": [game_card(game) for game in finished],
        "events_now": [card for card in tournaments if card["status_code"] == "in_progress"],
        "events_coming": [card for card in tournaments if card["status_code"] == "registration"],
        "events_past": [
            card
            for card in tournaments
            if card["status_code"] not in ("registration", "in_progress")
        ],
        "players": [
            {
                "id": player.pk,
                "name": player.display_name,
                "url": reverse("pages:player", kwargs={"slug": club.slug, "player_id": player.pk}),
            }
            for player in players
        ],
        "own_player": own_player,
        "picked_player": picked_player,
        "me": me,
        "is_organiser": role == "organiser",
        # The season table with ratings (seasons: stored snapshots), _season_table.html.
        "season": _season(club, request.user),
    }
    response = render(request, "pages/club.html", context)
    if pick_change:
        tonight.remember_pick(response, slug, picked)
    return response
