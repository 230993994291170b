"""When each API device token was last used, and where from.

What it does:
- ``ActivityTokenAuthentication``, the API's token authentication (``REST_FRAMEWORK``'s first
  ``DEFAULT_AUTHENTICATION_CLASSES``): knox's ``TokenAuthentication``, and after a request it
  authenticated, ``note_token_use`` records the moment and the client's address on the token
  (``DeviceToken.last_used``, ``DeviceToken.address``);
- ``note_token_use(device_token, request)`` writes at most once a minute per token
  (``USED_EVERY_SECONDS``): a ``cache.add`` of the token's key opens the minute, and only the
  request that added it writes. A busy tablet costs one cache call per request and one
  ``UPDATE`` of its token's row a minute; the other requests of that minute add no query;
- ``note_sign_in(device_token, address)``: a token issued at sign-in records its address at once
  (the sign-in counts as its first use) and opens the minute, so its first requests write
  nothing more.

The address is the one the account page shows for browsers too (``accounts.sessions.address_of``:
as django-axes reads it).

What it does not do: extend a token's expiry (``REST_KNOX["AUTO_REFRESH"]`` is off: a lost
tablet's token dies on schedule however it is used), keep a history of uses (only the latest),
or anything for browser sessions (``accounts.sessions``) or table links.

Terms: *the minute*: ``USED_EVERY_SECONDS`` from the write that opened it, as the cache keeps
the key; "last used" may be up to that much behind.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

from django.core.cache import cache
from knox.auth import TokenAuthentication

from accounts.models import DeviceToken
from accounts.sessions import address_of

USED_EVERY_SECONDS = 60


def minute_key(device_token: DeviceToken) -> str:
    """The cache key that stands for "this token's use was recorded less than a minute ago"."""
    return f"token-used:{device_token.pk}"


def _now() -> datetime:
    # time.time(), as accounts.sessions: one clock a test can set for this module.
    return datetime.fromtimestamp(time.time(), tz=UTC)


def _record(device_token: DeviceToken, address: str) -> None:
    used, address = _now(), address or None
    DeviceToken.objects.filter(pk=device_token.pk).update(last_used=used, address=address)
    device_token.last_used, device_token.address = used, address


def note_token_use(device_token: DeviceToken, request) -> bool:
    """Record that ``device_token`` authenticated ``request``, unless that was already recorded
    in the last minute; True when it wrote."""
    if not cache.add(minute_key(device_token), 1, USED_EVERY_SECONDS):
        return False
    _record(device_token, address_of(request))
    return True


def note_sign_in(device_token: DeviceToken, address: str) -> None:
    """Record the sign-in that issued ``device_token`` from ``address`` (``address_of`` the
    sign-in's request; "" when unreadable), now, and open its minute."""
    cache.set(minute_key(device_token), 1, USED_EVERY_SECONDS)
    _record(device_token, address)


class ActivityTokenAuthentication(TokenAuthentication):
    """knox's token authentication that records the token's use (``note_token_use``)."""

    def authenticate(self, request):
        authenticated = super().authenticate(request)
        if authenticated is not None:
            note_token_use(authenticated[1], request)
        return authenticated
