"""How seasons hears of games: a change of a finished game's result or points queues the refresh
of the season tables it belongs to and the rating of that game (``rate_game_task``).

``on_game_change`` is listed in ``JINK_GAME_CHANGE_SUBSCRIBERS``; it is quick (one query for the
game's day and the stored ranges) and never fails the request (``config.tasks.enqueue``, by the
tasks' names). A hand
recorded in a game still in progress moves neither, so it queues nothing (and ``wants`` says so
to ``config.announce``, which then writes no outbox row for it). Queuing twice is harmless (the
tasks are idempotent): the sweep of ``config.announce`` may deliver a change again.
"""

from __future__ import annotations

from config.tasks import enqueue
from games.changes import GameChange, GameChangeKind
from games.models import Game
from seasons import league_table

MOVING = frozenset(
    {
        GameChangeKind.FINISHED,
        GameChangeKind.REOPENED,
        GameChangeKind.WINNER_CHANGED,
        GameChangeKind.HAND_CORRECTED,
    }
)


def on_game_change(change: GameChange) -> None:
    if not change.kinds & MOVING:
        return
    created_at = Game.objects.filter(pk=change.game_id).values_list("created_at", flat=True)
    created_at = created_at.first()
    if created_at is None:
        return
    for date_from, date_to in league_table.ranges_touched(change.club_id, created_at):
        enqueue(
            "seasons.refresh_season_task",
            change.club_id,
            date_from.isoformat(),
            date_to.isoformat(),
        )
    enqueue("seasons.rate_game_task", change.game_id)


# What config.announce asks before it writes the change's outbox row (no query).
on_game_change.wants = lambda change: bool(change.kinds & MOVING)
