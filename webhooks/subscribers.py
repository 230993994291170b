"""What webhooks hear of, and the event each becomes (all called after the commit).

- ``on_game_change`` (``JINK_GAME_CHANGE_SUBSCRIBERS``): a game that finished → ``game.finished``.
- ``on_tournament_change`` (``JINK_TOURNAMENT_CHANGE_SUBSCRIBERS``): ``match.decided``,
  ``round.drawn``, and ``standings.updated`` when a new standings snapshot was stored.
- ``on_settlement`` (``JINK_SETTLEMENT_SUBSCRIBERS``, a ``settlements.changes.SettlementStored``):
  ``settlement.ready``.

Each stores the deliveries and queues them (``webhooks.delivery.publish_event``), or does nothing
after one query when the club has no active endpoint; quick, and a failure is logged by the
announcer (``config.announce``), never raised into the request.
"""

from __future__ import annotations

from games.changes import GameChange, GameChangeKind
from games.models import Game
from settlements.changes import SettlementStored
from tournaments.changes import TournamentChange, TournamentChangeKind
from webhooks.delivery import publish_event
from webhooks.models import WebhookEndpoint


def _listening(club_id: int) -> bool:
    return WebhookEndpoint.objects.filter(club_id=club_id, is_active=True).exists()


def on_game_change(change: GameChange) -> None:
    if GameChangeKind.FINISHED not in change.kinds or not _listening(change.club_id):
        return
    game = (
        Game.objects.filter(pk=change.game_id)
        .values("id", "variant", "winner_side", "totals", "double_stake")
        .first()
    )
    if game is not None:
        publish_event(
            club_id=change.club_id,
            event_type="game.finished",
            data={
                "game": game["id"],
                "game_type": game["variant"],
                "winner_side": game["winner_side"],
                "totals": game["totals"],
                "double_stake": game["double_stake"],
            },
        )


def on_tournament_change(change: TournamentChange) -> None:
    if not _listening(change.club_id):
        return
    base = {"tournament": change.tournament_id}
    if TournamentChangeKind.MATCH_DECIDED in change.kinds:
        publish_event(
            club_id=change.club_id,
            event_type="match.decided",
            data={**base, "matches": list(change.match_ids)},
        )
    if TournamentChangeKind.ROUND_DRAWN in change.kinds:
        publish_event(
            club_id=change.club_id,
            event_type="round.drawn",
            data={**base, "round": change.round_number},
        )
    if TournamentChangeKind.STANDINGS_UPDATED in change.kinds:
        publish_event(
            club_id=change.club_id,
            event_type="standings.updated",
            data={**base, "version": change.snapshot_version},
        )


def on_settlement(change: SettlementStored) -> None:
    if not _listening(change.club_id):
        return
    publish_event(
        club_id=change.club_id,
        event_type="settlement.ready",
        data={
            "settlement": change.settlement_id,
            "version": change.version,
            "tournament": change.tournament_id,
            "night": change.night_id,
        },
    )
