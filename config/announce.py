"""How an app tells the apps above it what changed: after the commit, to the subscribers a setting
lists. The one announcement mechanism of the project; games, tournaments and settlements each
use it through an ``Announcer`` of their own.

What it does:
- ``Announcer(setting)``: ``announce(change)`` delivers ``change`` once the current transaction
  commits (at once outside one; a write that rolls back announces nothing); ``deliver(change)``
  calls every subscriber now, in the order the setting lists them. A subscriber that raises is
  logged (``logger.exception``) and the next one still runs: the write has committed, and a
  subscriber must not turn it into an error.
- ``listed(setting)``: the callables a setting names as dotted paths (a list), imported once per
  process; the announcers' subscribers and games' checks (``JINK_GAME_CHANGE_CHECKS``) are read
  through it. A test's ``override_settings`` of any setting forgets what was imported.

What it does not do: define what a change is (each app's frozen dataclass: ``games.changes``,
``tournaments.changes``, ``settlements.changes``), import any app (the settings name the
subscribers, so the arrows between apps stay the ones import-linter checks), run work, retry or
queue anything. A subscriber is quick and queues its work by task name with
``config.tasks.enqueue``; a periodic sweep repairs what a lost message missed.

Terms: *change* — one frozen dataclass describing one committed write (ids, kinds, who);
*subscriber* — a callable ``f(change) -> None`` named in the setting.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import cache
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.db import transaction
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)


@cache
def listed(setting: str) -> tuple[Callable[..., Any], ...]:
    """The callables named in ``setting`` (a list of dotted paths; none when unset)."""
    return tuple(import_string(path) for path in getattr(settings, setting, None) or ())


def _forget_listed(**_) -> None:
    listed.cache_clear()  # a setting changed (override_settings): import the lists afresh


setting_changed.connect(_forget_listed, weak=False, dispatch_uid="config.announce.forget_listed")


class Announcer:
    """Announces one kind of change to the subscribers listed in ``setting``."""

    def __init__(self, setting: str) -> None:
        self.setting = setting

    def __repr__(self) -> str:
        return f"Announcer({self.setting!r})"

    def subscribers(self) -> tuple[Callable[[Any], None], ...]:
        return listed(self.setting)

    def deliver(self, change: Any) -> None:
        """Call every subscriber with ``change`` now; one failing never stops the next."""
        for subscriber in self.subscribers():
            try:
                subscriber(change)
            except Exception:  # the write has committed: a subscriber must not make it an error
                logger.exception("%s subscriber %r failed on %r", self.setting, subscriber, change)

    def announce(self, change: Any) -> None:
        """Deliver ``change`` to the subscribers once the current transaction commits."""
        transaction.on_commit(lambda: self.deliver(change))
