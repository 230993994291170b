"""A full club night on top of the page tests' seed, for the browser tests of page size and
accessibility: sixteen more players in Kilkenny, a drive of sixteen and a knockout of sixteen.

What it does: ``seed_night(seed)`` adds, through the real services:

- players "Player 01" … "Player 16" in Kilkenny;
- ``drive``: "Thursday Drive", a 25 drive of the sixteen new players at four tables of four
  (partners), three games; in round 1 seat 0's side takes all five tricks at every table (25 to
  0), so the eight winners are level on every figure (one win, 25 points, five tricks) and share
  first place, the eight others share ninth; round 2 is then drawn by itself;
- ``knockout``: "County Cup", a knockout of 25 of the same sixteen (seeded in name order): round-1
  tables 1 to 6 decided (seat 0 takes every trick), so quarter-finals 1 to 3 are under way, the
  fourth waiting; quarter-finals 1 and 2 decided, so semi-final 1 is under way.

What it does not do: assert anything, or commit (the caller's transaction or test does).
"""

from __future__ import annotations

from clubs.models import Player
from games.models import Game, GameStatus
from tests.pages.seed import Seed, draw, play_hands
from tournaments import services

ALL_TRICKS_TO_SEAT_0 = {"dealer": 0, "trump": "S", "trick_winners": [0, 0, 0, 0, 0]}


def decide(tournament, user, *, round_number: int, tables: list[int]) -> None:
    """Seat 0 (or seat 0's side) takes every trick at each of ``tables``: 25 to 0."""
    games = Game.objects.filter(
        match_link__match__tournament=tournament,
        match_link__match__round__number=round_number,
        match_link__match__table__in=tables,
        status=GameStatus.IN_PROGRESS,
    )
    for game in games:
        play_hands(game, user, [ALL_TRICKS_TO_SEAT_0])


def seed_night(seed: Seed) -> Seed:
    club = seed.clubs["kilkenny"]
    organiser, scorekeeper = seed.users["orla"], seed.users["sean"]
    players = [
        Player.objects.create(club=club, display_name=f"Player {number:02}")
        for number in range(1, 17)
    ]
    drive = services.create_tournament(
        club=club,
        user=organiser,
        values={
            "name": "Thursday Drive",
            "game": "25",
            "format": "drive",
            "table_size": 4,
            "sides_per_table": 2,
            "round_count": 3,
            "lots_seed": 5,
        },
        entrants=[{"player": player.pk} for player in players],
    )
    draw(drive, organiser)
    decide(drive, scorekeeper, round_number=1, tables=[1, 2, 3, 4])
    knockout = services.create_tournament(
        club=club,
        user=organiser,
        values={"name": "County Cup", "game": "25", "format": "knockout", "lots_seed": 8},
        entrants=[
            {"player": player.pk, "seed": number} for number, player in enumerate(players, start=1)
        ],
    )
    draw(knockout, organiser)
    decide(knockout, scorekeeper, round_number=1, tables=[1, 2, 3, 4, 5, 6])
    decide(knockout, scorekeeper, round_number=2, tables=[1, 2])
    drive.refresh_from_db()
    knockout.refresh_from_db()
    seed.tournaments.update(drive=drive, knockout=knockout)
    seed.extra["night_players"] = players
    return seed
