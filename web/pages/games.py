"""The club's balances page: the season's settle-ups per player, and who owes whom from the
stakes of its games.

What it does: ``club_balances`` (``/clubs/<slug>/balances/``) shows each player's balance over
the season's settled nights and events (``settlements.selectors.season_balances``: what they came
to, paid, received and what is still open in the stored versions), then each player's net from
the club's game stakes and the transfers that settle them (``games.ledger.fewest_transfers``: the
fewest transfers), money formatted for the reader's language and the club's currency
(``games.money.format_money``). (A game's own page is ``web.pages.hands``.)

What it does not do: write anything. Who may read is ``clubs.permissions``' policy, as in the
API: money is for members only, even in a public club — an anonymous visitor is sent to the login
page (the API's 401), an outsider gets 403.

Terms: *net* — the sum of a player's ledger entries, positive when they are owed money.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from clubs import selectors as club_selectors
from clubs.models import Player
from clubs.permissions import role_in
from games import selectors
from games.ledger import fewest_transfers
from games.money import format_money
from settlements.selectors import season_balances


@require_safe
def club_balances(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_selectors.get_readable_club(slug=slug, user=request.user)
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
                gettext("receives")
                if net > 0
                else (gettext("pays") if net < 0 else gettext("settled"))
            ),
            "is_you": player.user_id is not None and player.user_id == request.user.pk,
        }
        for player, net in balances
    ]
    transfers = [
        {"payer": names[payer], "payee": names[payee], "amount": format_money(amount, club)}
        for payer, payee, amount in fewest_transfers({player.pk: net for player, net in balances})
    ]
    return render(
        request,
        "pages/balances.html",
        {
            "club": club,
            "rows": rows,
            "transfers": transfers,
            "season": season_rows(club, request.user),
        },
    )


def season_rows(club, user) -> dict:
    """Each player's season totals over the settled nights and events, by name."""
    season = season_balances(club=club)
    players = Player.objects.filter(pk__in=season["players"]).order_by("display_name", "pk")
    rows = []
    for player in players:
        events = season["players"][player.pk]
        totals = {
            key: sum(row[key] for row in events) for key in ("net", "paid", "received", "open")
        }
        rows.append(
            {
                "name": player.display_name,
                "is_you": player.user_id is not None and player.user_id == user.pk,
                "events": len(events),
                **{
                    key: format_money(value, club, signed=key in ("net", "open"))
                    for key, value in totals.items()
                },
            }
        )
    return {"year": season["year"], "rows": rows, "events": len(season["events"])}
