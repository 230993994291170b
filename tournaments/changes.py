"""What changed in a tournament, announced once after the commit: how tournaments tells the rest.

What it does: ``games.changes`` one floor up, through the same mechanism (``config.announce``,
``TOURNAMENT_CHANGES``). A service of tournaments that draws a round, decides (or undecides) a
match, changes what the standings are computed from, or closes the tournament calls
``announce_tournament_change``; after the transaction commits every subscriber named in
``JINK_TOURNAMENT_CHANGE_SUBSCRIBERS`` (config/settings.py, dotted paths) is called with the
``TournamentChange``. A write that rolls back announces nothing. Tournaments imports none of the
subscribers (the apps above it: settlements, seasons, webhooks), and import-linter proves it.

What it does not do: run work, retry or queue anything; a subscriber must be quick and never
fail the committed request (it queues a task by name with ``config.tasks.enqueue``). A failing
subscriber is logged and the next still runs.

Terms (``TournamentChangeKind``): ``round_drawn``; ``match_decided`` (a match got, or changed,
its placings; ``match_ids`` says which); ``standings_changed`` (anything the standings read
moved: a result, a round, a withdrawal, a setting); ``standings_updated`` (a job stored a new
standings snapshot, ``snapshot_version``); ``closed``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from config.announce import Announcer


class TournamentChangeKind(StrEnum):
    ROUND_DRAWN = "round_drawn"
    MATCH_DECIDED = "match_decided"
    STANDINGS_CHANGED = "standings_changed"
    STANDINGS_UPDATED = "standings_updated"
    CLOSED = "closed"
    # A closed tournament's match or standings followed an organiser's correction after the
    # close (``progress.progress_match``): the settle-up stores a version of differences.
    CORRECTED_AFTER_CLOSE = "corrected_after_close"


@dataclass(frozen=True)
class TournamentChange:
    tournament_id: int
    club_id: int
    kinds: frozenset[TournamentChangeKind]
    match_ids: tuple[int, ...] = ()
    round_number: int | None = None
    actor_id: int | None = None
    snapshot_version: int | None = None


TOURNAMENT_CHANGES = Announcer("JINK_TOURNAMENT_CHANGE_SUBSCRIBERS")


def announce_tournament_change(change: TournamentChange) -> None:
    """Deliver ``change`` to the subscribers once the current transaction commits."""
    TOURNAMENT_CHANGES.announce(change)
