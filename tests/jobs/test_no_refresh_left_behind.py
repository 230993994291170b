"""No standings refresh left behind: bursts of deciding hands through the `make serve` layout,
and after every burst the snapshot is fresh again with no sweep running.

The stack (tests/jobs/stack.py): PostgreSQL, a Redis of the test's own, a worker on the default
queue and a worker of **two processes** on the standings lane, as `make serve` runs them, and
**no beat**: no sweep and no outbox repair, so only the jobs' own messages can make a snapshot
fresh. The refresh's round budget is cut to one (``JINK_STANDINGS_MAX_ROUNDS=1``), so every
refresh that sees the data move while it recomputes gives up — it must queue itself again —
and the two standings processes keep finding each other's lock taken (``busy``): the two ways a
change used to be left to the sweep (``tournaments.snapshots.refresh_standings``).

Each burst is a whole round of a swiss: every table's deciding hand posted back to back; the
worker draws the next round after the last one (auto-advance), so the data still moves after
the burst. Within ``FRESH_SECONDS`` the snapshot must equal a full recomputation at the
tournament's data version (``stale`` false) with no job message left in the outbox.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from games.models import Game, GameStatus
from outbox.models import PendingTask
from tests.helpers import token_client
from tests.jobs.stack import (
    Stack,
    side_connection,
    snapshot_is_a_full_recomputation,
    wait_until,
    waiting_on_a_lock,
)
from tests.tournaments.play_helpers import build_event, deciding_hand
from tournaments import services
from tournaments.models import Match, MatchStatus, StandingsSnapshot, Tournament

# Real worker processes: slow.
pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True), pytest.mark.slow]

TABLES = 16
BURSTS = 4
FRESH_SECONDS = 45


@pytest.fixture(scope="module")
def stack(django_db_setup, tmp_path_factory) -> Iterator[Stack]:
    running = Stack(
        tmp_path_factory.mktemp("bursts"), environment={"JINK_STANDINGS_MAX_ROUNDS": "1"}
    )
    try:
        running.start(standings_worker=True, standings_concurrency=2, beat=False)
        yield running
    finally:
        running.stop()


def nothing_pending() -> bool:
    return not PendingTask.objects.exists()


def fresh(tournament_id: int, round_number: int) -> bool:
    """Round ``round_number`` decided, the next drawn (or the tournament over), nothing queued,
    and the snapshot a full recomputation at the tournament's data version."""
    if (
        Match.objects.filter(tournament_id=tournament_id, round__number=round_number, is_bye=False)
        .exclude(status=MatchStatus.DECIDED)
        .exists()
    ):
        return False
    tournament = Tournament.objects.get(pk=tournament_id)
    if round_number < BURSTS and not tournament.rounds.filter(number=round_number + 1).exists():
        return False
    return nothing_pending() and snapshot_is_a_full_recomputation(tournament_id)


def test_after_every_burst_the_snapshot_is_fresh_without_a_sweep(stack):
    event = build_event(players=2 * TABLES)
    organiser = event.world.users["organiser"]
    tournament_id = services.create_tournament(
        club=event.club,
        user=organiser,
        values={"name": "Bursts", "game": "25", "format": "swiss", "round_count": BURSTS},
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    ).pk
    services.draw_next_round(tournament_id=tournament_id, user=organiser)
    assert wait_until(lambda: fresh(tournament_id, 0), FRESH_SECONDS)
    scorer = token_client(event.world.users["scorekeeper"])

    for round_number in range(1, BURSTS + 1):
        games = list(
            Game.objects.filter(
                match_link__match__tournament_id=tournament_id,
                match_link__match__round__number=round_number,
                status=GameStatus.IN_PROGRESS,
            ).order_by("match_link__match__table")
        )
        assert len(games) == TABLES
        statuses = [
            scorer.post(
                f"/api/games/{game.pk}/hands/", deciding_hand(game), format="json"
            ).status_code
            for game in games
        ]
        assert statuses == [201] * TABLES
        assert wait_until(
            lambda number=round_number: fresh(tournament_id, number), FRESH_SECONDS
        ), (
            f"round {round_number}: snapshot at data version "
            f"{StandingsSnapshot.objects.get(tournament_id=tournament_id).data_version}, "
            f"tournament at {Tournament.objects.get(pk=tournament_id).data_version}"
        )
        standings = event.ok("get", f"/api/tournaments/{tournament_id}/standings/")
        assert standings["stale"] is False

    assert StandingsSnapshot.objects.get(tournament_id=tournament_id).body["status"] == "finished"
    # The bursts did make refreshes meet each other (what this test is about): read from the
    # standings worker's log, where each task's outcome is logged.
    log = (stack.folder / "standings.log").read_text()
    outcomes = set(re.findall(r"'outcome': '(\w+)'", log))
    assert outcomes & {"busy", "requeued"}, sorted(outcomes)


def test_a_refresh_that_gives_up_while_another_was_refused_queues_itself_again(stack):
    """The case made certain: the refresh of hand A holds the lock, blocked on its write after
    reading the data version (a side connection holds the snapshot table); hand B is decided
    meanwhile by the other standings process, whose refresh finds the lock taken (busy). Once
    the write goes through, A's refresh has used its one round with B still not in it: it must
    queue itself again, or B waits for a sweep that never comes."""
    event = build_event(players=4, slug="certain")
    organiser = event.world.users["organiser"]
    tournament_id = services.create_tournament(
        club=event.club,
        user=organiser,
        values={"name": "Certain", "game": "25", "format": "swiss", "round_count": 2},
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    ).pk
    services.draw_next_round(tournament_id=tournament_id, user=organiser)
    assert wait_until(lambda: fresh(tournament_id, 0), FRESH_SECONDS)
    first, second = Game.objects.filter(
        match_link__match__tournament_id=tournament_id,
        status=GameStatus.IN_PROGRESS,
    ).order_by("match_link__match__table")
    scorer = token_client(event.world.users["scorekeeper"])
    lock = side_connection()
    lock.execute("LOCK TABLE tournaments_standingssnapshot IN EXCLUSIVE MODE")
    try:
        assert (
            scorer.post(
                f"/api/games/{first.pk}/hands/", deciding_hand(first), format="json"
            ).status_code
            == 201
        )
        assert wait_until(lambda: waiting_on_a_lock("tournaments_standingssnapshot"), FRESH_SECONDS)
        assert (
            scorer.post(
                f"/api/games/{second.pk}/hands/", deciding_hand(second), format="json"
            ).status_code
            == 201
        )
        # B's progress and its refresh (busy) done: only A's refresh is still in the outbox.
        assert wait_until(
            lambda: (
                list(PendingTask.objects.values_list("task", flat=True))
                == ["tournaments.refresh_standings_task"]
            ),
            FRESH_SECONDS,
        )
    finally:
        lock.rollback()
        lock.close()
    assert wait_until(lambda: fresh(tournament_id, 1), FRESH_SECONDS)
