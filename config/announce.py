"""How an app tells the apps above it what changed: written in the change's own transaction,
delivered after the commit to the subscribers a setting lists, and delivered again by a sweep if
the process died in between. The one announcement mechanism of the project; games, tournaments
and settlements each use it through an ``Announcer`` of their own.

What it does:
- ``Announcer(setting)``: ``announce(change)`` inside a transaction asks the subscribers whether
  any *wants* the change (a subscriber's optional ``wants(change) -> bool`` attribute: usually
  its kinds, at most one cheap query; a subscriber without one wants everything; the first yes
  ends the asking). None does: nothing is written or delivered. One does: an
  ``outbox.Announcement`` row is written in that transaction, and once it commits every
  subscriber is called and the row deleted. A write that rolls back takes its row with it and
  announces nothing; outside a transaction the change is delivered at once, with no row.
  ``deliver(change)`` calls every subscriber now, in the order the setting lists them, and says
  whether all of them ran; a subscriber that raises is logged (``logger.exception``) and the next
  one still runs, and the row is then kept for the sweep (with the error): retried, not lost.
- ``deliver_due(now)``: the sweep (``config.tasks.sweep_announcements_task``, beat): every row
  due (``DUE_AFTER_SECONDS`` after it was written, then backing off) is claimed, its change
  rebuilt (``decode``) and delivered again, and the row deleted when every subscriber ran.
- ``oldest_due_age()``: the age in seconds of the oldest row the sweep should have delivered by
  now (None: none), for ``/health/workers/`` (``JINK_STALE_SNAPSHOT_AGES``, ``"announcements"``).
- ``announcement_key()``: the ``key`` of the row being delivered (None outside one), from which
  a subscriber derives ids that must be the same on a second delivery (a webhook's event id).
- ``listed(setting)``: the callables a setting names as dotted paths (a list), imported once per
  process; the announcers' subscribers and games' checks (``JINK_GAME_CHANGE_CHECKS``) are read
  through it. A test's ``override_settings`` of any setting forgets what was imported.

What it does not do: define what a change is (each app's frozen dataclass: ``games.changes``,
``tournaments.changes``, ``settlements.changes``; fields of plain values, frozensets and tuples,
which is all ``encode``/``decode`` know), import any app statically (the settings name the
subscribers, and a row names its change's class), run work or queue anything. A subscriber is
quick, idempotent (it may be called twice for one change: a process killed after it ran but
before the row was deleted) and queues its work by task name with ``config.tasks.enqueue``.

Terms: *change* — one frozen dataclass describing one committed write (ids, kinds, who);
*subscriber* — a callable ``f(change) -> None`` named in the setting; *kill point* — any
instruction between the commit and the row's deletion: the row survives it, and the sweep
delivers.
"""

from __future__ import annotations

import contextvars
import dataclasses
import logging
import typing
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import cache
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.signals import setting_changed
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)

DUE_AFTER_SECONDS = 20  # far more than a dispatch takes: a row this old was left by a dead one
MAX_BACKOFF_SECONDS = 3600
SWEEP_BATCH = 200

_current_key: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "announcement_key", default=None
)


@cache
def listed(setting: str) -> tuple[Callable[..., Any], ...]:
    """The callables named in ``setting`` (a list of dotted paths; none when unset)."""
    return tuple(import_string(path) for path in getattr(settings, setting, None) or ())


def _forget_listed(**_) -> None:
    listed.cache_clear()  # a setting changed (override_settings): import the lists afresh


setting_changed.connect(_forget_listed, weak=False, dispatch_uid="config.announce.forget_listed")


def announcement_key() -> str | None:
    """The key of the announcement being delivered (None: a change delivered without a row)."""
    return _current_key.get()


def _model():
    return apps.get_model("outbox", "Announcement")


def encode(change: Any) -> tuple[str, Any]:
    """``(dotted path of the class, JSON fields)`` of a dataclass change; ``("", change)`` for a
    plain JSON value."""
    if not dataclasses.is_dataclass(change):
        return "", change
    fields = {}
    for field in dataclasses.fields(change):
        value = getattr(change, field.name)
        if isinstance(value, frozenset | set):
            value = sorted(value)
        elif isinstance(value, tuple):
            value = list(value)
        fields[field.name] = value
    kind = type(change)
    return f"{kind.__module__}.{kind.__qualname__}", fields


