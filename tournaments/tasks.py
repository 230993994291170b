"""Celery tasks of tournaments: bring a match (and so its tournament) up to date with its games.

What it does: ``match_progress_task(match_id)`` is queued by name after the commit of any change
to a tournament game's result (a game finished, reopened or its winner changed) by the subscriber
``tournaments.game_hooks.progress_match_of_game``, which games calls through
``JINK_GAME_CHANGE_SUBSCRIBERS``. It
recomputes the match from its games and advances the tournament, by calling
``tournaments.services.progress_match``. ``repair_tournaments_task`` is the periodic safety net: it
runs the same recomputation for every match of a running tournament whose games disagree with it,
so a lost message only delays an advance, never loses it.

``refresh_standings_task(tournament_id)`` brings the tournament's standings snapshot up to its
data version (``tournaments.snapshots``: coalesced, one at a time per tournament under an
advisory lock); ``sweep_standings_task`` (beat, every minute) refreshes every snapshot behind its
data, so a lost message only delays a snapshot.

What it does not do: decide anything itself (the services do) or trust anything in the message
but the id: the games are the source of truth, so running a task twice (or late, or after a
newer one) gives the same result.
"""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError, OperationalError

from config.singleton import one_at_a_time
from tournaments import services, snapshots


# Retries: only for transient database trouble (a dropped connection, a serialization failure or
# a lock timeout); the recomputation is idempotent, so repeating it is always safe — hence also
# acks_late, so a worker killed mid-task leaves the message to be redelivered.
@shared_task(
    name="tournaments.match_progress_task",
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def match_progress_task(match_id: int) -> dict:
    """Recompute match ``match_id`` from its games and advance its tournament; returns a summary
    (``MatchProgress.summary``)."""
    return services.progress_match(match_id=match_id).summary()


# No retries: the next periodic run repairs whatever this one could not.
@shared_task(name="tournaments.repair_tournaments_task", acks_late=True)
@one_at_a_time
def repair_tournaments_task() -> int | None:
    """Progress every match that is out of step with its games; returns how many were repaired."""
    repaired = 0
    for match_id in services.list_matches_needing_progress():
        try:
            services.progress_match(match_id=match_id)
        except DatabaseError:
            continue  # another worker holds the lock, or the database hiccuped: next run
        repaired += 1
    return repaired


# acks_late: a worker killed mid-recomputation leaves the message to be redelivered (its
# transaction and advisory lock die with its connection); the recomputation is idempotent.
# Retries: transient database trouble only.
@shared_task(
    name="tournaments.refresh_standings_task",
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_backoff_max=30,
    max_retries=5,
)
def refresh_standings_task(tournament_id: int) -> dict:
    return snapshots.refresh_standings(tournament_id=tournament_id)


# No retries: the next periodic run repairs whatever this one could not.
@shared_task(name="tournaments.sweep_standings_task", acks_late=True)
@one_at_a_time
def sweep_standings_task() -> int | None:
    """Refresh every snapshot behind its data; returns how many recomputations were stored."""
    stored = 0
    for tournament_id in snapshots.list_stale_tournaments():
        try:
            stored += snapshots.refresh_standings(tournament_id=tournament_id)["stored"]
        except DatabaseError:
            continue  # the database hiccuped: next run
    return stored
