"""Coalescing of standings refreshes, proven with a real Celery worker on Redis.

A burst of 50 deciding hands in one swiss (50 tables) while the worker is in the middle of a
recomputation: the refresh messages pile up behind the match progress messages on the standings
queue, and each refresh recomputes from the data version it reads, not from its message. So the
burst costs exactly two stored recomputations — the one in progress when the burst began (it
stores what it read, then finds nothing newer), and the first refresh to run after every match's
progress (it reads all 50 results) — and the 48 refreshes after it store nothing.

"In the middle of a recomputation" is made certain, not hoped for: a side connection holds the
snapshot table in EXCLUSIVE mode (reads allowed, writes wait) until PostgreSQL shows the worker
waiting on it, and until the whole burst is posted. The worker runs in a thread of this process
(tests/conftest.py ``celery_worker``), without beat: no sweep stores anything in between.
"""

from __future__ import annotations

import pytest

from games.models import Game, GameStatus
from outbox.models import PendingTask
from tests.helpers import token_client
from tests.jobs.stack import (
    side_connection,
    snapshot_is_a_full_recomputation,
    wait_until,
    waiting_on_a_lock,
)
from tests.tournaments.play_helpers import build_event, deciding_hand
from tournaments import services
from tournaments.models import Match, MatchStatus, StandingsSnapshot

pytestmark = pytest.mark.redis

HANDS = 50
SECONDS = 60


def nothing_pending() -> bool:
    return not PendingTask.objects.filter(
        task__in=["tournaments.match_progress_task", "tournaments.refresh_standings_task"]
    ).exists()


def test_a_burst_of_50_hands_costs_two_recomputations(celery_worker_with_database):
    event = build_event(players=2 * HANDS)
    organiser = event.world.users["organiser"]
    tournament_id = services.create_tournament(
        club=event.club,
        user=organiser,
        values={"name": "Burst", "game": "25", "format": "swiss", "round_count": 1},
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    ).pk
    services.draw_next_round(tournament_id=tournament_id, user=organiser)
    assert wait_until(
        lambda: snapshot_is_a_full_recomputation(tournament_id) and nothing_pending(), SECONDS
    )
    before = StandingsSnapshot.objects.get(tournament_id=tournament_id).version
    games = [
        Game.objects.get(match_link__match_id=match_id, status=GameStatus.IN_PROGRESS)
        for match_id in Match.objects.filter(tournament_id=tournament_id, is_bye=False)
        .order_by("table")
        .values_list("pk", flat=True)
    ]
    assert len(games) == HANDS
    scorer = token_client(event.world.users["scorekeeper"])

    lock = side_connection()
    lock.execute("LOCK TABLE tournaments_standingssnapshot IN EXCLUSIVE MODE")
    try:
        statuses = [
            scorer.post(
                f"/api/games/{games[0].pk}/hands/", deciding_hand(games[0]), format="json"
            ).status_code
        ]
        assert wait_until(lambda: waiting_on_a_lock("tournaments_standingssnapshot"), SECONDS)
        statuses += [
            scorer.post(
                f"/api/games/{game.pk}/hands/", deciding_hand(game), format="json"
            ).status_code
            for game in games[1:]
        ]
    finally:
        lock.rollback()
        lock.close()
    assert statuses == [201] * HANDS

    assert wait_until(
        lambda: (
            nothing_pending()
            and not Match.objects.filter(
                tournament_id=tournament_id,
                is_bye=False,
            )
            .exclude(status=MatchStatus.DECIDED)
            .exists()
        ),
        SECONDS,
    )
    assert snapshot_is_a_full_recomputation(tournament_id)
    snapshot = StandingsSnapshot.objects.get(tournament_id=tournament_id)
    assert snapshot.version - before == 2
    assert snapshot.body["status"] == "finished"
    assert len(snapshot.body["standings"]) == 2 * HANDS