def decode(change_type: str, fields: Any) -> Any:
    """The change ``encode`` described, rebuilt (frozensets and tuples of their element type)."""
    if not change_type:
        return fields
    kind = import_string(change_type)
    hints = typing.get_type_hints(kind)
    values = {}
    for name, value in fields.items():
        hint = hints.get(name)
        origin, arguments = typing.get_origin(hint), typing.get_args(hint)
        if origin is frozenset and value is not None:
            element = arguments[0] if arguments else None
            value = frozenset(element(item) if callable(element) else item for item in value)
        elif origin is tuple and value is not None:
            value = tuple(value)
        values[name] = value
    return kind(**values)


class Announcer:
    """Announces one kind of change to the subscribers listed in ``setting``."""

    def __init__(self, setting: str) -> None:
        self.setting = setting

    def __repr__(self) -> str:
        return f"Announcer({self.setting!r})"

    def subscribers(self) -> tuple[Callable[[Any], None], ...]:
        return listed(self.setting)

    def wanted(self, change: Any) -> bool:
        """Whether any subscriber has work for ``change`` (their ``wants``)."""
        for subscriber in self.subscribers():
            wants = getattr(subscriber, "wants", None)
            if wants is None or wants(change):
                return True
        return False

    def deliver(self, change: Any) -> str:
        """Call every subscriber with ``change`` now; one failing never stops the next. Returns
        the first failure's text ("" when every subscriber ran)."""
        failure = ""
        for subscriber in self.subscribers():
            try:
                subscriber(change)
            except Exception as error:  # the write has committed: never make it an error
                logger.exception("%s subscriber %r failed on %r", self.setting, subscriber, change)
                failure = failure or f"{getattr(subscriber, '__qualname__', subscriber)}: {error!r}"
        return failure

    def announce(self, change: Any) -> None:
        """Record ``change`` in the current transaction (when a subscriber wants it) and deliver
        it once the transaction commits; outside a transaction, deliver it now."""
        if not transaction.get_connection().in_atomic_block:
            self.deliver(change)
            return
        if not self.wanted(change):
            return  # no subscriber has work for it: nothing to keep, nothing to deliver
        change_type, fields = encode(change)
        row = _model().objects.create(
            setting=self.setting,
            change_type=change_type,
            change=fields,
            due_at=timezone.now() + timedelta(seconds=DUE_AFTER_SECONDS),
        )
        transaction.on_commit(lambda: _deliver_row(self, change, row.pk, str(row.key)))


def _deliver_row(announcer: Announcer, change: Any, row_id: int, key: str) -> bool:
    """Deliver one row's change under its key; delete the row if every subscriber ran, else keep
    the error on it for the sweep. Never raises (the database may be gone: the sweep repairs)."""
    token = _current_key.set(key)
    try:
        failure = announcer.deliver(change)
    finally:
        _current_key.reset(token)
    try:
        if failure:
            _model().objects.filter(pk=row_id).update(last_error=failure[:500])
        else:
            _model().objects.filter(pk=row_id).delete()
    except Exception:
        logger.exception("could not settle announcement %s; the sweep will", row_id)
        return False
    return not failure


def oldest_due_age() -> float | None:
    """Seconds since the oldest due row was written (None when no row is due)."""
    now = timezone.now()
    oldest = (
        _model()
        .objects.filter(due_at__lte=now)
        .order_by("created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    return None if oldest is None else (now - oldest).total_seconds()


def deliver_due(now: datetime | None = None) -> int:
    """Deliver every announcement due at ``now``; how many were delivered in full. Each row is
    claimed first (its ``due_at`` moved on, backing off with its attempts), so a slow delivery
    is not taken twice by the next sweep."""
    model = _model()
    now = now or timezone.now()
    delivered = 0
    for row in model.objects.filter(due_at__lte=now)[:SWEEP_BATCH]:
        backoff = min(DUE_AFTER_SECONDS * 2 ** min(row.attempts + 1, 12), MAX_BACKOFF_SECONDS)
        claimed = model.objects.filter(pk=row.pk, due_at=row.due_at).update(
            due_at=now + timedelta(seconds=backoff), attempts=F("attempts") + 1
        )
        if not claimed:
            continue  # delivered (and deleted) or claimed meanwhile
        try:
            change = decode(row.change_type, row.change)
        except Exception as error:  # a class renamed since: kept, with why, for an operator
            logger.exception("announcement %s cannot be rebuilt", row.pk)
            model.objects.filter(pk=row.pk).update(last_error=repr(error)[:500])
            continue
        delivered += _deliver_row(Announcer(row.setting), change, row.pk, str(row.key))
    return delivered
