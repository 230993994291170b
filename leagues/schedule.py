"""The fixture list of a league: a double round robin by the circle method (pure Python).

What it does: ``double_round_robin(teams)`` returns the rounds of a season in which every pair of
teams meets twice, once at each one's home: the first half is the circle method's single round
robin (one team fixed, the others turning one place a round), the second half the same rounds
with home and away swapped. With an odd number of teams a *bye* (``None``) joins the circle: the
team drawn against it sits the round out, so each team plays at most one fixture a round and has
one bye in each half. Home and away alternate by round for the fixed team and by place in the
circle for the others, so each team's home games in a half differ by at most one or two.

What it does not do: dates (``leagues.services.generate_fixtures`` gives round *r* a date), or
touch the database (no Django: the teams are any hashable ids).

Terms: *round* — numbered from 1; a *pairing* — ``(home, away)``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

Pairing = tuple[Hashable, Hashable]


def single_round_robin(teams: Sequence[Hashable]) -> list[list[Pairing]]:
    """Every pair once: ``n - 1`` rounds for ``n`` teams (``n`` rounds when ``n`` is odd)."""
    if len(set(teams)) != len(teams):
        raise ValueError("a team is listed twice")
    circle: list[Hashable | None] = list(teams)
    if len(circle) < 2:
        return []
    if len(circle) % 2:
        circle.append(None)  # the bye
    count = len(circle)
    rounds: list[list[Pairing]] = []
    for number in range(count - 1):
        pairings: list[Pairing] = []
        for index in range(count // 2):
            first, second = circle[index], circle[count - 1 - index]
            if first is None or second is None:
                continue  # a bye: the other team sits this round out
            # The fixed team (index 0) alternates home and away; the others by round and place.
            if (index == 0 and number % 2) or (index > 0 and index % 2):
                first, second = second, first
            pairings.append((first, second))
        rounds.append(pairings)
        circle = [circle[0], circle[-1], *circle[1:-1]]  # turn the circle one place
    return rounds


def double_round_robin(teams: Sequence[Hashable]) -> list[list[Pairing]]:
    """Every pair twice, once at each home: the single round robin, then it again reversed."""
    first_half = single_round_robin(teams)
    second_half = [[(away, home) for home, away in pairings] for pairings in first_half]
    return first_half + second_half
