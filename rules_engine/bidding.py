"""The auction of the bidding games (55, 110, 220 and Auction 45): who won it, for how much.

What it does: ``check_bidding`` walks a card-by-card record's ``bidding`` list call by call and
returns the winning ``(seat, amount)``, or None when everybody passed and the hand is redealt;
``check_bid`` checks the single ``bid`` of a trick-winner entry. Every refusal is a
``RulesError("illegal_bid")`` pointing at the offending call ("/bidding/3/call"), or
``invalid_record`` for a call that is not shaped like one.

What it does not do: check the kitty, the discards or the play (``play.py``), or score the bid
(``scoring.py``).

Terms (rules.md "55, 110, 220" and "Auction Forty-Fives"):
- *call*: one entry ``{"seat": 1, "call": "15"}``; a call is a bid (one of ``rules.bids``, given as
  text or a number), ``"pass"`` or ``"hold"``.
- *hold*: the dealer takes the current bid at the same value (``dealer_may_hold``). The player
  whose bid was held may then raise or pass; the dealer may hold again, and so on until one
  passes or the highest bid is held.
- *minimum bid*: the lowest of ``rules.bids``, or ``min_bid_at_100`` for a player whose side's
  total is 100 or more (holding counts as bidding at that value).
- The auction goes once around from the dealer's left, the dealer last. A player who passed or
  was outbid calls no more. With ``all_pass == "dealer_stuck"`` the dealer may not pass after all
  the others did and must take the lowest bid allowed to the dealer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from rules_engine.errors import N_, RulesError
from rules_engine.house_rules import HouseRules

PASS = "pass"
HOLD = "hold"
MIN_BID_THRESHOLD = 100
"""A side whose total is at least this bids at least ``min_bid_at_100``."""

_CALL_KEYS = frozenset({"seat", "call"})
_BID_KEYS = frozenset({"seat", "amount"})


def minimum_bid(rules: HouseRules, side_total: int) -> int:
    """The lowest bid a player of a side with ``side_total`` may make (or hold)."""
    lowest = rules.bids[0]
    if rules.min_bid_at_100 is not None and side_total >= MIN_BID_THRESHOLD:
        return max(lowest, rules.min_bid_at_100)
    return lowest


def check_bid(
    bid: object,
    *,
    seat_count: int,
    rules: HouseRules,
    totals: Sequence[int],
    side_of_seat: Sequence[int],
) -> tuple[int, int]:
    """The ``(seat, amount)`` of a trick-winner entry's ``bid`` object, checked."""
    if not isinstance(bid, Mapping):
        raise RulesError(
            "invalid_record", N_('bid must be an object {"seat": ..., "amount": ...}'), "/bid"
        )
    _check_keys(bid, _BID_KEYS, "/bid")
    seat = bid["seat"]
    if type(seat) is not int or not 0 <= seat < seat_count:
        raise RulesError(
            "invalid_seat",
            N_("bid seat %(seat)r: seats are 0 to %(value)s"),
            "/bid/seat",
            params={"seat": seat, "value": seat_count - 1},
        )
    amount = bid["amount"]
    if type(amount) is not int:
        raise RulesError(
            "invalid_record",
            N_("bid amount must be a number, got %(amount)r"),
            "/bid/amount",
            params={"amount": amount},
        )
    _check_amount(seat, amount, rules, totals[side_of_seat[seat]], "/bid/amount")
    return seat, amount


def check_bidding(
    calls: object,
    *,
    dealer: int,
    seat_count: int,
    rules: HouseRules,
    totals: Sequence[int],
    side_of_seat: Sequence[int],
) -> tuple[int, int] | None:
    """The winning ``(seat, amount)`` of the auction in ``calls``; None when all passed and the
    rules redeal."""
    if not isinstance(calls, list | tuple):
        raise RulesError("invalid_record", N_("bidding must be a list of calls"), "/bidding")
    auction = _Auction(calls, dealer, seat_count, rules, totals, side_of_seat)
    return auction.run()


