"""The live board of a round: each table's state and score, who is still playing, entering or
correcting a hand for a table that kept paper, undo, and the audit trail.

What it does: ``board`` shows the round's tables (``tables.round_tables``) and refreshes itself
with htmx every few seconds (the partial is the same template's ``board`` block); a posted hand
goes through ``games.services.record_hand`` (the next hand) or ``correct_hand`` (an earlier one),
an undo through ``undo_last_hand`` — the engine checks every record, the tournament advances as
it does after the API, and the game's version guards against a hand entered meanwhile (412).
Every board entry is the organiser's own (``organiser_entry``): in a club with ``confirm_hands``
it stands as the acceptance and is audited as such (``Hand.accepted_by_organiser``). The
audit trail lists the tournament's audit entries and the hands of the round with who entered
them.

What it does not do: score anything itself (the rules engine does), or accept a game that is not
one of this event's.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from config.problems import Problem
from games import previews
from games import services as game_services
from tournaments import corrections, disputes
from tournaments import selectors as tournament_selectors
from tournaments.rounds import is_begun
from web.console import board_words
from web.console.access import ProblemShown, event_of, organiser_page
from web.console.club_views import _integer
from web.console.table_links import round_tables

SUITS = (
    ("S", gettext_lazy("Spades")),
    ("H", gettext_lazy("Hearts")),
    ("D", gettext_lazy("Diamonds")),
    ("C", gettext_lazy("Clubs")),
)
# The fields of the hand form a refusal names ("Choose the dealer.").
CHOOSE = {
    "dealer": gettext_lazy("Choose the dealer."),
    "best_trump_seat": gettext_lazy("Choose the best trump seat."),
}
TRICKS = range(5)
AUDIT_LIMIT = 30


def _chosen_round(tournament, wanted):
    rounds = list(tournament_selectors.list_rounds(tournament=tournament, with_unreleased=True))
    chosen = next((round_ for round_ in rounds if str(round_.number) == str(wanted)), None)
    return rounds, chosen or (rounds[-1] if rounds else None)


def _record_from(post) -> dict:
    """The trick-winner record api.md describes, from the hand form."""

    def seat(name: str, required: bool = True):
        text = post.get(name, "").strip()
        if not text:
            if required:
                raise Problem(code="required", pointer=f"/{name}", detail=str(CHOOSE[name]))
            return None
        return _integer(text)

    winners = [post.get(f"trick_{index}", "").strip() for index in TRICKS]
    while winners and not winners[-1]:
        winners.pop()  # a game of 25 may end before the fifth trick
    if "" in winners or not winners:
        raise Problem(
            code="required",
            pointer="/trick_winners",
            detail=gettext("Say who took each trick, from the first, without gaps."),
        )
    record = {
        "dealer": seat("dealer"),
        "trump": post.get("trump", ""),
        "trick_winners": [_integer(winner) for winner in winners],
    }
    best = seat("best_trump_seat", required=False)
    if best is not None:
        trick = _integer(post.get("best_trump_trick") or "1") - 1
        record["best_trump"] = {"seat": best, "trick": trick}
    return record


def _dispute_action(request, tables, action: str) -> str:
    post = request.POST
    matches = {table["match"].pk: table for table in tables}
    table = matches.get(_integer(post.get("match")))
    if table is None:
        raise Problem(code="not_found", detail=gettext("No such table in this round."))
    if action == "dispute":
        disputes.flag_dispute(
            match_id=table["match"].pk, user=request.user, note=post.get("note", "")
        )
        return gettext("Table %(table)s marked as disputed.") % {"table": table["number"]}
    disputes.resolve_dispute(
        match_id=table["match"].pk, user=request.user, resolution=post.get("resolution", "")
    )
    return gettext("Table %(table)s: dispute resolved.") % {"table": table["number"]}


def _board_action(request, tables) -> str:
    post = request.POST
    if post.get("action") in ("dispute", "resolve"):
        return _dispute_action(request, tables, post["action"])
    games = {table["game"].pk: table["game"] for table in tables if table["game"] is not None}
    game = games.get(_integer(post.get("game")))
    if game is None:
        raise Problem(code="not_found", detail=gettext("No such game at this round's tables."))
    if_match = f'"{game.pk}-{_integer(post.get("version"))}"'
    action = post.get("action")
    reset = post.get("reset_dependents") == "on"
    if action == "undo":
        hand, _ = game_services.undo_last_hand(
            game_id=game.pk,
            number=game.hands_played,
            user=request.user,
            if_match=if_match,
            reset_dependents=reset,
            organiser_entry=True,
        )
        return gettext("Hand %(number)s undone.") % {"number": hand.number}
    if action == "paper":
        return _paper_action(request, game, if_match, reset)
    if action != "hand":
        raise Problem(code="invalid", detail=gettext("Unknown action."))
    record = _record_from(post)
    number_text = post.get("number", "").strip()
    if number_text and _integer(number_text) <= game.hands_played:
        if post.get("confirm") != "yes":
            _ask_before_a_result_change(
                game, _integer(number_text), record, if_match, reset, tables
            )
        hand, _ = game_services.correct_hand(
            game_id=game.pk,
            number=_integer(number_text),
            user=request.user,
            record=record,
            if_match=if_match,
            reset_dependents=reset,
            organiser_entry=True,
        )
        return gettext("Hand %(number)s corrected.") % {"number": hand.number}
    hand, _ = game_services.record_hand(
        game_id=game.pk,
        user=request.user,
        record=record,
        if_match=if_match,
        organiser_entry=True,
    )
    return gettext("Hand %(number)s recorded.") % {"number": hand.number}


class ConfirmCorrection(Exception):
    """A correction that changes who won a decided match's game: say what will happen first."""

    def __init__(self, pending: dict) -> None:
        super().__init__("confirm")
        self.pending = pending


