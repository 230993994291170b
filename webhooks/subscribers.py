"""What webhooks hear of, and the event each becomes (all called after the commit, from the
change's outbox row: ``config.announce``).

- ``on_game_change`` (``JINK_GAME_CHANGE_SUBSCRIBERS``): a game that finished → ``game.finished``.
- ``on_tournament_change`` (``JINK_TOURNAMENT_CHANGE_SUBSCRIBERS``): ``match.decided``,
  ``round.drawn``, and ``standings.updated`` when a new standings snapshot was stored.
- ``on_settlement`` (``JINK_SETTLEMENT_SUBSCRIBERS``, a ``settlements.changes.SettlementStored``):
  ``settlement.ready``.

Each stores the deliveries and queues them (``webhooks.delivery.publish_event``), or does nothing
after one query when the club has no active endpoint; quick, and a failure is logged by the
announcer (``config.announce``), never raised into the request, and the change's row is kept for
the sweep. Each event's id is derived from the announcement's key and the event's type
(``event_key``), so a change delivered twice stores each delivery once. Each subscriber's
``wants`` tells ``config.announce`` whether the change makes an event: a kind that does, for a
club with an active endpoint (the one query, made in the change's transaction instead of after
it: a club without webhooks pays nothing more, and no outbox row is written for it).
"""

from __future__ import annotations

from config.announce import announcement_key
from games.changes import GameChange, GameChangeKind
from games.models import Game
from settlements.changes import SettlementStored
from tournaments.changes import TournamentChange, TournamentChangeKind
from webhooks.delivery import publish_event
from webhooks.models import WebhookEndpoint


def event_key(event_type: str) -> str | None:
    """What names this event for good: the announcement's key and the type (None when the change
    was delivered without an outbox row: the event gets a fresh id)."""
    key = announcement_key()
    return None if key is None else f"{key}/{event_type}"


def _publish(club_id: int, event_type: str, data: dict) -> None:
    publish_event(club_id=club_id, event_type=event_type, data=data, key=event_key(event_type))


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
        _publish(
            change.club_id,
            "game.finished",
            {
                "game": game["id"],
                "game_type": game["variant"],
                "winner_side": game["winner_side"],
                "totals": game["totals"],
                "double_stake": game["double_stake"],
            },
        )


on_game_change.wants = lambda change: (
    GameChangeKind.FINISHED in change.kinds and _listening(change.club_id)
)

TOURNAMENT_EVENT_KINDS = frozenset(
    {
        TournamentChangeKind.MATCH_DECIDED,
        TournamentChangeKind.ROUND_DRAWN,
        TournamentChangeKind.STANDINGS_UPDATED,
    }
)


def on_tournament_change(change: TournamentChange) -> None:
    if not _listening(change.club_id):
        return
    base = {"tournament": change.tournament_id}
    if TournamentChangeKind.MATCH_DECIDED in change.kinds:
        _publish(
            change.club_id,
            "match.decided",
            {**base, "matches": list(change.match_ids)},
        )
    if TournamentChangeKind.ROUND_DRAWN in change.kinds:
        _publish(
            change.club_id,
            "round.drawn",
            {**base, "round": change.round_number},
        )
    if TournamentChangeKind.STANDINGS_UPDATED in change.kinds:
        _publish(
            change.club_id,
            "standings.updated",
            {**base, "version": change.snapshot_version},
        )


on_tournament_change.wants = lambda change: (
    bool(change.kinds & TOURNAMENT_EVENT_KINDS) and _listening(change.club_id)
)


def on_settlement(change: SettlementStored) -> None:
    if not _listening(change.club_id):
        return
    _publish(
        change.club_id,
        "settlement.ready",
        {
            "settlement": change.settlement_id,
            "version": change.version,
            "tournament": change.tournament_id,
            "night": change.night_id,
        },
    )


on_settlement.wants = lambda change: _listening(change.club_id)
