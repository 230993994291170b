"""The entry fees at the door in the console: who has paid (cash, card) or owes, on the check-in
page, the results page and a night's page, and the ``fee`` action that marks one.

What it does: ``fee_rows`` lists each player who may owe the event's fee with how it was taken;
``mark_fee`` marks one through ``settlements.services.mark_entry_fee`` (which refuses a fee
marked twice, naming the player).

What it does not do: decide anything (the service does) or show fees in a club that settles
everything between players (no pot at the door).
"""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy

from clubs.models import Player
from games.money import format_money
from settlements import selectors as settlement_selectors
from settlements import services as settlement_services
from settlements import settle_up, words
from settlements.models import FeeStatus
from web.console.club_views import _integer

FEE_CHOICES = [
    (FeeStatus.CASH, gettext_lazy("Cash")),
    (FeeStatus.CARD, gettext_lazy("Card")),
    (FeeStatus.OWED, gettext_lazy("Owes")),
]


def fee_rows(club, *, tournament=None, night=None, between_players=None) -> list[dict]:
    """Each player who may owe an entry fee, with how it was taken and the marks still open
    (two queries; none for an event without a fee or a club without a pot)."""
    event = tournament or night
    if not event.entry_fee_minor:
        return []
    if between_players is None:
        between_players = settle_up.between_players(club.pk)
    if between_players:
        return []
    if tournament is not None:
        players = Player.objects.filter(
            Q(tournament_entries__tournament=tournament)
            | Q(team_memberships__team__tournament_entries__tournament=tournament)
        )
        marks = settlement_selectors.list_fees(tournament_id=tournament.pk)
    else:
        players = Player.objects.filter(club=club, is_active=True)
        marks = settlement_selectors.list_fees(night_id=night.pk)
    by_player = {mark.player_id: mark for mark in marks}
    rows = []
    for player in players.distinct().order_by("display_name", "pk"):
        mark = by_player.get(player.pk)
        rows.append(
            {
                "player": player,
                "status": mark.status if mark else None,
                "text": words.FEE_STATUSES[mark.status] if mark else gettext("not taken yet"),
                "amount": format_money(mark.amount_minor, club) if mark else "",
                "choices": [
                    (status, label)
                    for status, label in FEE_CHOICES
                    if mark is None or (mark.status == FeeStatus.OWED and status != FeeStatus.OWED)
                ],
            }
        )
    return rows


FEE_CHOICES = [
    (FeeStatus.CASH, gettext_lazy("Cash")),
    (FeeStatus.CARD, gettext_lazy("Card")),
    (FeeStatus.OWED, gettext_lazy("Owes")),
]


def mark_fee(request, *, tournament_id=None, night_id=None) -> str:
    """The posted ``fee`` action; returns the message of its success."""
    mark = settlement_services.mark_entry_fee(
        user=request.user,
        player_id=_integer(request.POST.get("player")),
        status=request.POST.get("status", ""),
        tournament_id=tournament_id,
        night_id=night_id,
    )
    return gettext("%(name)s: entry fee %(status)s.") % {
        "name": mark.player.display_name,
        "status": words.FEE_STATUSES[mark.status],
    }
