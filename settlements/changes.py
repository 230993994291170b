"""What changed in settlements, announced once after the commit: a settle-up version was stored.

What it does: what ``games.changes`` and ``tournaments.changes`` do one floor down, through the
same mechanism (``config.announce``, ``SETTLEMENT_CHANGES``). ``settle_up.settle_event``, having
stored a new version, calls ``announce_settlement_stored`` with a ``SettlementStored`` (the
version's ids and number); after its transaction commits every subscriber named in
``JINK_SETTLEMENT_SUBSCRIBERS`` (config/settings.py, dotted paths: today webhooks'
``settlement.ready``) is called with it. Settling that stores nothing, or rolls back, announces
nothing. Settlements imports none of the subscribers.

What it does not do: run work, retry or queue anything; a subscriber must be quick and never
fail the committed write (it queues a task by name with ``config.tasks.enqueue``). A failing
subscriber is logged and the next still runs.

Terms: *version* — ``Settlement.version``, counted per event (a tournament or a club night; one
of ``tournament_id`` and ``night_id`` is set).
"""

from __future__ import annotations

from dataclasses import dataclass

from config.announce import Announcer


@dataclass(frozen=True)
class SettlementStored:
    """One settle-up version, stored and committed."""

    settlement_id: int
    club_id: int
    version: int
    tournament_id: int | None = None
    night_id: int | None = None


SETTLEMENT_CHANGES = Announcer("JINK_SETTLEMENT_SUBSCRIBERS")


def announce_settlement_stored(change: SettlementStored) -> None:
    """Deliver ``change`` to the subscribers once the current transaction commits."""
    SETTLEMENT_CHANGES.announce(change)
