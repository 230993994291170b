"""The jobs under faults, on the real stack: PostgreSQL, a Redis server of the test's own, a real
Celery worker process and beat (tests/jobs/stack.py).

- ``kill -9`` of the worker in the middle of a standings recomputation and of a settlement: after
  a restart the snapshot equals a full recomputation within 60 s, and exactly one settlement
  version is stored.
- Redis stopped for 30 s while hands are posted: every hand is stored, no 5xx, and the snapshots
  converge within 60 s once Redis is back (the sweeps repair the lost messages).
- The same message delivered twice: one result.
- A webhook receiver on loopback failing twice, then succeeding: delivered once, signature valid.

"Mid-task" is made certain, not hoped for: a side connection holds a table lock the task needs for
its last write, the test waits until PostgreSQL shows the worker waiting on it, and only then
kills the worker. The sweeps run every 2 s here (``JINK_SWEEP_SECONDS``).
"""

from __future__ import annotations

import hashlib
import hmac
import http.server
import json
import threading
import time
from collections.abc import Iterator

import pytest

from settlements.models import Night, Settlement
from tests.jobs.stack import (
    Stack,
    side_connection,
    snapshot_is_a_full_recomputation,
    wait_until,
    waiting_on_a_lock,
)
from tests.tournaments.play_helpers import build_event, win_game
from tournaments.models import Match, MatchStatus, StandingsSnapshot, Tournament
from webhooks.delivery import publish_event, register_endpoint
from webhooks.models import DeliveryStatus, WebhookDelivery

# Real worker, beat and Redis processes killed and restarted: slow.
pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True), pytest.mark.slow]

CONVERGE_SECONDS = 60


@pytest.fixture(scope="module")
def stack(django_db_setup, tmp_path_factory) -> Iterator[Stack]:
    running = Stack(tmp_path_factory.mktemp("stack"))
    try:
        running.start()
        yield running
    finally:
        running.stop()


def league(event) -> int:
    tournament_id = event.create_tournament(
        name="League",
        game="25",
        format="round_robin",
        auto_advance=False,
        entrants=[
            {"player": player.pk, "seed": index + 1} for index, player in enumerate(event.players)
        ],
    )["id"]
    event.draw(tournament_id)
    return tournament_id


def hold_lock(stack: Stack, table: str):
    side = side_connection()
    side.execute(f"LOCK TABLE {table} IN EXCLUSIVE MODE")  # opens a transaction; held till end
    return side


def test_kill_9_mid_recomputation_then_the_snapshot_converges(stack):
    event = build_event(players=4)
    tournament_id = league(event)
    assert wait_until(lambda: snapshot_is_a_full_recomputation(tournament_id), CONVERGE_SECONDS)
    lock = hold_lock(stack, "tournaments_standingssnapshot")
    try:
        first = Match.objects.filter(tournament_id=tournament_id).order_by("table").first()
        game = first.games.get()
        win_game(event, game.pk, 0)  # the progress, then the recomputation, run in the worker
        assert wait_until(lambda: waiting_on_a_lock("tournaments_standingssnapshot"), 30)
        stack.kill_worker()
    finally:
        lock.rollback()
        lock.close()
    assert not snapshot_is_a_full_recomputation(tournament_id)  # the kill lost the work
    stack.start_worker()
    assert wait_until(lambda: snapshot_is_a_full_recomputation(tournament_id), CONVERGE_SECONDS)
    assert Match.objects.get(pk=first.pk).status == MatchStatus.DECIDED

    # The same message delivered twice, on new data: one recomputation stored.
    from django.db.models import F

    from tournaments.tasks import refresh_standings_task

    Tournament.objects.filter(pk=tournament_id).update(data_version=F("data_version") + 1)
    version = StandingsSnapshot.objects.get(tournament_id=tournament_id).version
    for _ in range(2):
        refresh_standings_task.apply_async(args=(tournament_id,))
    assert wait_until(lambda: snapshot_is_a_full_recomputation(tournament_id), CONVERGE_SECONDS)
    time.sleep(1)  # let the second message run too
    assert StandingsSnapshot.objects.get(tournament_id=tournament_id).version == version + 1


