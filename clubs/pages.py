"""The read-only site pages of a club as a whole, and what every page of the site shares.

What it does:
- ``club_overview`` (``/clubs/<slug>/``): the club's games in progress, its recent finished games
  and its tournaments, with links to each and to the balances page.
- ``my_clubs`` (``/me/``): the logged-in user's clubs (by membership, or by the club player linked
  to their account) and, per club, the last games they sat in.
- Helpers the games and tournaments pages use: ``access_club`` (fetch a club and apply the read
  policy), ``format_money`` (minor units to text in the club's currency) and ``game_card``
  (a game as the lists show it: sides, totals, status, winner).

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
from django.db.models import F, Prefetch, Window
from django.db.models.functions import RowNumber
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, pgettext
from django.views.decorators.http import require_safe

from clubs import selectors as club_selectors
from clubs.models import Club, GameType, Membership, Player, Role
from clubs.permissions import can_read_club, role_in
from games import selectors as game_selectors
from games.models import Game, GameSeat, GameSide, GameStatus
from games.money import minor_to_decimal_string
from tournaments import selectors as tournament_selectors

IN_PROGRESS_LIMIT = 20
FINISHED_LIMIT = 10
TOURNAMENT_LIMIT = 20
RECENT_GAMES_PER_CLUB = 5

# Symbols for the currencies whose symbol is unambiguous; other currencies show their ISO code.
CURRENCY_SYMBOLS = {"EUR": "€", "GBP": "£", "USD": "$"}


# ---------------------------------------------------------------------------------------------
# Shared helpers


def access_club(request: HttpRequest, slug: str) -> Club:
    """The club the user may read, with their role remembered; Http404 otherwise.

    A club that does not exist and a club the user may not read give the same 404, so a page
    never reveals that a private club exists.
    """
    club = club_selectors.get_club(slug=slug, user=request.user)
    if not can_read_club(request.user, club):
        raise Http404("No club with this slug.")
    return club


def format_money(amount_minor: int | None, club: Club, *, signed: bool = False) -> str:
    """``20`` in a EUR club -> ``"€0.20"``; ``signed`` adds ``+`` to positive amounts."""
    if amount_minor is None:
        return ""
    text = minor_to_decimal_string(abs(amount_minor), club.minor_unit_exponent)
    symbol = CURRENCY_SYMBOLS.get(club.currency)
    text = f"{symbol}{text}" if symbol else f"{text} {club.currency}"
    if amount_minor < 0:
        return f"-{text}"
    return f"+{text}" if signed and amount_minor > 0 else text


def game_label(game_code: str) -> str:
    """``"45"`` -> ``"Forty-Five"`` (the name players use)."""
    try:
        return gettext(GameType(game_code).label)
    except ValueError:
        return game_code


def side_labels(game: Game) -> list[str]:
    """Each side's name: its team's, else its players' names in seat order joined by "&"."""
    teams = {side.index: side.team for side in game.sides.all()}
    players: dict[int, list[str]] = {}
    for seat in game.ordered_seats():
        players.setdefault(seat.side, []).append(seat.player.display_name)
    labels = []
    for index in sorted(players):
        team = teams.get(index)
        labels.append(team.name if team is not None else " & ".join(players[index]))
    return labels


def game_card(game: Game) -> dict:
    """A game as lists show it (its seats and sides must be prefetched: no query here)."""
    labels = side_labels(game)
    totals = list(game.totals) + [0] * (len(labels) - len(game.totals))
    sides = [
        {
            "label": label,
            "total": totals[index],
            "is_winner": game.winner_side == index,
        }
        for index, label in enumerate(labels)
    ]
    winner = sides[game.winner_side]["label"] if game.winner_side is not None else None
    return {
        "id": game.pk,
        "url": reverse("pages:game", kwargs={"slug": game.club.slug, "game_id": game.pk}),
        "game": game_label(game.game),
        "status": pgettext("game", game.get_status_display()),
        "is_finished": game.is_finished,
        "hands_played": game.hands_played,
        "sides": sides,
        "score": "–".join(str(side["total"]) for side in sides),
        "winner": winner,
        "created_at": game.created_at,
        "time_zone": game.club.time_zone,
    }


# ---------------------------------------------------------------------------------------------
# The club overview


def _tournament_card(club: Club, tournament) -> dict:
    return {
        "name": tournament.name,
        "url": reverse(
            "pages:tournament", kwargs={"slug": club.slug, "tournament_id": tournament.pk}
        ),
        "game": game_label(tournament.game),
        "format": tournament.get_format_display(),
        "status": tournament.get_status_display(),
        "entrant_count": tournament.entrant_count,
    }


@require_safe
def club_overview(request: HttpRequest, slug: str) -> HttpResponse:
    club = access_club(request, slug)
    games = game_selectors.list_games(club=club)
    in_progress = list(games.filter(status=GameStatus.IN_PROGRESS)[:IN_PROGRESS_LIMIT])
    finished = list(games.filter(status=GameStatus.FINISHED)[:FINISHED_LIMIT])
    tournaments = list(
        tournament_selectors.list_tournaments(club=club, user=request.user)[:TOURNAMENT_LIMIT]
    )
    role = role_in(request.user, club)
    context = {
        "club": club,
        "role": Role(role).label if role else None,
        "is_member": role is not None,
        "in_progress": [game_card(game) for game in in_progress],
        "finished": [game_card(game) for game in finished],
        "tournaments": [_tournament_card(club, tournament) for tournament in tournaments],
    }
    return render(request, "pages/club.html", context)


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
            "player": None,
        }
    for player in Player.objects.filter(user=user).select_related("club"):
        entry = entries.get(player.club_id)
        if entry is None and player.club.public_standings:
            entry = entries[player.club_id] = {"club": player.club, "role": None, "player": None}
        if entry is not None:
            entry["player"] = player
    return sorted(entries.values(), key=lambda entry: (entry["club"].name, entry["club"].pk))


def list_recent_games_of_user(*, user, club_ids: list[int]) -> list[Game]:
    """The newest ``RECENT_GAMES_PER_CLUB`` games per club the user's players sat in.

    Three queries however many clubs and games: the games (ranked per club by a window function,
    newest first), then their seats with players and their sides with teams.
    """
    ranked = (
        Game.objects.filter(club_id__in=club_ids, seats__player__user=user)
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
        ranked.select_related("club")
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
