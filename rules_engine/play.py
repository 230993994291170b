"""Checking a card-by-card hand record: every card, every rob, every play.

What it does: ``read_card_by_card`` checks a record with ``tricks`` (api.md "Card-by-card entry")
and returns its ``HandFacts``: card syntax and duplicates across deal, turn-up, kitty, discards
and plays; one card per seat per trick, in seat order from the right leader; robbing (25, 45);
the bid, kitty and discards (bidding games); every play legal under the house rules, except the
one play a recorded renege points at, which must be illegal. Trick winners and the best trump are
computed from the cards.

What it does not do: score (``scoring.py``), or decide whether a 25 hand stopped at the right
trick (``game.py``, which needs the totals).

Terms:
- *hands*: what each seat held for the play: its five dealt cards, after the rob (the discard
  out, the turn-up in) or, for the bidder, with the kitty in and the discards out. Without a
  ``deal`` the hands are the cards each seat played (all five tricks must then be recorded).
- *owner*, *played_by*: see ``holdings.py``.
- *leader*: the seat that plays a trick's first card; trick 1 is led by the seat left of the dealer
  (or of the bidder, ``first_lead``), each later trick by the previous trick's winner.
- *suspect*: a play that neither follows the suit led nor trumps. Every other play is legal
  whatever the hand held (rules.md "Follow rules"), so only suspects need a look at the hand.

How it stays fast: the record is read once into tuples of interned cards; one pass over the plays
does one table lookup per card (follow suit, strength and trump rank for the hand's trumps) and,
with a deal, one owner lookup; ``order.why_illegal`` is asked only for a suspect whose hand still
held a card of the suit led. Errors are reported in play order all the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules_engine.card_lists import (
    NOBODY,
    duplicate,
    not_held,
    parse_deal,
    parse_tricks,
    play_pointer,
    read_cards,
    static_owners,
)
from rules_engine.cards import ACE_OF_HEARTS, FULL_PACK, SUITS, Card, parse_card
from rules_engine.errors import N_, Phrase, RulesError
from rules_engine.holdings import apply_kitty, check_rob, check_turn_up_plays
from rules_engine.order import TRUMP, follow_suit, plain_rank, trump_rank, why_illegal
from rules_engine.records import (
    HAND_TRICKS,
    PLAYED,
    REDEAL,
    RENEGE,
    HandFacts,
    check_fields,
    check_must_rob,
    read_bid,
    read_renege,
    read_trump,
    stops_early,
    turn_up_trump,
)

if TYPE_CHECKING:
    from rules_engine.game import GameState

_NOT_A_TRUMP = 99

# trump -> card -> (follow suit, strength, trump rank or _NOT_A_TRUMP), built from order.py's
# public functions so that trick winners here agree with ``order.trick_winner``.
_CARD_TABLE: dict[str, dict[Card, tuple[str, int, int]]] = {}
for _trump in SUITS:
    _table = {}
    for _card in FULL_PACK:
        _rank = trump_rank(_card, _trump)
        if _rank is None:
            _table[_card] = (
                follow_suit(_card, _trump),
                100 - plain_rank(_card, _trump),
                _NOT_A_TRUMP,
            )
        else:
            _table[_card] = (TRUMP, 200 - _rank, _rank)
    _CARD_TABLE[_trump] = _table
del _trump, _table, _card, _rank

_CARD_FIELDS = frozenset(
    {
        "dealer",
        "trump",
        "turn_up",
        "deal",
        "rob",
        "tricks",
        "bidding",
        "bid",
        "kitty",
        "discard",
        "best_trump",
        "renege",
    }
)
_ALL_PASS_FIELDS = frozenset({"dealer", "bidding", "deal", "kitty"})


def read_card_by_card(record: Mapping, state: GameState, dealer: int) -> HandFacts:
    """The facts of a card-by-card record (``tricks``), every play checked."""
    rules = state.rules
    seat_count = state.seat_count
    facts = HandFacts(PLAYED, dealer)
    facts.shape = "tricks"
    turn_up = None
    bidder = None
    check_fields(record, _CARD_FIELDS, state)
    if rules.is_bidding:
        facts.bid = read_bid(record, state, dealer)
        if facts.bid is None:
            return _all_passed(record, state, dealer)
        bidder = facts.bid[0]
        trump = read_trump(record)
    else:
        if "turn_up" not in record:
            raise RulesError("invalid_record", N_("missing field: turn_up"), "/turn_up")
        turn_up, trump = turn_up_trump(record)
    facts.trump = trump
    if "tricks" not in record:
        raise RulesError("invalid_record", N_("missing field: tricks"), "/tricks")

    # Read the deal and the tricks both before refusing either, to report every bad card at once.
    errors = []
    deal = None
    if "deal" in record:
        try:
            deal = parse_deal(record["deal"], seat_count)
        except RulesError as error:
            errors.append(error)
    try:
        tricks, stated_leaders = parse_tricks(record["tricks"], seat_count)
    except RulesError as error:
        errors.append(error)
    if errors:
        raise RulesError.combine(errors)
    trick_count = len(tricks)
    if not 0 < trick_count <= HAND_TRICKS or (trick_count < HAND_TRICKS and not stops_early(state)):
        raise RulesError(
            "wrong_trick_count",
            N_("%(trick_count)s tricks recorded; a hand has %(HAND_TRICKS)s tricks"),
            "/tricks",
            params={"trick_count": trick_count, "HAND_TRICKS": HAND_TRICKS},
        )
    if deal is None and trick_count < HAND_TRICKS:
        raise RulesError(
            "invalid_record",
            N_("missing field: deal (required when fewer than five tricks are recorded)"),
            "/deal",
        )

    # With the deal known, the rob and the kitty settle the hands before any play.
    if deal is not None:
        owner = static_owners(deal, turn_up)
        hands = [list(cards) for cards in deal]
        robber = _settle_hands(record, state, dealer, turn_up, bidder, owner, None, hands, 0)

    # One pass over the plays: who led and who won each trick, where the best trump fell, what
    # each seat played, every card from the player's hand (deal known), and the *suspects*:
    # plays that neither follow suit nor trump, the only ones that can break a follow rule.
    table = _CARD_TABLE[trump]
    if bidder is not None and rules.first_lead == "left_of_bidder":
        leader = (bidder + 1) % seat_count
    else:
        leader = (dealer + 1) % seat_count
    played: list[list[Card]] = [[] for _ in range(seat_count)]
    leaders = []
    winners = []
    suspects = []
    best_rank = _NOT_A_TRUMP
    best_at = None
    check_owner = deal is not None
    not_held_at = None
    for trick_index, cards in enumerate(tricks):
        if stated_leaders is not None and stated_leaders[trick_index] is not None:
            _check_leader(stated_leaders[trick_index], leader, trick_index)
        leaders.append(leader)
        led_suit = table[cards[0]][0]
        top = -1
        top_position = position = 0
        seat = leader
        for card in cards:
            if check_owner:
                card_owner = owner.get(card)
                if card_owner != seat:
                    # Reported after any earlier illegal play; the owners mean nothing after it.
                    not_held_at = (trick_index, position, seat, card, card_owner)
                    check_owner = False
                owner[card] = NOBODY
            suit, strength, rank = table[card]
            if suit == led_suit or suit == TRUMP:
                if strength > top:
                    top = strength
                    top_position = position
            else:
                suspects.append((trick_index, position, seat, card))
            if rank < best_rank:
                best_rank = rank
                best_at = (trick_index, position)
            played[seat].append(card)
            position += 1
            seat += 1
            if seat == seat_count:
                seat = 0
        leader = (leader + top_position) % seat_count
        winners.append(leader)
    facts.trick_winners = tuple(winners)

    if deal is None:
        # Without a deal the hands are what was played: check the rob and kitty against it.
        hands = played
        played_by = _played_by(record, played, trick_count)
        robber = _settle_hands(
            record, state, dealer, turn_up, bidder, None, played_by, hands, trick_count
        )
    facts.rob_seat = robber

    renege = None
    if "renege" in record:
        renege = read_renege(record, seat_count, trick_count)
        facts.renege = renege
        facts.kind = RENEGE

    # The suspects, in play order: illegal unless the hand held nothing that obliged it.
    renege_found = False
    # With the variant, AH can oblige a hand to follow hearts: leave every such case to order.py.
    always_ask = rules.ace_of_hearts_follows_hearts
    # With trump_then_hearts, AH led can oblige a hand without trumps to play a heart.
    ace_of_hearts_calls_hearts = rules.ace_of_hearts_lead == "trump_then_hearts" and trump != "H"
    for trick_index, position, seat, card in suspects:
        if not_held_at is not None and (trick_index, position) >= not_held_at[:2]:
            break
        cards = tricks[trick_index]
        led_suit = table[cards[0]][0]
        if deal is None:
            held = hands[seat][trick_index:]
        else:
            before = played[seat][:trick_index]
            held = [other for other in hands[seat] if other not in before]
        obliged = always_ask or (ace_of_hearts_calls_hearts and cards[0] is ACE_OF_HEARTS)
        for other in held:
            if table[other][0] == led_suit:
                obliged = True
                break
        if not obliged:
            continue
        reason = why_illegal(held, cards[:position], card, trump, rules)
        if reason is None:
            continue
        if renege == (seat, trick_index):
            renege_found = True
            continue
        raise RulesError(
            "illegal_play",
            N_("seat %(seat)s played %(card)s to trick %(value)s, but %(reason)s"),
            play_pointer(record, trick_index, position),
            params={"seat": seat, "card": card, "value": trick_index + 1, "reason": reason},
        )
    if not_held_at is not None:
        trick_index, position, seat, card, card_owner = not_held_at
        raise not_held(record, card, seat, card_owner, trick_index, position)
    if renege is not None and not renege_found:
        seat, trick_index = renege
        position = (seat - leaders[trick_index]) % seat_count
        raise RulesError(
            "invalid_record",
            N_(
                "a renege by seat %(seat)s in trick %(value)s is recorded, but its play there "
                "(%(value2)s) was legal"
            ),
            "/renege",
            params={
                "seat": seat,
                "value": trick_index + 1,
                "value2": tricks[trick_index][position],
            },
        )

    if best_at is not None:
        trick_index, position = best_at
        facts.best_trump = (
            (leaders[trick_index] + position) % seat_count,
            tricks[trick_index][position],
            trick_index,
        )
    if "best_trump" in record:
        _check_stated_best_trump(record["best_trump"], facts.best_trump)
    return facts


def _settle_hands(
    record: Mapping,
    state: GameState,
    dealer: int,
    turn_up: Card | None,
    bidder: int | None,
    owner: dict[Card, int] | None,
    played_by: dict[Card, int] | None,
    hands: list[list[Card]],
    trick_count: int,
) -> int | None:
    """The rob (25, 45: returns the robbing seat or None) or the kitty and discards."""
    if turn_up is None:
        apply_kitty(record, state.rules.kitty, bidder, owner, played_by, hands)
        return None
    robber = None
    if "rob" in record:
        robber = check_rob(
            record,
            state.seat_count,
            dealer,
            turn_up,
            owner,
            played_by,
            hands,
            rob_discard=state.rules.rob_discard,
        )
    check_must_rob(state, turn_up, dealer, robber is not None)
    if played_by is not None:
        check_turn_up_plays(record, turn_up, robber, played_by, trick_count)
    return robber


def _played_by(record: Mapping, played: list[list[Card]], trick_count: int) -> dict[Card, int]:
    """Without a deal: card -> the seat that played it; a card played twice is refused."""
    played_by = {card: seat for seat, cards in enumerate(played) for card in cards}
    if len(played_by) != trick_count * len(played):
        seen: set[Card] = set()
        for trick_index, trick in enumerate(record["tricks"]):
            cards = trick["cards"] if isinstance(trick, Mapping) else trick
            for position, value in enumerate(cards):
                card = parse_card(value)
                if card in seen:
                    raise duplicate(record, card, play_pointer(record, trick_index, position))
                seen.add(card)
    return played_by


def _check_leader(stated: int, expected: int, trick_index: int) -> None:
    if stated != expected:
        reason = (
            Phrase(N_("the first trick is led by the seat left of the dealer or bidder"))
            if trick_index == 0
            else Phrase(N_("the winner of trick %(value)s leads"), {"value": trick_index})
        )
        raise RulesError(
            "wrong_leader",
            N_(
                "trick %(value)s is recorded as led by seat %(stated)s, but seat %(expected)s led "
                "it (%(reason)s)"
            ),
            f"/tricks/{trick_index}/leader",
            params={
                "value": trick_index + 1,
                "stated": stated,
                "expected": expected,
                "reason": reason,
            },
        )


def _all_passed(record: Mapping, state: GameState, dealer: int) -> HandFacts:
    extra = sorted(str(key) for key in record.keys() - _ALL_PASS_FIELDS)
    if extra:
        raise RulesError(
            "invalid_record",
            N_("everybody passed, so the hand is redealt without play; unexpected field %(value)s"),
            f"/{extra[0]}",
            params={"value": extra[0]},
        )
    deal = parse_deal(record["deal"], state.seat_count) if "deal" in record else None
    owner = static_owners(deal, None)
    if "kitty" in record:
        for index, card in enumerate(read_cards(record, "kitty", state.rules.kitty)):
            if card in owner:
                raise duplicate(record, card, f"/kitty/{index}")
            owner[card] = NOBODY
    return HandFacts(REDEAL, dealer)


def _check_stated_best_trump(stated: object, computed: tuple[int, Card | None, int] | None) -> None:
    matches = stated is None and computed is None
    if isinstance(stated, Mapping) and computed is not None:
        seat, card, trick = computed
        matches = (
            stated.get("seat") == seat
            and stated.get("trick") == trick
            and set(stated) <= {"seat", "trick", "card"}
        )
        if matches and stated.get("card") is not None:
            try:
                matches = parse_card(stated["card"]) is card
            except RulesError:
                matches = False
    if not matches:
        described = (
            Phrase(N_("no trump was played"))
            if computed is None
            else Phrase(
                N_(
                    "seat %(seat)s played the best trump, %(card)s, in trick %(value)s "
                    "(trick %(index)s counting from 0)"
                ),
                {
                    "seat": computed[0],
                    "card": computed[1],
                    "value": computed[2] + 1,
                    "index": computed[2],
                },
            )
        )
        raise RulesError(
            "best_trump_mismatch",
            N_("best_trump is recorded as %(stated)r, but %(described)s"),
            "/best_trump",
            params={"stated": stated, "described": described},
        )
