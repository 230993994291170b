"""What the permission matrix (tests/test_permission_matrix.py) needs from the jobs' apps.

``add_jobs_to_world(world)`` adds to the world's club an open night (for its detail, close,
prize-split and games routes), a closed night with one settled game (for its settlements and a
transfer to mark paid) and a webhook endpoint; it returns the path values ``night_id``,
``transfer_id`` and ``endpoint_id``. ``JOB_BODIES`` are valid bodies for the routes that take one.
"""

from __future__ import annotations

from django.test import TestCase

from games.services import create_game, record_hand
from settlements import services
from settlements.models import SettlementTransfer
from webhooks.delivery import register_endpoint

JOB_PARAMETERS = frozenset({"night_id", "transfer_id", "endpoint_id"})


def add_jobs_to_world(world) -> dict:
    organiser = world.users["organiser"]
    with TestCase.captureOnCommitCallbacks(execute=True):
        closed = services.open_night(club=world.club, user=organiser, name="Last week")
        game = create_game(
            club=world.club,
            user=organiser,
            game="25",
            seat_player_ids=[world.players[2].pk, world.players[3].pk],
            stake_minor=20,
        )
        record_hand(
            game_id=game.pk,
            user=organiser,
            record={"dealer": 0, "trump": "S", "trick_winners": [0] * 5},
        )
        services.close_night(night_id=closed.pk, user=organiser)
    transfer = SettlementTransfer.objects.get(settlement__night=closed)
    night = services.open_night(club=world.club, user=organiser, name="Tonight")
    endpoint = register_endpoint(
        club=world.club, user=organiser, url="https://example.org/hook", events=["game.finished"]
    )
    return {"night_id": night.pk, "transfer_id": transfer.pk, "endpoint_id": endpoint.pk}


JOB_BODIES = {
    ("settlements:night-list", "POST"): lambda world: {"name": "Friday", "entry_fee": "5.00"},
    ("settlements:night-prize-split", "PUT"): lambda world: {"percentages": [60, 40]},
    ("settlements:night-games", "POST"): lambda world: {
        "game": "25",
        "seats": [world.players[0].pk, world.players[1].pk],
        "table": 1,
    },
    ("settlements:tournament-prize-split", "PUT"): lambda world: {"percentages": [100]},
    ("settlements:night-fees", "POST"): lambda world: {
        "player": world.players[0].pk,
        "status": "cash",
        "amount": "5.00",
    },
    # The tournament's first entrant is world.players[0] (tests/tournaments/matrix.py).
    ("settlements:tournament-fees", "POST"): lambda world: {
        "player": world.players[0].pk,
        "status": "card",
        "amount": "5.00",
    },
    ("settlements:settle-up-rule", "PUT"): lambda world: {"between_players": True},
    ("webhooks:endpoint-list", "POST"): lambda world: {
        "url": "https://example.org/results",
        "events": ["match.decided"],
    },
}
