"""Whole games between computer players: deal, play, and the engine's records.

What it does: ``play_hand`` plays one hand of a ``HandInProgress`` with one computer player per
seat; ``play_game`` plays a game to its end from a seeded ``random.Random`` (a fresh shuffle per
hand), recording every hand in the engine's ``GameState`` (so every card is checked twice: once
as it is played, once whole) and returns the records, in the card-by-card shape or, for the hands
``trick_winner_hands`` picks, as trick-winner entries built from the engine's own result.

What it does not do: store anything or know players (the demo builder, the practice table and
``simulate_night`` do).

Terms: *levels*: one of ``players.LEVELS`` per seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from computer_players.hand import BID, EXCHANGE, PLAY, ROB, HandInProgress
from computer_players.players import ComputerPlayer, make_player
from rules_engine import FULL_PACK, GameState, HandResult, HouseRules, new_game

MAX_HANDS = 200
"""A game longer than this is abandoned (bidding games where every bid fails could go on)."""


@dataclass
class PlayedGame:
    """A game the computer players played: its records, the engine's results and final state."""

    records: list[dict[str, Any]] = field(default_factory=list)
    results: list[HandResult] = field(default_factory=list)
    card_records: list[dict[str, Any]] = field(default_factory=list)
    state: GameState | None = None


def shuffled_deck(rng: random.Random) -> list:
    deck = list(FULL_PACK)
    rng.shuffle(deck)
    return deck


def play_hand(hand: HandInProgress, players: Sequence[ComputerPlayer]) -> HandInProgress:
    """Play ``hand`` to its end, each seat's moves chosen by ``players[seat]``."""
    while not hand.over:
        phase, seat = hand.turn()
        move_computer(hand, players[seat], phase, seat)
    return hand


def move_computer(hand: HandInProgress, player: ComputerPlayer, phase: str, seat: int) -> None:
    """One move of ``player`` at ``seat`` (whose turn it must be)."""
    view = hand.view(seat)
    if phase == PLAY:
        hand.play(seat, player.choose_card(view))
    elif phase == ROB:
        hand.take_rob(seat, player.choose_rob(view))
    elif phase == BID:
        hand.call(seat, player.choose_call(view))
    elif phase == EXCHANGE:
        # The bidder's view of its hand with the kitty taken up.
        kitty_view = _with_kitty(view, hand)
        trump, discards = player.choose_exchange(kitty_view, len(hand.kitty))
        hand.exchange(seat, trump, discards)


def _with_kitty(view: Any, hand: HandInProgress) -> Any:
    from dataclasses import replace

    return replace(view, hand=view.hand + hand.kitty)


def trick_winner_entry(record: dict[str, Any], result: HandResult) -> dict[str, Any]:
    """The trick-winner entry of a played card-by-card hand, from the engine's result."""
    entry: dict[str, Any] = {"dealer": record["dealer"]}
    if "turn_up" in record:
        entry["turn_up"] = record["turn_up"]
        if "rob" in record:
            entry["rob"] = {"seat": record["rob"]["seat"]}
    else:
        entry["trump"] = record["trump"]
        entry["bidding"] = record["bidding"]
    entry["trick_winners"] = list(result.trick_winners)
    best = result.best_trump
    entry["best_trump"] = None if best is None else {"seat": best.seat, "trick": best.trick}
    return entry


def play_game(
    game: str,
    *,
    seat_count: int,
    levels: Sequence[str],
    rng: random.Random,
    rules: HouseRules | None = None,
    sides: Sequence[Sequence[int]] | None = None,
    first_dealer: int = 0,
    trick_winner_hands: Callable[[int], bool] | None = None,
    seeds: Sequence[int] | None = None,
) -> PlayedGame:
    """One whole game between computer players of ``levels`` (one per seat).

    Each hand is recorded in the engine (``GameState.record``): a record the engine refuses
    raises its ``RulesError``, which is what the tests look for. ``trick_winner_hands(number)``
    (1-based) says which hands to keep as trick-winner entries (default none); ``records`` then
    holds what a scorekeeper would have entered, ``card_records`` always the cards.
    """
    state = new_game(game, seat_count, sides=sides, first_dealer=first_dealer, rules=rules)
    if seeds is None:
        seeds = [rng.randrange(1 << 30) for _ in range(seat_count)]
    players = [make_player(level, seed) for level, seed in zip(levels, seeds, strict=True)]
    played = PlayedGame()
    while not state.finished and state.hands_played < MAX_HANDS:
        hand = HandInProgress(
            rules=state.rules,
            seat_count=seat_count,
            dealer=state.next_dealer,
            deck=shuffled_deck(rng),
            totals=state.totals,
            side_of_seat=state.side_of_seat,
        )
        play_hand(hand, players)
        record = hand.record()
        result, state = state.record(record)
        played.card_records.append(record)
        played.results.append(result)
        if (
            trick_winner_hands is not None
            and result.kind == "played"
            and trick_winner_hands(result.number)
        ):
            played.records.append(trick_winner_entry(record, result))
        else:
            played.records.append(record)
    played.state = state
    return played
