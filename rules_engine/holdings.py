"""What each seat held for the play: the rob (25, 45) and the kitty and discards (bidding games).

What it does: checks a card-by-card record's ``rob``, ``kitty`` and ``discard`` against the deal
(when given) or against the plays (when not), and adjusts the hands: the robber's discard goes out
and the turn-up comes in; the bidder takes the kitty and lays down as many cards.

What it does not do: check plays for legality (``play.py``) or read card lists
(``card_lists.py``).

Terms:
- *owner* (deal known): card -> the seat that may play it, or NOBODY (see ``card_lists``).
- *played_by* (no deal): card -> the seat that played it; then the hands are what was played.
- *ace of trumps*: the ace of the trump suit (AH when hearts are trumps). Its holder may rob the
  turn-up; a turned-up ace may be robbed by the dealer only.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_engine.card_lists import NOBODY, duplicate, play_pointer, read_cards
from rules_engine.cards import Card, parse_card
from rules_engine.errors import N_, RulesError
from rules_engine.records import HAND_TRICKS, check_rob_discard, check_seat

_ROB_KEYS = frozenset({"seat"})
_ROB_KEYS_WITH_DISCARD = frozenset({"seat", "discard"})


def check_rob(
    record: Mapping,
    seat_count: int,
    dealer: int,
    turn_up: Card,
    owner: dict[Card, int] | None,
    played_by: dict[Card, int] | None,
    hands: list[list[Card]],
    *,
    rob_discard: str | None = "any_card",
) -> int:
    """The robbing seat, checked. With the deal known (``owner``), updates owners and the
    robber's hand; without it (``played_by``), checks the discard was not played. With
    ``rob_discard`` "not_the_ace" the holder of the ace of trumps may not discard that ace."""
    rob = record["rob"]
    if not isinstance(rob, Mapping) or not (_ROB_KEYS <= rob.keys() <= _ROB_KEYS_WITH_DISCARD):
        raise RulesError(
            "invalid_record", N_('rob must be an object {"seat": ..., "discard": ...}'), "/rob"
        )
    robber = check_seat(rob["seat"], seat_count, "the robbing seat", "/rob/seat")
    discard = None
    if "discard" in rob:
        try:
            discard = parse_card(rob["discard"])
        except RulesError as error:
            raise error.with_pointer("/rob/discard") from None
    if turn_up.rank == "A":
        if robber != dealer:
            raise RulesError(
                "illegal_rob",
                N_(
                    "the turn-up %(turn_up)s is the ace of trumps: only the dealer (seat "
                    "%(dealer)s) may rob it, not seat %(robber)s"
                ),
                "/rob/seat",
                params={"turn_up": turn_up, "dealer": dealer, "robber": robber},
            )
    else:
        ace = parse_card("A" + turn_up.suit)
        if owner is not None:
            holder = owner.get(ace)
        elif discard is ace:
            holder = robber
        else:
            holder = played_by.get(ace)
        if holder != robber:
            held = "nobody held it" if holder in (None, NOBODY) else f"seat {holder} held it"
            raise RulesError(
                "illegal_rob",
                N_(
                    "seat %(robber)s robbed the turn-up %(turn_up)s, but only the holder of the "
                    "ace of trumps (%(ace)s) may rob, and %(held)s"
                ),
                "/rob/seat",
                params={"robber": robber, "turn_up": turn_up, "ace": ace, "held": held},
            )
    if discard is turn_up:
        raise RulesError(
            "illegal_rob",
            N_("seat %(robber)s robbed %(turn_up)s and cannot discard it"),
            "/rob/discard",
            params={"robber": robber, "turn_up": turn_up},
        )
    check_rob_discard(discard, turn_up, robber, rob_discard)
    if owner is None:
        if discard is not None and discard in played_by:
            raise RulesError(
                "duplicate_card",
                N_("seat %(robber)s discarded %(discard)s to rob, but seat %(value)s played it"),
                "/rob/discard",
                params={"robber": robber, "discard": discard, "value": played_by[discard]},
            )
        return robber
    if discard is None:
        raise RulesError(
            "invalid_record",
            N_("missing field: rob discard (required with a deal, to check the robber's hand)"),
            "/rob/discard",
        )
    if owner.get(discard) != robber:
        raise RulesError(
            "illegal_rob",
            N_("seat %(robber)s discarded %(discard)s to rob, but was not dealt it"),
            "/rob/discard",
            params={"robber": robber, "discard": discard},
        )
    owner[discard] = NOBODY
    owner[turn_up] = robber
    hands[robber].remove(discard)
    hands[robber].append(turn_up)
    return robber


def check_turn_up_plays(
    record: Mapping,
    turn_up: Card,
    robber: int | None,
    played_by: dict[Card, int],
    trick_count: int,
) -> None:
    """Without a deal: only the robber plays the turn-up, and a robber plays it."""
    player = played_by.get(turn_up)
    if player is not None and player != robber:
        robbed = "nobody robbed it" if robber is None else f"seat {robber} robbed it"
        trick_index, pointer = _where_played(record, turn_up)
        raise RulesError(
            "duplicate_card",
            N_(
                "seat %(player)s played %(turn_up)s to trick %(value)s, but %(turn_up)s is the "
                "turn-up and %(robbed)s"
            ),
            pointer,
            params={
                "player": player,
                "turn_up": turn_up,
                "value": trick_index + 1,
                "robbed": robbed,
            },
        )
    if robber is not None and player is None and trick_count == HAND_TRICKS:
        raise RulesError(
            "illegal_rob",
            N_("seat %(robber)s robbed the turn-up %(turn_up)s but never played it"),
            "/rob",
            params={"robber": robber, "turn_up": turn_up},
        )


def apply_kitty(
    record: Mapping,
    kitty_size: int,
    bidder: int,
    owner: dict[Card, int] | None,
    played_by: dict[Card, int] | None,
    hands: list[list[Card]],
) -> None:
    """Check the kitty and the bidder's discards. With the deal known (``owner``) the bidder's
    hand takes the kitty and loses the discards; without it, only the bidder may have played a
    kitty card and nobody a discard."""
    has_kitty = "kitty" in record
    has_discard = "discard" in record
    if owner is not None and kitty_size and not (has_kitty and has_discard):
        missing = "kitty" if not has_kitty else "discard"
        raise RulesError(
            "invalid_record",
            N_("missing field: %(missing)s (required with a deal, to check the bidder's hand)"),
            f"/{missing}",
            params={"missing": missing},
        )
    kitty = read_cards(record, "kitty", kitty_size) if has_kitty else ()
    discards = read_cards(record, "discard", kitty_size) if has_discard else ()
    if owner is None:
        _check_kitty_against_plays(record, bidder, kitty, discards, played_by)
        return
    for index, card in enumerate(kitty):
        if card in owner:
            raise duplicate(record, card, f"/kitty/{index}")
        owner[card] = bidder
        hands[bidder].append(card)
    for index, card in enumerate(discards):
        card_owner = owner.get(card)
        if card_owner == bidder:
            owner[card] = NOBODY
            hands[bidder].remove(card)
        elif card_owner is None:
            raise RulesError(
                "illegal_play",
                N_(
                    "the bidder (seat %(bidder)s) discarded %(card)s, which was neither in its "
                    "hand nor in the kitty"
                ),
                f"/discard/{index}",
                params={"bidder": bidder, "card": card},
            )
        else:
            raise duplicate(record, card, f"/discard/{index}")


def _check_kitty_against_plays(
    record: Mapping,
    bidder: int,
    kitty: tuple[Card, ...],
    discards: tuple[Card, ...],
    played_by: dict[Card, int],
) -> None:
    seen: set[Card] = set()
    for index, card in enumerate(kitty):
        if card in seen:
            raise duplicate(record, card, f"/kitty/{index}")
        seen.add(card)
        player = played_by.get(card)
        if player is not None and player != bidder:
            trick_index, pointer = _where_played(record, card)
            raise RulesError(
                "duplicate_card",
                N_(
                    "seat %(player)s played %(card)s to trick %(value)s, but it was in the kitty, "
                    "which the bidder (seat %(bidder)s) took"
                ),
                pointer,
                params={"player": player, "card": card, "value": trick_index + 1, "bidder": bidder},
            )
    discarded: set[Card] = set()
    for index, card in enumerate(discards):
        if card in discarded:
            raise duplicate(record, card, f"/discard/{index}")
        discarded.add(card)
        if card in played_by:
            raise RulesError(
                "duplicate_card",
                N_("the bidder (seat %(bidder)s) discarded %(card)s, but seat %(value)s played it"),
                f"/discard/{index}",
                params={"bidder": bidder, "card": card, "value": played_by[card]},
            )


def _where_played(record: Mapping, card: Card) -> tuple[int, str]:
    """(trick index, pointer) of the play of ``card``, which the caller knows was played."""
    for trick_index, trick in enumerate(record["tricks"]):
        cards = trick["cards"] if isinstance(trick, Mapping) else trick
        for position, value in enumerate(cards):
            if parse_card(value) is card:
                return trick_index, play_pointer(record, trick_index, position)
    raise AssertionError(f"unreachable: {card} was played but is in no trick")
