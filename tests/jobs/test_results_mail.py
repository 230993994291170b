"""The results message through a real worker: exactly once per settle-up version.

A club night where Ann beats Bill (both with an e-mail address, Ann's in French) is closed; the
version's message task goes through Redis to a real Celery worker (tests/conftest.py
``celery_worker``, in a thread of this process, so Django's test outbox sees what it sends).
Each player gets one message in their language; the task queued twice more sends nothing; a
correction stores version 2 and sends each of them one more.
"""

from __future__ import annotations

import pytest
from django.core import mail

from accounts.mail_settings import remember_language
from config.tasks import enqueue
from games.services import correct_hand
from outbox.models import PendingTask
from settlements import services
from settlements.models import Settlement, SettleUpMail
from tests.accounts.helpers import with_verified_address
from tests.clubs.factories import make_user
from tests.jobs.stack import wait_until
from tests.tournaments.play_helpers import build_event, start_game, win_game

pytestmark = pytest.mark.redis

SECONDS = 60


def sent(version: int) -> int:
    return SettleUpMail.objects.filter(settlement__version=version, sent_at__isnull=False).count()


def test_one_message_per_player_and_version_through_a_real_worker(celery_worker_with_database):
    event = build_event(players=4)
    organiser = event.world.users["organiser"]
    night = services.open_night(
        club=event.club, user=organiser, name="Friday", entry_fee_minor=500, prize_split=[70, 30]
    )
    ann, bill, *_ = event.players
    for player, name in ((ann, "ann"), (bill, "bill")):
        player.user = with_verified_address(make_user(name, email=f"{name}@example.org"))
        player.save()
    remember_language(user=ann.user, language="fr")
    game = start_game(event, [ann, bill])
    win_game(event, game, 0)
    services.close_night(night_id=night.pk, user=organiser)
    assert wait_until(lambda: sent(1) == 2, SECONDS)
    assert sorted((message.to[0], message.subject) for message in mail.outbox) == [
        ("ann@example.org", "The Local : vos résultats à Friday"),
        ("bill@example.org", "The Local: your results at Friday"),
    ]
    version_one = Settlement.objects.get(night=night, version=1)
    enqueue("settlements.send_settle_up_mails_task", version_one.pk)
    enqueue("settlements.send_settle_up_mails_task", version_one.pk)
    assert wait_until(lambda: not PendingTask.objects.exists(), SECONDS)
    assert len(mail.outbox) == 2

    correct_hand(
        game_id=game,
        number=1,
        user=event.world.users["scorekeeper"],
        record={"dealer": 0, "trump": "S", "trick_winners": [1] * 5},
        if_match=None,
    )
    assert wait_until(lambda: sent(2) == 2, SECONDS)
    assert wait_until(lambda: not PendingTask.objects.exists(), SECONDS)
    assert len(mail.outbox) == 4
    assert sorted(message.to[0] for message in mail.outbox[2:]) == [
        "ann@example.org",
        "bill@example.org",
    ]