def test_kill_9_mid_settlement_then_exactly_one_version(stack):
    event = build_event(players=2)
    ann, bill = event.players
    night = event.ok(
        "post", f"/api/clubs/{event.club.slug}/nights/", {"name": "Friday"}, status=201
    )
    game_id = event.ok(
        "post",
        f"/api/clubs/{event.club.slug}/games/",
        {
            "game": "25",
            "seats": [ann.pk, bill.pk],
            "first_dealer": 0,
            "stake": "0.20",
        },
        status=201,
        role="scorekeeper",
    )["id"]
    win_game(event, game_id, 1)
    lock = hold_lock(stack, "settlements_settlementtransfer")
    try:
        event.ok("post", f"/api/nights/{night['id']}/close/")
        assert wait_until(lambda: waiting_on_a_lock("settlements_settlementtransfer"), 30)
        stack.kill_worker()
    finally:
        lock.rollback()
        lock.close()
    assert not Settlement.objects.filter(night_id=night["id"]).exists()
    stack.start_worker()
    assert wait_until(
        lambda: Settlement.objects.filter(night_id=night["id"]).exists(), CONVERGE_SECONDS
    )
    # The same message delivered twice more, and a few sweeps: still one version.
    from settlements.tasks import settle_event_task

    for _ in range(2):
        settle_event_task.apply_async(args=(None, night["id"]))
    time.sleep(3 * 2)
    (settlement,) = Settlement.objects.filter(night_id=night["id"])
    assert settlement.version == 1
    assert list(settlement.transfers.values_list("payer_id", "payee_id", "amount_minor")) == [
        (ann.pk, bill.pk, 40),
    ]
    assert Night.objects.get(pk=night["id"]).status == "closed"


def test_redis_stopped_for_30_seconds_while_hands_are_posted(stack):
    event = build_event(players=4)
    tournament_id = league(event)
    assert wait_until(lambda: snapshot_is_a_full_recomputation(tournament_id), CONVERGE_SECONDS)
    stopped_at = time.monotonic()
    stack.stop_redis()
    try:
        statuses = []
        for match in Match.objects.filter(tournament_id=tournament_id).order_by("table"):
            game = match.games.get()
            for trick_winners in ([0, 0, 1, 1, 0], [0, 0]):  # 15-10, then 25: side 0 wins
                response = event.client("scorekeeper").post(
                    f"/api/games/{game.pk}/hands/",
                    {"dealer": _next_dealer(game.pk), "trump": "S", "trick_winners": trick_winners},
                    format="json",
                )
                statuses.append(response.status_code)
        assert statuses == [201, 201, 201, 201]
        time.sleep(max(0.0, 30 - (time.monotonic() - stopped_at)))
    finally:
        stack.start_redis()
    assert wait_until(
        lambda: (
            snapshot_is_a_full_recomputation(tournament_id)
            and not Match.objects.filter(tournament_id=tournament_id)
            .exclude(status=MatchStatus.DECIDED)
            .exists()
        ),
        CONVERGE_SECONDS,
    )


def _next_dealer(game_id: int) -> int:
    from games.models import Game

    return Game.objects.get(pk=game_id).next_dealer


class Receiver(http.server.BaseHTTPRequestHandler):
    """Fails the first two requests with 503, then answers 204; records every request."""

    received: list[dict] = []

    def do_POST(self):  # noqa: N802  (the name http.server calls)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append({"headers": dict(self.headers), "body": body})
        self.send_response(503 if len(self.received) <= 2 else 204)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_a_webhook_failing_twice_is_delivered_once_signed(stack, settings):
    settings.JINK_WEBHOOKS_ALLOW_LOOPBACK_HTTP = True  # the worker has it from its environment
    Receiver.received = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        event = build_event(players=2)
        endpoint = register_endpoint(
            club=event.club,
            user=event.world.users["organiser"],
            url=f"http://127.0.0.1:{server.server_address[1]}/hook",
            events=["game.finished"],
        )
        (delivery_id,) = publish_event(
            club_id=event.club.pk, event_type="game.finished", data={"game": 7}
        )
        assert wait_until(
            lambda: WebhookDelivery.objects.get(pk=delivery_id).status == DeliveryStatus.DELIVERED,
            CONVERGE_SECONDS,
        )
        time.sleep(2 * 2)  # sweeps pass: a delivered event is never sent again
    finally:
        server.shutdown()
    delivery = WebhookDelivery.objects.get(pk=delivery_id)
    assert (delivery.attempts, delivery.last_status_code) == (3, 204)
    assert len(Receiver.received) == 3
    ids = {request["headers"]["Jink-Event-Id"] for request in Receiver.received}
    assert ids == {str(delivery.event_id)}
    for request in Receiver.received:
        fields = dict(
            part.split("=", 1) for part in request["headers"]["Jink-Signature"].split(",")
        )
        expected = hmac.new(
            endpoint.secret.encode(), fields["t"].encode() + b"." + request["body"], hashlib.sha256
        ).hexdigest()
        assert hmac.compare_digest(fields["v1"], expected)
        assert json.loads(request["body"])["data"] == {"game": 7}
