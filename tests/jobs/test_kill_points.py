"""Nothing is lost between a commit and its work: each kill point, in process.

A finished game's change is written as an ``outbox.Announcement`` row in the game's own
transaction (``config.announce``). These tests stop at each instruction after the commit:

- the commit is done and its on-commit hooks never run (the process died): the row is there, the
  work is not; the sweep (``deliver_due``, once the row is due) does all of it;
- the dispatcher died after its subscribers ran but before it deleted the row: the sweep
  delivers again, and nothing is stored twice (the webhook event keeps its id, the game is rated
  once);
- a subscriber raised: the others ran, the row is kept with the error and delivered again;
- a settle-up version committed, its hooks never run: the sweep queues its results e-mails (one
  per player) and its ``settlement.ready`` event; delivered twice, nothing is mailed twice.

A plain hand (nothing due) writes no row. The same with a real worker killed mid-send:
``tests/jobs/test_kill_points_stack.py``.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.core import mail
from django.test import override_settings
from django.utils import timezone

from config.announce import deliver_due
from games.services import create_game, record_hand
from outbox.models import Announcement
from seasons.models import RatedGame, RatingChange
from settlements import services as night_services
from settlements import settle_up
from settlements.models import Settlement, SettleUpMail
from tests.accounts.helpers import with_verified_address
from tests.clubs.factories import build_world, make_user
from webhooks.delivery import EVENT_NAMESPACE, register_endpoint
from webhooks.models import WebhookDelivery

pytestmark = pytest.mark.django_db

LATER = timedelta(minutes=5)  # every row written by the test is due by then


@pytest.fixture
def world():
    world = build_world()
    register_endpoint(
        club=world.club,
        user=world.users["organiser"],
        url="https://example.org/hook",
        events=["game.finished"],
    )
    return world


def start(world):
    return create_game(
        club=world.club,
        user=world.users["organiser"],
        game="25",
        seat_player_ids=[world.players[2].pk, world.players[3].pk],
        stake_minor=20,
    )


def finish(world, game) -> None:
    """One hand that takes every trick: seat 0 reaches 25 and wins. In the test's transaction,
    so its on-commit hooks never run: the commit done, the process killed."""
    record_hand(
        game_id=game.pk,
        user=world.users["organiser"],
        record={"dealer": 0, "trump": "S", "trick_winners": [0] * 5},
    )


def rows() -> list[tuple]:
    return list(Announcement.objects.values_list("setting", "change_type", "change", "attempts"))


def deliveries() -> list[tuple]:
    return list(WebhookDelivery.objects.values_list("event_type", "event_id", "status", "body"))


def test_a_plain_hand_writes_no_outbox_row(world):
    game = start(world)
    assert rows() == []  # a game started: nothing due either
    record_hand(
        game_id=game.pk,
        user=world.users["organiser"],
        record={"dealer": 0, "trump": "S", "trick_winners": [0, 1, 0, 1, 1]},
    )
    assert rows() == []


def test_killed_after_the_commit_the_sweep_does_the_work(world):
    game = start(world)
    finish(world, game)
    # The commit is done, its hooks never ran: the row is the only trace, and nothing happened.
    organiser = world.users["organiser"].pk
    assert rows() == [
        (
            "JINK_GAME_CHANGE_SUBSCRIBERS",
            "games.changes.GameChange",
            {
                "game_id": game.pk,
                "club_id": world.club.pk,
                "kinds": ["finished", "hand_recorded"],
                "hand_number": 1,
                "actor_id": organiser,
            },
            0,
        )
    ]
    key = Announcement.objects.get().key
    assert (deliveries(), RatedGame.objects.count()) == ([], 0)
    # Not yet due: a live dispatcher may still be at it.
    assert deliver_due() == 0
    assert len(rows()) == 1
    # Due: the sweep delivers every subscriber and removes the row.
    assert deliver_due(timezone.now() + LATER) == 1
    assert rows() == []
    ((event_type, event_id, status, body),) = deliveries()
    assert (event_type, status) == ("game.finished", "pending")
    assert event_id == uuid.uuid5(EVENT_NAMESPACE, f"{key}/game.finished")
    assert body["id"] == str(event_id)
    assert body["data"] == {
        "game": game.pk,
        "game_type": "25",
        "winner_side": 0,
        "totals": [25, 0],
        "double_stake": True,  # every trick taken: a jink
    }
    assert list(RatedGame.objects.values_list("game_id", "game_version")) == [(game.pk, 2)]


def test_a_second_delivery_of_the_same_change_stores_nothing_twice(world):
    game = start(world)
    finish(world, game)
    row = Announcement.objects.get()
    assert deliver_due(timezone.now() + LATER) == 1
    first = (deliveries(), list(RatingChange.objects.values_list("player_id", "mu", "sigma")))
    assert len(first[0]) == 1 and len(first[1]) == 2
    # The dispatcher ran every subscriber, then died before deleting the row: the same row again.
    row.pk = None
    row.attempts = 0
    row.save()
    assert deliver_due(timezone.now() + LATER) == 1
    assert rows() == []
    again = (deliveries(), list(RatingChange.objects.values_list("player_id", "mu", "sigma")))
    assert again == first


def broken(change) -> None:
    raise RuntimeError("the database went away")


def test_a_subscriber_that_raises_keeps_the_row_for_the_sweep(world, caplog):
    game = start(world)
    subscribers = [
        "tests.jobs.test_kill_points.broken",
        "webhooks.subscribers.on_game_change",
    ]
    with override_settings(JINK_GAME_CHANGE_SUBSCRIBERS=subscribers):
        finish(world, game)
        assert deliver_due(timezone.now() + LATER) == 0
        ((setting, _type, _change, attempts),) = rows()
        assert attempts == 1
        assert Announcement.objects.get().last_error == (
            "broken: RuntimeError('the database went away')"
        )
        # The subscriber after the broken one ran: the event is stored, once.
        assert [row[0] for row in deliveries()] == ["game.finished"]
        # Backing off: due again 40 s later (20 s × 2), not at the next sweep.
        assert deliver_due(timezone.now() + LATER) == 0
    assert Announcement.objects.get().attempts == 1
    # The subscriber mended (the setting back): the next delivery runs them all, stores nothing
    # twice, and the row goes.
    assert deliver_due(timezone.now() + LATER + timedelta(minutes=10)) == 1
    assert rows() == []
    assert [row[0] for row in deliveries()] == ["game.finished"]
    assert list(RatedGame.objects.values_list("game_id", flat=True)) == [game.pk]


def test_a_settle_up_committed_without_its_hooks_still_mails_its_results(world):
    organiser = world.users["organiser"]
    register_endpoint(
        club=world.club,
        user=organiser,
        url="https://example.org/money",
        events=["settlement.ready"],
    )
    ann, bill = world.players[2], world.players[3]
    for player, name in ((ann, "ann"), (bill, "bill")):
        player.user = with_verified_address(make_user(name, email=f"{name}@example.org"))
        player.save()
    night = night_services.open_night(club=world.club, user=organiser, name="Friday")
    finish(world, start(world))
    night_services.close_night(night_id=night.pk, user=organiser)  # its settle hook never runs
    Announcement.objects.all().delete()  # the game's change: delivered in the tests above
    settlement = settle_up.settle_event(night_id=night.pk)  # committed; its hooks never run
    assert rows() == [
        (
            "JINK_SETTLEMENT_SUBSCRIBERS",
            "settlements.changes.SettlementStored",
            {
                "settlement_id": settlement.pk,
                "club_id": world.club.pk,
                "version": 1,
                "tournament_id": None,
                "night_id": night.pk,
            },
            0,
        )
    ]
    assert (SettleUpMail.objects.count(), len(mail.outbox), deliveries()) == (0, 0, [])
    row = Announcement.objects.get()
    assert deliver_due(timezone.now() + LATER) == 1
    mailed = sorted((message.to, message.subject) for message in mail.outbox)
    assert [to for to, _subject in mailed] == [["ann@example.org"], ["bill@example.org"]]
    assert SettleUpMail.objects.filter(sent_at__isnull=False).count() == 2
    ready = [row for row in deliveries() if row[0] == "settlement.ready"]
    assert [(event_type, status) for event_type, _id, status, _body in ready] == [
        ("settlement.ready", "pending")
    ]
    assert ready[0][1] == uuid.uuid5(EVENT_NAMESPACE, f"{row.key}/settlement.ready")
    # The same row delivered again (the dispatcher died before its delete): no mail and no event
    # twice.
    row.pk = None
    row.save()
    assert deliver_due(timezone.now() + LATER) == 1
    assert len(mail.outbox) == 2
    assert [row for row in deliveries() if row[0] == "settlement.ready"] == ready
    assert Settlement.objects.filter(night=night).count() == 1
