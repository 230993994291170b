"""An account's signed-in browsers and API device tokens: list them, end one, end the others.

What it does: ``list_browser_sessions(user)`` gives the account's unexpired browser sessions
(``accounts.models.BrowserSession``, most recently seen first); ``end_browser_session`` ends one
of them, ``end_device_token`` revokes one token; ``end_other_sessions`` ends every browser
session and revokes every device token of the account except the caller's own (the session
whose key, or the token whose key, is given). Ending a browser session deletes it from the
session store (``accounts.sessions_store``): that browser is signed out at its next request.

What it does not do: check who asks (the account page and the API pass the signed-in user
only), or decide when the others must end (a password change: ``accounts.signals``; a second
factor turned on: the two-factor code calls ``end_other_sessions``).

Terms:
- *session key*: the value of a browser's session cookie (``request.session.session_key``);
  stored only as its hash.
- *token key*: the first characters of a knox token, stored in clear
  (``DeviceToken.token_key``; ``request.auth.token_key`` for a token-authenticated request).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import BrowserSession, DeviceToken
from accounts.sessions_store import key_hash


def list_browser_sessions(user) -> QuerySet[BrowserSession]:
    return BrowserSession.objects.filter(user=user, expire_date__gt=timezone.now()).order_by(
        "-last_seen", "-id"
    )


def is_current(browser_session: BrowserSession, session_key: str | None) -> bool:
    """Whether ``browser_session`` is the one whose key is ``session_key`` (this browser)."""
    return bool(session_key) and browser_session.key_hash == key_hash(session_key)


def end_browser_session(user, browser_session_id: int) -> bool:
    """End one of ``user``'s browser sessions; False when it is not theirs or is gone."""
    deleted, _ = BrowserSession.objects.filter(user=user, pk=browser_session_id).delete()
    return bool(deleted)


def end_device_token(user, device_token_id: int) -> bool:
    """Revoke one of ``user``'s device tokens; False when it is not theirs or is gone."""
    deleted, _ = DeviceToken.objects.filter(user=user, pk=device_token_id).delete()
    return bool(deleted)


def end_other_sessions(user, *, keep_session_key=None, keep_token_key=None) -> int:
    """End every browser session and device token of ``user`` but the kept ones.

    ``keep_session_key``: the caller's session key (None: keep no browser session);
    ``keep_token_key``: the caller's token key (None: keep no token). Returns how many browser
    sessions and tokens were ended.
    """
    sessions = BrowserSession.objects.filter(user=user)
    if keep_session_key:
        sessions = sessions.exclude(key_hash=key_hash(keep_session_key))
    tokens = DeviceToken.objects.filter(user=user)
    if keep_token_key:
        tokens = tokens.exclude(token_key=keep_token_key)
    with transaction.atomic():
        _total, ended_sessions = sessions.delete()
        _total, ended_tokens = tokens.delete()
    return ended_sessions.get(BrowserSession._meta.label, 0) + ended_tokens.get(
        DeviceToken._meta.label, 0
    )
