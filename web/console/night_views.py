"""A club night in the console: its tables and their games, starting a game at a table, the
tables' links and QR sheet, the entry fees, the close and the settle-up.

What it does: ``night`` shows the night; while it is open, each table with the game now at it
(its players by name and the score: ``settlements.night_tables.list_night_tables``), a "Start a
game" form (the table, the game, the players clockwise by name, the sides, who deals first, the
stake: ``settlements.night_tables.start_night_game``, each refusal beside its field, the form
keeping what was chosen) and "Make every table's link" (``table_links.services
.create_night_table_links``: table *N* of the night, every game started at it, until the night
closes). The fees at the door, the prize split, the close and the settle-up versions are the
results page's actions (``web.console.results_views``). ``night_table_sheet`` is one sheet of
every table's QR code and short code for table tents, where one link can be revoked (no other
changes), as an event's.

What it does not do: check domain rules or write a model itself.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from clubs import selectors as club_selectors
from config.problems import Problem
from games import selectors as game_selectors
from settlements import night_tables, settle_up
from settlements import selectors as settlement_selectors
from settlements.models import NightStatus
from table_links import services as table_services
from web.console import fees, forms
from web.console.access import ProblemShown, organiser_page
from web.console.club_views import _status
from web.console.results_views import _settle_action, _versions
from web.console.table_links import table_sheet

# The start form's fields, by the pointers of the services' problems.
START_FIELDS = {"seats": "places", "teams": "sides"}


def night_of(club, night_id: int):
    found = settlement_selectors.get_night(night_id=night_id)
    if found.club_id != club.pk:
        raise Http404("No such night in this club.")
    found.club = club  # keeps the role remembered on the club
    return found


def _start_game(request, club, night, form: forms.NightGameForm, players) -> str:
    names = {player.pk: player.display_name for player in players}
    arguments = form.game_arguments(club.minor_unit_exponent, names)
    game = night_tables.start_night_game(night_id=night.pk, user=request.user, **arguments)
    return gettext(
        "Game %(game)s started at table %(table)s: %(players)s. The table's tablet "
        "opens it by itself."
    ) % {
        "game": game.pk,
        "table": arguments["table_number"],
        "players": night_tables.sides_in_words(game_selectors.get_game(game_id=game.pk)),
    }


def _table_links(request, night) -> str:
    text = request.POST.get("tables", "").strip()
    if text and not text.isdigit():
        raise Problem(
            code="invalid_table",
            pointer="/tables",
            detail=gettext("Give a number of tables from 1 to %(count)s.")
            % {"count": night_tables.MAX_TABLES},
        )
    made = table_services.create_night_table_links(
        night=night, user=request.user, tables=int(text) if text else None
    )
    if not made:
        return gettext("Every table already has its link.")
    return ngettext(
        "%(count)s table link made: print the QR sheet.",
        "%(count)s table links made: print the QR sheet.",
        len(made),
    ) % {"count": len(made)}


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def night(request, club, night_id: int):
    found = night_of(club, night_id)
    is_open = found.status == NightStatus.OPEN
    action = request.POST.get("action") if request.method == "POST" else None
    # The start form's choices: the club's active players (a closed night shows no form, but a
    # start posted to it is refused by the service, in words).
    players = (
        list(club_selectors.list_players(club=club).filter(is_active=True))
        if is_open or action == "start_game"
        else []
    )
    problem = form = None
    if request.method == "POST":
        try:
            if action == "start_game":
                form = forms.NightGameForm(request.POST, players=players)
                if form.is_valid():
                    messages.success(request, _start_game(request, club, found, form, players))
                    return redirect("console:night", club.slug, found.pk)
            elif action == "table_links":
                messages.success(request, _table_links(request, found))
                return redirect("console:night", club.slug, found.pk)
            else:
                messages.success(request, _settle_action(request, club, night_id=found.pk))
                return redirect("console:night", club.slug, found.pk)
        except Problem as error:
            problem = ProblemShown(error, START_FIELDS)
            problem.action = action
    tables = night_tables.list_night_tables(found) if is_open else []
    busy = {table["number"] for table in tables if not table["game"].is_finished}
    if form is None:
        form = forms.NightGameForm(
            players=players,
            initial={
                "game": club.default_game,
                "table": next(
                    number for number in range(1, night_tables.MAX_TABLES + 2) if number not in busy
                ),
            },
        )
    rule = settle_up.between_players(club.pk)
    context = {
        "club": club,
        "night": found,
        "is_open": is_open,
        "tables": tables,
        "form": form,
        "table_count": max((table["number"] for table in tables), default=0),
        "device_links": table_services.count_live_event_links(found) if is_open else 0,
        "prize_split": settlement_selectors.get_prize_split(night_id=found.pk),
        "versions": _versions(club, night_id=found.pk),
        "between_players": rule,
        "fees": fees.fee_rows(club, night=found, between_players=rule),
        "problem": problem,
    }
    return render(request, "console/night.html", context, status=_status(problem, form))


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def night_table_sheet(request, club, night_id: int):
    """Every table's QR code and short code on one sheet (table tents); Revoke ends one link."""
    found = night_of(club, night_id)
    return table_sheet(
        request,
        club,
        found,
        sheet="console:night-table-sheet",
        closed=found.status == NightStatus.CLOSED,
        context={"night": found},
    )
