"""The close of an event and its settle-up: a tournament's results page, and the settle-up actions
a club night's page shares.

What it does: ``results`` shows a tournament's standings (``tournaments.standings``) and, until
it closes, each player's stakes and fee due so far (``tournaments.running_balances``'s stakes and
entered players); it sets the prize
split (``settlements.services.set_prize_split``), closes the event
(``tournaments.services.close_tournament`` — the settle-up is then stored as a version by
``settlements``), and lists every stored version: each player's stakes, entry fee, prize and
net, the prize rule and what changed in words (``settlements.words``), and who pays whom (payer
then payee, by name), each open transfer marked paid through
``settlements.settle_up.mark_transfer_paid`` (a replaced one shows it was replaced). Both pages
take the entry fees at the door (``fee`` action: cash, card or owed, through
``settlements.services.mark_entry_fee``). A club night's page (``web.console.night_views``)
uses the same actions and versions. Both print as a results sheet (print.css hides the buttons).
Money through ``games.money.format_money``.

What it does not do: compute anything itself.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from clubs.models import Player
from config.problems import Problem
from games.money import format_money
from settlements import selectors as settlement_selectors
from settlements import services as settlement_services
from settlements import settle_up, words
from tournaments import services as tournament_services
from tournaments.running_balances import entered_players, tournament_stakes
from tournaments.standings import compute_standings
from web.console import fees
from web.console.access import ProblemShown, event_of, organiser_page
from web.console.club_views import _integer
from web.console.forms import EventForm


def _prize_split(text: str) -> list:
    form = EventForm()
    form.cleaned_data = {"prize_split": text}
    return form.prize_percentages()


def _settle_action(request, club, *, tournament_id=None, night_id=None) -> str:
    action = request.POST.get("action")
    if action == "settle_rule":
        rule = settle_up.set_settle_up_rule(
            club=club, between_players=request.POST.get("between_players") == "on"
        )
        return (
            gettext("From now on everything is settled between players.")
            if rule.between_players
            else gettext("From now on entry fees go into the club's pot.")
        )
    if action == "paid":
        transfer = settlement_selectors.get_transfer(
            transfer_id=_integer(request.POST.get("transfer"))
        )
        key = transfer.settlement.tournament_id if tournament_id else transfer.settlement.night_id
        if key != (tournament_id or night_id):
            raise Problem(code="not_found", detail=gettext("No such transfer here."))
        settle_up.mark_transfer_paid(transfer_id=transfer.pk, user=request.user)
        return gettext("Marked paid.")
    if action == "fee":
        return fees.mark_fee(request, tournament_id=tournament_id, night_id=night_id)
    if action == "prize_split":
        settlement_services.set_prize_split(
            percentages=_prize_split(request.POST.get("prize_split", "")),
            user=request.user,
            tournament_id=tournament_id,
            night_id=night_id,
        )
        return gettext("Prize split saved.")
    if action == "close" and tournament_id:
        tournament_services.close_tournament(tournament_id=tournament_id, user=request.user)
        return gettext("The event is closed: its results are final and the settle-up is stored.")
    if action == "close" and night_id:
        settlement_services.close_night(night_id=night_id, user=request.user)
        return gettext("The night is closed and its settle-up is stored.")
    raise Problem(code="invalid", detail=gettext("Unknown action."))


def _versions(club, tournament_id=None, night_id=None) -> list[dict]:
    """The stored settle-up versions, newest first, amounts as text, players by name."""
    settlements = list(
        settlement_selectors.list_settlements(tournament_id=tournament_id, night_id=night_id)
    )
    names = settlement_selectors.party_names(settlements)

    def money(amount: int) -> str:
        return format_money(amount, club)

    return [
        {
            "settlement": settlement,
            "lines": [
                {
                    "name": names.get(line["player"], gettext("The club")),
                    "fee_status": words.FEE_STATUSES.get(line.get("fee_status"), ""),
                    **{
                        key: money(line.get(key, 0))
                        for key in (
                            "stakes",
                            "entry_fee",
                            "paid_at_door",
                            "prize",
                            "net",
                            "difference",
                        )
                    },
                }
                for line in settlement.lines
            ],
            "transfers": [
                {
                    "transfer": transfer,
                    "payer": words.party_name(transfer.payer),
                    "payee": words.party_name(transfer.payee, start=False),
                    "amount": money(transfer.amount_minor),
                }
                for transfer in settlement.transfers.all()
            ],
            "details": settlement.details,
            "pot": money(settlement.details.get("pot", 0)),
            "prize_lines": words.prize_lines(settlement.details, club),
            "change_lines": words.change_lines(settlement.details, names, club),
        }
        for settlement in reversed(settlements)
    ]


def _preview(club, tournament) -> dict:
    """Before the close: each player's stakes and fee due so far, and the pot (three queries)."""
    stakes = tournament_stakes(tournament)
    entered = entered_players(tournament)
    fee = tournament.entry_fee_minor or 0
    players = Player.objects.filter(pk__in=entered | set(stakes)).order_by("display_name", "pk")
    return {
        "rows": [
            {
                "name": player.display_name,
                "stakes": format_money(stakes.get(player.pk, 0), club, signed=True),
                "fee": format_money(fee if player.pk in entered else 0, club),
            }
            for player in players
        ],
        "players": len(entered),
        "fee": format_money(fee, club),
        "pot": format_money(fee * len(entered), club),
    }


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def results(request, club, tournament_id: int):
    tournament = event_of(club, tournament_id)
    problem = None
    if request.method == "POST":
        try:
            messages.success(request, _settle_action(request, club, tournament_id=tournament.pk))
            return redirect("console:results", club.slug, tournament.pk)
        except Problem as error:
            problem = ProblemShown(error)
    rule = settle_up.between_players(club.pk)
    context = {
        "club": club,
        "tournament": tournament,
        "standings": compute_standings(tournament)["standings"],
        "preview": _preview(club, tournament),
        "prize_split": settlement_selectors.get_prize_split(tournament_id=tournament.pk),
        "versions": _versions(club, tournament_id=tournament.pk),
        "between_players": rule,
        "fees": fees.fee_rows(club, tournament=tournament, between_players=rule),
        "problem": problem,
    }
    return render(
        request, "console/results.html", context, status=problem.status if problem else 200
    )
