"""The door page of an event: a tablet at the door checks the players in, and the door's QR code.

What it does: ``door`` is the page (``events/<id>/door/``): a big search box; two or three
letters show the matching club players as large buttons (``door_search``, an htmx partial); a tap
checks that player in (``tournaments.door.check_in_player``: entered first where the event still
takes entrants); where the event has an entry fee and the player's is not marked yet, one more
tap marks it — cash, card or owed (``settlements.services.mark_entry_fee``) — or "Later" leaves
it for the results page; then a confirmation and the search again. "New player" adds the club
player (``clubs.services.add_player``) and checks them in, in one transaction. The door code
(``tournaments.door``): make one (its QR code opens the players' own check-in, ``web.door``),
revoke it; ``door_poster`` prints it. ``check_in_list`` is the event page's check-in list alone,
polled by it (a self check-in shows within one poll).

Every form works without scripts (a whole page back) and with htmx (the door's panel back).

What it does not do: decide anything (the services do) or hold the player's phone side
(``web.door``).
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.db import transaction
from django.shortcuts import render
from django.urls import reverse
from django.utils.timezone import localtime
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_safe

from clubs import services as club_services
from config.problems import Problem
from settlements import selectors as settlement_selectors
from settlements import settle_up
from table_links.qr import qr_svg
from tournaments import door
from tournaments import selectors as tournament_selectors
from tournaments.models import EntrantKind, TournamentStatus
from web.console import fees
from web.console.access import ProblemShown, event_of, organiser_page
from web.console.club_views import _integer


def _fee_pending(club, tournament, player_id: int) -> bool:
    """Whether the door asks how this player's entry fee is taken (an event with a fee, a club
    with a pot, no mark yet)."""
    if not tournament.entry_fee_minor or settle_up.between_players(club.pk):
        return False
    marks = settlement_selectors.list_fees(tournament_id=tournament.pk)
    return not any(mark.player_id == player_id for mark in marks)


def _checked_in_text(checked) -> str:
    name = checked.player.display_name
    if checked.was_present:
        return gettext("%(name)s was already checked in.") % {"name": name}
    if not checked.was_entered:
        return gettext("%(name)s is entered and checked in.") % {"name": name}
    return gettext("%(name)s is checked in.") % {"name": name}


def _door_action(request, club, tournament) -> dict:
    """Do the posted action; returns what the panel shows next (``done``, ``fee_for``)."""
    post, user = request.POST, request.user
    action = post.get("action")
    if action == "check_in":
        checked = door.check_in_player(
            tournament_id=tournament.pk, player_id=_integer(post.get("player")), user=user
        )
        return _after_check_in(club, tournament, checked)
    if action == "new_player":
        name = post.get("name", "").strip()
        if not name:
            raise Problem(code="required", pointer="/name", detail=gettext("Give a name."))
        if tournament.entrant_kind == EntrantKind.TEAM:
            raise Problem(
                code="not_entered",
                pointer="/name",
                detail=gettext("A pairs event enters pairs: add the pair on the event page."),
            )
        with transaction.atomic():
            player = club_services.add_player(club=club, display_name=name)
            checked = door.check_in_player(
                tournament_id=tournament.pk, player_id=player.pk, user=user
            )
        return _after_check_in(club, tournament, checked)
    if action == "fee":
        status = post.get("status", "")
        if status == "later":
            return {"done": gettext("Checked in; the entry fee is left for later.")}
        return {"done": fees.mark_fee(request, tournament_id=tournament.pk)}
    if action == "door_code":
        door.create_door_code(tournament_id=tournament.pk, user=user)
        return {"done": gettext("A new door code is live: the old one no longer works.")}
    if action == "revoke_door_code":
        door.revoke_door_codes(tournament_id=tournament.pk, user=user)
        return {"done": gettext("The door code is revoked: phones can no longer check in.")}
    raise Problem(code="invalid", detail=gettext("Unknown action."))


def _after_check_in(club, tournament, checked) -> dict:
    shown = {"done": _checked_in_text(checked)}
    if _fee_pending(club, tournament, checked.player.pk):
        shown["fee_for"] = checked.player
        shown["fee_choices"] = fees.FEE_CHOICES
    return shown


def _door_code_context(request, tournament) -> dict:
    code = door.live_door_code(tournament)
    if code is None:
        return {"door_code": None}
    url = request.build_absolute_uri(reverse("door:check-in", args=[door.reveal_door_code(code)]))
    # Until when, on the club's clock (the room's).
    until = localtime(code.expires_at, ZoneInfo(tournament.club.time_zone)).strftime("%H:%M")
    return {"door_code": code, "door_url": url, "door_qr": qr_svg(url), "door_until": until}


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def door_page(request, club, tournament_id: int):
    tournament = event_of(club, tournament_id)
    shown, problem = {}, None
    if request.method == "POST":
        try:
            shown = _door_action(request, club, tournament)
        except Problem as error:
            problem = ProblemShown(error, {"display_name": "name"})
        tournament = event_of(club, tournament_id)
    query = request.GET.get("q", "").strip()
    context = {
        "club": club,
        "tournament": tournament,
        "closed": tournament.status == TournamentStatus.CLOSED,
        "query": query,
        "rows": door.search_players(tournament, query),
        "door_problem": problem,
        "present_count": tournament.entrants.filter(is_present=True).count(),
        **shown,
    }
    status = problem.status if problem else 200
    if (
        request.htmx
        and request.method == "POST"
        and request.POST.get("action")
        in (
            "check_in",
            "new_player",
            "fee",
        )
    ):
        return render(request, "console/_door_panel.html", context, status=status)
    context.update(_door_code_context(request, tournament))
    return render(request, "console/door.html", context, status=status)


@require_safe
@organiser_page
def door_search(request, club, tournament_id: int):
    """The players matching ``q``, as the door's buttons (an htmx partial)."""
    tournament = event_of(club, tournament_id)
    query = request.GET.get("q", "").strip()
    context = {
        "club": club,
        "tournament": tournament,
        "query": query,
        "rows": door.search_players(tournament, query),
        "closed": tournament.status == TournamentStatus.CLOSED,
    }
    return render(request, "console/_door_results.html", context)


@require_safe
@organiser_page
def door_poster(request, club, tournament_id: int):
    """The door's QR code on a page of its own, to print and stick on the door."""
    tournament = event_of(club, tournament_id)
    context = {"club": club, "tournament": tournament, **_door_code_context(request, tournament)}
    return render(request, "console/door_poster.html", context)


@require_safe
@organiser_page
def check_in_list(request, club, tournament_id: int):
    """The event page's check-in list and fees alone: the page polls it every few seconds."""
    tournament = event_of(club, tournament_id)
    entrants = list(tournament_selectors.list_entrants(tournament=tournament))
    context = {
        "club": club,
        "tournament": tournament,
        "entrants": entrants,
        "present_count": sum(entrant.is_present for entrant in entrants),
        "fees": fees.fee_rows(club, tournament=tournament),
        "closed": tournament.status == TournamentStatus.CLOSED,
        "problem": None,
    }
    return render(request, "console/_check_in.html", context)
