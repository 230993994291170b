"""Celery tasks of settlements: store a settle-up version, send its e-mails, sweep what is behind.

What it does: ``settle_event_task(tournament_id, night_id)`` calls ``settle_up.settle_event``
(queued when a tournament or a night closes, when a game of a closed night changes its result,
when a closed tournament is corrected, and when an entry fee of a closed event is marked; the
service queues the e-mails of the version it stored and announces it after its commit);
``send_settle_up_mails_task(settlement_id)`` sends them (both retried with back-off on transient
database errors, ``RETRY``);
``sweep_settlements_task`` (beat) settles every closed event with no version yet, and every closed
night with a game changed since its latest version, and sends any e-mail not sent (the lists are
``selectors.list_events_to_settle`` and ``list_settlements_with_unsent_mails``; one sweep at a
time, ``config.singleton.one_at_a_time``; never retried: the next run repairs), so a lost message
only delays a settle-up.

What it does not do: decide anything (the services do) or trust the message beyond its ids. All
three are safe to run twice (a version is stored under the event's row lock only when something
is still owed; a mail row is sent once), hence ``acks_late``.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from config.problems import Problem
from config.singleton import one_at_a_time
from settlements import mails, selectors, settle_up

RETRY = {
    # Only transient database trouble (a dropped connection, a lock timeout) is retried, with
    # back-off; the work is idempotent.
    "acks_late": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 5,
}


@shared_task(name="settlements.settle_event_task", **RETRY)
def settle_event_task(tournament_id: int | None, night_id: int | None) -> int | None:
    """Store the event's next settle-up version if anything is owed; returns its version."""
    try:
        settlement = settle_up.settle_event(tournament_id=tournament_id, night_id=night_id)
    except Problem:
        return None  # not closed (reopened meanwhile) or gone: nothing to settle
    return None if settlement is None else settlement.version


@shared_task(name="settlements.send_settle_up_mails_task", **RETRY)
def send_settle_up_mails_task(settlement_id: int) -> int:
    return mails.send_settle_up_mails(settlement_id=settlement_id)


# No retries: the next periodic run repairs whatever this one could not.
@shared_task(name="settlements.sweep_settlements_task", acks_late=True)
@one_at_a_time
def sweep_settlements_task() -> int | None:
    """Settle closed events without a version; resend unsent mails. Returns versions stored."""
    stored = 0
    tournament_ids, night_ids = selectors.list_events_to_settle()
    for tournament_id in tournament_ids:
        stored += settle_event_task(tournament_id, None) is not None
    for night_id in night_ids:
        stored += settle_event_task(None, night_id) is not None
    for settlement_id in selectors.list_settlements_with_unsent_mails():
        mails.send_settle_up_mails(settlement_id=settlement_id)
    return stored