def _ask_before_a_result_change(
    game, number: int, record: dict, if_match: str, reset: bool, tables
) -> None:
    """Raise ``ConfirmCorrection`` when correcting hand ``number`` changes the game's winner:
    the page then says, before anything is saved, what the dependent-match policy will do
    (``tournaments.corrections``: the later tables already begun are reset when asked, else the
    correction is refused) and, for a closed event, that the settle-up gets a new version."""
    preview = previews.preview_correction(
        game_id=game.pk, number=number, record=record, if_match=if_match
    )
    if not preview["winner_changed"]:
        return
    winner_after = preview["game"]["winner"]
    table = next(
        table for table in tables if table["game"] is not None and table["game"].pk == game.pk
    )
    match = table["match"]
    begun = []
    if match.status == "decided":
        begun = [
            dependent for dependent in corrections.dependent_matches(match) if is_begun(dependent)
        ]
    sides = {side["index"]: side["name"] for side in table["sides"]}
    raise ConfirmCorrection(
        {
            "game": game,
            "hand": number,
            "record": record,
            "number": number,
            "winner_before": sides.get(preview["winner_before"]),
            "winner_after": sides.get(winner_after),
            "begun": [
                {"round": dependent.round.number, "table": dependent.table}
                for dependent in reversed(begun)
            ],
            "reset": reset,
            "closed": match.tournament.status == "closed",
            "posted": {key: value for key, value in _hand_fields(record).items()},
        }
    )


def _hand_fields(record: dict) -> dict[str, str]:
    """The hand form's fields for ``record`` (hidden in the confirmation's form)."""
    fields = {"dealer": str(record["dealer"]), "trump": record.get("trump", "")}
    for index, seat in enumerate(record.get("trick_winners", [])):
        fields[f"trick_{index}"] = str(seat)
    best = record.get("best_trump")
    if best:
        fields["best_trump_seat"] = str(best["seat"])
        fields["best_trump_trick"] = str(best["trick"] + 1)
    return fields


class ConfirmPaper(Exception):
    """The paper score is valid and changes a game that has hands: ask before saving."""

    def __init__(self, pending: dict) -> None:
        super().__init__("confirm")
        self.pending = pending


def _paper_record(post, game) -> dict:
    """``{"dealer", "paper_score", "winner"?}`` from the paper-score form (per-side fields)."""
    scores, errors = [], []
    for side in range(len(game.totals)):
        text = post.get(f"paper_score_{side}", "").strip()
        try:
            scores.append(int(text))
        except ValueError:
            scores.append(None)
            errors.append(
                {
                    "code": "required",
                    "pointer": f"/paper_score/{side}",
                    "detail": gettext("Write this side's final score (a whole number)."),
                }
            )
    if errors:
        raise Problem(code="required", detail=errors[0]["detail"], errors=errors)
    record = {"paper_score": scores}
    winner = post.get("winner", "").strip()
    if winner:
        record["winner"] = _integer(winner)
    return record


