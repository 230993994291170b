"""The card lists of a card-by-card record: reading them, and saying where a card went wrong.

What it does: reads ``tricks``, ``deal``, ``kitty`` and ``discard`` into tuples of interned cards
(refusing bad cards and wrong counts with the right pointer, several at once), builds the *owner*
map of the cards known before play (deal and turn-up, refusing a card there twice), and builds the
errors for a card played from the wrong place, with the pointer of the card's first appearance.

What it does not do: decide legality or robbing (``play.py``).

Terms:
- *owner*: card -> the seat that may play it, or ``NOBODY`` (the turn-up nobody robbed, a
  discard, a card already played).
- *position*: a (pointer, raw value) of one card in the record, in the fixed order deal,
  turn-up, kitty, discard, rob discard, tricks; error details name the first one.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_engine.cards import FULL_PACK, Card, parse_card, parse_cards
from rules_engine.errors import N_, Phrase, RulesError
from rules_engine.records import HAND_TRICKS, check_seat

NOBODY = -1

# Spellings already seen -> Card: starts with the canonical ones and the Card objects, and learns
# every other spelling parse_card accepts (a bounded set), so that the common case is one C-level
# dictionary lookup per card with no Python call.
_KNOWN_SPELLINGS: dict[object, Card] = {str(card): card for card in FULL_PACK}
_KNOWN_SPELLINGS.update({card: card for card in FULL_PACK})
_TRICK_OBJECT_KEYS = frozenset({"leader", "cards"})


def card_tuple(values: object) -> tuple[Card, ...]:
    """``values`` (a list of card spellings) as cards; ``invalid_card`` / ``invalid_record`` with
    a pointer relative to the list ("/2") otherwise."""
    if type(values) is list or type(values) is tuple:
        try:
            return tuple(map(_KNOWN_SPELLINGS.__getitem__, values))
        except (KeyError, TypeError):
            pass
    cards = parse_cards(values)
    for value, card in zip(values, cards, strict=True):
        _KNOWN_SPELLINGS[value] = card
    return cards


def parse_tricks(
    value: object, seat_count: int
) -> tuple[list[tuple[Card, ...]], list[int | None] | None]:
    """The tricks' cards, and the leaders stated in object-form tricks (None when none are)."""
    if type(value) is list:
        # The common case, a list of lists of known spellings, in one comprehension.
        try:
            if all(type(trick) is list and len(trick) == seat_count for trick in value):
                return [tuple(map(_KNOWN_SPELLINGS.__getitem__, trick)) for trick in value], None
        except (KeyError, TypeError):
            pass
    elif not isinstance(value, list | tuple):
        raise RulesError("invalid_record", N_("tricks must be a list of tricks"), "/tricks")
    tricks = []
    leaders = None
    errors = []
    for trick_index, trick in enumerate(value):
        pointer = None
        if type(trick) is not list and isinstance(trick, Mapping):
            if leaders is None:
                leaders = [None] * len(value)
            if trick.keys() != _TRICK_OBJECT_KEYS:
                errors.append(
                    RulesError(
                        "invalid_record",
                        N_(
                            "a trick is a list of cards or an object "
                            '{"leader": ..., "cards": [...]}'
                        ),
                        f"/tricks/{trick_index}",
                    )
                )
                continue
            leaders[trick_index] = check_seat(
                trick["leader"],
                seat_count,
                f"the leader of trick {trick_index + 1}",
                f"/tricks/{trick_index}/leader",
            )
            pointer = f"/tricks/{trick_index}/cards"
            trick = trick["cards"]
        try:
            cards = card_tuple(trick)
        except RulesError as error:
            prefix = pointer or f"/tricks/{trick_index}"
            errors.append(error.with_pointer(prefix + error.pointer))
            continue
        if len(cards) != seat_count:
            errors.append(
                RulesError(
                    "wrong_card_count",
                    N_(
                        "trick %(value)s has %(cards_count)s cards; each of the %(seat_count)s "
                        "seats plays one card to every trick"
                    ),
                    pointer or f"/tricks/{trick_index}",
                    params={
                        "value": trick_index + 1,
                        "cards_count": len(cards),
                        "seat_count": seat_count,
                    },
                )
            )
            continue
        tricks.append(cards)
    if errors:
        raise RulesError.combine(errors)
    return tricks, leaders


