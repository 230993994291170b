"""Django's session store for the site (``SESSION_ENGINE = "accounts.sessions_store"``).

What it does: Django's database store (``django.contrib.sessions.backends.db``) over
``accounts.models.BrowserSession`` instead of ``django_session``, with two differences:
- the key is stored only as its SHA-256 hash (``key_hash``): every read, write and delete hashes
  the key the cookie carries, so a dump of the table holds no key a browser could present;
- each save copies, from the session's data, what the account page lists into the row's columns:
  the account (Django's own ``_auth_user_id``) and the browser's details that
  ``accounts.sessions`` keeps under ``BROWSER_KEY`` (user agent, address, signed in, last seen).
  They cost no query of their own: they are written by the save Django makes anyway.

A session is ended by deleting its row (``accounts.devices``): the browser's next request finds
no session and is signed out.

What it does not do: decide when the browser's details change (``accounts.sessions``) or list
sessions (``accounts.devices``).

Terms: *key hash*, see ``accounts.models``. ``BROWSER_KEY``'s value is a dict: ``ua`` (user
agent), ``ip`` (address or ""), ``in`` and ``seen`` (POSIX seconds: signed in, last seen).
"""

from __future__ import annotations

import hashlib
import logging
from datetime import UTC, datetime

from asgiref.sync import sync_to_async
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.base import CreateError, UpdateError
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.core.exceptions import SuspiciousOperation
from django.db import IntegrityError, router, transaction
from django.utils import timezone

BROWSER_KEY = "_jink_browser"


def key_hash(session_key: str) -> str:
    """The stored form of a session key."""
    return hashlib.sha256(session_key.encode()).hexdigest()


def _moment(seconds) -> datetime | None:
    if not isinstance(seconds, int | float):
        return None
    return datetime.fromtimestamp(seconds, tz=UTC)


def _columns(data: dict) -> dict:
    """The listed columns of a session whose data is ``data``."""
    user_id = data.get(SESSION_KEY)
    browser = data.get(BROWSER_KEY) or {}
    return {
        "user_id": int(user_id) if str(user_id or "").isdigit() else None,
        "user_agent": str(browser.get("ua", ""))[:300],
        "address": browser.get("ip") or None,
        "signed_in_at": _moment(browser.get("in")),
        "last_seen": _moment(browser.get("seen")),
    }


class SessionStore(DatabaseSessionStore):
    @classmethod
    def get_model_class(cls):
        from accounts.models import BrowserSession

        return BrowserSession

    def _get_session_from_db(self):
        try:
            return self.model.objects.get(
                key_hash=key_hash(self.session_key), expire_date__gt=timezone.now()
            )
        except (self.model.DoesNotExist, SuspiciousOperation) as error:
            if isinstance(error, SuspiciousOperation):
                logger = logging.getLogger(f"django.security.{error.__class__.__name__}")
                logger.warning(str(error))
            self._session_key = None

    async def _aget_session_from_db(self):
        return await sync_to_async(self._get_session_from_db)()

    def exists(self, session_key):
        return self.model.objects.filter(key_hash=key_hash(session_key)).exists()

    async def aexists(self, session_key):
        return await sync_to_async(self.exists)(session_key)

    def save(self, must_create=False):
        if self.session_key is None:
            return self.create()
        data = self._get_session(no_load=must_create)
        fields = {
            "session_data": self.encode(data),
            "expire_date": self.get_expiry_date(),
            **_columns(data),
        }
        hashed = key_hash(self._get_or_create_session_key())
        using = router.db_for_write(self.model)
        if must_create:
            try:
                with transaction.atomic(using=using):
                    self.model.objects.using(using).create(key_hash=hashed, **fields)
            except IntegrityError as error:
                raise CreateError from error
            return
        updated = self.model.objects.using(using).filter(key_hash=hashed).update(**fields)
        if not updated:  # ended (or expired and cleared) while this request ran
            raise UpdateError

    async def asave(self, must_create=False):
        return await sync_to_async(self.save)(must_create)

    def delete(self, session_key=None):
        if session_key is None:
            if self.session_key is None:
                return
            session_key = self.session_key
        self.model.objects.filter(key_hash=key_hash(session_key)).delete()

    async def adelete(self, session_key=None):
        return await sync_to_async(self.delete)(session_key)
