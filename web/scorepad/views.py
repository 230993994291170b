"""Pages of the table app: the score page (by login or by table link), table links, the worker.

What it does:
- ``score_game``: the score page of one game for a logged-in scorekeeper or organiser of the club
  (anonymous: to the login page; a club they may not read: 404; another role: 403).
- ``score_table``: the same page opened by a table link (``/t/<token or short code>/``): the
  table's game in play (``?game=`` picks another game of the same table); 404 for a link that is
  unknown, revoked or expired. The page calls the API with ``Authorization: Table <credential>``.
- ``enter_code``: a form to type a short code; it sends the tablet on to ``/t/<code>/``.
- ``table_links``: organisers make a link for a game or a tournament match (the QR code and the
  short code are shown once, right after), see the club's links and revoke them.
- ``service_worker``: ``/table-worker.js``, served from the root with ``Service-Worker-Allowed``
  so its scope covers ``/clubs/…/score/`` and ``/t/…``; it caches the page shell.

What it does not do: record anything itself. The page is a shell plus ES modules
(static/table/) that talk to the REST API like any client; every write goes through the API's
services. Rules are never computed here or in the browser: the summary of a hand comes from the
preview endpoint, legal cards from the legal-plays endpoint.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext
from django.views.decorators.http import require_http_methods, require_safe

from clubs import selectors as club_selectors
from clubs.permissions import can_manage, can_score
from config.problems import Problem
from games import selectors as game_selectors
from games.models import Game
from games.representations import GameOutput, HandOutput
from table_links import guessing
from table_links import selectors as table_selectors
from table_links import services as table_services
from table_links.qr import qr_svg
from table_links.table_state import table_state
from tournaments.models import Match, Tournament, TournamentStatus
from web.guessing import too_many_guesses
from web.scorepad.strings import table_strings

# How often a waiting page (a table with no game yet) asks whether its next game exists: at most
# six times a minute, conditionally (ETag), as the score page does.
WAIT_POLL_SECONDS = 10

# The score pad's modules (static/table/, docs/table_app.md), loaded by their static URLs.
SCORE_MODULES = ("score", "words", "draft", "api", "sync", "outbox", "views", "cards")
# What the service worker keeps so the score page opens with no network: every module the page
# loads, its entry point first.
SHELL_FILES = (
    "css/jink.css",
    "table/table.css",
    "table/score-page.js",
    *(f"table/{name}.js" for name in SCORE_MODULES),
)


def _side_labels(game: Game) -> list[str]:
    names: dict[int, list[str]] = {}
    for seat in game.ordered_seats():
        names.setdefault(seat.side, []).append(seat.player.display_name)
    teams = {side.index: side.team for side in game.sides.all()}
    return [
        teams[index].name if teams.get(index) is not None else " & ".join(names[index])
        for index in sorted(names)
    ]


def _closed_reason(game: Game) -> str | None:
    """Why the table may no longer change this game (its event is closed), in a player's words."""
    if getattr(game, "tournament_match_id", None) is None:
        return None
    tournament = Tournament.objects.filter(matches__match_games__game=game).only("status").first()
    if tournament is None or tournament.status != TournamentStatus.CLOSED:
        return None
    return gettext(
        "The event is over: this table takes no more hands. Only an organiser can still "
        "correct a hand, from the console."
    )


def _render_score(
    request, game: Game, *, credential: str | None, table: dict | None, follows: bool = False
):
    hands = list(game_selectors.list_hands(game=game))
    user_player_ids = []
    if request.user.is_authenticated:
        user_player_ids = [
            seat.player_id
            for seat in game.ordered_seats()
            if seat.player.user_id == request.user.pk
        ]
    match = (table or {}).get("match")
    config = {
        "gameId": game.pk,
        "club": game.club.slug,
        "credential": credential,
        # Also with a link: a logged-in tablet is authenticated by its session, which needs it.
        "csrf": get_token(request),
        "confirmHands": game.club.confirm_hands,
        # Opened on its table's current game: the page follows the table to its next games.
        "followsTable": follows,
        "versus": pgettext("versus", "v"),
        "closedReason": _closed_reason(game),
        "userPlayerIds": user_player_ids,
        "sideLabels": _side_labels(game),
        "gamePageUrl": reverse("pages:game", kwargs={"slug": game.club.slug, "game_id": game.pk}),
        "standingsUrl": reverse(
            "pages:tournament",
            kwargs={"slug": game.club.slug, "tournament_id": match["tournament"]},
        )
        if match
        else None,
        "tableUrl": reverse("table:link", kwargs={"credential": credential})
        if credential
        else None,
        "workerUrl": reverse("table:worker"),
        "modules": {name: static(f"table/{name}.js") for name in SCORE_MODULES},
    }
    context = {
        "club": game.club,
        "game": game,
        "side_labels": config["sideLabels"],
        "sides_title": f" {pgettext('versus', 'v')} ".join(config["sideLabels"]),
        "seats": [
            {"name": seat.player.display_name, "side": seat.side} for seat in game.ordered_seats()
        ],
        "dealer": game.seat_players()[game.next_dealer].display_name
        if game.next_dealer < len(game.seat_players())
        else None,
        "totals": list(zip(config["sideLabels"], game.totals, strict=False)),
        "target": (game.house_rules or {}).get("target"),
        "table": table,
        "config": config,
        "game_data": GameOutput(game, context={"club": game.club}).data,
        "hands_data": HandOutput(hands, many=True).data,
        "table_data": table,
        "strings": table_strings(),
    }
    response = render(request, "scorepad/score.html", context)
    # The page holds a credential or a CSRF token: never stored by shared caches; the service
    # worker keeps its own copy for opening offline.
    response["Cache-Control"] = "private, no-cache"
    # The link's credential is in this page's path: a Referer carries the origin alone, to this
    # site as to any other, yet a form's POST keeps its Origin for the CSRF check (no-referrer
    # would make Chromium send "Origin: null", refused with a 403).
    response["Referrer-Policy"] = "strict-origin"
    return response


