"""One plan for a hand: what recording, correcting or undoing a hand does, computed once for the
write that stores it and for the preview that shows it.

What it does:
- ``load_game(game_id, if_match, lock=...)``: the game (404 when none), checked against the
  ``If-Match`` the client sent (412 when stale); locked (``SELECT ... FOR UPDATE`` of the game's
  row) for a write, read plainly for a preview.
- ``plan_new_hand(game, record, number)``: the checks of a new hand (the number the client
  believes it records, a finished game) and what the engine says of it: the game's fields after
  it and the hand's result.
- ``plan_correction(game, hands, number, record)``: the replay of the whole game with hand
  ``number``'s record replaced — every hand's fields and result after it — or the problem of the
  corrected hand, or of the first later hand the correction makes impossible.
- ``plan_undo(game, number)``: the game's fields once its last hand is gone (the state stored
  with the hand before it, or the game's start) and the ``ResultChange`` that makes.
- ``check_hand_number``: 409 ``hand_conflict`` (``HandConflict``, carrying the stored hand) or
  ``hand_out_of_sequence``; ``later_hand_problem``: 409 ``later_hand_invalid`` for a replay.
- ``ResultChange``: how a change moves the game's *result* (its status and winner); the one
  definition of "the result changed", "finished", "reopened" and "the winner changed" that the
  services, the announcements, the checks, the previews and the pages use.

What it does not do: store anything, announce anything or ask the checks (``games.services``
does, with the plan), or decide permissions.

Terms:
- *fields*: the game's state columns as ``games.bridge`` gives them (``status``,
  ``winner_side``, ``totals``, ...).
- *winner after*: the winner a finished game has; None while it is in progress, whatever the
  engine carries.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from config.preconditions import check_if_match
from config.problems import Problem, localized_detail, rules_error_to_problem
from games import bridge
from games.changes import GameChangeKind
from games.models import Game, GameStatus, Hand
from rules_engine import RulesError


def load_game(game_id: int, if_match: str | None, *, lock: bool) -> Game:
    """The game with its club; only the game's row is locked when ``lock``."""
    games = Game.objects.select_related("club").filter(pk=game_id)
    if lock:
        games = games.select_for_update(of=("self",))
    game = games.first()
    if game is None:
        raise Problem(code="not_found", detail=gettext("No game %(game)s.") % {"game": game_id})
    check_if_match(
        if_match,
        game.etag,
        gettext(
            "The game has changed: its ETag is now %(etag)s, not %(sent)s. "
            "Fetch it again and retry."
        )
        % {"etag": game.etag, "sent": if_match},
    )
    return game


@dataclass(frozen=True)
class ResultChange:
    """A game's result before and after a change."""

    status_before: str
    winner_before: int | None
    status_after: str
    winner_after: int | None

    @classmethod
    def of(cls, game: Game, fields: dict) -> ResultChange:
        """From the game as stored (before) to ``fields`` (after)."""
        finished = fields["status"] == GameStatus.FINISHED
        return cls(
            status_before=game.status,
            winner_before=game.winner_side if game.is_finished else None,
            status_after=fields["status"],
            winner_after=fields["winner_side"] if finished else None,
        )

    @property
    def was_finished(self) -> bool:
        return self.status_before == GameStatus.FINISHED

    @property
    def is_finished(self) -> bool:
        return self.status_after == GameStatus.FINISHED

    @property
    def finished(self) -> bool:
        """The change finished the game."""
        return not self.was_finished and self.is_finished

    @property
    def reopened(self) -> bool:
        """A finished game is in play again."""
        return self.was_finished and not self.is_finished

    @property
    def winner_changed(self) -> bool:
        """The game was finished and its winner is now another side, or none (reopened)."""
        return self.was_finished and self.winner_before != self.winner_after

    @property
    def changed(self) -> bool:
        """The result changed: finished, reopened, or another winner."""
        return self.finished or self.winner_changed

    @property
    def kinds(self) -> frozenset[GameChangeKind]:
        """The announcement's result kinds: ``finished``, ``reopened``, or ``winner_changed``
        (a finished game that stays finished with another winner)."""
        if self.finished:
            return frozenset({GameChangeKind.FINISHED})
        if self.reopened:
            return frozenset({GameChangeKind.REOPENED})
        if self.winner_changed:
            return frozenset({GameChangeKind.WINNER_CHANGED})
        return frozenset()


@dataclass(frozen=True)
class HandPlan:
    """A new hand: its number, the engine's result and the game's fields after it."""

    number: int
    fields: dict
    result: dict
    change: ResultChange