class _Auction:
    """One walk through the calls; ``index`` is the next call to read."""

    __slots__ = ("calls", "dealer", "seat_count", "rules", "totals", "side_of_seat", "index")

    def __init__(
        self,
        calls: Sequence[object],
        dealer: int,
        seat_count: int,
        rules: HouseRules,
        totals: Sequence[int],
        side_of_seat: Sequence[int],
    ) -> None:
        self.calls = calls
        self.dealer = dealer
        self.seat_count = seat_count
        self.rules = rules
        self.totals = totals
        self.side_of_seat = side_of_seat
        self.index = 0

    def run(self) -> tuple[int, int] | None:
        rules = self.rules
        dealer = self.dealer
        high_seat: int | None = None
        amount = 0
        held_seat: int | None = None
        for offset in range(1, self.seat_count + 1):
            seat = (dealer + offset) % self.seat_count
            call = self._next_call(seat)
            if call == PASS:
                if seat == dealer and high_seat is None and rules.all_pass == "dealer_stuck":
                    lowest = self._minimum(seat)
                    raise self._error(
                        N_(
                            "the dealer (seat %(seat)s) passed after everyone else passed, but "
                            "with all_pass dealer_stuck the dealer must bid %(lowest)s"
                        ),
                        params={"seat": seat, "lowest": lowest},
                    )
                continue
            if call == HOLD:
                self._check_hold(seat, high_seat, amount)
                held_seat, high_seat = high_seat, seat
                continue
            self._check_raise(seat, call, high_seat, amount)
            if seat == dealer and high_seat is None and rules.all_pass == "dealer_stuck":
                lowest = self._minimum(seat)
                if call != lowest:
                    raise self._error(
                        N_(
                            "the dealer (seat %(seat)s) bid %(call)s after everyone else passed, "
                            "but with all_pass dealer_stuck the dealer takes the lowest bid, "
                            "%(lowest)s"
                        ),
                        params={"seat": seat, "call": call, "lowest": lowest},
                    )
            high_seat, amount = seat, call
        if high_seat is None:
            self._check_finished("everybody passed")
            return None
        highest = rules.bids[-1]
        # The dealer held: the held player and the dealer go on until one passes, the dealer
        # outbids, or the highest bid is held.
        while high_seat == dealer and held_seat is not None and amount < highest:
            call = self._next_call(held_seat)
            if call == PASS:
                break
            if call == HOLD:
                raise self._error(
                    N_("seat %(held_seat)s cannot hold: only the dealer holds"),
                    params={"held_seat": held_seat},
                )
            self._check_raise(held_seat, call, high_seat, amount)
            high_seat, amount = held_seat, call
            call = self._next_call(dealer)
            if call == PASS:
                break
            if call == HOLD:
                self._check_hold(dealer, high_seat, amount)
                high_seat = dealer
                continue
            self._check_raise(dealer, call, high_seat, amount)
            high_seat, amount = dealer, call
            break
        self._check_finished(f"seat {high_seat} won the bid at {amount}")
        return high_seat, amount

    def _minimum(self, seat: int) -> int:
        return minimum_bid(self.rules, self.totals[self.side_of_seat[seat]])

    def _next_call(self, seat: int) -> str | int:
        """The next call, which must be by ``seat``: PASS, HOLD or a bid amount."""
        index = self.index
        if index >= len(self.calls):
            raise RulesError(
                "illegal_bid",
                N_("the bidding is not finished: seat %(seat)s has still to call"),
                "/bidding",
                params={"seat": seat},
            )
        entry = self.calls[index]
        pointer = f"/bidding/{index}"
        if not isinstance(entry, Mapping):
            raise RulesError(
                "invalid_record",
                N_('each call must be an object {"seat": ..., "call": ...}'),
                pointer,
            )
        _check_keys(entry, _CALL_KEYS, pointer)
        caller = entry["seat"]
        if type(caller) is not int or not 0 <= caller < self.seat_count:
            raise RulesError(
                "invalid_seat",
                N_("call %(value)s: seat %(caller)r; seats are 0 to %(value2)s"),
                pointer + "/seat",
                params={"value": index + 1, "caller": caller, "value2": self.seat_count - 1},
            )
        if caller != seat:
            raise RulesError(
                "illegal_bid",
                N_("call %(value)s is by seat %(caller)s, but seat %(seat)s was next to call"),
                pointer + "/seat",
                params={"value": index + 1, "caller": caller, "seat": seat},
            )
        call = _parse_call(entry["call"], pointer + "/call")
        self.index = index + 1
        return call

    def _error(self, detail: str, params: dict | None = None) -> RulesError:
        """An illegal_bid at the call just read (``detail``: an ``N_`` template)."""
        return RulesError("illegal_bid", detail, f"/bidding/{self.index - 1}/call", params=params)

    def _check_hold(self, seat: int, high_seat: int | None, amount: int) -> None:
        if seat != self.dealer:
            raise self._error(
                N_("seat %(seat)s cannot hold: only the dealer holds"), params={"seat": seat}
            )
        if not self.rules.dealer_may_hold:
            raise self._error(N_("the dealer may not hold in this game (dealer_may_hold is false)"))
        if high_seat is None:
            raise self._error(
                N_("the dealer (seat %(seat)s) held, but nobody had bid"), params={"seat": seat}
            )
        lowest = self._minimum(seat)
        if amount < lowest:
            raise self._error(
                N_(
                    "the dealer (seat %(seat)s) held %(amount)s, but a side on "
                    "%(MIN_BID_THRESHOLD)s or more bids at least %(lowest)s"
                ),
                params={
                    "seat": seat,
                    "amount": amount,
                    "MIN_BID_THRESHOLD": MIN_BID_THRESHOLD,
                    "lowest": lowest,
                },
            )

    def _check_raise(self, seat: int, call: int, high_seat: int | None, amount: int) -> None:
        _check_amount(
            seat,
            call,
            self.rules,
            self.totals[self.side_of_seat[seat]],
            f"/bidding/{self.index - 1}/call",
        )
        if high_seat is not None and call <= amount:
            raise self._error(
                N_(
                    "seat %(seat)s bid %(call)s, but the bid was already %(amount)s (seat "
                    "%(high_seat)s): bid higher or pass"
                ),
                params={"seat": seat, "call": call, "amount": amount, "high_seat": high_seat},
            )

    def _check_finished(self, outcome: str) -> None:
        if self.index != len(self.calls):
            raise RulesError(
                "illegal_bid",
                N_("the bidding was over (%(outcome)s), but call %(value)s follows"),
                f"/bidding/{self.index}",
                params={"outcome": outcome, "value": self.index + 1},
            )


