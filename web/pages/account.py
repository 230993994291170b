"""The account page: the signed-in browsers and API device tokens, and the e-mail address.

What it does:
- ``account`` (``/account/``, signed in): the account's signed-in browsers (browser and system
  from the user agent, last seen, address, signed in; "this browser" marked) and its device
  tokens (name, when last used and from which address or "never used", created, expiry), each
  with a button that ends it, and one that ends all but this browser; the e-mail address,
  verified or not, with a button that sends the link again;
- ``end_session`` / ``end_device`` / ``end_others`` (POST): end one browser session, one device
  token, or every other one (``accounts.devices``). Ending this browser's own session signs it
  out. Another account's session or token, or one already ended, is a 404;
- ``resend_verification`` (POST): queues the verification link again, at most
  ``DEFAULT_THROTTLE_RATES["verify_email"]`` times per account (DRF's ``ScopedRateThrottle``, the
  sign-up's mechanism); beyond it the page answers 429 with ``Retry-After``;
- ``verify_email`` (``/account/verify/<token>/``, no sign-in needed: the signed link is the
  proof): records the address as verified, or says the link expired or is not valid (400).

What it does not do: change the password (Django's page, ``accounts/password_change/``, which
ends the others too: ``accounts.signals``) or decide anything (``accounts.devices``,
``accounts.verification``).
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from rest_framework.throttling import ScopedRateThrottle

from accounts import devices, selectors, verification
from accounts.sessions import SEEN_EVERY_SECONDS, browser_name
from accounts.token_activity import USED_EVERY_SECONDS


class _ResendThrottle(ScopedRateThrottle):
    """At most ``verify_email`` resends per account (keyed by the signed-in user)."""

    throttle_scope = "verify_email"

    def allow(self, request) -> bool:
        return self.allow_request(request, self)


@require_safe
@login_required
def account(request: HttpRequest) -> HttpResponse:
    user = request.user
    session_key = request.session.session_key
    a_minute_ago = timezone.now() - timedelta(seconds=SEEN_EVERY_SECONDS)
    browsers = [
        {
            "id": row.pk,
            "name": browser_name(row.user_agent),
            "last_seen": row.last_seen,
            "just_now": row.last_seen is not None and row.last_seen > a_minute_ago,
            "address": row.address,
            "signed_in_at": row.signed_in_at,
            "current": devices.is_current(row, session_key),
        }
        for row in devices.list_browser_sessions(user)
    ]
    browsers.sort(key=lambda entry: not entry["current"])  # this browser first
    # Within its minute a token's "last used" may be that much behind: "just now".
    used_just_now = timezone.now() - timedelta(seconds=USED_EVERY_SECONDS)
    device_tokens = [
        {
            "id": row.pk,
            "name": row.device,
            "last_used": row.last_used,
            "just_now": row.last_used is not None and row.last_used > used_just_now,
            "address": row.address,
            "created": row.created,
            "expiry": row.expiry,
        }
        for row in selectors.list_device_tokens(user=user)
    ]
    context = {
        "browsers": browsers,
        "device_tokens": device_tokens,
        "email": user.email,
        "email_verified": verification.is_verified(user),
    }
    return render(request, "pages/account.html", context)


@require_POST
@login_required
def end_session(request: HttpRequest, session_id: int) -> HttpResponse:
    current = request.session.session_key
    row = devices.list_browser_sessions(request.user).filter(pk=session_id).first()
    if row is None:
        raise Http404("No such session.")
    if devices.is_current(row, current):
        logout(request)
        return redirect("home")
    devices.end_browser_session(request.user, session_id)
    messages.success(request, gettext("That browser is signed out."))
    return redirect("pages:account")


@require_POST
@login_required
def end_device(request: HttpRequest, device_token_id: int) -> HttpResponse:
    if not devices.end_device_token(request.user, device_token_id):
        raise Http404("No such device.")
    messages.success(request, gettext("That device's token is revoked."))
    return redirect("pages:account")


@require_POST
@login_required
def end_others(request: HttpRequest) -> HttpResponse:
    ended = devices.end_other_sessions(request.user, keep_session_key=request.session.session_key)
    messages.success(
        request,
        ngettext(
            "%(count)s other browser or device signed out.",
            "%(count)s other browsers and devices signed out.",
            ended,
        )
        % {"count": ended},
    )
    return redirect("pages:account")


@require_POST
@login_required
def resend_verification(request: HttpRequest) -> HttpResponse:
    user = request.user
    if not user.email or verification.is_verified(user):
        return redirect("pages:account")
    throttle = _ResendThrottle()
    if not throttle.allow(request):
        wait = max(1, math.ceil(throttle.wait() or 60))
        minutes = max(1, math.ceil(wait / 60))
        response = render(
            request,
            "pages/too_many.html",
            {
                "text": ngettext(
                    "Too many messages asked for. Try again in %(minutes)s minute.",
                    "Too many messages asked for. Try again in %(minutes)s minutes.",
                    minutes,
                )
                % {"minutes": minutes}
            },
            status=429,
        )
        response["Retry-After"] = str(wait)
        return response
    verification.queue_verification_mail(user)
    messages.success(
        request, gettext("A new link is on its way to %(email)s.") % {"email": user.email}
    )
    return redirect("pages:account")


@require_http_methods(["GET", "HEAD"])
def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    outcome, _user = verification.verify_token(token)
    return render(
        request,
        "pages/verify_email.html",
        {"outcome": outcome},
        status=200 if outcome == "verified" else 400,
    )
