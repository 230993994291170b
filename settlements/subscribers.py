"""How settlements hears of changes below it (it tells the apps above it of a stored version
through ``settlements.changes``).

What it does:
- ``on_game_change`` (listed in ``JINK_GAME_CHANGE_SUBSCRIBERS``): a result change of a game of a
  closed night queues a new settle-up version (of differences only). Games started during an open
  night are not linked one by one (a query per started game would make drawing a round cost more
  per table): the open night's games are the club's games since it opened
  (``selectors.list_night_game_ids``), linked when it closes.
- ``on_settlement_stored`` (listed first in ``JINK_SETTLEMENT_SUBSCRIBERS``): a settle-up version
  stored queues its results e-mails (``send_settle_up_mails_task``, once per player and version).
  Through the announcement, not an on-commit hook: the change is kept in the version's own
  transaction, so a process killed after that commit still gets its e-mails sent by the sweep.
- ``on_tournament_change`` (listed in ``JINK_TOURNAMENT_CHANGE_SUBSCRIBERS``): a tournament that
  closed queues its settle-up; a closed tournament corrected after the close
  (``CORRECTED_AFTER_CLOSE``, an organiser's correction) queues a new version (of differences only).

What it does not do: work of its own; everything is a queued, idempotent task, queued by name
(``config.tasks.enqueue``), so a change delivered twice (``config.announce``'s sweep) settles
once. Each subscriber's ``wants`` tells ``config.announce``, without a query, whether the change
is worth an outbox row.
"""

from __future__ import annotations

from config.tasks import enqueue
from games.changes import GameChange
from settlements.changes import SettlementStored
from settlements.models import NightGame, NightStatus
from tournaments.changes import TournamentChange, TournamentChangeKind


def on_game_change(change: GameChange) -> None:
    if change.changes_result:
        link = NightGame.objects.filter(
            game_id=change.game_id, night__status=NightStatus.CLOSED
        ).first()
        if link is not None:
            enqueue("settlements.settle_event_task", None, link.night_id)


on_game_change.wants = lambda change: change.changes_result  # (config.announce: no query)


def on_tournament_change(change: TournamentChange) -> None:
    if TournamentChangeKind.CLOSED in change.kinds:
        enqueue("settlements.settle_event_task", change.tournament_id, None)
    elif TournamentChangeKind.CORRECTED_AFTER_CLOSE in change.kinds:
        # A correction after the close: a version of differences, as a closed night's (the
        # change says so itself: no query on every other tournament's standings change).
        enqueue("settlements.settle_event_task", change.tournament_id, None)


on_tournament_change.wants = lambda change: bool(
    change.kinds & {TournamentChangeKind.CLOSED, TournamentChangeKind.CORRECTED_AFTER_CLOSE}
)


def on_settlement_stored(change: SettlementStored) -> None:
    enqueue("settlements.send_settle_up_mails_task", change.settlement_id)
