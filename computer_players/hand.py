"""One hand in progress, move by move: the deal, the rob or the auction, the tricks.

What it does: ``HandInProgress`` deals a shuffled pack (``deal_order``), then takes one move at a
time from whoever is to act (``turn()``): a rob (25, 45), a call of the auction, the bidder's
trump and discards (bidding games), a card. Every card is checked with the engine's follow rules
(``rules_engine.order.legal_plays`` / ``why_illegal``) and every call with the engine's auction
(``rules_engine.bidding.auction_turn``). ``view(seat)`` is what that seat may see (``SeatView``);
``record()`` is the finished hand as api.md's card-by-card record, which the caller records in
the engine's ``GameState`` (the engine checks it once more, whole). ``moves`` lists the moves in
JSON-ready form, so a stored hand is rebuilt by ``HandInProgress.replay(...)``.

What it does not do: choose moves (``players.py``), score, or keep the game (the engine's
``GameState`` does; see ``driver.py``).

Terms:
- *deck*: the 52 cards in shuffled order. Seat ``dealer + 1`` gets the first five, and so on
  round the table; the next card is the turn-up (25, 45) or the kitty starts there.
- *phase*: "rob", "bid", "exchange" (the bidder takes the kitty, names trumps, discards),
  "play", "over".
- *move*: ``{"kind": "rob", "seat": 1, "discard": "7C" | None}``, ``{"kind": "call", "seat",
  "call"}``, ``{"kind": "exchange", "seat", "trump", "discard": [...]}``, ``{"kind": "play",
  "seat", "card"}``.

Errors: ``MoveError(reason)`` for a move out of turn or against the rules; the reason is the
engine's phrase where the engine gives one (``why_illegal``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from computer_players.view import PlayedTrick, SeatView
from rules_engine.bidding import auction_turn, check_bidding
from rules_engine.cards import FULL_PACK, SUITS, Card, parse_card
from rules_engine.errors import N_, Phrase
from rules_engine.house_rules import HouseRules
from rules_engine.order import NOT_HELD, legal_plays, trick_winner, trump_rank, why_illegal
from rules_engine.scoring import score_hand

HAND_SIZE = 5
_PACK = frozenset(FULL_PACK)
ROB = "rob"
BID = "bid"
EXCHANGE = "exchange"
PLAY = "play"
OVER = "over"


# The refusals of a rob or a call that a page words for the player (``Phrase`` templates, as the
# engine's ``why_illegal`` phrases are): the dealer must rob, the robber keeps the ace, a call the
# auction does not allow, a wrong number of discards.
MUST_ROB = N_("the turn-up is %(card)s: the dealer must rob it (dealer_robs_ace is must)")
KEEPS_THE_ACE = N_(
    "with rob_discard not_the_ace the robber keeps the ace of trumps and discards one of its "
    "other cards"
)
CALL_NOT_ALLOWED = N_("seat %(seat)s may call %(allowed)s, not %(call)s")
DISCARD_COUNT = N_("discard %(count)s different cards")


class MoveError(ValueError):
    """A move the hand refuses; ``reason`` says why in the engine's words where it has them."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def deal_order(deck: Sequence[Card], seat_count: int, dealer: int) -> list[list[Card]]:
    """Each seat's five cards from ``deck``: seat ``dealer + 1`` first."""
    hands: list[list[Card]] = [[] for _ in range(seat_count)]
    for position in range(seat_count):
        seat = (dealer + 1 + position) % seat_count
        hands[seat] = list(deck[position * HAND_SIZE : (position + 1) * HAND_SIZE])
    return hands


