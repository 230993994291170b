"""Stored standings: what moves them, the job that recomputes them, and how reads find them.

What it does:
- ``note_standings_moved(tournament, ...)``: called by tournaments' own services inside the
  transaction of any change the standings are computed from (a match result, a round drawn or
  dropped, an entrant, a setting, the status). It bumps ``Tournament.data_version`` in that same
  transaction — so the bump is never lost, and never seen before the change — and on commit
  queues ``refresh_standings_task`` and announces a ``TournamentChange``.
- ``refresh_standings(tournament_id)``: the job. Under a PostgreSQL advisory lock per tournament
  (held for the transaction; a killed worker's lock dies with its connection) it reads the data
  version, recomputes from the rows and stores the snapshot with ``version + 1`` — unless the
  snapshot is already at that data version (a duplicate or late message stores nothing). A
  worker that finds the lock taken returns at once: the holder re-reads the data version after
  committing and goes round again while it moved, so a burst of changes costs a few
  recomputations, at most one at a time per tournament across all workers; after
  ``MAX_ROUNDS`` still moving it queues itself again (never leaves a change to the sweep).
- ``list_stale_tournaments()``: tournaments whose snapshot is behind (or missing), for the beat
  sweep; ``oldest_stale_age()`` for ``/health/workers/`` (config.backlog).
- ``read_standings(tournament)``: the snapshot for the API and pages, with ``stale``; computed
  and stored on the spot only when none exists yet.

What it does not do: rank anything (``tournaments.standings``) or decide who may read.

Terms: *data version* — ``Tournament.data_version``; *version* — the snapshot's own counter, its
``ETag``; *stale* — the snapshot's data version is behind the tournament's.

On SQLite (the embedded setup) there is no advisory lock: tasks run in process, one at a time.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, OuterRef, Subquery
from django.utils import timezone

from config.tasks import enqueue
from tournaments.changes import TournamentChange, TournamentChangeKind, announce_tournament_change
from tournaments.models import StandingsSnapshot, Tournament
from tournaments.standings import compute_standings

logger = logging.getLogger(__name__)

# The first key of the two-key advisory lock: "standings" for tournaments (any constant unique
# in the project; the second key is the tournament id).
ADVISORY_LOCK_CLASS = 0x5354
MAX_ROUNDS = settings.JINK_STANDINGS_MAX_ROUNDS


def note_standings_moved(
    tournament: Tournament,
    *,
    kinds=(TournamentChangeKind.STANDINGS_CHANGED,),
    match_ids: tuple[int, ...] = (),
    round_number: int | None = None,
    actor=None,
) -> None:
    """Bump the data version now (the caller's transaction) and refresh after the commit."""
    Tournament.objects.filter(pk=tournament.pk).update(data_version=F("data_version") + 1)
    tournament.data_version = (tournament.data_version or 0) + 1
    tournament_id = tournament.pk
    transaction.on_commit(lambda: _queue_refresh(tournament_id))
    announce_tournament_change(
        TournamentChange(
            tournament_id=tournament.pk,
            club_id=tournament.club_id,
            kinds=frozenset({TournamentChangeKind.STANDINGS_CHANGED, *kinds}),
            match_ids=tuple(match_ids),
            round_number=round_number,
            actor_id=getattr(actor, "pk", None)
            if getattr(actor, "is_authenticated", False)
            else None,
        )
    )


def _queue_refresh(tournament_id: int) -> None:
    enqueue("tournaments.refresh_standings_task", tournament_id)


def _try_lock(tournament_id: int) -> bool:
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_try_advisory_xact_lock(%s, %s)", [ADVISORY_LOCK_CLASS, tournament_id]
        )
        return bool(cursor.fetchone()[0])


def _refresh_once(tournament_id: int) -> str:
    with transaction.atomic():
        if not _try_lock(tournament_id):
            return "busy"
        tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
        if tournament is None:
            return "missing"
        target = tournament.data_version
        snapshot = StandingsSnapshot.objects.filter(tournament_id=tournament_id).first()
        if snapshot is not None and snapshot.data_version >= target:
            return "current"
        body = _body_of(tournament)
        if snapshot is None:
            StandingsSnapshot.objects.create(
                tournament=tournament,
                version=1,
                data_version=target,
                body=body,
                computed_at=timezone.now(),
            )
        else:
            snapshot.version += 1
            snapshot.data_version = target
            snapshot.body = body
            snapshot.computed_at = timezone.now()
            snapshot.save()
        announce_tournament_change(
            TournamentChange(
                tournament_id=tournament.pk,
                club_id=tournament.club_id,
                kinds=frozenset({TournamentChangeKind.STANDINGS_UPDATED}),
                snapshot_version=snapshot.version if snapshot is not None else 1,
            )
        )
        return "stored"