def plan_new_hand(game: Game, record: dict, number: int | None = None) -> HandPlan:
    """409 ``hand_conflict`` / ``hand_out_of_sequence`` for a wrong ``number``, 409
    ``game_over`` for a finished game, the engine's problem for a hand it refuses."""
    check_hand_number(game, number)
    if game.is_finished:
        raise Problem(
            code="game_over",
            detail=gettext("Game %(game)s is finished; it takes no more hands.")
            % {"game": game.pk},
        )
    try:
        fields, result = bridge.play(game, record)
    except RulesError as error:
        raise rules_error_to_problem(error) from error
    return HandPlan(
        number=game.hands_played + 1,
        fields=fields,
        result=result,
        change=ResultChange.of(game, fields),
    )


@dataclass(frozen=True)
class CorrectionPlan:
    """The whole game replayed with one hand's record replaced: per stored hand, its fields and
    result after the replay, in order."""

    number: int
    replayed: tuple[tuple[Hand, dict, dict], ...]
    change: ResultChange

    @property
    def fields(self) -> dict:
        """The game's fields after its last hand."""
        return self.replayed[-1][1]

    @property
    def corrected(self) -> dict:
        """The corrected hand's result."""
        return next(result for hand, _, result in self.replayed if hand.number == self.number)


def plan_correction(game: Game, hands: list[Hand], number: int, record: dict) -> CorrectionPlan:
    """``hands``: the game's hands, in order. 404 when none is ``number``; the engine's problem
    for the corrected hand; 409 ``later_hand_invalid`` for the first later hand the correction
    makes impossible."""
    if not any(hand.number == number for hand in hands):
        raise Problem(
            code="not_found",
            detail=gettext("Game %(game)s has no hand %(number)s.")
            % {"game": game.pk, "number": number},
        )
    state = bridge.start_for(game)
    replayed = []
    for hand in hands:
        hand_record = record if hand.number == number else hand.record
        try:
            state, fields, result = bridge.play_state(state, hand_record)
        except RulesError as error:
            if hand.number == number:
                raise rules_error_to_problem(error) from error
            raise later_hand_problem(number, hand.number, error) from error
        replayed.append((hand, fields, result))
    return CorrectionPlan(
        number=number, replayed=tuple(replayed), change=ResultChange.of(game, replayed[-1][1])
    )


def plan_undo(game: Game, number: int) -> tuple[dict, ResultChange]:
    """The game's fields once hand ``number`` (its last) is gone: the state stored with the hand
    before it, or the game's start."""
    if number > 1:
        fields = (
            Hand.objects.filter(game=game, number=number - 1)
            .values_list("state_after", flat=True)
            .get()
        )
    else:
        fields = bridge.fields_of(bridge.start_for(game))
    return fields, ResultChange.of(game, fields)


def check_hand_number(game: Game, number: int | None) -> None:
    """409 ``hand_conflict`` when ``number`` is taken, ``hand_out_of_sequence`` when past the
    next hand; nothing when it is the next hand or None."""
    expected = game.hands_played + 1
    if number is None or number == expected:
        return
    if number < expected:
        taken = Hand.objects.select_related(
            "entered_by", "confirmed_by", "scored_by", "accepted_by_organiser"
        ).get(game=game, number=number)
        taken.game = game
        raise HandConflict(taken)
    raise Problem(
        code="hand_out_of_sequence",
        detail=gettext(
            "Game %(game)s has %(hands)s hands; the next is number %(expected)s, not "
            "%(number)s. Record the missing hands first."
        )
        % {"game": game.pk, "hands": game.hands_played, "expected": expected, "number": number},
        pointer="/number",
    )


class HandConflict(Problem):
    """409 ``hand_conflict``: the hand number the client sent is already taken by ``hand``."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(
            code="hand_conflict",
            detail=gettext(
                "Hand %(number)s of game %(game)s is already recorded (the stored hand is in "
                "this response's 'hand'); the next hand is number %(next)s."
            )
            % {"number": hand.number, "game": hand.game_id, "next": hand.game.hands_played + 1},
            pointer="/number",
        )
        self.hand = hand


def later_hand_problem(number: int, later: int, error: RulesError) -> Problem:
    errors = [
        {
            "code": single.code,
            "detail": gettext("hand %(number)s: %(why)s")
            % {"number": later, "why": localized_detail(single)},
            "pointer": f"/hands/{later}{single.pointer}",
        }
        for single in error.errors
    ]
    return Problem(
        code="later_hand_invalid",
        detail=gettext(
            "After this correction of hand %(number)s, hand %(later)s is no longer valid "
            "(%(why)s). Undo the later hands first, or correct them."
        )
        % {"number": number, "later": later, "why": localized_detail(error)},
        errors=errors,
    )
