"""The players' own check-in: a phone scans the door's QR code, the player picks their name once
(the phone remembers it), then taps "Check me in".

What it does: ``self_check_in`` is the page of a live door code (``tournaments.door``), an
event's or a club night's (``web.door.places.DoorPlace`` says which services each step calls,
as it does for the organiser's tablet): who "I"
am is the club player linked to the signed-in account ("this is me"), else the player this phone
picked before — a signed cookie per club (``DOOR_COOKIE`` + the club's id, signed with
``DOOR_SALT``: a phone cannot make itself someone it did not pick); "pick" remembers a player
and "forget" forgets them (each answered by a redirect to the page), "check_in" checks "me" in
(``tournaments.door.check_in_player`` or ``settlements.attendance.check_in_night_player``, ``at``
``phone``: idempotent, so a double tap or a retry changes nothing). ``names`` lists the names
matching two letters or more (an htmx partial; without scripts the page's own search).

What keeps strangers out: the door code is a secret of 32 bytes in the QR code, revocable from
the door page, with a life of hours, and dead once its event closes; an unknown, revoked or
expired code counts one failed look-up on the table links' guessing counters
(``table_links.guessing``: the same limit, the same 429); each address may pick at most
``DOOR_PICKS`` names per window (``DOOR_PICKS_WINDOW_SECONDS``), so one phone cannot walk the
whole club through the door; a phone only ever checks in (never out) and never marks a fee; the
console's audit trail says which check-ins came from a phone.

What it does not do: take entry fees (the door's tablet, ``web.console.door_views``).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_safe

from clubs.models import Player
from config.problems import Problem
from table_links import guessing
from tournaments import door
from web.door.places import DoorPlace
from web.guessing import too_many_guesses

DOOR_COOKIE = "jink_door_"
DOOR_SALT = "jink.door.player"
REMEMBER_SECONDS = 60 * 60 * 24 * 365


def _live_code(request, token):
    """The live door code, or the response that refuses (429 while guessing, else 404)."""
    wait = guessing.refused_for(request)
    if wait is not None:
        return None, too_many_guesses(request, wait, "door/too_many.html")
    code = door.get_live_door_code(token)
    if code is None:
        guessing.note_failure(request)
        raise Http404("This door code is unknown, revoked or expired.")
    return code, None


def _remembered(request, club) -> int | None:
    try:
        value = request.get_signed_cookie(
            DOOR_COOKIE + str(club.pk), salt=DOOR_SALT, max_age=REMEMBER_SECONDS
        )
    except (KeyError, signing.BadSignature):
        return None
    return int(value) if value.isdigit() else None


def _me(request, place: DoorPlace) -> tuple[Player | None, bool]:
    """(the player I am, whether that comes from the signed-in account)."""
    players = Player.objects.filter(club_id=place.club.pk, is_active=True)
    if request.user.is_authenticated:
        own = players.filter(user=request.user).first()
        if own is not None:
            return own, True
    remembered = _remembered(request, place.club)
    return (players.filter(pk=remembered).first() if remembered else None), False


def _count_pick(request) -> bool:
    """Count one pick from this address; False when it has used its picks in this window."""
    window = settings.DOOR_PICKS_WINDOW_SECONDS
    key = f"door-picks:{guessing.client_address(request)}:{int(time.time() // window)}"
    if cache.add(key, 1, timeout=window):
        return True
    try:
        return cache.incr(key) <= settings.DOOR_PICKS
    except ValueError:
        cache.add(key, 1, timeout=window)
        return True


def _pickable(place: DoorPlace, player_id) -> Player | None:
    if not (isinstance(player_id, str) and player_id.isdigit()):
        return None
    return place.pickable().filter(pk=int(player_id)).first()


@require_http_methods(["GET", "HEAD", "POST"])
def self_check_in(request, door_token: str):
    token = door_token
    code, refused = _live_code(request, token)
    if refused is not None:
        return refused
    place = DoorPlace.of_code(code)
    me, from_account = _me(request, place)
    done, problem, status, remember = "", "", 200, None
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "pick":
            picked = _pickable(place, request.POST.get("player", ""))
            if picked is None:
                problem, status = gettext("Pick your name from the list."), 400
            elif not _count_pick(request):
                problem, status = (
                    gettext("Too many names picked from this network: ask at the door."),
                    429,
                )
            else:
                me, remember = picked, picked
        elif action == "forget":
            me, remember = None, False
        elif action == "check_in":
            if me is None:
                problem, status = gettext("Pick your name first."), 400
            else:
                try:
                    checked = place.check_in(me.pk, request.user, at=door.AT_PHONE)
                    done = gettext("You are checked in, %(name)s. Enjoy the game!") % {
                        "name": me.display_name
                    }
                    if checked.was_present:
                        done = gettext("You were already checked in, %(name)s.") % {
                            "name": me.display_name
                        }
                except Problem as error:
                    problem, status = error.detail, error.status_code
        else:
            problem, status = gettext("Unknown action."), 400
    query = request.GET.get("q", "").strip()
    context = {
        "event": place.event,
        "club": place.club,
        "token": token,
        "me": me,
        "from_account": from_account,
        "is_present": place.is_present(me),
        "done": done,
        "door_problem": problem,
        "query": query,
        "rows": place.search(query) if me is None else [],
    }
    if remember is not None:
        # A pick or a forget is answered by the page again (a reload asks for nothing twice).
        response = redirect(request.path)
    else:
        response = render(request, "door/check_in.html", context, status=status)
    response["Cache-Control"] = "private, no-store"
    if remember:
        response.set_signed_cookie(
            DOOR_COOKIE + str(place.club.pk),
            str(remember.pk),
            salt=DOOR_SALT,
            max_age=REMEMBER_SECONDS,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )
    elif remember is False:
        response.delete_cookie(DOOR_COOKIE + str(place.club.pk), samesite="Lax")
    return response


@require_safe
def names(request, door_token: str):
    """The names matching ``q`` (two letters or more) as buttons to pick (an htmx partial)."""
    token = door_token
    code, refused = _live_code(request, token)
    if refused is not None:
        return refused
    query = request.GET.get("q", "").strip()
    context = {
        "token": token,
        "query": query,
        "rows": DoorPlace.of_code(code).search(query),
    }
    response = render(request, "door/_names.html", context)
    response["Cache-Control"] = "private, no-store"
    return response