def _body_of(tournament: Tournament) -> dict:
    """The standings as a snapshot stores them (without the ETag and the time)."""
    result = compute_standings(tournament, with_etag=False)
    return {key: value for key, value in result.items() if key not in ("etag", "computed_at")}


def _behind(tournament_id: int) -> bool:
    """The snapshot is behind the data version (or missing), read without the lock."""
    return _stale_queryset().filter(pk=tournament_id).exists()


def refresh_standings(*, tournament_id: int) -> dict:
    """Bring the tournament's snapshot up to its data version; returns what happened.

    ``{"tournament", "stored": n, "outcome"}``: ``stored`` recomputations were stored; the last
    outcome is ``current`` (nothing to do), ``busy`` (another worker holds the lock), ``missing``
    or ``requeued`` (still moving after ``MAX_ROUNDS``: this job queued itself again, behind the
    other tournaments' work, instead of leaving the change to the sweep).

    No change is left behind: a refresh that finds the lock taken returns at once, because the
    holder looks again after it releases the lock. After each round (stored or found current)
    the holder reads the data version again once the commit has released the lock, and goes
    round again while it moved: a change committed before that release — whose own refresh may
    have been refused the lock (``busy``) — is seen there. A busy refresh's change committed
    before it tried the lock, so before the holder's release: the holder's look after the
    release sees it, or the next holder (whose read follows its own lock) does.
    """
    stored = 0
    outcome = "current"
    for _ in range(MAX_ROUNDS):
        outcome = _refresh_once(tournament_id)
        if outcome == "stored":
            stored += 1
        elif outcome != "current":
            break  # busy (the holder looks again after its release) or missing
        if not _behind(tournament_id):  # read after the release: nothing moved meanwhile
            outcome = "current"
            break
    else:
        transaction.on_commit(lambda: _queue_refresh(tournament_id))
        outcome = "requeued"
        logger.info(
            "standings of %s still moving after %s rounds: queued again", tournament_id, MAX_ROUNDS
        )
    return {"tournament": tournament_id, "stored": stored, "outcome": outcome}


def _stale_queryset():
    snapshot = StandingsSnapshot.objects.filter(tournament=OuterRef("pk"))
    return Tournament.objects.annotate(
        snapshot_data_version=Subquery(snapshot.values("data_version")[:1]),
        snapshot_computed_at=Subquery(snapshot.values("computed_at")[:1]),
    ).exclude(snapshot_data_version__gte=F("data_version"))


def list_stale_tournaments() -> list[int]:
    """Tournaments whose snapshot is behind their data, or missing (for the sweep)."""
    return list(_stale_queryset().order_by("pk").values_list("pk", flat=True))


def oldest_stale_age() -> float | None:
    """Seconds since the oldest stale snapshot was computed (None: nothing stale)."""
    oldest = (
        _stale_queryset()
        .filter(snapshot_computed_at__isnull=False)
        .order_by("snapshot_computed_at")
        .values_list("snapshot_computed_at", flat=True)
        .first()
    )
    if oldest is None:
        return None
    return (timezone.now() - oldest).total_seconds()


def read_standings(tournament: Tournament) -> dict:
    """``{"version", "data_version", "stale", "computed_at", **body}`` of the snapshot.

    One query when a snapshot exists (``tournament`` carries its ``data_version``); the first
    read of a tournament without one computes and stores it. When a worker holds the lock while
    it stores the first snapshot (the refresh here is ``busy``), this read computes the standings
    itself and answers them unstored (version 0), rather than wait or fail.
    """
    snapshot = StandingsSnapshot.objects.filter(tournament_id=tournament.pk).first()
    if snapshot is None:
        refresh_standings(tournament_id=tournament.pk)
        snapshot = StandingsSnapshot.objects.filter(tournament_id=tournament.pk).first()
    if snapshot is None:  # busy: the holder's first snapshot is not committed yet
        snapshot = StandingsSnapshot(
            tournament=tournament,
            version=0,
            data_version=tournament.data_version,
            body=_body_of(tournament),
            computed_at=timezone.now(),
        )
    return snapshot_json(snapshot, tournament)


def snapshot_json(snapshot: StandingsSnapshot, tournament: Tournament) -> dict:
    return {
        **snapshot.body,
        "version": snapshot.version,
        "data_version": snapshot.data_version,
        "stale": snapshot.data_version < tournament.data_version,
        "computed_at": snapshot.computed_at,
        "etag": etag_of_snapshot(snapshot),
    }


def etag_of_snapshot(snapshot: StandingsSnapshot) -> str:
    return f'"s{snapshot.tournament_id}-{snapshot.version}"'
