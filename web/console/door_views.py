"""The door page of an event or a club night: a tablet at the door checks the players in, and
the door's QR code.

What it does: ``door_page`` is an event's page (``events/<id>/door/``), ``night_door`` a night's
(``nights/<id>/door/``): a big search box; two or three letters show the matching club players
as large buttons (``door_search``/``night_door_search``, an htmx partial); a tap checks that
player in (an event: ``tournaments.door.check_in_player``, entered first where the event still
takes entrants; a night: ``settlements.attendance.check_in_night_player``); where the event or
night has an entry fee and the player's is not marked yet, one more tap marks it — cash, card
or owed (``settlements.services.mark_entry_fee``) — or "Later" leaves it for the results page;
then a confirmation and the search again. "New player" adds the club player
(``clubs.services.add_player``) and checks them in, in one transaction. The door code (an
event's: ``tournaments.door``; a night's: ``settlements.attendance.create_night_door_code``):
make one (its QR code opens the players' own check-in, ``web.door``), revoke it;
``door_poster``/``night_door_poster`` prints it. ``check_in_list`` is the event page's check-in
list alone, ``night_check_in_list`` the night page's, each polled by its page (a self check-in
shows within one poll). ``Door`` (``web.door.places.DoorPlace`` with the console's URLs) says,
for an event or a night, which service each step calls: the phones' door uses the same.

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
from settlements import attendance, settle_up
from settlements import selectors as settlement_selectors
from table_links.qr import qr_svg
from tournaments import door
from tournaments import selectors as tournament_selectors
from tournaments.models import EntrantKind, TournamentStatus
from web.console import fees
from web.console.access import ProblemShown, event_of, organiser_page
from web.console.club_views import _integer
from web.console.night_views import night_of
from web.door.places import DoorPlace


class Door(DoorPlace):
    """The door's tablet for one event or one night: ``web.door.places.DoorPlace`` and its
    console URLs."""

    def url(self, name: str) -> str:
        """The route ``name`` ("door", "door-search", ...) of this event or night."""
        prefix = "" if self.tournament is not None else "night-"
        return reverse(f"console:{prefix}{name}", args=[self.club.slug, self.event.pk])

    def urls(self) -> dict:
        back = "console:event" if self.tournament is not None else "console:night"
        return {
            "door": self.url("door"),
            "search": self.url("door-search"),
            "poster": self.url("door-poster"),
            "back": reverse(back, args=[self.club.slug, self.event.pk]),
        }

    def reload(self) -> Door:
        if self.tournament is not None:
            return Door(self.club, tournament=event_of(self.club, self.tournament.pk))
        return Door(self.club, night=night_of(self.club, self.night.pk))


def _fee_pending(place: Door, player_id: int) -> bool:
    """Whether the door asks how this player's entry fee is taken (an event or a night with a
    fee, a club with a pot, no mark yet)."""
    if not place.event.entry_fee_minor or settle_up.between_players(place.club.pk):
        return False
    marks = settlement_selectors.list_fees(**place.scope)
    return not any(mark.player_id == player_id for mark in marks)


def _checked_in_text(checked) -> str:
    name = checked.player.display_name
    if checked.was_present:
        return gettext("%(name)s was already checked in.") % {"name": name}
    if not checked.was_entered:
        return gettext("%(name)s is entered and checked in.") % {"name": name}
    return gettext("%(name)s is checked in.") % {"name": name}


def _door_action(request, place: Door) -> dict:
    """Do the posted action; returns what the panel shows next (``done``, ``fee_for``)."""
    post, user = request.POST, request.user
    action = post.get("action")
    if action == "check_in":
        checked = place.check_in(_integer(post.get("player")), user)
        return _after_check_in(place, checked)
    if action == "new_player":
        name = post.get("name", "").strip()
        if not name:
            raise Problem(code="required", pointer="/name", detail=gettext("Give a name."))
        if place.tournament is not None and place.tournament.entrant_kind == EntrantKind.TEAM:
            raise Problem(
                code="not_entered",
                pointer="/name",
                detail=gettext("A pairs event enters pairs: add the pair on the event page."),
            )
        with transaction.atomic():
            player = club_services.add_player(club=place.club, display_name=name)
            checked = place.check_in(player.pk, user)
        return _after_check_in(place, checked)
    if action == "fee":
        status = post.get("status", "")
        if status == "later":
            return {"done": gettext("Checked in; the entry fee is left for later.")}
        return {"done": fees.mark_fee(request, **place.scope)}
    if action == "door_code":
        place.make_code(user)
        return {"done": gettext("A new door code is live: the old one no longer works.")}
    if action == "revoke_door_code":
        door.revoke_door_codes(user=user, **place.scope)
        return {"done": gettext("The door code is revoked: phones can no longer check in.")}
    raise Problem(code="invalid", detail=gettext("Unknown action."))


def _after_check_in(place: Door, checked) -> dict:
    shown = {"done": _checked_in_text(checked)}
    if _fee_pending(place, checked.player.pk):
        shown["fee_for"] = checked.player
        shown["fee_choices"] = fees.FEE_CHOICES
    return shown


def _door_code_context(request, event) -> dict:
    code = door.live_door_code(event)
    if code is None:
        return {"door_code": None}
    url = request.build_absolute_uri(reverse("door:check-in", args=[door.reveal_door_code(code)]))
    # Until when, on the club's clock (the room's).
    until = localtime(code.expires_at, ZoneInfo(event.club.time_zone)).strftime("%H:%M")
    return {"door_code": code, "door_url": url, "door_qr": qr_svg(url), "door_until": until}


def _context(place: Door, query: str) -> dict:
    return {
        "club": place.club,
        "tournament": place.tournament,
        "night": place.night,
        "event": place.event,
        "door_urls": place.urls(),
        "closed": place.closed,
        "query": query,
        "rows": place.search(query),
    }


def _door(request, place: Door):
    shown, problem = {}, None
    if request.method == "POST":
        try:
            shown = _door_action(request, place)
        except Problem as error:
            problem = ProblemShown(error, {"display_name": "name"})
        place = place.reload()
    context = {
        **_context(place, request.GET.get("q", "").strip()),
        "door_problem": problem,
        "present_count": place.present_count(),
        **shown,
    }
    status = problem.status if problem else 200
    if (
        request.htmx
        and request.method == "POST"
        and request.POST.get("action") in ("check_in", "new_player", "fee")
    ):
        return render(request, "console/_door_panel.html", context, status=status)
    context.update(_door_code_context(request, place.event))
    return render(request, "console/door.html", context, status=status)


def _event_door(club, tournament_id: int) -> Door:
    return Door(club, tournament=event_of(club, tournament_id))


def _night_door(club, night_id: int) -> Door:
    return Door(club, night=night_of(club, night_id))


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def door_page(request, club, tournament_id: int):
    return _door(request, _event_door(club, tournament_id))


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def night_door(request, club, night_id: int):
    return _door(request, _night_door(club, night_id))


@require_safe
@organiser_page
def door_search(request, club, tournament_id: int):
    """The players matching ``q``, as the door's buttons (an htmx partial)."""
    place = _event_door(club, tournament_id)
    context = _context(place, request.GET.get("q", "").strip())
    return render(request, "console/_door_results.html", context)


@require_safe
@organiser_page
def night_door_search(request, club, night_id: int):
    """A night's door: the players matching ``q`` (an htmx partial)."""
    place = _night_door(club, night_id)
    context = _context(place, request.GET.get("q", "").strip())
    return render(request, "console/_door_results.html", context)


def _poster(request, place: Door):
    context = {
        "club": place.club,
        "event": place.event,
        "door_urls": place.urls(),
        **_door_code_context(request, place.event),
    }
    return render(request, "console/door_poster.html", context)


@require_safe
@organiser_page
def door_poster(request, club, tournament_id: int):
    """The door's QR code on a page of its own, to print and stick on the door."""
    return _poster(request, _event_door(club, tournament_id))


@require_safe
@organiser_page
def night_door_poster(request, club, night_id: int):
    """A night's door poster."""
    return _poster(request, _night_door(club, night_id))


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


@require_safe
@organiser_page
def night_check_in_list(request, club, night_id: int):
    """The night page's check-in list alone (who is here, in the order they came, from the
    door or a phone): the page polls it every few seconds."""
    night = night_of(club, night_id)
    rows = list(attendance.list_attendance(night))
    context = {"club": club, "night": night, "attendance": rows}
    return render(request, "console/_night_check_in.html", context)
