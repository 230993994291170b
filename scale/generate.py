"""The generator's run: a federation of clubs, each with its season of nights, in one transaction.

What it does: ``generate(size)`` builds the pool of games (``scale.pool``), stores one federation,
then club by club its players, links with the previous club, nights (``scale.nights``), its
tournaments (``scale.events``, run by the tournaments' services while the loader shares the
tables), season table and ratings (``scale.standings``, over the nights' and the events' games),
sending each club's rows with ``COPY`` before the next (``scale.copy.Loader``). It returns what
it loaded per table and how long it took.
``Size()``'s defaults are the full size of issue 27 (1,000 clubs, about 1,000,000 games and over
10,000,000 hands).

What it does not do: open or commit the transaction (the command runs it in one: all or nothing),
print anything (the command does), or run beside a live site (ids are taken past each table's
maximum when it starts).

Terms: *size*: the arguments; *nights*: spread evenly over the calendar year ``year``, one
evening each at 19:30 UTC.
"""

from __future__ import annotations

import datetime
import random
import time
from dataclasses import dataclass

from scale import events, nights, people, standings
from scale.copy import Loader
from scale.pool import TABLES, build_pool

COPIED = [
    model for model, _ in (*people.TABLE_COLUMNS, *nights.TABLE_COLUMNS, *standings.TABLE_COLUMNS)
]
MODELS = COPIED + events.SERVICE_MODELS


@dataclass(frozen=True)
class Size:
    clubs: int = 1000
    nights_per_club: int = 50
    tables: int = 10
    games_per_table: int = 2
    events_per_club: int = 4
    players_per_club: int = 0  # 0: twice the seats of the club's tables
    shared_share: float = 0.1  # of a club's players, the share also playing at the next club
    pool_games: int = 500  # finished games per table kind in the pool
    seed: int = 27
    year: int = 2025

    @property
    def games(self) -> int:
        return self.clubs * self.nights_per_club * self.tables * self.games_per_table


@dataclass
class Outcome:
    federation_id: int
    counts: dict[str, int]
    pool_games: int
    pool_hands: int
    seconds: float


def _night_times(year: int, nights_per_club: int) -> list[datetime.datetime]:
    first = datetime.datetime(year, 1, 1, 19, 30, tzinfo=datetime.UTC)
    return [
        first + datetime.timedelta(days=index * 365 // max(nights_per_club, 1))
        for index in range(nights_per_club)
    ]


def generate(size: Size, progress=None) -> Outcome:
    started = time.monotonic()
    rng = random.Random(size.seed)
    pool = build_pool(size.seed, size.pool_games)
    if any(not games for games in pool):
        raise ValueError("the pool holds no finished game of some table kind")
    loader = Loader([*people.TABLE_COLUMNS, *nights.TABLE_COLUMNS, *standings.TABLE_COLUMNS])
    when = datetime.datetime(size.year - 1, 12, 1, tzinfo=datetime.UTC)
    federation_id = people.write_federation(loader, when=when)
    times = _night_times(size.year, size.nights_per_club)
    previous = None
    for number in range(size.clubs):
        plan_rng = random.Random(rng.randrange(1 << 62))
        players = size.players_per_club or 2 * size.tables * max(seats for _, seats, *_ in TABLES)
        shared = int(players * size.shared_share) if size.clubs > 1 else 0
        club = people.write_club(
            loader,
            plan_rng,
            number=number,
            federation_id=federation_id,
            players=players,
            tables=size.tables,
            shared=shared,
            previous=previous,
            when=when,
        )
        games = []
        for index, opened in enumerate(times):
            games.extend(
                nights.write_night(
                    loader,
                    plan_rng,
                    pool,
                    club,
                    number=index,
                    opened=opened,
                    games_per_table=size.games_per_table,
                )
            )
        with loader.shared():
            games.extend(
                events.write_events(
                    loader, plan_rng, pool, club, count=size.events_per_club, year=size.year
                )
            )
        names = {player: people.person_name(club.person_of[player]) for player in club.player_ids}
        standings.write_season(loader, club.club_id, games, names, size.year)
        standings.write_ratings(loader, club.club_id, games, size.year)
        loader.flush()
        previous = club
        if progress is not None:
            progress(number + 1, time.monotonic() - started)
    loader.finish()
    return Outcome(
        federation_id=federation_id,
        counts={model._meta.db_table: loader.counts[model] for model in COPIED},
        pool_games=sum(len(games) for games in pool),
        pool_hands=sum(len(game.hands) for games in pool for game in games),
        seconds=time.monotonic() - started,
    )
