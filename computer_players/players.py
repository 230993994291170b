"""The computer players: ``EasyPlayer`` (a legal move at random) and ``ClubPlayer``.

What it does: given a ``SeatView`` (what one seat may see), a player chooses a rob (the card to
discard, or None), a call of the auction, the bidder's trump and discards, and a card. Every
choice is one the view offers (``legal_cards``, ``legal_calls``, ``rob_discards``), which the
engine worked out; a player never decides legality itself.

What it does not do: see other seats' cards (it only ever gets a ``SeatView``), or keep the game.

The club player plays like a decent club player, in plain rules of thumb:
- *play*: take a trick with the cheapest card that wins it (the last to play knows it wins;
  earlier in the trick, when the trick matters, it takes it with its cheapest winning trump
  rather than a plain card a later player could trump); when it
  cannot win, or a partner already wins, throw the cheapest plain card and keep its trumps. Top
  trumps (the best still out) are kept for later tricks (so they take the best-trump bonus of
  45) unless the trick matters now: a rival within a trick or two of the target, or the last
  tricks of the hand.
- *lead*: the best trump still out when it holds it, a trump when strong in trumps (three or
  more), else a king (the top of its suit), else its cheapest plain card.
- *rob*: always, discarding its cheapest plain card.
- *bid*: counts its likely tricks in its best suit (top trumps nearly sure, lower trumps and kings
  part-sure, plus what the kitty usually adds) and bids the highest bid they cover; as dealer it
  holds when the bid is covered.
- *exchange*: names the suit that makes its ten cards strongest and keeps the best five.

Terms: *value* of a card for trump suit t: trumps above every plain card, each order as
rules.md prints it (``rules_engine.order``).
"""

from __future__ import annotations

import random
from typing import Protocol

from computer_players.view import SeatView
from rules_engine.cards import FULL_PACK, SUITS, Card
from rules_engine.order import TRUMP_ORDERS, plain_rank, trick_winner, trump_rank

LEVELS = ("easy", "club")
JINK_ESTIMATE = 29.5
PASS_CHANCE = 0.5


class ComputerPlayer(Protocol):
    level: str

    def choose_rob(self, view: SeatView) -> Card | None: ...

    def choose_call(self, view: SeatView) -> str | int: ...

    def choose_exchange(self, view: SeatView, kitty_size: int) -> tuple[str, tuple[Card, ...]]: ...

    def choose_card(self, view: SeatView) -> Card: ...


def make_player(level: str, seed: int | None = None) -> ComputerPlayer:
    """A player of ``level`` ("easy" or "club"), its random choices seeded by ``seed``."""
    if level == "easy":
        return EasyPlayer(seed)
    if level == "club":
        return ClubPlayer(seed)
    raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")


def _value_of(card: Card, trump: str) -> int:
    rank = trump_rank(card, trump)
    if rank is not None:
        return 200 - rank
    return 50 - plain_rank(card, trump)


# trump -> card -> value and trump -> card -> trump rank (or None), built once from the engine.
_VALUES = {trump: {card: _value_of(card, trump) for card in FULL_PACK} for trump in SUITS}
_TRUMP_RANKS = {trump: {card: trump_rank(card, trump) for card in FULL_PACK} for trump in SUITS}


def value(card: Card, trump: str) -> int:
    """Higher is stronger: trumps 100.. above plain cards 0..13 (see the module's terms)."""
    return _VALUES[trump][card]


class EasyPlayer:
    """A legal move at random (seeded), as a beginner who knows only the rules."""

    level = "easy"

    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)

    def choose_rob(self, view: SeatView) -> Card | None:
        options: list[Card | None] = list(view.rob_discards)
        if not view.must_rob:
            options.append(None)
        return self.random.choice(options)

    def choose_call(self, view: SeatView) -> str | int:
        # Often a pass, never the jink while another call is legal: uniform calls would bid
        # the jink a sixth of the time, and 110 between three easy players would last hundreds
        # of hands.
        legal = view.legal_calls
        if "pass" in legal and self.random.random() < PASS_CHANCE:
            return "pass"
        modest = [call for call in legal if call != view.rules.jink_bid] or list(legal)
        return self.random.choice(modest)

    def choose_exchange(self, view: SeatView, kitty_size: int) -> tuple[str, tuple[Card, ...]]:
        trump = self.random.choice(SUITS)
        return trump, tuple(self.random.sample(list(view.hand), kitty_size))

    def choose_card(self, view: SeatView) -> Card:
        return self.random.choice(view.legal_cards)


