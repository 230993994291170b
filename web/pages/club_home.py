"""The club page (``/clubs/<slug>/``): what is on, recent results, upcoming events, and "I am…".

What it does: ``club_overview`` shows the games in progress, recent results (each side named
with its score), the events under way and upcoming, the club's players (each linked to their
page) and a "This is me" picker: a player without an account linked to them picks their name
and the event pages show them their "tonight" panel — the pick is remembered in this browser
(a cookie, ``web.pages.tonight``), submitted as ``?player=<id>`` (``?player=`` forgets it).
It shows the club's season table with ratings (``seasons.selectors.season_for_page``, rendered
by ``templates/pages/_season_table.html``) and, to organisers, the link to their console. Games
of rounds not yet released are listed for organisers only.

What it does not do: write to the database (the pick lives in the browser), or decide who may
read (``clubs.permissions``: members, or anybody when the club's standings are public).
"""

from __future__ import annotations

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
from seasons import selectors as season_selectors
from tournaments import selectors as tournament_selectors
from web.pages import tonight
from web.pages.cards import game_card
from web.pages.clubs import access_club
from web.pages.labels import FORMATS, ROLES, TOURNAMENT_STATUSES, game_name, label

IN_PROGRESS_LIMIT = 20
FINISHED_LIMIT = 10
TOURNAMENT_LIMIT = 20


def _tournament_card(club, tournament) -> dict:
    return {
        "name": tournament.name,
        "url": reverse(
            "pages:tournament", kwargs={"slug": club.slug, "tournament_id": tournament.pk}
        ),
        "game": game_name(tournament.game),
        "format": label(FORMATS, tournament.format),
        "status": label(TOURNAMENT_STATUSES, tournament.status),
        "status_code": tournament.status,
        "entrant_count": tournament.entrant_count,
        "created_at": tournament.created_at,
    }


@require_safe
def club_overview(request: HttpRequest, slug: str) -> HttpResponse:
    club = access_club(request, slug)
    players = list(club_selectors.list_players(club=club).filter(is_active=True))
    picked = tonight.picked_player_id(request, slug)
    pick_change = "player" in request.GET
    if pick_change:
        value = request.GET["player"].strip()
        if value and not (value.isdigit() and any(p.pk == int(value) for p in players)):
            return problem_json_response(Problem(
                status=400, code="unknown_player",
                detail=_("No player with this id in this club."), pointer=None,
            ))
        picked = int(value) if value else None
    # Games of rounds not yet released are left out for all but the organisers.
    games = game_selectors.without_private_draws(
        game_selectors.list_games(club=club), user=request.user, club=club
    )
    in_progress = list(games.filter(status=GameStatus.IN_PROGRESS)[:IN_PROGRESS_LIMIT])
    finished = list(games.filter(status=GameStatus.FINISHED)[:FINISHED_LIMIT])
    tournaments = [
        _tournament_card(club, tournament)
        for tournament in tournament_selectors.list_tournaments(club=club, user=request.user)[
            :TOURNAMENT_LIMIT
        ]
    ]
    role = role_in(request.user, club)
    own_player = next(
        (player for player in players
         if request.user.is_authenticated and player.user_id == request.user.pk),
        None,
    )
    picked_player = next((player for player in players if player.pk == picked), None)
    context = {
        "club": club,
        "role": label(ROLES, role) if role else None,
        "is_member": role is not None,
        "in_progress": [game_card(game) for game in in_progress],
        "finished": [game_card(game) for game in finished],
        "events_on": [card for card in tournaments
                      if card["status_code"] in ("registration", "in_progress")],
        "events_past": [card for card in tournaments
                        if card["status_code"] not in ("registration", "in_progress")],
        "players": [
            {"id": player.pk, "name": player.display_name,
             "url": reverse("pages:player", kwargs={"slug": club.slug, "player_id": player.pk})}
            for player in players
        ],
        "own_player": own_player,
        "picked_player": picked_player,
        "is_organiser": role == "organiser",
        # The season table with ratings (seasons: stored snapshots), _season_table.html.
        "season": season_selectors.season_for_page(club=club, user=request.user),
    }
    response = render(request, "pages/club.html", context)
    if pick_change:
        tonight.remember_pick(response, slug, picked)
    return response
