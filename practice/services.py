"""Writes of the practice table: start a game, the person's moves, the computer players' moves.

What it does: ``start_practice_game`` freezes the house rules (the ``classic_45`` preset for 45,
the engine's defaults for 25 and 110, or a club's rules for its game) and deals the first hand
from a fresh ``secrets`` shuffle. ``play_practice_move`` applies the person's move (a card, a rob,
a call, the bidder's trump and discards); ``advance_practice_game`` plays the next computer
move. Every move goes through ``computer_players.HandInProgress`` (the engine's follow rules and
auction); a finished hand's card-by-card record is recorded in the engine's ``GameState`` and
stored as a ``PracticeHand``; the game ends when the engine says so. Each write locks the game
row, so two clicks cannot both apply.

What it does not do: render pages or decide who may open a game (``selectors.py`` and the views).

Errors: ``PracticeError(code, detail)``, its status the code's (config.problem_codes):
``illegal_play`` (with the engine's reason), ``not_your_turn``, ``game_over``, ``invalid_move``,
``invalid_game``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from clubs.models import Club
from computer_players import HandInProgress, MoveError, make_player
from computer_players.driver import move_computer
from config.problem_codes import problem_status
from practice.models import PracticeGame, PracticeHand, PracticeStatus
from rules_engine import FULL_PACK, GameState, HouseRules, new_game, parse_card, replay
from rules_engine.presets import preset

PRACTICE_GAMES = ("45", "25", "110")
SEAT_COUNT = 3
HUMAN_SEAT = 0
COMPUTER_LEVELS = ("club", "easy")


class PracticeError(Exception):
    """A move or request the practice table refuses; the views turn it into a 4xx."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.status = problem_status(code)


@dataclass(frozen=True)
class Table:
    """A practice game loaded for play: the engine's state and the hand in progress."""

    game: PracticeGame
    state: GameState
    hand: HandInProgress | None
    hands: tuple[PracticeHand, ...] = ()


def rules_for(game: str, club: Club | None) -> tuple[str, HouseRules]:
    """(the rules' name, the house rules) of a practice game of ``game``."""
    if game not in PRACTICE_GAMES:
        raise PracticeError(
            "invalid_game",
            gettext("practice games are %(games)s") % {"games": ", ".join(PRACTICE_GAMES)},
        )
    if club is not None and club.default_game == game:
        return club.name, HouseRules.for_game(game, **club.default_house_rules)
    if game == "45":
        return "classic_45", preset("classic_45").rules()
    return "standard", HouseRules.for_game(game)


def fresh_deck() -> list[str]:
    """A shuffle from the operating system's randomness (``secrets``)."""
    deck = [str(card) for card in FULL_PACK]
    secrets.SystemRandom().shuffle(deck)
    return deck


def start_practice_game(
    *, player: Any, session_key: str, game: str, level: str = "club", club: Club | None = None
) -> PracticeGame:
    """A new practice game: the person at seat 0, two computer players of ``level``."""
    if level not in COMPUTER_LEVELS:
        raise PracticeError(
            "invalid_game",
            gettext("levels are %(levels)s") % {"levels": ", ".join(COMPUTER_LEVELS)},
        )
    rules_name, rules = rules_for(game, club)
    first_dealer = secrets.randbelow(SEAT_COUNT)
    return PracticeGame.objects.create(
        player=player if player is not None and player.is_authenticated else None,
        session_key=session_key,
        club=club,
        game=game,
        rules_name=rules_name,
        house_rules=rules.to_dict(),
        seat_count=SEAT_COUNT,
        human_seat=HUMAN_SEAT,
        levels=["human", level, level],
        first_dealer=first_dealer,
        seed=secrets.randbits(48),
        totals=[0] * SEAT_COUNT,
        dealer=first_dealer,
        deck=fresh_deck(),
        moves=[],
    )


def load_table(game: PracticeGame) -> Table:
    """The engine's state after the stored hands, and the hand in progress rebuilt from its
    shuffle and moves (None once the game is over)."""
    rules = HouseRules.from_dict(game.house_rules)
    state = new_game(game.game, game.seat_count, rules=rules, first_dealer=game.first_dealer)
    stored = tuple(game.hands.all())
    if stored:
        state = replay(state, [hand.record for hand in stored])[-1][1]
    if game.finished:
        return Table(game, state, None, stored)
    hand = HandInProgress.replay(
        game.moves,
        rules=rules,
        seat_count=game.seat_count,
        dealer=game.dealer,
        deck=[parse_card(text) for text in game.deck],
        totals=state.totals,
        side_of_seat=state.side_of_seat,
    )
    return Table(game, state, hand, stored)


def play_practice_move(*, practice_game: PracticeGame, move: dict[str, Any]) -> Table:
    """The person's move (``kind`` rob / call / exchange / play, as ``HandInProgress.apply``
    takes it, without the seat). Refused with the engine's reason when illegal."""
    with transaction.atomic():
        game = _locked(practice_game)
        table = load_table(game)
        hand = table.hand
        phase, seat = hand.turn()
        if seat != game.human_seat:
            raise PracticeError(
                "not_your_turn", gettext("it is not your turn: the others are playing")
            )
        try:
            hand.apply({**move, "seat": game.human_seat})
        except MoveError as error:
            code = "illegal_play" if move.get("kind") == "play" else "invalid_move"
            raise PracticeError(code, error.reason) from None
        except (KeyError, TypeError, ValueError) as error:
            raise PracticeError(
                "invalid_move", gettext("not a move: %(error)s") % {"error": error}
            ) from None
        return _save(game, table)


def advance_practice_game(*, practice_game: PracticeGame) -> Table:
    """The next computer player's move, when it is a computer's turn (else nothing changes)."""
    with transaction.atomic():
        game = _locked(practice_game)
        table = load_table(game)
        hand = table.hand
        phase, seat = hand.turn()
        if seat == game.human_seat:
            return table
        player = make_player(game.levels[seat], seed=_seed(game, len(table.hands), len(game.moves)))
        move_computer(hand, player, phase, seat)
        return _save(game, table)


def _locked(practice_game: PracticeGame) -> PracticeGame:
    game = PracticeGame.objects.select_for_update().get(pk=practice_game.pk)
    if game.finished:
        raise PracticeError("game_over", gettext("this practice game is over: start a new one"))
    return game


def _seed(game: PracticeGame, hand_count: int, move_number: int) -> int:
    # One seed per move, so a replay of the stored moves needs no random state.
    return game.seed * 1_000 + hand_count * 100 + move_number


def _save(game: PracticeGame, table: Table) -> Table:
    hand = table.hand
    game.moves = hand.moves
    state = table.state
    if not hand.over:
        game.save(update_fields=["moves", "updated_at"])
        return Table(game, state, hand, table.hands)
    record = hand.record()
    # The engine checks the whole hand once more, as it checks every recorded hand.
    result, state = state.record(record)
    stored_hand = PracticeHand.objects.create(
        practice_game=game,
        number=result.number,
        deck=game.deck,
        record=record,
        points=list(result.points),
        result=result.to_dict(),
    )
    game.totals = list(state.totals)
    if state.finished:
        game.status = PracticeStatus.FINISHED
        game.winner = state.winner
        game.save(update_fields=["moves", "totals", "status", "winner", "updated_at"])
        return Table(game, state, None, (*table.hands, stored_hand))
    game.dealer = state.next_dealer
    game.deck = fresh_deck()
    game.moves = []
    game.save(update_fields=["moves", "totals", "dealer", "deck", "updated_at"])
    return load_table(game)
