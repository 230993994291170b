"""Pages of the practice table (namespace ``practice``): play 45, 25 or 110 against the computer.

What it does: ``index`` (the menu, a person's practice record and recent games, the anonymous
trial), ``start`` (POST: a new game), ``table`` (the table: your cards — those you may not play
marked, with why not in a player's words — the turn-up, whose turn, the trick on the table or
the one just taken, the tricks, the totals; ``?hint=1`` lists the legal cards too), ``move``
(POST: your card, rob, call or trump and discards), ``advance`` (POST: the next computer move;
the page's ES module posts it after a short delay, and without JavaScript it is a button),
``puzzle`` (a shared position, open to anyone).

A request from the page's script (header ``X-Practice-Fragment``) gets the table fragment back;
a plain form post is redirected to the table (302) or, refused, gets the page with the reason
(400, or 409 out of turn); a JSON client gets an ``application/problem+json`` document with the
code (``illegal_play``, ``invalid_move``, ``not_your_turn``, ``game_over``). A refused move never
changes the game.

Who may do what: any logged-in account plays and keeps a history; without an account, one trial
game per browser session (``TRIAL_GAMES``); a game is opened only by whoever plays it (404 for
anyone else); a club's rules need a club the person may read (404 otherwise).

What it does not do: check moves or write rows itself (``practice.services``).
"""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from clubs import selectors as club_selectors
from clubs.models import Club
from computer_players.hand import EXCHANGE, PLAY, ROB
from config.problems import Problem, localized_text, problem_json_response
from practice import selectors
from practice.models import PracticeGame
from practice.puzzles import puzzle_position, puzzle_token, read_puzzle
from practice.services import (
    COMPUTER_LEVELS,
    PRACTICE_GAMES,
    PracticeError,
    Table,
    advance_practice_game,
    load_table,
    play_practice_move,
    start_practice_game,
)
from rules_engine import HouseRules, legal_plays, parse_card, why_illegal
from rules_engine.cards import SUIT_NAMES
from web.practice.display import card_display, table_context
from web.practice.reasons import reason_words

FRAGMENT_HEADER = "HTTP_X_PRACTICE_FRAGMENT"
TRIAL_GAMES = 1
GAME_LABELS = {
    "45": gettext_lazy("Forty-Five (the classic app's rules)"),
    "25": gettext_lazy("Twenty-Five"),
    "110": gettext_lazy("110 (auction and kitty)"),
}


def _session_key(request: HttpRequest) -> str:
    if request.session.session_key is None:
        request.session.save()
    return request.session.session_key


def _club_from(request: HttpRequest, slug: str | None) -> Club | None:
    if not slug:
        return None
    return club_selectors.get_readable_club(slug=slug, user=request.user)


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    club = _club_from(request, request.GET.get("club"))
    context: dict[str, Any] = {
        "games": [(game, GAME_LABELS[game]) for game in PRACTICE_GAMES],
        "levels": COMPUTER_LEVELS,
        "club": club,
    }
    if request.user.is_authenticated:
        context["record"] = selectors.get_practice_record(user=request.user)
        context["recent"] = list(selectors.list_practice_games(user=request.user))
    else:
        trial = selectors.session_trial_game(session_key=request.session.session_key)
        context["trial"] = trial
    return render(request, "practice/index.html", context)


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    club = _club_from(request, request.POST.get("club"))
    # The session identifies the anonymous trial's game only; an account's games are its own.
    session_key = "" if request.user.is_authenticated else _session_key(request)
    if not request.user.is_authenticated:
        trial = selectors.session_trial_game(session_key=session_key)
        if trial is not None:
            return render(
                request,
                "practice/trial_used.html",
                {"trial": trial},
                status=403,
            )
    try:
        game = start_practice_game(
            player=request.user,
            session_key=session_key,
            game=request.POST.get("game", "45"),
            level=request.POST.get("level", "club"),
            club=club,
        )
    except PracticeError as error:
        return render(
            request,
            "practice/index.html",
            {
                "games": [(game, GAME_LABELS[game]) for game in PRACTICE_GAMES],
                "levels": COMPUTER_LEVELS,
                "club": club,
                "error": error.detail,
            },
            status=error.status,
        )
    return redirect("practice:table", practice_game_id=game.pk)


def _game_for(request: HttpRequest, game_id: int) -> PracticeGame:
    return selectors.get_practice_game(
        game_id=game_id, user=request.user, session_key=request.session.session_key
    )


@require_safe
def table(request: HttpRequest, practice_game_id: int) -> HttpResponse:
    game = _game_for(request, practice_game_id)
    return _render_table(request, load_table(game), hint=request.GET.get("hint") == "1")


@require_POST
def move(request: HttpRequest, practice_game_id: int) -> HttpResponse:
    game = _game_for(request, practice_game_id)
    try:
        table_after = play_practice_move(practice_game=game, move=_move_from(_payload(request)))
    except PracticeError as error:
        return _refusal(request, game, error)
    return _answer(request, table_after)


