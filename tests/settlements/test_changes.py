"""``settlements.changes``: a stored settle-up version is announced once, after its commit, to
the subscribers ``JINK_SETTLEMENT_SUBSCRIBERS`` lists (the first queues its e-mails); settling
that stores nothing announces nothing.

The subscribers are this module's functions, named in the setting by ``override_settings``."""

from __future__ import annotations

import pytest
from django.test import override_settings

from settlements import services, settle_up
from settlements.changes import SettlementStored
from settlements.models import Settlement, SettleUpMail
from tests.accounts.helpers import with_verified_address
from tests.clubs.factories import make_user
from tests.tournaments.play_helpers import build_event, win_game

pytestmark = pytest.mark.django_db

HEARD: list[tuple[SettlementStored, int]] = []
PREFIX = "tests.settlements.test_changes."


def failing(change: SettlementStored) -> None:
    raise RuntimeError("a subscriber that breaks")


def heard(change: SettlementStored) -> None:
    # With the mails' rows at the time: the e-mails were queued (and, in process, sent) first.
    HEARD.append((change, SettleUpMail.objects.filter(settlement_id=change.settlement_id).count()))


@pytest.fixture
def listening():
    HEARD.clear()
    # The e-mails are the first subscriber (config/settings.py), as in production.
    subscribers = [
        "settlements.subscribers.on_settlement_stored",
        PREFIX + "failing",
        PREFIX + "heard",
    ]
    with override_settings(JINK_SETTLEMENT_SUBSCRIBERS=subscribers):
        yield HEARD


def test_a_stored_version_is_announced_after_its_commit_and_its_mails(
    listening, django_capture_on_commit_callbacks
):
    event = build_event(players=2)
    ann, bill = event.players
    for player, name in ((ann, "ann"), (bill, "bill")):
        player.user = with_verified_address(make_user(name, email=f"{name}@example.org"))
        player.save()
    organiser = event.world.users["organiser"]
    night = services.open_night(club=event.club, user=organiser)
    game = event.ok(
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
    win_game(event, game, 1)
    with django_capture_on_commit_callbacks(execute=True):
        services.close_night(night_id=night.pk, user=organiser)
        assert HEARD == []  # not before the commit
    (settlement,) = Settlement.objects.filter(night=night)
    # Heard once, past the failing subscriber listed before it, with both e-mails already there.
    assert HEARD == [
        (
            SettlementStored(
                settlement_id=settlement.pk,
                club_id=event.club.pk,
                version=1,
                tournament_id=None,
                night_id=night.pk,
            ),
            2,
        )
    ]
    # Settling again stores nothing: nothing is queued or announced.
    HEARD.clear()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert settle_up.settle_event(night_id=night.pk) is None
    assert (callbacks, HEARD) == ([], [])