def _check_amount(seat: int, amount: int, rules: HouseRules, side_total: int, pointer: str) -> None:
    if amount not in rules.bids:
        allowed = ", ".join(map(str, rules.bids))
        raise RulesError(
            "illegal_bid",
            N_("seat %(seat)s bid %(amount)s: the bids are %(allowed)s"),
            pointer,
            params={"seat": seat, "amount": amount, "allowed": allowed},
        )
    lowest = minimum_bid(rules, side_total)
    if amount < lowest:
        raise RulesError(
            "illegal_bid",
            N_(
                "seat %(seat)s bid %(amount)s, but its side has %(side_total)s, and a side on "
                "%(MIN_BID_THRESHOLD)s or more bids at least %(lowest)s (min_bid_at_100)"
            ),
            pointer,
            params={
                "seat": seat,
                "amount": amount,
                "side_total": side_total,
                "MIN_BID_THRESHOLD": MIN_BID_THRESHOLD,
                "lowest": lowest,
            },
        )


MAX_BID_DIGITS = 6


def _parse_call(value: object, pointer: str) -> str | int:
    if type(value) is int:
        return value
    if isinstance(value, str):
        text = value.strip().lower()
        if text == PASS or text == HOLD:
            return text
        # Bids are small numbers: a longer digit string is refused before int() (which refuses
        # more than 4,300 digits with a ValueError of its own).
        if text.isdigit() and text.isascii() and len(text) <= MAX_BID_DIGITS:
            return int(text)
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    raise RulesError(
        "invalid_record",
        N_('a call is a bid such as "15", "pass" or "hold"; got %(shown)s'),
        pointer,
        params={"shown": shown},
    )


def _check_keys(entry: Mapping, expected: frozenset[str], pointer: str) -> None:
    keys = entry.keys()
    if keys == expected:
        return
    missing = sorted(expected - keys)
    if missing:
        raise RulesError(
            "invalid_record",
            N_("missing field(s): %(value)s"),
            pointer,
            params={"value": ", ".join(missing)},
        )
    unknown = sorted(str(key) for key in keys - expected)
    raise RulesError(
        "invalid_record",
        N_("unknown field(s): %(value)s"),
        f"{pointer}/{unknown[0]}",
        params={"value": ", ".join(unknown)},
    )


class _Unfinished(Exception):
    """The calls ran out: ``seat`` is next to call."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


class _OpenAuction(_Auction):
    """An auction still under way: running out of calls says whose turn it is."""

    __slots__ = ()

    def _next_call(self, seat: int) -> str | int:
        if self.index >= len(self.calls):
            raise _Unfinished(seat)
        return super()._next_call(seat)


def auction_turn(
    calls: Sequence[Mapping],
    *,
    dealer: int,
    seat_count: int,
    rules: HouseRules,
    totals: Sequence[int],
    side_of_seat: Sequence[int],
) -> tuple[int | None, tuple[str | int, ...]]:
    """Where an auction in progress stands: (the seat to call next, the calls it may make:
    "pass", "hold" and bid amounts, in that order), or (None, ()) when it is over. The calls so
    far must be legal (``RulesError`` otherwise). Each candidate is tried with the same checks as
    ``check_bidding``, so a player (or a computer player) is offered exactly the legal calls.

    Answers are cached: a table sees the same few auctions over and over (the totals count only
    where ``min_bid_at_100`` applies)."""
    key_calls = tuple((entry["seat"], entry["call"]) for entry in calls)
    # Without min_bid_at_100 the totals change nothing: zeros keep the cache small.
    relevant_totals = tuple(totals) if rules.min_bid_at_100 is not None else (0,) * len(totals)
    return _auction_turn_cached(
        key_calls, dealer, seat_count, rules, relevant_totals, tuple(side_of_seat)
    )


@lru_cache(maxsize=4096)
def _auction_turn_cached(
    key_calls: tuple[tuple[int, str | int], ...],
    dealer: int,
    seat_count: int,
    rules: HouseRules,
    totals: tuple[int, ...],
    side_of_seat: tuple[int, ...],
) -> tuple[int | None, tuple[str | int, ...]]:
    calls = [{"seat": seat, "call": call} for seat, call in key_calls]
    arguments = (dealer, seat_count, rules, totals, side_of_seat)
    try:
        _OpenAuction(list(calls), *arguments).run()
    except _Unfinished as unfinished:
        seat = unfinished.seat
    else:
        return None, ()
    legal: list[str | int] = []
    for candidate in (PASS, HOLD, *rules.bids):
        trial = [*calls, {"seat": seat, "call": candidate}]
        try:
            _OpenAuction(trial, *arguments).run()
        except _Unfinished:
            pass
        except RulesError:
            continue
        legal.append(candidate)
    return seat, tuple(legal)
