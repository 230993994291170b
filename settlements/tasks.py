"""Celery tasks of settlements: store a settle-up version, send its e-mails, sweep what is behind.

What it does: ``settle_event_task(tournament_id, night_id)`` calls ``services.settle_event``
(queued when a tournament or a night closes, or a game of a closed night changes; the service
queues the e-mails of the version it stored and announces it after its commit);
``send_settle_up_mails_task(settlement_id)`` sends them;
``sweep_settlements_task`` (beat) settles every closed event with no version yet, and every closed
night with a game changed since its latest version, and sends any e-mail not sent, so a lost
message only delays a settle-up.

What it does not do: decide anything (the services do) or trust the message beyond its ids. All
three are safe to run twice (a version is stored under the event's row lock only when something
is still owed; a mail row is sent once), hence ``acks_late``.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError
from django.db.models import F, OuterRef, Subquery

from config.problems import Problem
from config.singleton import one_at_a_time
from settlements import services
from settlements.models import Night, NightGame, NightStatus, Settlement, SettleUpMail
from tournaments.models import Tournament, TournamentStatus

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
        settlement = services.settle_event(tournament_id=tournament_id, night_id=night_id)
    except Problem:
        return None  # not closed (reopened meanwhile) or gone: nothing to settle
    return None if settlement is None else settlement.version


@shared_task(name="settlements.send_settle_up_mails_task", **RETRY)
def send_settle_up_mails_task(settlement_id: int) -> int:
    return services.send_settle_up_mails(settlement_id=settlement_id)


# No retries: the next periodic run repairs whatever this one could not.
@shared_task(name="settlements.sweep_settlements_task", acks_late=True)
@one_at_a_time
def sweep_settlements_task() -> int | None:
    """Settle closed events without a version; resend unsent mails. Returns versions stored."""
    stored = 0
    tournaments = Tournament.objects.filter(status=TournamentStatus.CLOSED).exclude(
        pk__in=Settlement.objects.filter(tournament__isnull=False).values("tournament_id")
    ).values_list("pk", flat=True)
    nights = Night.objects.filter(status=NightStatus.CLOSED).exclude(
        pk__in=Settlement.objects.filter(night__isnull=False).values("night_id")
    ).values_list("pk", flat=True)
    # Closed nights with a game changed after their latest version (a correction whose
    # re-settle message was lost): settling again stores a version only if something is owed.
    latest = Settlement.objects.filter(night=OuterRef("night_id")).order_by("-created_at")
    changed = (
        NightGame.objects.filter(night__status=NightStatus.CLOSED)
        .annotate(settled_at=Subquery(latest.values("created_at")[:1]))
        .filter(settled_at__isnull=False, game__updated_at__gt=F("settled_at"))
        .values_list("night_id", flat=True).distinct()
    )
    for tournament_id in tournaments:
        stored += settle_event_task(tournament_id, None) is not None
    for night_id in sorted(set(nights) | set(changed)):
        stored += settle_event_task(None, night_id) is not None
    for settlement_id in set(
        SettleUpMail.objects.filter(sent_at__isnull=True).values_list("settlement_id", flat=True)
    ):
        services.send_settle_up_mails(settlement_id=settlement_id)
    return stored