def _paper_action(request, game, if_match: str, reset: bool) -> str:
    """Record a table's final score from its paper sheet: the next hand of a game in progress,
    or, in a finished game, in place of its last hand (after a confirmation saying what
    changes). The engine checks the scores (``rules_engine.paper``) through the same services."""
    record = _paper_record(request.POST, game)
    last = game.hands_played if game.is_finished else 0
    dealer = game.hands.get(number=last).dealer if last else game.next_dealer
    record = {"dealer": dealer, **record}
    if last:
        if request.POST.get("confirm") != "yes":
            # What the correction would store (the engine's refusal, if any, is raised here).
            preview = previews.preview_correction(
                game_id=game.pk, number=last, record=record, if_match=if_match
            )
            raise ConfirmPaper(
                {
                    "game": game,
                    "record": record,
                    "hand": last,
                    "before": list(game.totals),
                    "after": [preview["totals"][str(side)] for side in range(len(game.totals))],
                    "winner_before": game.winner_side,
                    "winner_after": preview["game"]["winner"],
                    "winner_changes": preview["winner_changed"],
                    "double_stake": preview["game"]["double_stake"],
                    "reset": reset,
                }
            )
        hand, _ = game_services.correct_hand(
            game_id=game.pk,
            number=last,
            user=request.user,
            record=record,
            if_match=if_match,
            reset_dependents=reset,
            organiser_entry=True,
        )
        return gettext("Hand %(number)s replaced by the paper score.") % {"number": hand.number}
    hand, _ = game_services.record_hand(
        game_id=game.pk,
        user=request.user,
        record=record,
        if_match=if_match,
        organiser_entry=True,
    )
    return gettext("Paper score recorded as hand %(number)s.") % {"number": hand.number}


def _pending_view(pending: dict, tables) -> dict:
    """What the confirmation shows: each side's score before and after, and the winner."""
    table = next(table for table in tables if table["game"] == pending["game"])
    pending["sides"] = [
        {
            "index": side["index"],
            "name": side["name"],
            "before": pending["before"][side["index"]],
            "after": pending["after"][side["index"]],
            "wins": pending["winner_after"] == side["index"],
        }
        for side in table["sides"]
    ]
    return pending


def _paper_fields(tables) -> dict[str, str]:
    sides = max((len(table["sides"]) for table in tables), default=0)
    return {f"/paper_score/{side}": f"paper_score_{side}" for side in range(sides)}


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def board(request, club, tournament_id: int):
    tournament = event_of(club, tournament_id)
    wanted = request.GET.get("round") or request.POST.get("round")
    rounds, chosen = _chosen_round(tournament, wanted)
    tables = round_tables(club, chosen) if chosen is not None else []
    problem = pending = correction = None
    if request.method == "POST":
        try:
            messages.success(request, _board_action(request, tables))
            return redirect(f"{request.path}?round={chosen.number}")
        except ConfirmPaper as asking:
            pending = _pending_view(asking.pending, tables)
        except ConfirmCorrection as asking:
            correction = asking.pending
        except Problem as error:
            posted_game = _integer_or_none(request.POST.get("game"))
            table = next(
                (
                    table
                    for table in tables
                    if table["game"] is not None and table["game"].pk == posted_game
                ),
                None,
            )
            if table is not None:
                error = board_words.in_names(error, table, request.POST)
            problem = ProblemShown(error, _paper_fields(tables))
            problem.table = request.POST.get("game") or request.POST.get("match")
            problem.action = request.POST.get("action")
            # Shown beside its table's forms (a hand or a paper score), with what was typed.
            problem.beside_table = (
                table["number"]
                if table is not None and problem.action in ("hand", "paper")
                else None
            )
    still_playing = [
        side["name"]
        for table in tables
        if table["state"] in ("playing", "not_started")
        for side in table["sides"]
    ]
    hands = [
        (table["number"], hand)
        for table in tables
        if table["game"] is not None
        for hand in table["game"].hands.all()
    ]
    context = {
        "club": club,
        "tournament": tournament,
        "rounds": rounds,
        "round": chosen,
        "tables": [table for table in tables if not table["match"].is_bye],
        "still_playing": still_playing,
        "finished_count": sum(table["state"] == "finished" for table in tables),
        "suits": SUITS,
        "tricks": [index + 1 for index in TRICKS],
        "audit": list(
            tournament.audit_entries.select_related("user").order_by("-id")[:AUDIT_LIMIT]
        ),
        "hands": sorted(hands, key=lambda pair: pair[1].entered_at, reverse=True)[:AUDIT_LIMIT],
        "entered_by": _usernames(hands),
        "problem": problem,
        # The hand form that was refused keeps what was typed.
        "kept_game": _integer_or_none(request.POST.get("game"))
        if problem is not None and request.POST.get("action") == "hand"
        else None,
        "kept": request.POST if request.method == "POST" else {},
        "trick_fields": {index + 1: f"trick_{index}" for index in TRICKS},
        "pending": pending,
        "correction": correction,
        "posted": request.POST if request.method == "POST" else {},
    }
    template = "console/_board.html" if request.htmx else "console/board.html"
    return render(request, template, context, status=problem.status if problem else 200)


def _integer_or_none(text) -> int | None:
    text = str(text or "").strip()
    return int(text) if text.isdigit() else None


def _usernames(hands) -> dict[int, str]:
    ids = {hand.entered_by_id for _, hand in hands if hand.entered_by_id}
    users = get_user_model().objects.filter(pk__in=ids).values_list("pk", "username")
    return dict(users) if ids else {}
