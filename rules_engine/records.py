"""Reading one hand record (api.md) into checked facts: shared fields and trick-winner entry.

What it does: turns a hand record (the JSON of a hand as a dict) into a ``HandFacts``: dealer,
trumps, who took each trick, the best trump, the bid and any renege. It checks the misdeal and
redeal records and the trick-winner entry itself, and the fields both shapes share (dealer,
trump, bid, renege, turn-up); ``game.read_hand`` tells the shapes apart, and card-by-card play is
checked by ``play.py``.

What it does not do: score the hand or decide the game (``scoring.py``, ``game.py``).

Terms:
- *record*: the hand dict as api.md describes it. Every field name is checked: an unknown or
  misplaced field is ``invalid_record``, never ignored.
- *pointer*: an RFC 6901 pointer into the record ("/trick_winners/2"). Trick numbers in error
  details are 1-based ("trick 3"); ``trick`` fields inside records (best_trump, renege) and
  pointers are 0-based.
- *kind*: "played", "renege" (played, with a recorded renege), "misdeal" (no score, the same
  dealer deals again), "redeal" (everybody passed: no score, the next dealer deals), "paper"
  (the game's final score from a paper sheet, ``paper.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules_engine.bidding import check_bid, check_bidding
from rules_engine.cards import SUIT_NAMES, Card, parse_card, parse_suit
from rules_engine.errors import N_, RulesError
from rules_engine.order import is_trump

if TYPE_CHECKING:
    from rules_engine.game import GameState

HAND_TRICKS = 5

PLAYED = "played"
RENEGE = "renege"
MISDEAL = "misdeal"
REDEAL = "redeal"

_TRICK_WINNER_FIELDS = frozenset(
    {"dealer", "trump", "turn_up", "trick_winners", "best_trump", "bid", "bidding", "rob", "renege"}
)
_TURN_UP_ONLY = frozenset({"turn_up", "rob"})
_BIDDING_ONLY = frozenset({"bid", "bidding", "kitty", "discard"})
_RENEGE_KEYS = frozenset({"seat", "trick"})
_BEST_TRUMP_KEYS = frozenset({"seat", "trick"})
_BEST_TRUMP_OPTIONAL = frozenset({"card"})


class HandFacts:
    """What a checked record says happened; plain slots, built once per record."""

    __slots__ = (
        "kind",
        "dealer",
        "trump",
        "trick_winners",
        "best_trump",
        "bid",
        "renege",
        "rob_seat",
        "shape",
        "paper",
    )

    def __init__(self, kind: str, dealer: int) -> None:
        self.kind = kind
        self.dealer = dealer
        self.trump: str | None = None
        self.trick_winners: tuple[int, ...] = ()
        # (seat, card or None when a trick-winner entry does not name it, trick index)
        self.best_trump: tuple[int, Card | None, int] | None = None
        self.bid: tuple[int, int] | None = None
        self.renege: tuple[int, int] | None = None
        self.rob_seat: int | None = None
        # "tricks" (card by card), "trick_winners", or "" for a hand without play.
        self.shape = ""
        # The checked PaperScore of a "paper" record (rules_engine.paper), else None.
        self.paper = None


def read_dealer(record: Mapping, state: GameState) -> int:
    if "dealer" not in record:
        raise RulesError("invalid_record", N_("missing field: dealer"), "/dealer")
    dealer = record["dealer"]
    check_seat(dealer, state.seat_count, "dealer", "/dealer")
    if dealer != state.next_dealer:
        raise RulesError(
            "wrong_dealer",
            N_(
                "seat %(dealer)s is recorded as dealer, but seat %(next_dealer)s deals hand "
                "%(value)s"
            ),
            "/dealer",
            params={
                "dealer": dealer,
                "next_dealer": state.next_dealer,
                "value": state.hands_played + 1,
            },
        )
    return dealer


def check_seat(value: object, seat_count: int, what: str, pointer: str) -> int:
    if type(value) is not int:
        raise RulesError(
            "invalid_record",
            N_("%(what)s must be a seat number, got %(value)r"),
            pointer,
            params={"what": what, "value": value},
        )
    if not 0 <= value < seat_count:
        raise RulesError(
            "invalid_seat",
            N_("%(what)s is seat %(value)s; seats are 0 to %(value2)s"),
            pointer,
            params={"what": what, "value": value, "value2": seat_count - 1},
        )
    return value


def check_fields(record: Mapping, allowed: frozenset[str], state: GameState) -> None:
    """Refuse fields this shape or this game does not have."""
    misplaced = _TURN_UP_ONLY if state.rules.is_bidding else _BIDDING_ONLY
    if record.keys() <= allowed and record.keys().isdisjoint(misplaced):
        return
    unknown = record.keys() - allowed
    if state.rules.is_bidding:
        unknown |= record.keys() & _TURN_UP_ONLY
    else:
        unknown |= record.keys() & _BIDDING_ONLY
    if unknown:
        errors = []
        for key in sorted(map(str, unknown)):
            if key in _TURN_UP_ONLY or key in _BIDDING_ONLY:
                detail = N_("field %(key)s does not belong in a game of %(game)s")
            else:
                detail = N_("unknown field %(key)s in this kind of hand record")
            params = {"key": key, "game": state.rules.game}
            errors.append(RulesError("invalid_record", detail, f"/{key}", params=params))
        raise RulesError.combine(errors)


def read_trump(record: Mapping) -> str:
    if "trump" not in record:
        raise RulesError("invalid_record", N_("missing field: trump"), "/trump")
    try:
        return parse_suit(record["trump"])
    except RulesError as error:
        raise error.with_pointer("/trump") from None


def read_bid(record: Mapping, state: GameState, dealer: int) -> tuple[int, int] | None:
    """The bid of a bidding-game record, from "bidding" (checked call by call) and/or "bid";
    None when everybody passed."""
    rules = state.rules
    bid = None
    if "bidding" in record:
        bid = check_bidding(
            record["bidding"],
            dealer=dealer,
            seat_count=state.seat_count,
            rules=rules,
            totals=state.totals,
            side_of_seat=state.side_of_seat,
        )
        if "bid" in record:
            stated = record["bid"]
            expected = None if bid is None else {"seat": bid[0], "amount": bid[1]}
            if stated != expected:
                raise RulesError(
                    "illegal_bid",
                    N_("the bid %(stated)r does not match the bidding, which gives %(expected)r"),
                    "/bid",
                    params={"stated": stated, "expected": expected},
                )
        return bid
    if "bid" not in record:
        raise RulesError("invalid_record", N_("missing field: bid (or bidding)"), "/bid")
    return check_bid(
        record["bid"],
        seat_count=state.seat_count,
        rules=rules,
        totals=state.totals,
        side_of_seat=state.side_of_seat,
    )


def read_renege(record: Mapping, seat_count: int, trick_count: int) -> tuple[int, int]:
    renege = record["renege"]
    if not isinstance(renege, Mapping) or renege.keys() != _RENEGE_KEYS:
        raise RulesError(
            "invalid_record", N_('renege must be an object {"seat": ..., "trick": ...}'), "/renege"
        )
    seat = check_seat(renege["seat"], seat_count, "the reneging seat", "/renege/seat")
    trick = renege["trick"]
    if type(trick) is not int or not 0 <= trick < trick_count:
        raise RulesError(
            "invalid_record",
            N_("renege trick %(trick)r: the recorded tricks are 0 to %(value)s (0-based)"),
            "/renege/trick",
            params={"trick": trick, "value": trick_count - 1},
        )
    return seat, trick


def turn_up_trump(record: Mapping) -> tuple[Card, str]:
    """(the turn-up, the trump suit it fixes); AH turned up makes hearts trumps."""
    try:
        turn_up = parse_card(record["turn_up"])
    except RulesError as error:
        raise error.with_pointer("/turn_up") from None
    trump = turn_up.suit
    if "trump" in record:
        stated = read_trump(record)
        if stated != trump:
            raise RulesError(
                "invalid_trump",
                N_("trumps are %(value)s, fixed by the turn-up %(turn_up)s, not %(value2)s"),
                "/trump",
                params={
                    "value": SUIT_NAMES[trump],
                    "turn_up": turn_up,
                    "value2": SUIT_NAMES[stated],
                },
            )
    return turn_up, trump


def check_must_rob(state: GameState, turn_up: Card, dealer: int, robbed: bool) -> None:
    if turn_up.rank == "A" and not robbed and state.rules.dealer_robs_ace == "must":
        raise RulesError(
            "illegal_rob",
            N_(
                "the turn-up is %(turn_up)s: the dealer (seat %(dealer)s) must rob it "
                "(dealer_robs_ace is must), but no rob was recorded"
            ),
            "/rob",
            params={"turn_up": turn_up, "dealer": dealer},
        )


def check_rob_discard(
    discard: Card | None, turn_up: Card, robber: int, rob_discard: str | None
) -> None:
    """With ``rob_discard`` "not_the_ace", refuse a robber discarding the ace of trumps it
    robbed with (a turned-up ace robbed by the dealer leaves nothing to keep)."""
    if rob_discard != "not_the_ace" or discard is None or turn_up.rank == "A":
        return
    if discard is parse_card("A" + turn_up.suit):
        raise RulesError(
            "illegal_rob",
            N_(
                "seat %(robber)s robbed with the ace of trumps (%(discard)s) and discarded it, "
                "but with rob_discard not_the_ace the robber discards one of its other cards"
            ),
            "/rob/discard",
            params={"robber": robber, "discard": discard},
        )


def check_redeal_allowed(state: GameState) -> None:
    rules = state.rules
    if not rules.is_bidding:
        raise RulesError(
            "invalid_record",
            N_("a redeal follows an all-pass auction; game %(game)s has no bidding"),
            "/redeal",
            params={"game": rules.game},
        )
    if rules.all_pass != "redeal":
        raise RulesError(
            "illegal_bid",
            N_(
                "with all_pass %(all_pass)s the dealer must bid when everyone passes: there is no "
                "redeal"
            ),
            "/redeal",
            params={"all_pass": rules.all_pass},
        )


def read_flag_hand(record: Mapping, flag: str, kind: str, dealer: int) -> HandFacts:
    extra = sorted(str(key) for key in record.keys() - {"dealer", flag})
    if extra:
        raise RulesError(
            "invalid_record",
            N_("a %(flag)s record has only dealer and %(flag)s; unexpected field %(value)s"),
            f"/{extra[0]}",
            params={"flag": flag, "value": extra[0]},
        )
    if record[flag] is not True:
        raise RulesError(
            "invalid_record",
            N_("%(flag)s must be true when present"),
            f"/{flag}",
            params={"flag": flag},
        )
    return HandFacts(kind, dealer)


def read_trick_winners(record: Mapping, state: GameState, dealer: int) -> HandFacts:
    rules = state.rules
    seat_count = state.seat_count
    check_fields(record, _TRICK_WINNER_FIELDS, state)
    facts = HandFacts(PLAYED, dealer)
    facts.shape = "trick_winners"
    turn_up = None
    if rules.has_turn_up and "turn_up" in record:
        turn_up, facts.trump = turn_up_trump(record)
    else:
        facts.trump = read_trump(record)
    if rules.is_bidding:
        facts.bid = read_bid(record, state, dealer)
        if facts.bid is None:
            raise RulesError(
                "invalid_record",
                N_("everybody passed, so the hand is redealt and has no trick winners"),
                "/trick_winners",
            )

    winners = record["trick_winners"]
    if not isinstance(winners, list | tuple):
        raise RulesError(
            "invalid_record", N_("trick_winners must be a list of seats"), "/trick_winners"
        )
    for index, seat in enumerate(winners):
        if type(seat) is not int or not 0 <= seat < seat_count:
            check_seat(
                seat, seat_count, f"the winner of trick {index + 1}", f"/trick_winners/{index}"
            )
    count = len(winners)
    if count > HAND_TRICKS or count == 0 or (count < HAND_TRICKS and not stops_early(state)):
        raise RulesError(
            "wrong_trick_count",
            N_("%(count)s trick winners recorded; a hand has %(HAND_TRICKS)s tricks"),
            "/trick_winners",
            params={"count": count, "HAND_TRICKS": HAND_TRICKS},
        )
    facts.trick_winners = tuple(winners)

    if "best_trump" in record:
        facts.best_trump = _read_best_trump(record["best_trump"], facts, seat_count)
    elif rules.best_trump_bonus:
        raise RulesError(
            "invalid_record",
            N_(
                "missing field: best_trump (who played the highest trump, and in which trick; "
                "null when no trump was played)"
            ),
            "/best_trump",
        )
    if "rob" in record:
        facts.rob_seat = _read_informational_rob(
            record["rob"], seat_count, dealer, turn_up, rules.rob_discard
        )
    if turn_up is not None:
        check_must_rob(state, turn_up, dealer, facts.rob_seat is not None)
    if "renege" in record:
        facts.renege = read_renege(record, seat_count, count)
        facts.kind = RENEGE
    return facts


def stops_early(state: GameState) -> bool:
    """Whether a hand of this game stops at the trick where a side reaches the target (25)."""
    rules = state.rules
    return rules.game_end == "at_trick" and not rules.is_bidding


def _read_best_trump(
    value: object, facts: HandFacts, seat_count: int
) -> tuple[int, Card | None, int] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or not (
        _BEST_TRUMP_KEYS <= value.keys() <= _BEST_TRUMP_KEYS | _BEST_TRUMP_OPTIONAL
    ):
        raise RulesError(
            "invalid_record",
            N_(
                'best_trump must be null or an object {"seat": ..., "trick": ...} '
                '(optionally "card")'
            ),
            "/best_trump",
        )
    seat = check_seat(value["seat"], seat_count, "the best trump's seat", "/best_trump/seat")
    trick = value["trick"]
    count = len(facts.trick_winners)
    if type(trick) is not int or not 0 <= trick < count:
        raise RulesError(
            "invalid_record",
            N_("best_trump trick %(trick)r: the recorded tricks are 0 to %(value)s (0-based)"),
            "/best_trump/trick",
            params={"trick": trick, "value": count - 1},
        )
    if facts.trick_winners[trick] != seat:
        raise RulesError(
            "best_trump_mismatch",
            N_(
                "seat %(seat)s played the best trump in trick %(value)s, so it took that trick "
                "(the highest trump always wins), but seat %(value2)s is recorded as its winner"
            ),
            "/best_trump/seat",
            params={"seat": seat, "value": trick + 1, "value2": facts.trick_winners[trick]},
        )
    card = None
    if "card" in value and value["card"] is not None:
        try:
            card = parse_card(value["card"])
        except RulesError as error:
            raise error.with_pointer("/best_trump/card") from None
        if not is_trump(card, facts.trump):
            raise RulesError(
                "best_trump_mismatch",
                N_(
                    "the best trump is recorded as %(card)s, which is not a trump when %(value)s "
                    "are trumps"
                ),
                "/best_trump/card",
                params={"card": card, "value": SUIT_NAMES[facts.trump]},
            )
    return seat, card, trick


def _read_informational_rob(
    value: object, seat_count: int, dealer: int, turn_up: Card | None, rob_discard: str | None
) -> int:
    if not isinstance(value, Mapping) or not ({"seat"} <= value.keys() <= {"seat", "discard"}):
        raise RulesError(
            "invalid_record",
            N_('rob must be an object {"seat": ...} (optionally "discard")'),
            "/rob",
        )
    seat = check_seat(value["seat"], seat_count, "the robbing seat", "/rob/seat")
    if "discard" in value:
        try:
            discard = parse_card(value["discard"])
        except RulesError as error:
            raise error.with_pointer("/rob/discard") from None
        if turn_up is not None and discard is turn_up:
            raise RulesError(
                "illegal_rob",
                N_("seat %(seat)s robbed %(turn_up)s and cannot discard it"),
                "/rob/discard",
                params={"seat": seat, "turn_up": turn_up},
            )
        if turn_up is not None:
            check_rob_discard(discard, turn_up, seat, rob_discard)
    if turn_up is not None and turn_up.rank == "A" and seat != dealer:
        raise RulesError(
            "illegal_rob",
            N_(
                "the turn-up %(turn_up)s is the ace of trumps: only the dealer (seat %(dealer)s) "
                "may rob it, not seat %(seat)s"
            ),
            "/rob/seat",
            params={"turn_up": turn_up, "dealer": dealer, "seat": seat},
        )
    return seat
