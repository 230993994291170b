"""Lifetime points for places at events, scaled by the field's size.

What it does: ``points_for(place, field)`` — the table: in a field of *n* placed, the winner
earns ``ceil(n / 2)`` points, each place below one fewer, so the top half of the field scores
and the rest earn none: ``max(0, ceil(n / 2) - place + 1)``. Tied places earn the same points.

    field  2: 1 0            field  8: 4 3 2 1 0 0 0 0
    field  5: 3 2 1 0 0      field 20: 10 9 8 ... 1, then 0

``placings_of(settlement)``: the places an event's settle-up version stored (a tournament's
entrants, a team's places shared by its members; a night's players), read by
``settlements.results`` as the results message reads them, and the field's size (how many
places the version stored: a team entrant counts once).

What it does not do: store (``rankings.build``) or decide places (the settle-up stores them).

Terms: *field* — everyone placed at the event, linked to the federation or not.
"""

from __future__ import annotations

import math

from settlements.models import Settlement
from settlements.results import _places  # the one reading of a version's stored places


def points_for(place: int, field: int) -> int:
    if place < 1 or field < 1:
        return 0
    return max(0, math.ceil(field / 2) - place + 1)


def placings_of(settlement: Settlement) -> tuple[dict[int, int], int]:
    """Club player id -> place, and the field's size."""
    return _places(settlement), len(settlement.details.get("places", {}))
