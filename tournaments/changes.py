"""What changed in a tournament, announced once after the commit: how tournaments tells the rest.

What it does: mirrors ``games.changes`` one floor up. A service of tournaments that draws a round,
decides (or undecides) a match, changes what the standings are computed from, or closes the
tournament calls ``announce_tournament_change``; after the transaction commits every subscriber
named in ``JINK_TOURNAMENT_CHANGE_SUBSCRIBERS`` (config/settings.py, dotted paths) is called with
the ``TournamentChange``. A write that rolls back announces nothing. Tournaments imports none of
the subscribers (the apps above it: settlements, seasons, webhooks), and import-linter proves it.

What it does not do: run work, retry or queue anything; a subscriber must be quick and never
fail the committed request (it calls ``config.tasks.enqueue``). A failing subscriber is logged
and the next still runs.

Terms (``TournamentChangeKind``): ``round_drawn``; ``match_decided`` (a match got, or changed,
its placings; ``match_ids`` says which); ``standings_changed`` (anything the standings read
moved: a result, a round, a withdrawal, a setting); ``standings_updated`` (a job stored a new
standings snapshot, ``snapshot_version``); ``closed``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)


class TournamentChangeKind(StrEnum):
    ROUND_DRAWN = "round_drawn"
    MATCH_DECIDED = "match_decided"
    STANDINGS_CHANGED = "standings_changed"
    STANDINGS_UPDATED = "standings_updated"
    CLOSED = "closed"
    # A closed tournament's match or standings followed an organiser's correction after the
    # close (``progress.progress_match``): the settle-up stores a version of differences.
    CORRECTED_AFTER_CLOSE = "corrected_after_close"


@dataclass(frozen=True)
class TournamentChange:
    tournament_id: int
    club_id: int
    kinds: frozenset[TournamentChangeKind]
    match_ids: tuple[int, ...] = ()
    round_number: int | None = None
    actor_id: int | None = None
    snapshot_version: int | None = None


@cache
def subscribers() -> tuple[Callable[[TournamentChange], None], ...]:
    return tuple(
        import_string(path) for path in getattr(settings, "JINK_TOURNAMENT_CHANGE_SUBSCRIBERS", ())
    )


def deliver(change: TournamentChange) -> None:
    """Call every subscriber with ``change`` now; one failing never stops the next."""
    for subscriber in subscribers():
        try:
            subscriber(change)
        except Exception:  # the write has committed: a subscriber must not turn it into an error
            logger.exception("tournament change subscriber %r failed on %r", subscriber, change)


def announce_tournament_change(change: TournamentChange) -> None:
    """Deliver ``change`` to the subscribers once the current transaction commits."""
    transaction.on_commit(lambda: deliver(change))
