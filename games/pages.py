"""The read-only site pages of games: one game hand by hand, and a club's balances.

What it does:
- ``game_detail`` (``/clubs/<slug>/games/<id>/``): the seats and sides, the stake (and whether
  it was doubled), the status and winner, the tournament match the game belongs to, and a table of
  every hand: its dealer, trumps, each side's points and running totals, and what else happened
  (a bid made or failed, a renege, a misdeal, the best trump, a rob).
- ``club_balances`` (``/clubs/<slug>/balances/``): each player's net from the club's game stakes
  and the transfers that settle them (``games.ledger.settle``: the fewest transfers).

What it does not do: write anything, or check rules (the engine did when the hand was stored; the
page shows the stored result). Who may read is ``clubs.permissions``' policy, as in the API:
games are shown to the club's readers; money (balances) to members only, even in a public club —
an anonymous visitor is sent to the login page (the API's 401), an outsider gets 403.

Terms: *running total* — a side's points after the hand (``Hand.totals_after``); *net* — the sum
of a player's ledger entries, positive when they are owed money.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from clubs.pages import access_club, game_label, side_labels
from clubs.permissions import role_in
from games import selectors
from games.ledger import settle
from games.models import Game, Hand
from tournaments.selectors import can_read_tournament, knockout_round_total, round_name
from web.pages.labels import format_money

SUITS = {
    "S": ("♠", "spades", False),
    "H": ("♥", "hearts", True),
    "D": ("♦", "diamonds", True),
    "C": ("♣", "clubs", False),
}
NO_SCORE_KINDS = {"misdeal": "Misdeal: no score", "redeal": "All passed: redeal"}


def _trump(code: str | None) -> dict | None:
    if not code:
        return None
    symbol, name, is_red = SUITS.get(code, (code, code, False))
    return {"symbol": symbol, "name": name, "is_red": is_red}


def _hand_notes(result: dict, names: list[str]) -> list[str]:
    """What else happened in a hand, in words; seats are shown by the player sitting there."""
    notes = []
    kind = result.get("kind")
    if kind in NO_SCORE_KINDS:
        notes.append(NO_SCORE_KINDS[kind])
    bid = result.get("bid")
    if bid:
        made = {True: "made", False: "failed", None: "unsettled"}[bid.get("made")]
        notes.append(f"{names[bid['seat']]} bid {bid['amount']}: {made}")
    renege = result.get("renege")
    if renege:
        notes.append(f"Renege: {names[renege['seat']]} (trick {renege['trick'] + 1})")
    best = result.get("best_trump")
    if best:
        card = f" ({best['card']})" if best.get("card") else ""
        notes.append(f"Best trump: {names[best['seat']]}{card}")
    rob = result.get("rob")
    if rob:
        notes.append(f"{names[rob['seat']]} robbed")
    return notes


def hand_rows(game: Game, hands: list[Hand]) -> list[dict]:
    """One row per hand: number, dealer, trumps, each side's points and total, notes."""
    names = [player.display_name for player in game.seat_players()]
    side_count = len(game.sides_as_seats())
    rows = []
    for hand in hands:
        result = hand.result or {}
        points = result.get("points") or {}
        totals = list(hand.totals_after or [])
        rows.append(
            {
                "number": hand.number,
                "dealer": names[hand.dealer] if hand.dealer < len(names) else hand.dealer,
                "trump": _trump(result.get("trump")),
                "sides": [
                    {
                        "points": points.get(str(index), 0),
                        "total": totals[index] if index < len(totals) else None,
                    }
                    for index in range(side_count)
                ],
                "tricks": len(result.get("trick_winners") or []),
                "notes": _hand_notes(result, names),
            }
        )
    return rows


def _tournament_link(request: HttpRequest, game: Game) -> dict | None:
    match = game.tournament_match
    if match is None:
        return None
    tournament = match.tournament
    tournament.club = game.club  # the club already read, with the viewer's role remembered
    url = None
    if can_read_tournament(request.user, tournament):
        url = reverse(
            "pages:tournament",
            kwargs={"slug": game.club.slug, "tournament_id": tournament.pk},
        )
    # The knockout's size comes from the draw order stored on the tournament: no query.
    rounds_total = knockout_round_total(tournament)
    return {
        "name": tournament.name,
        "url": url,
        "round": round_name(tournament, match.round.number, rounds_total),
        "table": match.table,
    }


@require_safe
def game_detail(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    club = access_club(request, slug)
    game = (
        selectors.list_games(club=club)
        .select_related("tournament_match__round", "tournament_match__tournament")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise Http404("No game with this id in this club.")
    game.club = club  # keeps the viewer's role remembered on the club
    hands = list(selectors.list_hands(game=game))
    rows = hand_rows(game, hands)
    labels = side_labels(game)
    seats_by_side = game.sides_as_seats()
    players = game.seat_players()
    totals = list(game.totals) + [0] * (len(labels) - len(game.totals))
    sides = [
        {
            "label": label,
            "seats": [
                {"number": seat + 1, "name": players[seat].display_name}
                for seat in seats_by_side[index]
            ],
            "total": totals[index],
            "is_winner": game.winner_side == index,
        }
        for index, label in enumerate(labels)
    ]
    stake = None
    if game.stake_minor is not None:
        stake = {
            "each": format_money(game.stake_minor, club),
            "due": format_money(game.stake_minor * (2 if game.double_stake else 1), club),
        }
    context = {
        "club": club,
        "game": game,
        "game_name": game_label(game.game),
        "target": (game.house_rules or {}).get("target"),
        "sides": sides,
        "winner": labels[game.winner_side] if game.winner_side is not None else None,
        "stake": stake,
        "rows": rows,
        "column_count": 3 + len(labels),
        "tournament": _tournament_link(request, game),
        "next_dealer": players[game.next_dealer].display_name
        if not game.is_finished and game.next_dealer < len(players)
        else None,
    }
    return render(request, "pages/game.html", context)


@require_safe
def club_balances(request: HttpRequest, slug: str) -> HttpResponse:
    club = access_club(request, slug)
    if role_in(request.user, club) is None:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied("Balances are shown to the club's members only.")
    balances = selectors.club_balances(club=club)
    names = {player.pk: player.display_name for player, _ in balances}
    rows = [
        {
            "name": player.display_name,
            "net": format_money(net, club, signed=True),
            "direction": "receives" if net > 0 else ("pays" if net < 0 else "settled"),
            "direction_text": (
                gettext("receives") if net > 0 else (gettext("pays") if net < 0 else
                                                     gettext("settled"))
            ),
            "is_you": player.user_id is not None and player.user_id == request.user.pk,
        }
        for player, net in balances
    ]
    transfers = [
        {"payer": names[payer], "payee": names[payee], "amount": format_money(amount, club)}
        for payer, payee, amount in settle({player.pk: net for player, net in balances})
    ]
    return render(
        request,
        "pages/balances.html",
        {"club": club, "rows": rows, "transfers": transfers},
    )
