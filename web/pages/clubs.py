"""The read-only site pages of a club as a whole, and what every page of the site shares.

What it does:
- ``my_clubs`` (``/me/``): the logged-in user's clubs (by membership, or by the club player linked
  to their account) and, per club, the last games they sat in.
  (The club's own page is ``web.pages.club_home``; a game as lists show it is
  ``web.pages.cards``; money is formatted by ``games.money.format_money``.)

What it does not do: write anything, or decide the policy: ``clubs.permissions`` does, exactly as
for the API — a club's pages are for its members, and for anybody when the club made its
standings public; a club the user may not read does not exist for them (404). Query shape comes
from the apps' selectors; the two queries only pages need (a user's clubs and recent games) are
here because no API serves them.

Terms:
- *game card*: the display form of one game (a plain dict built from a game whose seats and
  sides were prefetched, so building it costs no query).
- *recent games per club*: the ``RECENT_GAMES_PER_CLUB`` newest games of each club, picked in one
  query with a window function rather than one query per club.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import F, Prefetch, Q, Window
from django.db.models.functions import RowNumber
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, pgettext
from django.views.decorators.http import require_safe

from clubs.models import Membership, Player
from games import match_links
from games.models import Game, GameSeat, GameSide
from web.pages.cards import game_card, with_events

RECENT_GAMES_PER_CLUB = 5


# ---------------------------------------------------------------------------------------------
# Shared helpers


# ---------------------------------------------------------------------------------------------
# The user's own page


def _readable_clubs_of(user) -> list[dict]:
    """The user's clubs they may read: by membership, or by a linked player in a public club.

    Two queries; returns ``{"club", "role", "player"}`` dicts ordered by club name.
    """
    entries: dict[int, dict] = {}
    for membership in Membership.objects.filter(user=user).select_related("club"):
        entries[membership.club_id] = {
            "club": membership.club,
            "role": gettext(membership.get_role_display()),
            "is_organiser": membership.role == "organiser",
            "player": None,
        }
    for player in Player.objects.filter(user=user).select_related("club"):
        entry = entries.get(player.club_id)
        if entry is None and player.club.public_standings:
            entry = entries[player.club_id] = {
                "club": player.club,
                "role": None,
                "is_organiser": False,
                "player": None,
            }
        if entry is not None:
            entry["player"] = player
    return sorted(entries.values(), key=lambda entry: (entry["club"].name, entry["club"].pk))


def list_recent_games_of_user(
    *, user, club_ids: list[int], organised_club_ids: list[int] = ()
) -> list[Game]:
    """The newest ``RECENT_GAMES_PER_CLUB`` games per club the user's players sat in; games of
    rounds not yet released (a private draw) only in the clubs they organise
    (``organised_club_ids``).

    Three queries however many clubs and games: the games (ranked per club by a window function,
    newest first), then their seats with players and their sides with teams.
    """
    private_draw = match_links.private_draw_q() or Q(pk__in=[])
    ranked = (
        Game.objects.filter(club_id__in=club_ids, seats__player__user=user)
        .exclude(private_draw & ~Q(club_id__in=organised_club_ids))
        .annotate(
            recency=Window(
                RowNumber(),
                partition_by=[F("club_id")],
                order_by=[F("created_at").desc(), F("id").desc()],
            )
        )
        .filter(recency__lte=RECENT_GAMES_PER_CLUB)
    )
    return list(
        with_events(ranked.select_related("club"))
        .prefetch_related(
            Prefetch("seats", queryset=GameSeat.objects.select_related("player").order_by("seat")),
            Prefetch("sides", queryset=GameSide.objects.select_related("team").order_by("index")),
        )
        .order_by("-created_at", "-id")
    )


def _result_for(user, game: Game) -> str:
    """The game seen from the user's side: "Won", "Lost", or else the game's status."""
    if not game.is_finished:
        return pgettext("game", game.get_status_display())
    side = next((seat.side for seat in game.seats.all() if seat.player.user_id == user.pk), None)
    if side is None or game.winner_side is None:
        return pgettext("game", game.get_status_display())
    return gettext("Won") if side == game.winner_side else gettext("Lost")


@require_safe
@login_required
def my_clubs(request: HttpRequest) -> HttpResponse:
    user = request.user
    clubs = _readable_clubs_of(user)
    games = list_recent_games_of_user(
        user=user,
        club_ids=[entry["club"].pk for entry in clubs if entry["player"] is not None],
        organised_club_ids=[entry["club"].pk for entry in clubs if entry["is_organiser"]],
    )
    games_by_club: dict[int, list[dict]] = {}
    for game in games:
        card = game_card(game)
        card["result"] = _result_for(user, game)
        games_by_club.setdefault(game.club_id, []).append(card)
    for entry in clubs:
        club = entry["club"]
        entry["url"] = reverse("pages:club", kwargs={"slug": club.slug})
        entry["balances_url"] = (
            reverse("pages:balances", kwargs={"slug": club.slug}) if entry["role"] else None
        )
        entry["games"] = games_by_club.get(club.pk, [])
    return render(request, "pages/me.html", {"clubs": clubs})