class HandInProgress:
    """One hand, from the deal to its last trick. Mutable; not shared between threads."""

    def __init__(
        self,
        *,
        rules: HouseRules,
        seat_count: int,
        dealer: int,
        deck: Sequence[Card],
        totals: Sequence[int],
        side_of_seat: Sequence[int],
    ) -> None:
        if len(deck) != len(FULL_PACK) or set(deck) != _PACK:
            raise MoveError("the deck must hold the 52 cards once each")
        self.rules = rules
        self.seat_count = seat_count
        self.dealer = dealer
        self.deck = tuple(deck)
        self.totals = tuple(totals)
        self.side_of_seat = tuple(side_of_seat)
        self.dealt = deal_order(deck, seat_count, dealer)
        self.hands = [list(cards) for cards in self.dealt]
        next_card = seat_count * HAND_SIZE
        self.turn_up: Card | None = None
        self.kitty: tuple[Card, ...] = ()
        self.trump: str | None = None
        self.rob: dict[str, Any] | None = None
        self.calls: list[dict[str, Any]] = []
        self.bid: tuple[int, int] | None = None
        self.discards: tuple[Card, ...] = ()
        self.tricks: list[PlayedTrick] = []
        # The same as tuples, kept up to date for the views.
        self._tricks: tuple[PlayedTrick, ...] = ()
        self._calls: tuple[tuple[int, str | int], ...] = ()
        self.trick: list[Card] = []
        self.moves: list[dict[str, Any]] = []
        self.robber: int | None = None
        if rules.has_turn_up:
            self.turn_up = deck[next_card]
            self.trump = self.turn_up.suit
            self.robber = self._eligible_robber()
            self.phase = ROB if self.robber is not None else PLAY
        else:
            self.kitty = tuple(deck[next_card : next_card + (rules.kitty or 0)])
            self.phase = BID
        self.leader = (dealer + 1) % seat_count
        self._auction_seat: int | None = None
        self._legal_calls: tuple[str | int, ...] = ()
        # (number of moves made, the legal cards then): asked by the view, then by play.
        self._legal_cache: tuple[int, tuple[Card, ...]] | None = None
        if self.phase == BID:
            self._advance_auction()

    # --- whose turn -----------------------------------------------------------------------------

    def turn(self) -> tuple[str, int | None]:
        """(phase, the seat to act); the seat is None once the hand is over."""
        if self.phase == ROB:
            return ROB, self.robber
        if self.phase == BID:
            return BID, self._auction_seat
        if self.phase == EXCHANGE:
            return EXCHANGE, self.bid[0]
        if self.phase == PLAY:
            return PLAY, (self.leader + len(self.trick)) % self.seat_count
        return OVER, None

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def must_rob(self) -> bool:
        """A turned-up ace the dealer must take (45's ``dealer_robs_ace: must``)."""
        return (
            self.phase == ROB and self.turn_up.rank == "A" and self.rules.dealer_robs_ace == "must"
        )

    def rob_discards(self) -> tuple[Card, ...]:
        """The cards the robber may discard (``rob_discard`` keeps the ace of trumps)."""
        if self.phase != ROB:
            return ()
        hand = self.hands[self.robber]
        if self.rules.rob_discard == "not_the_ace" and self.turn_up.rank != "A":
            ace = parse_card("A" + self.trump)
            return tuple(card for card in hand if card is not ace)
        return tuple(hand)

    def legal_cards(self, seat: int | None = None) -> tuple[Card, ...]:
        """The cards the seat to play may play (the engine's follow rules)."""
        phase, to_play = self.turn()
        if phase != PLAY or (seat is not None and seat != to_play):
            return ()
        cached = self._legal_cache
        if cached is not None and cached[0] == len(self.moves):
            return cached[1]
        legal = tuple(legal_plays(self.hands[to_play], self.trick, self.trump, self.rules))
        self._legal_cache = (len(self.moves), legal)
        return legal

    def why_not(self, seat: int, card: Card) -> str | None:
        """None when ``seat`` may play ``card`` now; else the reason, in the engine's words."""
        phase, to_play = self.turn()
        if phase != PLAY:
            return f"no card is played now (the hand is at its {phase} phase)"
        if seat != to_play:
            return f"it is seat {to_play}'s turn to play"
        return why_illegal(self.hands[seat], self.trick, card, self.trump, self.rules)

    # --- what a seat sees -----------------------------------------------------------------------

    def view(self, seat: int) -> SeatView:
        phase, to_act = self.turn()
        acting = to_act == seat
        # Positional, in field order: this runs once per move of every computer player.
        return SeatView(
            seat,
            self.seat_count,
            self.side_of_seat,
            self.rules,
            self.dealer,
            phase,
            tuple(self.hands[seat]),
            self.turn_up,
            self.trump,
            None if self.rob is None else self.rob["seat"],
            self._calls,
            self.bid,
            self._tricks,
            self.leader,
            tuple(self.trick),
            self.totals,
            self.legal_cards(seat) if acting and phase == PLAY else (),
            self._legal_calls if acting and phase == BID else (),
            self.rob_discards() if acting and phase == ROB else (),
            self.must_rob() if acting else False,
        )

    # --- moves ----------------------------------------------------------------------------------

    def apply(self, move: Mapping[str, Any]) -> None:
        """Apply one move in its JSON form (see the module's terms)."""
        kind = move.get("kind")
        seat = move.get("seat")
        if kind == ROB:
            discard = move.get("discard")
            self.take_rob(seat, None if discard is None else parse_card(discard))
        elif kind == "call":
            self.call(seat, move.get("call"))
        elif kind == EXCHANGE:
            self.exchange(seat, move.get("trump"), [parse_card(text) for text in move["discard"]])
        elif kind == PLAY:
            self.play(seat, parse_card(move.get("card")))
        else:
            raise MoveError(f"unknown move {kind!r}")

    @classmethod
    def replay(cls, moves: Sequence[Mapping[str, Any]], **arguments: Any) -> HandInProgress:
        hand = cls(**arguments)
        for move in moves:
            hand.apply(move)
        return hand

    def take_rob(self, seat: int, discard: Card | None) -> None:
        """The robber's choice: ``discard`` to take the turn-up, or None not to rob."""
        self._expect(ROB, seat)
        if discard is None:
            if self.must_rob():
                raise MoveError(Phrase(MUST_ROB, {"card": self.turn_up}))
        else:
            if discard not in self.rob_discards():
                if discard in self.hands[seat]:
                    raise MoveError(Phrase(KEEPS_THE_ACE))
                raise MoveError(Phrase(NOT_HELD, {"card": discard}))
            self.hands[seat].remove(discard)
            self.hands[seat].append(self.turn_up)
            self.rob = {"seat": seat, "discard": str(discard)}
        self.moves.append(
            {"kind": ROB, "seat": seat, "discard": None if discard is None else str(discard)}
        )
        self.phase = PLAY

    def call(self, seat: int, call: str | int) -> None:
        self._expect(BID, seat)
        if isinstance(call, str) and call.isdigit():
            call = int(call)
        if call not in self._legal_calls:
            raise MoveError(
                Phrase(
                    CALL_NOT_ALLOWED,
                    {
                        "seat": seat,
                        "allowed": ", ".join(map(str, self._legal_calls)),
                        "call": call,
                        "calls": tuple(self._legal_calls),
                    },
                )
            )
        self.calls.append({"seat": seat, "call": call})
        self._calls = (*self._calls, (seat, call))
        self.moves.append({"kind": "call", "seat": seat, "call": call})
        self._advance_auction()

    def exchange(self, seat: int, trump: str, discards: Sequence[Card]) -> None:
        """The bidder takes the kitty, names ``trump`` and lays down ``discards``."""
        self._expect(EXCHANGE, seat)
        held = self.hands[seat] + list(self.kitty)
        if trump not in SUITS:
            raise MoveError(f"trumps must be one of {', '.join(SUITS)}, not {trump!r}")
        if len(discards) != len(self.kitty) or len(set(discards)) != len(discards):
            raise MoveError(Phrase(DISCARD_COUNT, {"count": len(self.kitty)}))
        for card in discards:
            if card not in held:
                raise MoveError(Phrase(NOT_HELD, {"card": card}))
        self.hands[seat] = [card for card in held if card not in discards]
        self.trump = trump
        self.discards = tuple(discards)
        self.moves.append(
            {
                "kind": EXCHANGE,
                "seat": seat,
                "trump": trump,
                "discard": [str(card) for card in discards],
            }
        )
        self.phase = PLAY

    def play(self, seat: int, card: Card) -> None:
        cached = self._legal_cache
        known_legal = (
            cached is not None
            and cached[0] == len(self.moves)
            and card in cached[1]
            and self.turn() == (PLAY, seat)
        )
        if not known_legal:
            reason = self.why_not(seat, card)
            if reason is not None:
                raise MoveError(reason)
        self.hands[seat].remove(card)
        self.trick.append(card)
        self.moves.append({"kind": PLAY, "seat": seat, "card": str(card)})
        if len(self.trick) < self.seat_count:
            return
        winner = (self.leader + trick_winner(self.trick, self.trump)) % self.seat_count
        self.tricks.append(PlayedTrick(self.leader, tuple(self.trick), winner))
        self._tricks = tuple(self.tricks)
        self.trick = []
        self.leader = winner
        if len(self.tricks) == HAND_SIZE or self._target_reached_mid_hand():
            self.phase = OVER

    # --- the record -----------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The hand as api.md's card-by-card record (an all-pass auction: its bidding alone)."""
        if not self.over:
            raise MoveError("the hand is not over")
        record: dict[str, Any] = {
            "dealer": self.dealer,
            "deal": [[str(card) for card in cards] for cards in self.dealt],
        }
        if self.rules.has_turn_up:
            record["turn_up"] = str(self.turn_up)
            if self.rob is not None:
                record["rob"] = dict(self.rob)
        else:
            record["bidding"] = [dict(call) for call in self.calls]
            record["kitty"] = [str(card) for card in self.kitty]
            if self.bid is None:
                return record
            record["trump"] = self.trump
            record["discard"] = [str(card) for card in self.discards]
        record["tricks"] = [[str(card) for card in trick.cards] for trick in self.tricks]
        return record

    # --- inside ---------------------------------------------------------------------------------

    def _expect(self, phase: str, seat: int) -> None:
        current, to_act = self.turn()
        if current != phase:
            raise MoveError(f"the hand is at its {current} phase, not {phase}")
        if seat != to_act:
            raise MoveError(f"it is seat {to_act}'s turn")

    def _eligible_robber(self) -> int | None:
        """The dealer for a turned-up ace, else the holder of the ace of trumps, else nobody."""
        if self.turn_up.rank == "A":
            return self.dealer
        ace = parse_card("A" + self.trump)
        for seat, cards in enumerate(self.hands):
            if ace in cards:
                return seat
        return None

    def _advance_auction(self) -> None:
        seat, legal = auction_turn(
            self.calls,
            dealer=self.dealer,
            seat_count=self.seat_count,
            rules=self.rules,
            totals=self.totals,
            side_of_seat=self.side_of_seat,
        )
        self._auction_seat = seat
        self._legal_calls = legal
        if seat is not None:
            return
        self.bid = check_bidding(
            self.calls,
            dealer=self.dealer,
            seat_count=self.seat_count,
            rules=self.rules,
            totals=self.totals,
            side_of_seat=self.side_of_seat,
        )
        if self.bid is None:
            self.phase = OVER
            return
        self.phase = EXCHANGE
        if self.rules.first_lead == "left_of_bidder":
            self.leader = (self.bid[0] + 1) % self.seat_count

    def _target_reached_mid_hand(self) -> bool:
        """25 (``game_end: at_trick``): the hand stops at the trick where a side reaches the
        target; the engine's scoring says when that is."""
        if self.rules.game_end != "at_trick" or self.rules.is_bidding:
            return False
        played = [card for trick in self.tricks for card in trick.cards]
        ranks = [(trump_rank(card, self.trump), index) for index, card in enumerate(played)]
        trumps = [pair for pair in ranks if pair[0] is not None]
        best_trick = min(trumps)[1] // self.seat_count if trumps else None
        _, _, reached = score_hand(
            self.rules,
            self.side_of_seat,
            max(self.side_of_seat) + 1,
            [trick.winner for trick in self.tricks],
            best_trick,
            None,
            None,
            self.totals,
        )
        return any(moment is not None for moment in reached)