class ClubPlayer:
    """Rules of thumb of a decent club player (see the module docstring)."""

    level = "club"

    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)

    # --- robbing, bidding, the kitty ----------------------------------------------------------

    def choose_rob(self, view: SeatView) -> Card | None:
        if not view.rob_discards:
            return None
        return min(view.rob_discards, key=lambda card: value(card, view.trump))

    def choose_call(self, view: SeatView) -> str | int:
        legal = view.legal_calls
        estimate = self._bid_estimate(view)
        jink = view.rules.jink_bid
        # The jink bid (all five tricks) only with a near-certain five.
        affordable = [
            call
            for call in legal
            if isinstance(call, int)
            and (call <= estimate if call != jink else estimate >= JINK_ESTIMATE)
        ]
        if "hold" in legal and view.calls and self._current_bid(view) <= estimate:
            return "hold"
        if affordable:
            return max(affordable)
        if "pass" in legal:
            return "pass"
        # The stuck dealer: the lowest bid allowed.
        return min(call for call in legal if call not in ("pass", "hold"))

    def choose_exchange(self, view: SeatView, kitty_size: int) -> tuple[str, tuple[Card, ...]]:
        best_suit = max(SUITS, key=lambda suit: _hand_strength(view.hand, suit, 5))
        ordered = sorted(view.hand, key=lambda card: value(card, best_suit))
        return best_suit, tuple(ordered[:kitty_size])

    def _bid_estimate(self, view: SeatView) -> float:
        """Points the hand likely makes with its best suit as trumps, the kitty counted; the
        best-trump bonus only with one of the three top trumps in hand."""
        suit = max(SUITS, key=lambda candidate: _likely_tricks(view.hand, candidate))
        best = _likely_tricks(view.hand, suit)
        kitty_help = 0.8 if (view.rules.kitty or 0) >= 5 else 0.4
        tricks = min(5.0, best + kitty_help)
        ranks = _TRUMP_RANKS[suit]
        top = any(ranks[card] is not None and ranks[card] < 3 for card in view.hand)
        return tricks * view.rules.trick_points + (view.rules.best_trump_bonus if top else 0)

    @staticmethod
    def _current_bid(view: SeatView) -> int:
        amounts = [call for _, call in view.calls if isinstance(call, int)]
        return max(amounts) if amounts else 0

    # --- play -----------------------------------------------------------------------------------

    def choose_card(self, view: SeatView) -> Card:
        legal = view.legal_cards
        if len(legal) == 1:
            return legal[0]
        trump = view.trump
        if not view.trick:
            return self._lead(view)
        position = len(view.trick)
        last = position == view.seat_count - 1
        current = trick_winner(view.trick, trump)
        current_seat = (view.trick_leader + current) % view.seat_count
        partner_wins = view.side_of_seat[current_seat] == view.side and current_seat != view.seat
        winners = [card for card in legal if trick_winner([*view.trick, card], trump) == position]
        if partner_wins or not winners:
            return self._cheapest_throw(legal, trump)
        winners.sort(key=lambda card: value(card, trump))
        top_out = self._best_trumps_out(view)
        urgent = self._urgent(view)
        if not urgent:
            # Keep the best trump still out for a later trick when a cheaper card wins this one.
            spare = [card for card in winners if card not in top_out[:1]]
            if spare:
                winners = spare
        if last:
            return winners[0]
        # Not last: a later player may still trump a plain winner; when the trick matters, the
        # cheapest winning trump is safer.
        trump_winners = [card for card in winners if _TRUMP_RANKS[trump][card] is not None]
        if urgent and trump_winners:
            return trump_winners[0]
        return winners[0]

    def _lead(self, view: SeatView) -> Card:
        trump = view.trump
        legal = view.legal_cards
        trumps = sorted(
            (card for card in legal if _TRUMP_RANKS[trump][card] is not None),
            key=lambda card: _TRUMP_RANKS[trump][card],
        )
        top_out = self._best_trumps_out(view)
        if trumps and top_out and trumps[0] is top_out[0]:
            return trumps[0]
        if len(trumps) >= 3:
            return trumps[0]
        plain = [card for card in legal if _TRUMP_RANKS[trump][card] is None]
        kings = [card for card in plain if card.rank == "K"]
        if kings:
            return kings[0]
        if plain:
            return min(plain, key=lambda card: value(card, trump))
        return trumps[-1]

    @staticmethod
    def _cheapest_throw(legal: tuple[Card, ...], trump: str) -> Card:
        plain = [card for card in legal if _TRUMP_RANKS[trump][card] is None]
        pool = plain or list(legal)
        return min(pool, key=lambda card: value(card, trump))

    @staticmethod
    def _best_trumps_out(view: SeatView) -> list[Card]:
        """The trumps not yet played, highest first, whoever holds them (the turn-up, when not
        robbed, is out of play)."""
        gone = set(view.played_cards())
        if view.turn_up is not None and view.robbed_by is None:
            gone.add(view.turn_up)
        return [card for card in TRUMP_ORDERS[view.trump] if card not in gone]

    @staticmethod
    def _urgent(view: SeatView) -> bool:
        """Whether this trick must be won now: the hand's last tricks, or a rival near the
        target (within two tricks)."""
        if len(view.tricks) >= 3:
            return True
        reach = 2 * view.rules.trick_points + view.rules.best_trump_bonus
        return any(
            side != view.side and view.rules.target - total <= reach
            for side, total in enumerate(view.totals)
        )


_TRICK_CHANCE = (1.0, 0.95, 0.85, 0.7, 0.55, 0.45)


def _likely_tricks(cards: tuple[Card, ...], suit: str) -> float:
    """Rough tricks the cards take with ``suit`` as trumps: the top trumps held in an unbroken
    run from the 5 are sure tricks; lower trumps and kings part-sure."""
    ranks = _TRUMP_RANKS[suit]
    trump_ranks = sorted(ranks[card] for card in cards if ranks[card] is not None)
    tricks = 0.0
    for index, rank in enumerate(trump_ranks):
        if rank == index:
            tricks += 1.0
        else:
            tricks += _TRICK_CHANCE[rank] if rank < len(_TRICK_CHANCE) else 0.35
    tricks += 0.35 * sum(1 for card in cards if ranks[card] is None and card.rank == "K")
    return tricks


def _hand_strength(cards: tuple[Card, ...], suit: str, keep: int) -> float:
    """The likely tricks of the best ``keep`` cards with ``suit`` as trumps."""
    best = sorted(cards, key=lambda card: value(card, suit), reverse=True)[:keep]
    return _likely_tricks(tuple(best), suit)