@require_safe
def score_game(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    club = club_selectors.get_readable_club(slug=slug, user=request.user)
    if not can_score(request.user, club):
        raise PermissionDenied("Only the club's scorekeepers and organisers score games.")
    game = game_selectors.list_games(club=club).filter(pk=game_id).first()
    if game is None:
        raise Http404("No game with this id in this club.")
    game.club = club
    return _render_score(request, game, credential=None, table=None)


@require_safe
def score_table(request: HttpRequest, credential: str) -> HttpResponse:
    wait = guessing.refused_for(request)
    if wait is not None:
        return too_many_guesses(request, wait)
    link = table_selectors.get_live_link(credential)
    if link is None:
        guessing.note_failure(request)
        raise Http404("This table link is unknown, revoked or expired.")
    table = table_state(link)
    wanted = request.GET.get("game")
    game_id = table["current_game"]
    if wanted and wanted.isdigit() and int(wanted) in {game["id"] for game in table["games"]}:
        game_id = int(wanted)
    if game_id is None:
        context = {"table": table, "credential": credential, "poll_seconds": WAIT_POLL_SECONDS}
        response = render(request, "scorepad/waiting.html", context, status=200)
        response["Cache-Control"] = "private, no-cache"
        return response
    game = game_selectors.get_game(game_id=game_id)
    return _render_score(
        request, game, credential=credential, table=table, follows=game_id == table["current_game"]
    )


@require_safe
def enter_code(request: HttpRequest) -> HttpResponse:
    code = request.GET.get("code", "")
    error = None
    if code:
        wait = guessing.refused_for(request)
        if wait is not None:
            return too_many_guesses(request, wait)
        normalised = table_selectors.normalise_code(code)
        if table_selectors.get_live_link(normalised) is not None:
            return redirect("table:link", credential=normalised)
        guessing.note_failure(request)
        error = gettext(
            "No table has this code, or its link has ended. Check the code with the organiser."
        )
    return render(request, "scorepad/code.html", {"code": code, "error": error})


@require_http_methods(["GET", "HEAD", "POST"])
def table_links(request: HttpRequest, slug: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    club = club_selectors.get_readable_club(slug=slug, user=request.user)
    if not can_manage(request.user, club):
        raise PermissionDenied("Only the club's organisers make table links.")
    created = None
    if request.method == "POST":
        try:
            if request.POST.get("revoke"):
                table_services.revoke_table_link(
                    club=club, link_id=_positive(request.POST["revoke"]), user=request.user
                )
                messages.info(request, gettext("The link is revoked: it opens nothing any more."))
                return redirect("table:links", slug=club.slug)
            link, token, code = table_services.create_table_link(
                club=club,
                user=request.user,
                game_id=_positive(request.POST.get("game")),
                match_id=_positive(request.POST.get("match")),
            )
        except Problem as problem:
            messages.error(request, problem.detail)
            return redirect("table:links", slug=club.slug)
        url = request.build_absolute_uri(reverse("table:link", kwargs={"credential": token}))
        created = {
            "label": table_selectors.table_label(link),
            "url": url,
            "code": table_services.format_code(code),
            "svg": qr_svg(url),
            "expires_at": link.expires_at,
        }
    now = timezone.now()
    links = list(table_selectors.list_table_links(club=club)[:50])
    context = {
        "club": club,
        "created": created,
        "links": [
            {
                "id": link.pk,
                "label": table_selectors.table_label(link),
                "expires_at": link.expires_at,
                # An event's or a night's table has no expiry: it ends when they close.
                "is_live": table_selectors.is_live(link, now),
                "revoked": link.revoked_at is not None,
            }
            for link in links
        ],
        "games": list(
            Game.objects.filter(club=club, status="in_progress").order_by("-created_at")[:30]
        ),
        "matches": list(
            Match.objects.filter(tournament__club=club, status="in_progress")
            .select_related("round__tournament")
            .order_by("-id")[:30]
        ),
    }
    response = render(request, "scorepad/links.html", context)
    response["Cache-Control"] = "private, no-store"
    return response


def _positive(value) -> int | None:
    if value in (None, ""):
        return None
    if not str(value).isdigit():
        raise Problem(code="invalid_table", detail=gettext("Pick a game or a match."))
    return int(value)


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    path = finders.find("table/worker.js")
    with open(path, encoding="utf-8") as source:
        body = source.read()
    shell = ", ".join(f'"{static(name)}"' for name in SHELL_FILES)
    response = HttpResponse(
        f"const SHELL = [{shell}];\n{body}", content_type="text/javascript; charset=utf-8"
    )
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response
