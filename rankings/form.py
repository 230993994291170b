"""The current-form grade: how a player has lately won against what their ratings expected.

What it does: ``form_of(games, end)`` — over the player's *window*, their last ``WINDOW_GAMES``
games that finished within ``WINDOW_DAYS`` days before ``end`` (whichever holds fewer), the
grade is ``100 x games won / games the ratings expected them to win``, one decimal: the
expectation of a game is their side's chance of winning before it (OpenSkill's ``predict_win``
from the ratings of every seat). 100 is playing exactly to one's rating; 120 is winning a fifth
more than expected; no game in the window, no grade (None). Like the EBU's NGS it moves after
every night: each ranked night adds games and moves ``end`` on.

What it does not do: read or write the database (``rankings.build`` gives it the games).

Terms: *window* — above; *end* — the finish of the last game ranked in the federation (the
ranking's ``as_of``), or for the history's chart the finish of the game itself.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import NamedTuple

WINDOW_GAMES = 200
WINDOW_DAYS = 365


class Played(NamedTuple):
    finished_at: datetime.datetime
    won: bool
    chance: float


def window(games: Iterable[Played], end: datetime.datetime) -> list[Played]:
    """The games (in finishing order) inside the window ending at ``end``."""
    start = end - datetime.timedelta(days=WINDOW_DAYS)
    inside = [game for game in games if start < game.finished_at <= end]
    return inside[-WINDOW_GAMES:]


def grade(games: list[Played]) -> float | None:
    expected = sum(game.chance for game in games)
    if not games or expected <= 0:
        return None
    return round(100 * sum(1 for game in games if game.won) / expected, 1)


def form_of(games: Iterable[Played], end: datetime.datetime) -> tuple[float | None, int]:
    """The grade over the window ending at ``end`` and how many games it holds."""
    inside = window(games, end)
    return grade(inside), len(inside)