def parse_deal(value: object, seat_count: int) -> list[tuple[Card, ...]]:
    """The cards dealt to each seat: ``seat_count`` lists of five."""
    if type(value) is list and len(value) == seat_count:
        try:
            if all(type(hand) is list and len(hand) == HAND_TRICKS for hand in value):
                return [tuple(map(_KNOWN_SPELLINGS.__getitem__, hand)) for hand in value]
        except (KeyError, TypeError):
            pass
    if not isinstance(value, list | tuple) or len(value) != seat_count:
        count = len(value) if isinstance(value, list | tuple) else type(value).__name__
        raise RulesError(
            "wrong_card_count",
            N_("deal must list the five cards of each of the %(seat_count)s seats, got %(count)s"),
            "/deal",
            params={"seat_count": seat_count, "count": count},
        )
    deal = []
    errors = []
    for seat, hand in enumerate(value):
        try:
            cards = card_tuple(hand)
        except RulesError as error:
            errors.append(error.with_pointer(f"/deal/{seat}{error.pointer}"))
            continue
        if len(cards) != HAND_TRICKS:
            errors.append(
                RulesError(
                    "wrong_card_count",
                    N_(
                        "seat %(seat)s was dealt %(cards_count)s cards; each seat gets "
                        "%(HAND_TRICKS)s"
                    ),
                    f"/deal/{seat}",
                    params={"seat": seat, "cards_count": len(cards), "HAND_TRICKS": HAND_TRICKS},
                )
            )
            continue
        deal.append(cards)
    if errors:
        raise RulesError.combine(errors)
    return deal


def read_cards(record: Mapping, key: str, count: int | None) -> tuple[Card, ...]:
    """The kitty or the discards (``key``), which must hold ``count`` cards."""
    try:
        cards = card_tuple(record[key])
    except RulesError as error:
        raise error.with_pointer(f"/{key}{error.pointer}") from None
    if count is not None and len(cards) != count:
        raise RulesError(
            "wrong_card_count",
            N_(
                "%(key)s has %(cards_count)s cards; the kitty has %(count)s, and the bidder "
                "discards as many as the kitty gave, keeping five"
            ),
            f"/{key}",
            params={"key": key, "cards_count": len(cards), "count": count},
        )
    return cards


def static_owners(deal: list[tuple[Card, ...]] | None, turn_up: Card | None) -> dict[Card, int]:
    """Owner of each card of the deal and of the turn-up; a card there twice is refused."""
    owner: dict[Card, int] = {}
    expected = 0
    if deal is not None:
        for seat, cards in enumerate(deal):
            for card in cards:
                owner[card] = seat
        expected = len(deal) * HAND_TRICKS
    if turn_up is not None:
        owner[turn_up] = NOBODY
        expected += 1
    if len(owner) != expected:
        _raise_first_duplicate(deal, turn_up)
    return owner


def _raise_first_duplicate(deal: list[tuple[Card, ...]] | None, turn_up: Card | None) -> None:
    seen: dict[Card, str] = {}
    positions = []
    if deal is not None:
        positions += [
            (card, f"/deal/{seat}/{index}")
            for seat, cards in enumerate(deal)
            for index, card in enumerate(cards)
        ]
    if turn_up is not None:
        positions.append((turn_up, "/turn_up"))
    for card, pointer in positions:
        if card in seen:
            raise RulesError(
                "duplicate_card",
                N_("%(card)s appears twice: at %(value)s and at %(pointer)s"),
                pointer,
                params={"card": card, "value": seen[card], "pointer": pointer},
            )
        seen[card] = pointer
    raise AssertionError("unreachable: a duplicate was counted but not found")


