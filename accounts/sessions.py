"""What the account page shows of a signed-in browser, kept in the browser's own session.

What it does:
- at every session login (``user_logged_in`` with a session: the login page, the sign-up page,
  the test client's ``force_login``), ``note_sign_in`` records in the session the browser's user
  agent, its address, the moment it signed in and the moment it was last seen;
- ``SessionActivityMiddleware`` refreshes the user agent, the address and "last seen" of a
  signed-in session at most once a minute (``SEEN_EVERY_SECONDS``), and only when the request
  read the session anyway: it adds no query to a request, except the session's save once a
  minute;
- ``browser_name(user_agent)``: "Firefox on Windows", "Safari on iPhone", ... from a user agent;
- ``address_of(request)``: the client's address, as the account page shows it (the device
  tokens' activity, ``accounts.token_activity``, records the same).

The session store (``accounts.sessions_store``) copies these into the columns the account page
lists; nothing here writes the database itself.

What it does not do: list or end sessions (``accounts.devices``), or anything for API device
tokens (they have no session: a token login records nothing here).

Terms: *address*: the client's address as django-axes reads it (``axes.helpers``: ``REMOTE_ADDR``,
or ``X-Forwarded-For`` behind the trusted proxy), the one its lockouts count.
"""

from __future__ import annotations

import ipaddress
import time

from axes.helpers import get_client_ip_address
from django.contrib.auth import SESSION_KEY, user_logged_in
from django.dispatch import receiver
from django.utils.translation import gettext

from accounts.sessions_store import BROWSER_KEY

SEEN_EVERY_SECONDS = 60

# First match wins: Edge and Opera also say "Chrome", Chrome also says "Safari".
_BROWSERS = (
    ("Edg", "Edge"),
    ("OPR", "Opera"),
    ("Firefox", "Firefox"),
    ("FxiOS", "Firefox"),
    ("CriOS", "Chrome"),
    ("Chrome", "Chrome"),
    ("Chromium", "Chromium"),
    ("Safari", "Safari"),
)
_SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Macintosh", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)


def browser_name(user_agent: str) -> str:
    """A person's name for a browser: "Firefox on Windows"; "Unknown browser" when unreadable."""
    browser = next((name for mark, name in _BROWSERS if mark in user_agent), None)
    system = next((name for mark, name in _SYSTEMS if mark in user_agent), None)
    if browser and system:
        return gettext("%(browser)s on %(system)s") % {"browser": browser, "system": system}
    return browser or system or gettext("Unknown browser")


def address_of(request) -> str:
    """The client's address (see *address* above), normalised; "" when it is no IP address."""
    address = get_client_ip_address(request) or ""
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return ""


def _note(request, *, signed_in: bool) -> None:
    now = int(time.time())
    browser = dict(request.session.get(BROWSER_KEY) or {})
    browser.update(
        ua=request.META.get("HTTP_USER_AGENT", "")[:300], ip=address_of(request), seen=now
    )
    if signed_in or "in" not in browser:
        browser["in"] = now
    request.session[BROWSER_KEY] = browser


@receiver(user_logged_in, dispatch_uid="accounts_note_sign_in")
def note_sign_in(sender, request, user, **kwargs) -> None:
    # A token login has no session (accounts.two_factor_api.token_response): nothing to note.
    if request is not None and getattr(request, "session", None) is not None:
        _note(request, signed_in=True)


class SessionActivityMiddleware:
    """Refreshes a signed-in session's "last seen" at most once a minute (after
    ``AuthenticationMiddleware``; its write is the session's own save)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        session = getattr(request, "session", None)
        # Only a session the request read anyway: reading it here would cost a query.
        if session is None or not session.accessed or session.get(SESSION_KEY) is None:
            return response
        seen = (session.get(BROWSER_KEY) or {}).get("seen")
        if not isinstance(seen, int) or time.time() - seen >= SEEN_EVERY_SECONDS:
            _note(request, signed_in=False)
        return response
