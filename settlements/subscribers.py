"""How settlements hears of changes below it, and tells the apps above it of a stored version.

What it does:
- ``on_game_change`` (listed in ``JINK_GAME_CHANGE_SUBSCRIBERS``): a result change of a game of a
  closed night queues a new settle-up version (of differences only). Games started during an open
  night are not linked one by one (a query per started game would make drawing a round cost more
  per table): the open night's games are the club's games since it opened
  (``selectors.list_night_game_ids``), linked when it closes.
- ``on_tournament_change`` (listed in ``JINK_TOURNAMENT_CHANGE_SUBSCRIBERS``): a tournament that
  closed queues its settle-up; a closed tournament corrected after the close
  (``CORRECTED_AFTER_CLOSE``, an organiser's correction) queues a new version (of differences only).
- ``settlement_stored(settlement)``: called by the settle task after a version commits; calls each
  dotted path of ``JINK_SETTLEMENT_SUBSCRIBERS`` (webhooks' ``settlement.ready``).

What it does not do: work of its own; everything is a queued, idempotent task.
"""

from __future__ import annotations

import logging
from functools import cache

from django.conf import settings
from django.utils.module_loading import import_string

from config.tasks import enqueue
from games.changes import GameChange
from settlements.models import NightGame, NightStatus
from tournaments.changes import TournamentChange, TournamentChangeKind

logger = logging.getLogger(__name__)


def on_game_change(change: GameChange) -> None:
    from settlements.tasks import settle_event_task

    if change.changes_result:
        link = NightGame.objects.filter(
            game_id=change.game_id, night__status=NightStatus.CLOSED
        ).first()
        if link is not None:
            enqueue(settle_event_task, None, link.night_id)


def on_tournament_change(change: TournamentChange) -> None:
    from settlements.tasks import settle_event_task

    if TournamentChangeKind.CLOSED in change.kinds:
        enqueue(settle_event_task, change.tournament_id, None)
    elif TournamentChangeKind.CORRECTED_AFTER_CLOSE in change.kinds:
        # A correction after the close: a version of differences, as a closed night's (the
        # change says so itself: no query on every other tournament's standings change).
        enqueue(settle_event_task, change.tournament_id, None)


@cache
def _settlement_subscribers():
    return tuple(
        import_string(path) for path in getattr(settings, "JINK_SETTLEMENT_SUBSCRIBERS", ())
    )


def settlement_stored(settlement) -> None:
    for subscriber in _settlement_subscribers():
        try:
            subscriber(settlement)
        except Exception:  # the version is stored: a subscriber must not undo the task's work
            logger.exception("settlement subscriber %r failed on %s", subscriber, settlement)
