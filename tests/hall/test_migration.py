"""Hall migration 0002 (a hall for club nights) keeps an event's hall settings: backwards to
0001 (the tournament the key again) and forwards (its own ``id``), every row and value kept."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from hall import services as hall_services
from tests.hall.helpers import drive
from tests.tournaments.play_helpers import build_event


def _rows() -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tournament_id, hide_leaders, version FROM hall_hallsettings ORDER BY 1"
        )
        return cursor.fetchall()


def _key() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
            " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'hall_hallsettings'::regclass"
            " AND i.indisprimary"
        )
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.django_db(transaction=True)
def test_0002_keeps_the_events_hall_settings_both_ways():
    event = build_event(players=4)
    tournament_id = drive(event, players=event.players)
    organiser = event.world.users["organiser"]
    hall_services.update_hall_settings(
        tournament_id=tournament_id, user=organiser, hide_leaders=True
    )
    before = _rows()
    assert before == [(tournament_id, True, 2)]
    assert _key() == ["id"]
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes("hall")
    try:
        MigrationExecutor(connection).migrate([("hall", "0001_initial")])
        assert (_rows(), _key()) == (before, ["tournament_id"])
    finally:
        MigrationExecutor(connection).migrate(latest)
    assert (_rows(), _key()) == (before, ["id"])
