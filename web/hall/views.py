"""The hall screen's pages: ``/h/<credential>/`` (the TV's page) and ``/h/`` (type a code).

What it does: ``screen`` answers a live hall link's token or short code with the screen's shell
— the event's (or club night's) name, the round, the clock and the panel, already rendered from
the same JSON the page then polls (``hall.nights.screen_state``, in JSON blocks: config, words,
first screen) —
and the modules of static/hall/ that keep it up to date. ``enter_code`` takes a typed code to
its screen. Both count a wrong, revoked or ended code against the table links' guessing limit
(``table_links.guessing``: the same counters) and answer 429 past it.

What it does not do: log anyone in (the page holds no session: a TV is nobody's), or change
anything.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from hall import nights as hall_nights
from hall import selectors as hall_selectors
from table_links import guessing
from table_links.selectors import normalise_code
from web.guessing import too_many_guesses
from web.hall.strings import hall_strings


def _live(credential: str) -> dict | None:
    fingerprint = hall_selectors.get_hall_fingerprint(credential)
    if fingerprint is None or hall_selectors.is_link_over(fingerprint, timezone.now()):
        return None
    return fingerprint


@require_safe
def screen(request: HttpRequest, credential: str) -> HttpResponse:
    wait = guessing.refused_for(request)
    if wait is not None:
        return too_many_guesses(request, wait)
    fingerprint = _live(credential)
    if fingerprint is None:
        guessing.note_failure(request)
        raise Http404("This hall link is unknown, revoked or ended.")
    state = hall_nights.screen_state(fingerprint)
    context = {
        "state": state,
        "strings": hall_strings(),
        "config": {
            "api": reverse("hall:screen", kwargs={"credential": credential}),
            "etag": hall_selectors.hall_etag(fingerprint),
        },
    }
    response = render(request, "hall/screen.html", context)
    response["Cache-Control"] = "private, no-cache"
    return response


@require_safe
def enter_code(request: HttpRequest) -> HttpResponse:
    code = request.GET.get("code", "")
    error = None
    if code:
        wait = guessing.refused_for(request)
        if wait is not None:
            return too_many_guesses(request, wait)
        normalised = normalise_code(code)
        if _live(normalised) is not None:
            return redirect("hall_page:screen", credential=normalised)
        guessing.note_failure(request)
        error = gettext("No hall screen has this code, or its link has ended.")
    return render(request, "hall/code.html", {"code": code, "error": error})
