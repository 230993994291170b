"""What changed in a game, announced once after the commit: the one way games tells the rest.

What it does:
- ``GameChange`` says what happened to one game in one committed write (the ids, the kinds of
  change, the hand concerned, who did it). The services of games build one per write and call
  ``announce_game_change``; after the transaction commits, every *subscriber* is called with it,
  in the order listed. A write that rolls back announces nothing. The delivery is the project's
  one mechanism, ``config.announce`` (``GAME_CHANGES``); ``deliver`` calls the subscribers at
  once, outside any commit (the tests use it).
- ``check_game_change(proposal)`` runs every *check* before a write that would change a finished
  game's result commits; a check refuses by raising ``config.problems.Problem`` (e.g. a decided
  tournament match whose next match has begun).
- Subscribers and checks are listed in one place, ``JINK_GAME_CHANGE_SUBSCRIBERS`` and
  ``JINK_GAME_CHANGE_CHECKS`` in ``config/settings.py``, as dotted paths: games imports none of
  them, so the apps above games (tournaments, the jobs, the pages) hook in without games knowing
  them, and import-linter can prove it.

What it does not do: run work of its own, retry, or queue anything. A subscriber must be quick
and must not fail the request that already committed: it typically enqueues a Celery task by
name (``config.tasks.enqueue``; the task is idempotent and repaired by a periodic sweep). An
exception from a subscriber is logged and the next subscriber still runs (``config.announce``).

Terms:
- *kind*: one of ``GameChangeKind``; one write can have several (a hand that ends the game is
  ``hand_recorded`` and ``finished``).
- *result*: a game's status and winner; ``finished``, ``reopened`` and ``winner_changed`` are the
  kinds that change it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from config.announce import Announcer, listed


class GameChangeKind(StrEnum):
    STARTED = "started"
    HAND_RECORDED = "hand_recorded"
    HAND_CORRECTED = "hand_corrected"
    HAND_UNDONE = "hand_undone"
    FINISHED = "finished"
    REOPENED = "reopened"
    WINNER_CHANGED = "winner_changed"


RESULT_KINDS = frozenset(
    {GameChangeKind.FINISHED, GameChangeKind.REOPENED, GameChangeKind.WINNER_CHANGED}
)


@dataclass(frozen=True)
class GameChange:
    """One committed change of one game."""

    game_id: int
    club_id: int
    kinds: frozenset[GameChangeKind]
    hand_number: int | None = None
    actor_id: int | None = None

    @property
    def changes_result(self) -> bool:
        return bool(self.kinds & RESULT_KINDS)


@dataclass(frozen=True)
class ProposedResultChange:
    """A write about to change a finished game's result, for the checks to allow or refuse.

    ``new_winner_side`` is the winner after the change (None: the game would no longer be
    finished; equal to ``winner_side_before`` when only the points change); ``winner_changes``
    whether it is another side or none (``games.plans.ResultChange.winner_changed``);
    ``reset_dependents`` is the caller's consent to reset what depends on the result.
    """

    game_id: int
    club_id: int
    winner_side_before: int | None
    new_winner_side: int | None
    winner_changes: bool
    reset_dependents: bool = False
    actor: object | None = field(default=None, compare=False)


# A subscriber is ``f(change: GameChange) -> None``; a check ``f(proposal: ProposedResultChange)
# -> None``, refusing by raising a Problem.
GAME_CHANGES = Announcer("JINK_GAME_CHANGE_SUBSCRIBERS")


def deliver(change: GameChange) -> None:
    """Call every subscriber with ``change`` now; one failing never stops the next."""
    GAME_CHANGES.deliver(change)


def announce_game_change(change: GameChange) -> None:
    """Deliver ``change`` to the subscribers once the current transaction commits."""
    GAME_CHANGES.announce(change)


def check_game_change(proposal: ProposedResultChange) -> None:
    """Run every check named in ``JINK_GAME_CHANGE_CHECKS``; the first that refuses raises its
    ``Problem``."""
    for check in listed("JINK_GAME_CHANGE_CHECKS"):
        check(proposal)
