"""The periodic sweeps run one at a time across workers (config.singleton.one_at_a_time): a sweep
that finds another run of itself holding its guard returns at once and touches nothing; once the
guard is free it sweeps as before, and releases the guard when done."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db.models import F

from config.singleton import LOCK_CLASS
from tests.jobs.stack import side_connection
from tests.tournaments.play_helpers import build_event
from tournaments import services, snapshots
from tournaments.models import StandingsSnapshot, Tournament
from tournaments.tasks import repair_tournaments_task, sweep_standings_task

pytestmark = pytest.mark.django_db


def test_a_sweep_finding_another_run_of_itself_going_returns_and_touches_nothing():
    event = build_event(players=4)
    tournament_id = services.create_tournament(
        club=event.club,
        user=event.world.users["organiser"],
        values={"name": "League", "game": "25", "format": "round_robin"},
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    ).pk
    snapshots.refresh_standings(tournament_id=tournament_id)
    # The data moves and its refresh message is lost: only the sweep brings the snapshot up.
    Tournament.objects.filter(pk=tournament_id).update(data_version=F("data_version") + 1)
    version = StandingsSnapshot.objects.get(tournament_id=tournament_id).version
    key = sweep_standings_task.run.guard_key

    with side_connection() as other:  # another worker's run of the same sweep
        other.execute("SELECT pg_advisory_lock(%s, %s)", [LOCK_CLASS, key])
        assert sweep_standings_task.apply().get() is None
        assert snapshots.list_stale_tournaments() == [tournament_id]
        # The guard is per sweep: another kind of sweep still runs.
        assert repair_tournaments_task.apply().get() == 0
        other.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_CLASS, key])

    assert sweep_standings_task.apply().get() == 1
    assert StandingsSnapshot.objects.get(tournament_id=tournament_id).version == version + 1
    assert snapshots.list_stale_tournaments() == []
    # The run released its guard: another session can take it at once.
    with side_connection() as other:
        assert other.execute(
            "SELECT pg_try_advisory_lock(%s, %s)", [LOCK_CLASS, key]
        ).fetchone() == (True,)


def test_behind_a_transaction_pooler_a_guarded_sweep_refuses_to_run_and_touches_nothing(settings):
    """A session lock through PgBouncer in transaction mode would stay on whichever server
    connection took it: the guarded sweep refuses, naming the fix, instead of sweeping."""
    event = build_event(players=4)
    tournament_id = services.create_tournament(
        club=event.club,
        user=event.world.users["organiser"],
        values={"name": "League", "game": "25", "format": "round_robin"},
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    ).pk
    snapshots.refresh_standings(tournament_id=tournament_id)
    Tournament.objects.filter(pk=tournament_id).update(data_version=F("data_version") + 1)
    version = StandingsSnapshot.objects.get(tournament_id=tournament_id).version
    settings.DATABASE_POOLER = "transaction"

    with pytest.raises(ImproperlyConfigured, match="direct DATABASE_URL"):
        sweep_standings_task.run()

    assert StandingsSnapshot.objects.get(tournament_id=tournament_id).version == version
    assert snapshots.list_stale_tournaments() == [tournament_id]
