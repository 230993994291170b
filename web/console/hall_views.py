"""The console's hall box on an event's page and on a club night's: the hall link, the round
clock, the leaders switch.

What it does: ``hall_box(request, event)`` (a tournament or a night) is the box's context (the
switch, the clock in words, the live link's URL, short code and QR code, derived again from its
salt as the table links' are); ``event_hall`` takes the box's forms (``action``: ``make_link``,
``revoke_link``, ``start``, ``pause``, ``resume``, ``extend``, ``stop``, ``hide_leaders``,
``show_leaders``) through ``hall.services`` — the same checks, problems and audit as the API — and
answers htmx with the box alone, anything else with a redirect to the event's page; a GET is the
box alone (the event's page loads it after itself, so the page's own queries stay as pinned).
``night_hall`` is the same for a club night (``nights/<id>/hall/``), back to the night's page. A
refusal is shown in the box, beside its field.

What it does not do: check a rule or write a model itself.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from config.problems import Problem
from hall import selectors as hall_selectors
from hall import services as hall_services
from hall.clock import ENDING_MS
from table_links.services import format_code, reveal_table_link
from tournaments.models import Tournament, TournamentStatus
from web.console.access import ProblemShown, event_of, organiser_page
from web.console.night_views import night_of
from web.console.table_links import qr_svg

DEFAULT_MINUTES = 20


def _minutes(text):
    """The typed minutes as a number; anything else is left for the service to refuse (in its
    words, with its pointer)."""
    try:
        return int(str(text).strip())
    except ValueError:
        return text


def _scope(event) -> dict:
    if isinstance(event, Tournament):
        return {"tournament_id": event.pk}
    return {"night_id": event.pk}


def hall_box(request, event) -> dict:
    """The box's context for a tournament or a night (``hall_action``: where its forms post)."""
    settings, link = hall_selectors.get_event_hall(event)
    now = timezone.now()
    clock = hall_selectors.clock_state(settings, now)
    shown = None
    if link is not None:
        secrets = reveal_table_link(link)
        if secrets is not None:
            path = reverse("hall_page:screen", kwargs={"credential": secrets[0]})
            url = request.build_absolute_uri(path)
            shown = {"url": url, "code": format_code(secrets[1]), "qr": qr_svg(url)}
    remaining = clock["remaining_ms"]
    ends_at = None
    if settings.clock_ends_at is not None and clock["state"] == "running":
        zone = ZoneInfo(event.club.time_zone)
        ends_at = settings.clock_ends_at.astimezone(zone).strftime("%H:%M:%S")
    return {
        "hall": settings,
        "hall_link": shown,
        "hall_link_unshown": link is not None and shown is None,
        "clock": clock,
        "clock_left": (
            f"{remaining // 60000}:{remaining // 1000 % 60:02d}" if remaining is not None else ""
        ),
        "clock_ends_at": ends_at,
        "clock_ending": remaining is not None and remaining <= ENDING_MS,
        "default_minutes": DEFAULT_MINUTES,
        "hall_closed": event.status == TournamentStatus.CLOSED,  # a closed night's too
        "hall_night": not isinstance(event, Tournament),
        "hall_action": reverse(
            "console:event-hall" if isinstance(event, Tournament) else "console:night-hall",
            args=[event.club.slug, event.pk],
        ),
    }


def _act(request, event) -> str:
    action = request.POST.get("action", "")
    user = request.user
    scope = _scope(event)
    if action == "make_link":
        hall_services.create_hall_link(user=user, **scope)
        return gettext("The hall link is made: open it on the hall's TV.")
    if action == "revoke_link":
        hall_services.revoke_hall_link(user=user, **scope)
        return gettext("The hall link is revoked: the screen showing it stops at once.")
    if action in ("hide_leaders", "show_leaders"):
        hidden = action == "hide_leaders"
        hall_services.update_hall_settings(user=user, hide_leaders=hidden, **scope)
        if hidden:
            return gettext("The leaders are hidden on the hall screen while a round is played.")
        return gettext("The leaders are shown on the hall screen.")
    if action in hall_services.CLOCK_ACTIONS:
        minutes = _minutes(request.POST.get("minutes")) if action in ("start", "extend") else None
        hall_services.act_on_clock(user=user, action=action, minutes=minutes, **scope)
        return {
            "start": gettext("The clock is running."),
            "extend": gettext("The clock is extended."),
            "pause": gettext("The clock is paused."),
            "resume": gettext("The clock is running again."),
            "stop": gettext("The clock is stopped."),
        }[action]
    raise Problem(code="invalid", detail=gettext("Unknown action."))


def _hall(request, club, event, page: str):
    problem = None
    done = None
    if request.method == "POST":
        try:
            done = _act(request, event)
        except Problem as error:
            problem = ProblemShown(error)
    if request.method == "POST" and not request.htmx and problem is None:
        messages.success(request, done)
        return redirect(f"{page}#hall")
    context = {
        "club": club,
        "problem": problem,
        "done": done,
        **hall_box(request, event),
    }
    status = problem.status if problem is not None else 200
    return render(request, "console/_hall.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def event_hall(request, club, tournament_id: int):
    tournament = event_of(club, tournament_id)
    return _hall(
        request, club, tournament, reverse("console:event", args=[club.slug, tournament.pk])
    )


@require_http_methods(["GET", "HEAD", "POST"])
@organiser_page
def night_hall(request, club, night_id: int):
    night = night_of(club, night_id)
    return _hall(request, club, night, reverse("console:night", args=[club.slug, night.pk]))
