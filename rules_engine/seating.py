"""Seats and sides: how many may play each game and who may partner whom.

What it does: ``check_seating`` turns the seat count and the optional list of sides given to
``new_game`` into the canonical ``(sides, side_of_seat)`` pair, refusing seat counts a game is not
played with, too few cards for the deal, and partners sitting next to each other.

What it does not do: know players (the service maps player ids to seats) or deal cards.

Terms:
- *seat*: 0..n-1 clockwise; seat i+1 sits on seat i's left and seat n-1 neighbours seat 0.
- *side*: the seats that pool their points (a partnership, or one player alone). Sides are
  numbered in the order given; a side's seats are kept sorted.
- *formation*: the seat count and the side sizes, e.g. 2 v 2 is 4 seats in 2 sides of 2.

Decisions (rules.md "Players, sides, seating"):
- 25, 55, 110 and 220: 2 to 10 seats, every seat alone or sides of equal size.
- 45: 1 v 1 v 1 (3 seats alone), 2 v 2 or 3 v 3. Auction 45: 2 v 2 or 3 v 3.
- Partners may not be neighbours, and partnerships sit in rotation, as rules.md describes them
  (pairs opposite, 2 v 2 v 2 and 3 v 3 alternating, three teams of three each player between
  the other two teams): seat i and seat i + (number of sides) are always partners.
- The cards must suffice: 5 per seat plus the turn-up (25, 45) or the kitty must be at most 52.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules_engine.errors import N_, Phrase, RulesError
from rules_engine.house_rules import HouseRules

HAND_SIZE = 5
PACK_SIZE = 52
MIN_SEATS = 2
MAX_SEATS = 10

# Games whose formations rules.md lists one by one: seat count -> number of sides; and the list
# in words, one translatable phrase per game (a test checks it against the table).
_FIXED_FORMATIONS: dict[str, dict[int, int]] = {
    "45": {3: 3, 4: 2, 6: 2},
    "auction45": {4: 2, 6: 2},
}
_FORMATIONS_IN_WORDS: dict[str, str] = {
    "45": N_("1 v 1 v 1 (3 seats), 2 v 2 (4 seats), 3 v 3 (6 seats)"),
    "auction45": N_("2 v 2 (4 seats), 3 v 3 (6 seats)"),
}


def seat_count_of(seats: object) -> int:
    """The number of seats: ``seats`` itself when it is an int, else the length of the sequence."""
    if type(seats) is int:
        count = seats
    elif isinstance(seats, Sequence) and not isinstance(seats, str):
        count = len(seats)
    else:
        raise RulesError(
            "invalid_seating",
            N_("seats must be a number of seats or a list of players, got %(name)s"),
            "/seats",
            params={"name": type(seats).__name__},
        )
    if not MIN_SEATS <= count <= MAX_SEATS:
        raise RulesError(
            "invalid_seating",
            N_("%(count)s seats: the games are played by %(MIN_SEATS)s to %(MAX_SEATS)s seats"),
            "/seats",
            params={"count": count, "MIN_SEATS": MIN_SEATS, "MAX_SEATS": MAX_SEATS},
        )
    return count


def check_seating(
    rules: HouseRules, seat_count: int, sides: object = None
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """``(sides, side_of_seat)`` for a game, or ``RulesError("invalid_seating")``.

    ``sides`` lists each side's seats (None: every seat its own side). ``seat_count`` is checked
    like ``seat_count_of`` (callers may come here directly).
    """
    seat_count = seat_count_of(seat_count)
    canonical = _parse_sides(seat_count, sides)
    side_of_seat = [0] * seat_count
    for side, seats in enumerate(canonical):
        for seat in seats:
            side_of_seat[seat] = side
    _check_cards_suffice(rules, seat_count)
    _check_neighbours(canonical, side_of_seat)
    _check_formation(rules.game, seat_count, canonical, side_of_seat)
    return canonical, tuple(side_of_seat)


def _parse_sides(seat_count: int, sides: object) -> tuple[tuple[int, ...], ...]:
    if sides is None:
        return tuple((seat,) for seat in range(seat_count))
    if not isinstance(sides, Sequence) or isinstance(sides, str):
        raise RulesError(
            "invalid_seating",
            N_("sides must be a list of lists of seats, e.g. [[0, 2], [1, 3]]"),
            "/sides",
        )
    seen: dict[int, int] = {}
    canonical = []
    for side_index, seats in enumerate(sides):
        if not isinstance(seats, Sequence) or isinstance(seats, str) or not seats:
            raise RulesError(
                "invalid_seating",
                N_("side %(side_index)s must be a non-empty list of seats"),
                f"/sides/{side_index}",
                params={"side_index": side_index},
            )
        for position, seat in enumerate(seats):
            pointer = f"/sides/{side_index}/{position}"
            if type(seat) is not int or not 0 <= seat < seat_count:
                raise RulesError(
                    "invalid_seating",
                    N_("side %(side_index)s names seat %(seat)r; seats are 0 to %(value)s"),
                    pointer,
                    params={"side_index": side_index, "seat": seat, "value": seat_count - 1},
                )
            if seat in seen:
                raise RulesError(
                    "invalid_seating",
                    N_("seat %(seat)s is in side %(value)s and side %(side_index)s"),
                    pointer,
                    params={"seat": seat, "value": seen[seat], "side_index": side_index},
                )
            seen[seat] = side_index
        canonical.append(tuple(sorted(seats)))
    missing = [seat for seat in range(seat_count) if seat not in seen]
    if missing:
        raise RulesError(
            "invalid_seating",
            N_("seat(s) %(value)s belong to no side"),
            "/sides",
            params={"value": ", ".join(map(str, missing))},
        )
    if len(canonical) < 2:
        raise RulesError("invalid_seating", N_("a game needs at least two sides"), "/sides")
    return tuple(canonical)


def _check_cards_suffice(rules: HouseRules, seat_count: int) -> None:
    extra = 1 if rules.has_turn_up else (rules.kitty or 0)
    needed = HAND_SIZE * seat_count + extra
    if needed > PACK_SIZE:
        what = "the turn-up" if rules.has_turn_up else f"a kitty of {extra}"
        raise RulesError(
            "invalid_seating",
            N_(
                "%(seat_count)s seats need %(needed)s cards (%(HAND_SIZE)s each and %(what)s), "
                "more than the %(PACK_SIZE)s of the pack"
            ),
            "/seats",
            params={
                "seat_count": seat_count,
                "needed": needed,
                "HAND_SIZE": HAND_SIZE,
                "what": what,
                "PACK_SIZE": PACK_SIZE,
            },
        )


def _check_neighbours(sides: tuple[tuple[int, ...], ...], side_of_seat: list[int]) -> None:
    seat_count = len(side_of_seat)
    for seat in range(seat_count):
        left = (seat + 1) % seat_count
        if left != seat and side_of_seat[seat] == side_of_seat[left]:
            raise RulesError(
                "invalid_seating",
                N_(
                    "seats %(seat)s and %(left)s are partners (side %(value)s) and sit next to "
                    "each other; partners must not be neighbours"
                ),
                f"/sides/{side_of_seat[seat]}",
                params={"seat": seat, "left": left, "value": side_of_seat[seat]},
            )


def _check_formation(
    game: str,
    seat_count: int,
    sides: tuple[tuple[int, ...], ...],
    side_of_seat: list[int],
) -> None:
    side_count = len(sides)
    fixed = _FIXED_FORMATIONS.get(game)
    if fixed is not None:
        if fixed.get(seat_count) != side_count:
            formations = Phrase(_FORMATIONS_IN_WORDS[game])
            raise RulesError(
                "invalid_seating",
                N_(
                    "game %(game)s is played %(formations)s; got %(seat_count)s seats in "
                    "%(side_count)s sides"
                ),
                "/sides",
                params={
                    "game": game,
                    "formations": formations,
                    "seat_count": seat_count,
                    "side_count": side_count,
                },
            )
    sizes = {len(seats) for seats in sides}
    if len(sizes) != 1:
        raise RulesError(
            "invalid_seating",
            N_("sides must be the same size, got sizes %(sizes)s"),
            "/sides",
            params={"sizes": ", ".join(str(len(seats)) for seats in sides)},
        )
    for seat in range(seat_count):
        across = (seat + side_count) % seat_count
        if side_of_seat[seat] != side_of_seat[across]:
            raise RulesError(
                "invalid_seating",
                N_(
                    "partnerships must sit in rotation (pairs opposite, teams alternating): seat "
                    "%(seat)s is on side %(value)s but seat %(across)s, %(side_count)s places to "
                    "its left, is on side %(value2)s"
                ),
                "/sides",
                params={
                    "seat": seat,
                    "value": side_of_seat[seat],
                    "across": across,
                    "side_count": side_count,
                    "value2": side_of_seat[across],
                },
            )