def play_pointer(record: Mapping, trick_index: int, position: int) -> str:
    """The pointer of a play, in either trick form."""
    trick = record["tricks"][trick_index]
    if isinstance(trick, Mapping):
        return f"/tricks/{trick_index}/cards/{position}"
    return f"/tricks/{trick_index}/{position}"


def _card_positions(record: Mapping) -> list[tuple[str, object]]:
    positions: list[tuple[str, object]] = []

    def add_list(pointer: str, values: object) -> None:
        if isinstance(values, list | tuple):
            positions.extend((f"{pointer}/{index}", value) for index, value in enumerate(values))

    deal = record.get("deal")
    if isinstance(deal, list | tuple):
        for seat, cards in enumerate(deal):
            add_list(f"/deal/{seat}", cards)
    if "turn_up" in record:
        positions.append(("/turn_up", record["turn_up"]))
    add_list("/kitty", record.get("kitty"))
    add_list("/discard", record.get("discard"))
    rob = record.get("rob")
    if isinstance(rob, Mapping) and "discard" in rob:
        positions.append(("/rob/discard", rob["discard"]))
    for trick_index, trick in enumerate(record.get("tricks") or ()):
        if isinstance(trick, Mapping):
            add_list(f"/tricks/{trick_index}/cards", trick.get("cards"))
        else:
            add_list(f"/tricks/{trick_index}", trick)
    return positions


def first_pointer(record: Mapping, card: Card, before: str) -> str | None:
    """Where ``card`` first appears in the record before the position ``before``, if anywhere."""
    for pointer, value in _card_positions(record):
        if pointer == before:
            return None
        try:
            if parse_card(value) is card:
                return pointer
        except RulesError:
            continue
    return None


def duplicate(record: Mapping, card: Card, pointer: str) -> RulesError:
    """A ``duplicate_card`` at ``pointer``, naming the card's first appearance."""
    first = first_pointer(record, card, pointer)
    if first is None:
        return RulesError(
            "duplicate_card",
            N_("%(card)s appears at %(pointer)s"),
            pointer,
            params={"card": card, "pointer": pointer},
        )
    return RulesError(
        "duplicate_card",
        N_("%(card)s appears at %(pointer)s and at %(first)s"),
        pointer,
        params={"card": card, "pointer": pointer, "first": first},
    )


def not_held(
    record: Mapping,
    card: Card,
    seat: int,
    card_owner: int | None,
    trick_index: int,
    position: int,
) -> RulesError:
    """The error for ``seat`` playing a card it did not hold (``card_owner`` says whose it was)."""
    pointer = play_pointer(record, trick_index, position)
    played = Phrase(
        N_("seat %(seat)s played %(card)s to trick %(value)s"),
        {"seat": seat, "card": card, "value": trick_index + 1},
    )
    if card_owner is None:
        return RulesError(
            "illegal_play",
            N_("%(played)s, but was not dealt it"),
            pointer,
            params={"played": played},
        )
    first = first_pointer(record, card, pointer)
    if card_owner == NOBODY:
        if first == "/turn_up":
            return RulesError(
                "duplicate_card",
                N_("%(played)s, but %(card)s is the turn-up and seat %(seat)s did not rob it"),
                pointer,
                params={"played": played, "card": card, "seat": seat},
            )
        if first is None:
            return RulesError(
                "duplicate_card",
                N_("%(played)s, but %(card)s was already played or discarded"),
                pointer,
                params={"played": played, "card": card},
            )
        return RulesError(
            "duplicate_card",
            N_("%(played)s, but %(card)s was already played or discarded (at %(first)s)"),
            pointer,
            params={"played": played, "card": card, "first": first},
        )
    if first is None:
        return RulesError(
            "duplicate_card",
            N_("%(played)s, but %(card)s belongs to seat %(card_owner)s"),
            pointer,
            params={"played": played, "card": card, "card_owner": card_owner},
        )
    return RulesError(
        "duplicate_card",
        N_("%(played)s, but %(card)s belongs to seat %(card_owner)s (at %(first)s)"),
        pointer,
        params={"played": played, "card": card, "card_owner": card_owner, "first": first},
    )
