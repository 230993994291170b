"""Writes to games: create a game (or a batch of games), record a hand, correct a hand, undo the
last hand.

What it does: each service checks its input (the games to start are checked against their club
and built by ``games.new_games``), locks the game row of a game it changes (``SELECT ... FOR
UPDATE``, so two tablets at one table are served one after the other), runs the engine, and
stores the hand, the new totals and engine state, the ledger bookings and the audit history in
one transaction.
After the commit, each write announces what it changed (``games.changes``: one ``GameChange`` per
game written, with its kinds); the subscribers listed in settings (a tournament match's progress,
…) run then, never for a rolled-back change. Before a change of a finished game's result, the
checks listed in settings may refuse it (``games.changes.check_game_change``). A refusal raises
``config.problems.Problem`` (a 4xx with a stable code and the JSON pointer of the offending value)
and stores nothing.

Recording a hand does not replay history: the game row carries the engine state needed to go on
(``games.bridge``), so its cost does not grow with the hands already played. Corrections replay
the whole game from its first hand with the corrected record, because every later total may
change; undoing the last hand restores the state stored with the hand before it.

What it does not do: check types and shapes of request bodies (``games.api.inputs``), decide
who may call it (``clubs.permissions``, in the views) or shape reads (``games.selectors``).

Terms:
- *if_match*: the ``If-Match`` header as sent (``None`` when absent); it must name the game's
  current ``ETag`` (``Game.etag``) or be ``*``; compared under the row lock.
- *plan*: what the engine says a hand does (``games.plans``: the same plan a preview shows); a
  service checks the acceptance and the result change, then stores the plan.
- *outcome*: what a change did to the game (``HandOutcome``): its ``ResultChange`` (finished it,
  reopened it, changed its winner), rebooked its ledger, recomputed later hands.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext
from simple_history.utils import bulk_create_with_history

from clubs.models import Club
from config.problems import Problem
from games import match_links
from games.changes import (
    GameChange,
    GameChangeKind,
    ProposedResultChange,
    announce_game_change,
    check_game_change,
)
from games.confirmation import Acceptance, check_acceptance
from games.ledger import sync_ledger
from games.match_links import MatchTerms
from games.models import Game, GameSeat, GameSide, Hand
from games.new_games import NewGame, prepare_games
from games.plans import ResultChange, load_game, plan_correction, plan_new_hand, plan_undo
from rules_engine import canonical_record


@dataclass(frozen=True)
class HandOutcome:
    """What recording, correcting or undoing a hand did to its game."""

    game: Game
    change: ResultChange
    ledger_rebooked: bool = False
    recomputed_hands: tuple[int, ...] = ()

    @property
    def finished(self) -> bool:
        return self.change.finished

    @property
    def reopened(self) -> bool:
        return self.change.reopened

    @property
    def winner_changed(self) -> bool:
        return self.change.winner_changed

    def as_dict(self) -> dict:
        return {
            "status_before": self.change.status_before,
            "status_after": self.game.status,
            "winner_before": self.change.winner_before,
            "winner_after": self.game.winner_side,
            "winner_changed": self.winner_changed,
            "reopened": self.reopened,
            "finished": self.finished,
            "ledger_rebooked": self.ledger_rebooked,
            "recomputed_hands": list(self.recomputed_hands),
        }


# ---------------------------------------------------------------------------------------------
# Creating a game


def create_game(
    *,
    club: Club,
    user,
    game: str,
    seat_player_ids: list[int],
    teams: list[list[int]] | None = None,
    team_ids: list[int | None] | None = None,
    first_dealer: int = 0,
    house_rules: dict | None = None,
    stake_minor: int | None = None,
    tournament_match: int | MatchTerms | None = None,
) -> Game:
    """Start a game: seats are player ids clockwise; ``teams`` each side's seats (None: every
    seat for itself); ``team_ids`` the club team of each side (optional).

    House rules = the club's defaults (when ``game`` is the club's default game), then the
    match's (its tournament's) overrides, then ``house_rules``; frozen on the game. The stake
    defaults to the match's. The game is linked to its match in the same transaction.
    """
    (created,) = create_games(
        club=club,
        user=user,
        game=game,
        house_rules=house_rules,
        new_games=[
            NewGame(
                seat_player_ids=seat_player_ids,
                teams=teams,
                team_ids=team_ids,
                first_dealer=first_dealer,
                stake_minor=stake_minor,
                tournament_match=tournament_match,
            )
        ],
    )
    return created


def create_games(
    *, club: Club, user, game: str, new_games: list[NewGame], house_rules: dict | None = None
) -> list[Game]:
    """Start every game of ``new_games`` (in order), all or none, each exactly as
    ``create_game`` would: the same checks, refusals, rows and history.

    The first game that ``create_game`` would refuse is refused, with the same problem. The
    players, teams and tournament matches of all the games are loaded once, and the game, history,
    seat and side rows are inserted in one statement each, so a tournament round costs a fixed
    number of queries however many tables it has.
    """
    checked = prepare_games(
        club=club, user=user, game=game, new_games=new_games, house_rules=house_rules
    )
    games = [new_game for new_game, *_ in checked]
    with transaction.atomic():
        # One INSERT for the games and one for their "game created" history rows (the same rows
        # ``save()`` would write: simple-history reads the same ``_history_user`` and
        # ``_change_reason``); nothing listens to the games' post_save.
        bulk_create_with_history(games, Game)
        GameSeat.objects.bulk_create(
            GameSeat(game=new_game, seat=seat, player=player, side=side_of_seat[seat])
            for new_game, players, side_of_seat, _ in checked
            for seat, player in enumerate(players)
        )
        GameSide.objects.bulk_create(
            GameSide(game=new_game, index=index, team=team)
            for new_game, _, _, side_teams in checked
            for index, team in enumerate(side_teams)
        )
        match_links.link_games(
            [
                (new_game, new_game.tournament_match_id)
                for new_game in games
                if new_game.tournament_match_id is not None
            ]
        )
        for new_game in games:
            announce_game_change(
                GameChange(
                    game_id=new_game.pk,
                    club_id=club.pk,
                    kinds=frozenset({GameChangeKind.STARTED}),
                    actor_id=getattr(user, "pk", None),
                )
            )
    return games


# ---------------------------------------------------------------------------------------------
# Hands


def _save_game(game: Game, fields: dict, user, reason: str) -> None:
    for name, value in fields.items():
        setattr(game, name, value)
    game.version += 1
    game._history_user = user
    game._change_reason = reason
    # Only the state columns: the frozen rules and seating never change after creation.
    game.save(update_fields=[*fields, "version", "updated_at"])


def _after_change(
    game: Game, user, change: ResultChange, *, kind: GameChangeKind, hand_number: int
) -> bool:
    """Rebook the ledger if the game is or was finished, and announce the change after commit."""
    rebooked = False
    if change.changed or game.is_finished:
        rebooked = sync_ledger(game=game, user=user)
    announce_game_change(
        GameChange(
            game_id=game.pk,
            club_id=game.club_id,
            kinds=frozenset({kind, *change.kinds}),
            hand_number=hand_number,
            actor_id=getattr(user, "pk", None),
        )
    )
    return rebooked


def _check_result_change(game: Game, change: ResultChange, reset_dependents: bool, user) -> None:
    """Ask the listed checks before a finished game's result changes: its winner (or it
    reopens), or only its points, which move stakes and standings too (a closed tournament's
    game takes neither from anyone but an organiser)."""
    if not change.was_finished:
        return
    check_game_change(
        ProposedResultChange(
            game_id=game.pk,
            club_id=game.club_id,
            winner_side_before=change.winner_before,
            new_winner_side=change.winner_after,
            winner_changes=change.winner_changed,
            reset_dependents=reset_dependents,
            actor=user,
        )
    )


def record_hand(
    *,
    game_id: int,
    user,
    record: dict,
    number: int | None = None,
    if_match: str | None = None,
    confirmed_by: int | None = None,
    table_link_id: int | None = None,
    scored_by: int | None = None,
    organiser_entry: bool = False,
) -> tuple[Hand, HandOutcome]:
    """Check ``record`` with the engine and store it as the game's next hand.

    ``number`` is the hand number the client believes it is recording: a taken number is 409
    ``hand_conflict`` (``HandConflict.hand`` is the stored hand), a number past the next one 409
    ``hand_out_of_sequence``. A finished game is 409 ``game_over``. ``confirmed_by``: the player
    of another side who accepted the hand, ``scored_by`` the player who entered it at the table,
    ``organiser_entry`` an organiser's own console entry standing as the acceptance
    (``games.confirmation.check_acceptance``; ``confirm_hands`` requires an acceptance).
    ``table_link_id``: the table link the request came through (kept on the hand and its audit
    row), or None.
    """
    with transaction.atomic():
        game = load_game(game_id, if_match, lock=True)
        plan = plan_new_hand(game, record, number)
        fields, result = plan.fields, plan.result
        acceptance = check_acceptance(
            game,
            user,
            confirmed_by,
            scored_by=scored_by,
            organiser_entry=organiser_entry,
            through_link=table_link_id is not None,
        )
        expected = plan.number
        hand = Hand(
            game=game,
            number=expected,
            dealer=result["dealer"],
            # One rule for card spellings: accepted as the engine reads them, stored canonical.
            record=canonical_record(record),
            result=result,
            totals_after=fields["totals"],
            state_after=fields,
            entered_by=user,
            table_link_id=table_link_id,
        )
        _stamp_acceptance(hand, acceptance)
        hand._history_user = user
        hand._history_table_link_id = table_link_id
        hand._change_reason = f"hand {expected} recorded"
        hand.save()
        _save_game(game, fields, user, f"hand {expected} recorded")
        rebooked = _after_change(
            game, user, plan.change, kind=GameChangeKind.HAND_RECORDED, hand_number=expected
        )
    return hand, HandOutcome(game, plan.change, ledger_rebooked=rebooked)


def _stamp_acceptance(hand: Hand, acceptance: Acceptance) -> None:
    """Who accepted this version of the hand (and who entered it at the table): each version
    carries its own, never the first version's."""
    hand.confirmed_by = acceptance.player
    hand.accepted_by_organiser = acceptance.organiser
    hand.scored_by = acceptance.scorer


