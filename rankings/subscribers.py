"""How rankings hears of nights and events: a settle-up version stored for a member club's
night or tournament queues ``rankings.update_rankings_task`` for each federation the club is a
member of.

``on_settlement`` is listed in ``JINK_SETTLEMENT_SUBSCRIBERS``; it is quick (one query for the
club's federations) and never fails the write (``config.tasks.enqueue``, by the task's name).
"""

from __future__ import annotations

from config.tasks import enqueue
from rankings.build import list_federations_of_club
from settlements.changes import SettlementStored


def on_settlement(change: SettlementStored) -> None:
    for federation_id in list_federations_of_club(change.club_id):
        enqueue("rankings.update_rankings_task", federation_id)