@require_POST
def advance(request: HttpRequest, practice_game_id: int) -> HttpResponse:
    game = _game_for(request, practice_game_id)
    try:
        table_after = advance_practice_game(practice_game=game)
    except PracticeError as error:
        return _refusal(request, game, error)
    return _answer(request, table_after)


@require_safe
def puzzle(request: HttpRequest, token: str) -> HttpResponse:
    try:
        position = read_puzzle(token)
    except PracticeError as error:
        raise Http404(error.detail) from None
    rules = HouseRules.from_dict(position["house_rules"])
    hand = [parse_card(text) for text in position["hand"]]
    trick = [parse_card(text) for text in position["trick"]]
    legal = legal_plays(hand, trick, position["trump"], rules)
    names = position["names"]
    seat_count = len(names)
    leader = position["trick_leader"]
    context = {
        "position": position,
        "names": names,
        "rules": rules,
        "trump_name": localized_text(SUIT_NAMES[position["trump"]]),
        "turn_up": card_display(position["turn_up"]) if position["turn_up"] else None,
        "hand": [card_display(card) for card in position["hand"]],
        "trick": [
            {"name": names[(leader + index) % seat_count], "card": card_display(card)}
            for index, card in enumerate(position["trick"])
        ],
        "tricks": [
            {
                "number": index + 1,
                "winner": names[played["winner"]],
                "cards": [card_display(card) for card in played["cards"]],
            }
            for index, played in enumerate(position["tricks"])
        ],
        "totals": list(zip(names, position["totals"], strict=True)),
        "legal": [card_display(card) for card in legal],
        "question": gettext("What should I lead here?")
        if not trick
        else gettext("What should I play here?"),
        "reasons": [
            {
                "card": card_display(card),
                "reason": reason_words(
                    why_illegal(hand, trick, card, position["trump"], rules), rules
                ),
            }
            for card in hand
            if card not in legal
        ],
    }
    return render(request, "practice/puzzle.html", context)


class _JsonForm(dict):
    """A JSON object read like a posted form (``get``, ``getlist``)."""

    def getlist(self, key: str) -> list:
        value = self.get(key, [])
        return value if isinstance(value, list) else [value]


def _payload(request: HttpRequest) -> Any:
    """The posted form, or a JSON object posted by a script (``application/json``)."""
    if request.content_type == "application/json":
        try:
            data = json.loads(request.body or b"{}")
        except ValueError:
            data = None
        return _JsonForm(data if isinstance(data, dict) else {})
    return request.POST


def _move_from(data: Any) -> dict[str, Any]:
    kind = data.get("kind")
    if kind == PLAY:
        return {"kind": PLAY, "card": data.get("card", "")}
    if kind == ROB:
        discard = data.get("discard") or None
        return {"kind": ROB, "discard": discard}
    if kind == "call":
        return {"kind": "call", "call": data.get("call", "")}
    if kind == EXCHANGE:
        return {
            "kind": EXCHANGE,
            "trump": data.get("trump", ""),
            "discard": data.getlist("discard"),
        }
    # Refused by the hand as an unknown move (invalid_move).
    return {"kind": kind or ""}


def _refusal(request: HttpRequest, game: PracticeGame, error: PracticeError) -> HttpResponse:
    """A refused move: a problem document for a JSON client, else the table with the reason."""
    if request.content_type == "application/json" or "application/json" in request.headers.get(
        "Accept", ""
    ):
        return problem_json_response(
            Problem(
                code=error.code,
                detail=localized_text(error.detail),
                pointer="",
            )
        )
    game.refresh_from_db()
    table_now = load_table(game)
    return _render_table(
        request,
        table_now,
        error=reason_words(error.detail, table_now.state.rules),
        status=error.status,
    )


def _answer(request: HttpRequest, table_after: Table) -> HttpResponse:
    if request.META.get(FRAGMENT_HEADER):
        return _render_table(request, table_after)
    return redirect(reverse("practice:table", args=[table_after.game.pk]), permanent=False)


def _render_table(
    request: HttpRequest,
    table_now: Table,
    *,
    hint: bool = False,
    error: str | None = None,
    status: int = 200,
) -> HttpResponse:
    context = table_context(table_now, hint=hint, error=error)
    context["puzzle_url"] = None
    if context["my_turn"] and context["phase"] == PLAY:
        view = table_now.hand.view(table_now.game.human_seat)
        token = puzzle_token(puzzle_position(view, context["names"]))
        context["puzzle_url"] = request.build_absolute_uri(reverse("practice:puzzle", args=[token]))
    template = (
        "practice/_table.html" if request.META.get(FRAGMENT_HEADER) else "practice/table.html"
    )
    return render(request, template, context, status=status)
