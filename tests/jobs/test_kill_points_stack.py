"""The kill points between a commit and its work, on the real stack (``tests/jobs/stack.py``: a
Redis of its own, a worker and beat), with a webhook receiver on loopback:

- the commit of a game's finishing hand is done and its on-commit hooks never run (the process
  died): the change's outbox row is all that is left, and beat's announcement sweep delivers it —
  the receiver gets the ``game.finished`` event, once, under the id derived from the row, and the
  game is rated;
- the worker is killed (``kill -9``) in the middle of sending a delivery (the receiver holds the
  request): the restarted worker sends it again with the same event id, and the delivery counts
  the one attempt that finished.

The in-process versions, with every stored value checked: ``tests/jobs/test_kill_points.py``.
"""

from __future__ import annotations

import http.server
import json
import threading
import uuid
from collections.abc import Iterator

import pytest
from django.db import transaction

from games.services import create_game, record_hand
from outbox.models import Announcement
from seasons.models import RatedGame
from tests.clubs.factories import build_world
from tests.jobs.stack import Stack, wait_until
from webhooks.delivery import EVENT_NAMESPACE, publish_event, register_endpoint
from webhooks.models import DeliveryStatus, WebhookDelivery

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True), pytest.mark.slow]

# The announcement sweep runs every 15 s and a row is due 20 s after its commit.
CONVERGE_SECONDS = 60


@pytest.fixture(scope="module")
def stack(django_db_setup, tmp_path_factory) -> Iterator[Stack]:
    running = Stack(tmp_path_factory.mktemp("stack"))
    try:
        running.start()
        yield running
    finally:
        running.stop()


class Receiver(http.server.BaseHTTPRequestHandler):
    """Records every request; while ``hold`` is set, the first request waits for ``release``."""

    received: list[dict] = []
    hold = False
    arrived = threading.Event()
    release = threading.Event()

    def do_POST(self):  # noqa: N802  (the name http.server calls)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append({"headers": dict(self.headers), "body": json.loads(body)})
        if self.hold and len(self.received) == 1:
            self.arrived.set()
            self.release.wait(60)
        try:
            self.send_response(204)
            self.end_headers()
        except OSError:
            pass  # the worker that asked was killed

    def log_message(self, *args):
        pass


@pytest.fixture
def receiver(settings) -> Iterator[str]:
    settings.JINK_WEBHOOKS_ALLOW_LOOPBACK_HTTP = True  # the worker has it from its environment
    Receiver.received, Receiver.hold = [], False
    Receiver.arrived, Receiver.release = threading.Event(), threading.Event()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    finally:
        Receiver.release.set()
        server.shutdown()


def test_commit_done_hooks_never_run_the_sweep_delivers(stack, receiver, monkeypatch):
    world = build_world()
    organiser = world.users["organiser"]
    register_endpoint(club=world.club, user=organiser, url=receiver, events=["game.finished"])
    game = create_game(
        club=world.club,
        user=organiser,
        game="25",
        seat_player_ids=[world.players[2].pk, world.players[3].pk],
        stake_minor=20,
    )
    with monkeypatch.context() as killed:
        killed.setattr(transaction, "on_commit", lambda *args, **kwargs: None)
        record_hand(
            game_id=game.pk,
            user=organiser,
            record={"dealer": 0, "trump": "S", "trick_winners": [0] * 5},
        )
    key = Announcement.objects.get().key
    assert (WebhookDelivery.objects.count(), RatedGame.objects.count()) == (0, 0)
    delivered = wait_until(
        lambda: WebhookDelivery.objects.filter(status=DeliveryStatus.DELIVERED).first(),
        CONVERGE_SECONDS,
    )
    assert delivered is not None
    assert delivered.event_id == uuid.uuid5(EVENT_NAMESPACE, f"{key}/game.finished")
    assert wait_until(lambda: not Announcement.objects.exists(), 10)
    assert [request["headers"]["Jink-Event-Id"] for request in Receiver.received] == [
        str(delivered.event_id)
    ]
    assert Receiver.received[0]["body"]["data"]["game"] == game.pk
    assert wait_until(lambda: RatedGame.objects.filter(game_id=game.pk).exists(), 30)
    assert WebhookDelivery.objects.count() == 1


def test_worker_killed_mid_send_the_delivery_is_sent_again_with_its_id(stack, receiver):
    world = build_world(slug="kill-mid-send")
    register_endpoint(
        club=world.club, user=world.users["organiser"], url=receiver, events=["game.finished"]
    )
    Receiver.hold = True
    (delivery_id,) = publish_event(
        club_id=world.club.pk, event_type="game.finished", data={"game": 7}
    )
    assert Receiver.arrived.wait(30)  # the worker is in the middle of the POST
    stack.kill_worker()
    Receiver.release.set()
    assert WebhookDelivery.objects.get(pk=delivery_id).attempts == 0  # the attempt died with it
    stack.start_worker()
    assert wait_until(
        lambda: WebhookDelivery.objects.get(pk=delivery_id).status == DeliveryStatus.DELIVERED,
        CONVERGE_SECONDS,
    )
    delivery = WebhookDelivery.objects.get(pk=delivery_id)
    assert (delivery.attempts, delivery.last_status_code) == (1, 204)
    assert [request["headers"]["Jink-Event-Id"] for request in Receiver.received] == [
        str(delivery.event_id)
    ] * 2
