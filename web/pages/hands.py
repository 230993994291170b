"""The game page (``/clubs/<slug>/games/<id>/``): a game hand by hand, readable on a phone.

What it does: ``game_detail`` shows the sides with their players, the stake, the tournament
table the game was played for, and every hand as a short card that names each side with its
score — "Ann & Cait 15 – 10 Bill & Pat" (running totals), the hand's points beside them — its
dealer, trumps and what else happened (a bid made or failed, a renege, a misdeal, the best trump,
a rob), a "corrected" mark on a hand changed after it was recorded and, in place, the hands that
were undone, each saying who changed it and when. A scorekeeper or organiser gets a link to the
table app's score page while the game is in progress. A game of a round not yet released is
shown to the club's organisers only (a private draw stays private). The page is live while the
game is in progress (``web.pages.live``).

What it does not do: write anything or check rules (the engine did when the hand was stored);
decide who may read (``clubs.permissions``, as ``/api/games/{id}/``).

Terms: *running total* — a side's points after the hand (``Hand.totals_after``).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from clubs import selectors as club_selectors
from clubs.permissions import role_in
from games import selectors
from games.money import format_money
from tournaments.selectors import can_read_tournament, knockout_round_total
from web.pages import live
from web.pages.cards import game_title, side_labels
from web.pages.labels import GAME_STATUSES, game_name, label, round_name
from web.pages.tonight import picked_player_id

SUITS = {
    "S": ("♠", gettext_lazy("spades"), False),
    "H": ("♥", gettext_lazy("hearts"), True),
    "D": ("♦", gettext_lazy("diamonds"), True),
    "C": ("♣", gettext_lazy("clubs"), False),
}


def _trump(code: str | None) -> dict | None:
    if not code:
        return None
    symbol, name, is_red = SUITS.get(code, (code, code, False))
    return {"symbol": symbol, "name": str(name), "is_red": is_red}


def _name(names: list[str], seat) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else str(seat)


def hand_notes(result: dict, names: list[str]) -> list[str]:
    """What else happened in a hand, in words; seats are named by the player sitting there."""
    notes = []
    kind = result.get("kind")
    if kind == "misdeal":
        notes.append(_("Misdeal: no score"))
    elif kind == "redeal":
        notes.append(_("All passed: redeal"))
    bid = result.get("bid")
    if bid:
        values = {"name": _name(names, bid.get("seat")), "amount": bid.get("amount")}
        if bid.get("made") is True:
            notes.append(_("%(name)s bid %(amount)s: made") % values)
        elif bid.get("made") is False:
            notes.append(_("%(name)s bid %(amount)s: failed") % values)
        else:
            notes.append(_("%(name)s bid %(amount)s") % values)
    renege = result.get("renege")
    if renege:
        notes.append(
            _("Renege: %(name)s (trick %(trick)s)")
            % {
                "name": _name(names, renege.get("seat")),
                "trick": (renege.get("trick") or 0) + 1,
            }
        )
    best = result.get("best_trump")
    if best:
        if best.get("card"):
            notes.append(
                _("Best trump: %(name)s (%(card)s)")
                % {
                    "name": _name(names, best.get("seat")),
                    "card": best["card"],
                }
            )
        else:
            notes.append(_("Best trump: %(name)s") % {"name": _name(names, best.get("seat"))})
    rob = result.get("rob")
    if rob:
        notes.append(_("%(name)s robbed") % {"name": _name(names, rob.get("seat"))})
    return notes


def _scores(labels: list[str], result: dict, totals: list) -> list[dict]:
    points = (result or {}).get("points") or {}
    return [
        {
            "name": label_,
            "points": points.get(str(index), 0),
            "total": totals[index] if index < len(totals) else None,
        }
        for index, label_ in enumerate(labels)
    ]


def hand_cards(game, hands, changes, labels: list[str]) -> list[dict]:
    """One card per hand, and one per undone hand where it stood, in the order played."""
    names = [player.display_name for player in game.seat_players()]
    corrected = {}
    undone: dict[int, list] = {}
    for record in changes:
        if record.history_type == "-":
            undone.setdefault(record.number, []).append(record)
        else:
            corrected[record.number] = record
    cards = []
    for number in sorted({hand.number for hand in hands} | set(undone)):
        for record in undone.get(number, []):
            cards.append(_card(record, names, labels, is_undone=True, changed_by=record))
        hand = next((hand for hand in hands if hand.number == number), None)
        if hand is not None:
            cards.append(_card(hand, names, labels, changed_by=corrected.get(number)))
    return cards


def _card(hand, names, labels, *, is_undone: bool = False, changed_by=None) -> dict:
    result = hand.result or {}
    change = None
    if changed_by is not None:
        user = changed_by.history_user
        values = {"who": user.get_username() if user else _("someone")}
        values["link"] = getattr(changed_by, "history_table_link_id", None)
        if values["link"] is not None:
            change = (
                _("Undone by %(who)s at the table via table link #%(link)s") % values
                if is_undone
                else _("Corrected by %(who)s at the table via table link #%(link)s") % values
            )
        else:
            change = (
                _("Undone by %(who)s") % values if is_undone else _("Corrected by %(who)s") % values
            )
    return {
        "number": hand.number,
        "dealer": _name(names, hand.dealer),
        "trump": _trump(result.get("trump")),
        "scores": _scores(labels, result, list(hand.totals_after or [])),
        "notes": hand_notes(result, names),
        "is_undone": is_undone,
        "is_corrected": changed_by is not None and not is_undone,
        "change": change,
        "change_at": changed_by.history_date if changed_by is not None else None,
        "recorded_via": (
            _("Recorded at the table via table link #%(link)s") % {"link": hand.table_link_id}
            if hand.table_link_id
            else None
        ),
    }


def _tournament_link(request: HttpRequest, game) -> dict | None:
    # The link is tournaments' (``MatchGame``), read with the game (see ``game_detail``); a
    # missing reverse one-to-one raises an AttributeError, hence getattr.
    link = getattr(game, "match_link", None)
    if link is None:
        return None
    match = link.match
    tournament = match.tournament
    tournament.club = game.club  # the club already read, with the viewer's role remembered
    url = None
    if can_read_tournament(request.user, tournament):
        url = reverse(
            "pages:tournament", kwargs={"slug": game.club.slug, "tournament_id": tournament.pk}
        )
    # The knockout's size comes from the draw order stored on the tournament: no query.
    total = knockout_round_total(tournament)
    return {
        "name": tournament.name,
        "url": url,
        "round": round_name(match.round.number, total, tournament.table_size),
        "table": match.table,
    }


@require_safe
@gzip_page
def game_detail(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    etag, _state = live.game_etag(request, slug, game_id, picked_player_id(request, slug))
    not_modified = live.not_modified_or_none(request, etag)
    if not_modified is not None:
        return not_modified
    club = club_selectors.get_readable_club(slug=slug, user=request.user)
    game = (
        # A game of a round not yet released is not there for anyone but the organisers.
        selectors.without_private_draws(
            selectors.list_games(club=club), user=request.user, club=club
        )
        .select_related("match_link__match__round", "match_link__match__tournament")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise Http404("No game with this id in this club.")
    game.club = club  # keeps the viewer's role remembered on the club
    role = role_in(request.user, club)
    hands = list(selectors.list_hands(game=game))
    changes = selectors.list_hand_corrections_and_undos(game=game)
    labels = side_labels(game)
    seats_by_side = game.sides_as_seats()
    players = game.seat_players()
    totals = list(game.totals) + [0] * (len(labels) - len(game.totals))
    sides = [
        {
            "label": label_,
            "seats": [
                {
                    "number": seat + 1,
                    "name": players[seat].display_name,
                    "player_url": reverse(
                        "pages:player", kwargs={"slug": club.slug, "player_id": players[seat].pk}
                    ),
                }
                for seat in seats_by_side[index]
            ],
            "total": totals[index],
            "is_winner": game.winner_side == index,
        }
        for index, label_ in enumerate(labels)
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
        "game_name": game_name(game.variant),
        "title": game_title(game),
        "status": label(GAME_STATUSES, game.status),
        "target": (game.house_rules or {}).get("target"),
        "sides": sides,
        "score_line": sides,
        "winner": labels[game.winner_side] if game.winner_side is not None else None,
        "stake": stake,
        "hands": list(reversed(hand_cards(game, hands, changes, labels))),
        "tournament": _tournament_link(request, game),
        "next_dealer": players[game.next_dealer].display_name
        if not game.is_finished and game.next_dealer < len(players)
        else None,
        # Scorers get the link to the table app's score page (issue 9), organisers a table link.
        "can_score": role in ("organiser", "scorekeeper"),
        "can_manage": role == "organiser",
        "is_live": not game.is_finished,
        "poll_seconds": live.POLL_SECONDS,
        "etag": etag,
        "updated_at": timezone.now(),
    }
    return live.render_live(request, "pages/game.html", "pages/_game_live.html", context, etag)
