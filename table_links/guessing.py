"""A limit on guessing table links: failed look-ups per client address, per window.

What it does: ``refused_for(request)`` says how many seconds a client must wait before it may
look up a table code or token again (None: it may now); ``note_failure(request)`` counts one
look-up of an unknown, revoked or expired code or token. The rule, in settings:
``TABLE_CODE_GUESSES`` failed look-ups (default 10) are allowed per client address in each
fixed window of ``TABLE_CODE_WINDOW_SECONDS`` (default 600, aligned to the clock: 21:00–21:10,
21:10–21:20, ...); once a client has used them, every look-up from it — a right code too — is
refused until the window ends. Successful look-ups never count, so a pub's tablets behind one
address can open and reload their tables all night.

The counters live in Django's cache (Redis in production, so all workers share them), one key
per address and window, kept for one window. The client address is ``REMOTE_ADDR``, or behind a
trusted proxy (``DJANGO_TRUST_X_FORWARDED_PROTO``) the last address of ``X-Forwarded-For`` (the
one the proxy appended; earlier ones are the client's own claim).

The API's ``Authorization: Table`` header counts and is refused by the same rule, on the same
counters (``table_links.authentication``): a client cannot get more guesses by switching between the
pages and the API.

What it does not do: answer the request (the views of ``web.scorepad`` render the 429 page, the API
answers a 429 problem).
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import cache


def _limit() -> int:
    return settings.TABLE_CODE_GUESSES


def _window() -> int:
    return settings.TABLE_CODE_WINDOW_SECONDS


def client_address(request) -> str:
    if settings.TRUST_X_FORWARDED_PROTO:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _key(request, now: float) -> str:
    return f"table-guesses:{client_address(request)}:{int(now // _window())}"


def refused_for(request) -> int | None:
    """Seconds until this client may look up a code again, or None when it may now."""
    now = time.time()
    if cache.get(_key(request, now), 0) < _limit():
        return None
    window = _window()
    return max(1, math.ceil((now // window + 1) * window - now))


def note_failure(request) -> None:
    """Count one failed look-up (an unknown, revoked or expired code or token)."""
    now = time.time()
    key = _key(request, now)
    if cache.add(key, 1, timeout=_window()):
        return
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=_window())