def correct_hand(
    *,
    game_id: int,
    number: int,
    user,
    record: dict,
    if_match: str,
    reset_dependents: bool = False,
    table_link_id: int | None = None,
    confirmed_by: int | None = None,
    scored_by: int | None = None,
    organiser_entry: bool = False,
) -> tuple[Hand, HandOutcome]:
    """Replace hand ``number``'s record and recompute it and every later hand by replaying.

    The correction needs the same acceptance as a new hand (``confirmed_by``, ``scored_by``,
    ``organiser_entry``: ``games.confirmation``); the corrected hand carries the correction's.

    A later hand the correction makes impossible (it now comes after the game ended, or its
    dealer is now out of turn, ...) refuses the correction: 409 ``later_hand_invalid`` listing
    each problem; undo those hands first.
    """
    with transaction.atomic():
        game = load_game(game_id, if_match, lock=True)
        hands = list(Hand.objects.filter(game=game).order_by("number"))
        target = next((hand for hand in hands if hand.number == number), None)
        acceptance = None
        if target is not None:
            acceptance = check_acceptance(
                game,
                user,
                confirmed_by,
                scored_by=scored_by,
                organiser_entry=organiser_entry,
                through_link=table_link_id is not None,
            )
        plan = plan_correction(game, hands, number, record)
        _check_result_change(game, plan.change, reset_dependents, user)

        recomputed = []
        for hand, fields, result in plan.replayed:
            if hand.number < number:
                continue
            changed = (
                hand.result != result
                or hand.totals_after != fields["totals"]
                or hand.state_after != fields
            )
            if hand.number != number and not changed:
                continue
            if hand.number == number:
                hand.record = canonical_record(record)
                _stamp_acceptance(hand, acceptance)
                hand._change_reason = f"hand {number} corrected"
            else:
                hand._change_reason = f"recomputed after a correction of hand {number}"
                recomputed.append(hand.number)
            hand.dealer = result["dealer"]
            hand.result = result
            hand.totals_after = fields["totals"]
            hand.state_after = fields
            hand._history_user = user
            hand._history_table_link_id = table_link_id
            hand.save()
        _save_game(game, plan.fields, user, f"hand {number} corrected")
        rebooked = _after_change(
            game, user, plan.change, kind=GameChangeKind.HAND_CORRECTED, hand_number=number
        )
    target.entered_by  # noqa: B018 - load for the response inside the transaction
    return target, HandOutcome(game, plan.change, rebooked, recomputed_hands=tuple(recomputed))


def undo_last_hand(
    *,
    game_id: int,
    number: int,
    user,
    if_match: str,
    reset_dependents: bool = False,
    table_link_id: int | None = None,
    confirmed_by: int | None = None,
    scored_by: int | None = None,
    organiser_entry: bool = False,
) -> tuple[Hand, HandOutcome]:
    """Delete the game's last hand (it must be ``number``) and restore the state before it.

    The undo needs the same acceptance as a new hand (``games.confirmation``); the audit row of
    the deletion carries it."""
    with transaction.atomic():
        game = load_game(game_id, if_match, lock=True)
        if number != game.hands_played or number == 0:
            if not Hand.objects.filter(game=game, number=number).exists():
                raise Problem(
                    code="not_found",
                    detail=gettext("Game %(game)s has no hand %(number)s.")
                    % {"game": game.pk, "number": number},
                )
            raise Problem(
                code="not_last_hand",
                detail=gettext(
                    "Only the last hand (%(last)s) can be undone; correct hand "
                    "%(number)s with PUT instead."
                )
                % {"last": game.hands_played, "number": number},
            )
        hand = Hand.objects.select_related("entered_by").get(game=game, number=number)
        acceptance = check_acceptance(
            game,
            user,
            confirmed_by,
            scored_by=scored_by,
            organiser_entry=organiser_entry,
            through_link=table_link_id is not None,
        )
        _stamp_acceptance(hand, acceptance)
        fields, change = plan_undo(game, number)
        _check_result_change(game, change, reset_dependents, user)
        hand._history_user = user
        hand._history_table_link_id = table_link_id
        hand._change_reason = f"hand {number} undone"
        hand.delete()
        _save_game(game, fields, user, f"hand {number} undone")
        rebooked = _after_change(
            game, user, change, kind=GameChangeKind.HAND_UNDONE, hand_number=number
        )
    return hand, HandOutcome(game, change, rebooked)
