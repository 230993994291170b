"""``manage.py generate_history``: fill PostgreSQL with a federation's season (``scale``).

Sizes are arguments; the defaults are the full size of issue 27 (docs/operations.md, "A season
of history: the generator"). Prints the rows loaded per table, each table's rows and size on disk
(``pg_total_relation_size``) and the time taken; then (unless ``--no-rankings``) rebuilds the
federation's rankings with their own job (``rankings.build.rebuild_rankings``) and says how long
it took. One transaction: all or nothing.
"""

from __future__ import annotations

import argparse
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from rankings.build import rebuild_rankings
from rankings.models import FederationRating, Placing, RankedGame, RankingChange, RankingState
from scale.copy import table_sizes
from scale.events import SERVICE_MODELS
from scale.generate import MODELS, Size, generate

RANKING_MODELS = [RankingState, FederationRating, RankedGame, RankingChange, Placing]


class Command(BaseCommand):
    help = "Generate a federation's season of history (clubs, nights, games, hands...) by COPY."

    def add_arguments(self, parser) -> None:
        default = Size()
        parser.add_argument("--clubs", type=int, default=default.clubs)
        parser.add_argument("--nights-per-club", type=int, default=default.nights_per_club)
        parser.add_argument("--tables", type=int, default=default.tables)
        parser.add_argument("--games-per-table", type=int, default=default.games_per_table)
        parser.add_argument(
            "--events-per-club",
            type=int,
            default=default.events_per_club,
            help="tournaments per club over the year, cycling through every format (0: none)",
        )
        parser.add_argument(
            "--players-per-club",
            type=int,
            default=default.players_per_club,
            help="0: twice the seats of the club's biggest possible night",
        )
        parser.add_argument("--pool-games", type=int, default=default.pool_games)
        parser.add_argument("--seed", type=int, default=default.seed)
        parser.add_argument("--year", type=int, default=default.year)
        parser.add_argument(
            "--rankings",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="then rebuild the federation's rankings with their own job (rebuild_rankings, "
            "in batches: constant memory; about 1 ms a game); --no-rankings leaves them out",
        )

    def handle(self, *args, **options) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("generate_history loads with COPY: it needs PostgreSQL.")
        size = Size(
            clubs=options["clubs"],
            nights_per_club=options["nights_per_club"],
            tables=options["tables"],
            games_per_table=options["games_per_table"],
            events_per_club=options["events_per_club"],
            players_per_club=options["players_per_club"],
            pool_games=options["pool_games"],
            seed=options["seed"],
            year=options["year"],
        )
        for name in ("clubs", "nights_per_club", "tables", "games_per_table", "pool_games"):
            if getattr(size, name) < 1:
                raise CommandError(f"--{name.replace('_', '-')} must be at least 1.")
        if size.events_per_club < 0:
            raise CommandError("--events-per-club must be at least 0.")
        step = max(size.clubs // 20, 1)

        def progress(done: int, seconds: float) -> None:
            if done % step == 0 or done == size.clubs:
                self.stdout.write(f"  {done}/{size.clubs} clubs, {seconds:.0f} s")

        self.stdout.write(f"Generating {size.games:,} games over {size.clubs:,} clubs...")
        with transaction.atomic():
            try:
                outcome = generate(size, progress)
            except ValueError as error:  # a size the pool or the events cannot fill
                raise CommandError(str(error)) from error
            ranked = None
            if options["rankings"]:
                started = time.monotonic()
                built = rebuild_rankings(federation_id=outcome.federation_id)
                ranked = (built["rated"], time.monotonic() - started)
        self.stdout.write(
            f"Pool: {outcome.pool_games:,} games, {outcome.pool_hands:,} distinct hands "
            "(played by the computer players, checked by the engine)."
        )
        self.stdout.write(f"{'table':<34} {'loaded':>12} {'rows':>12} {'on disk':>12}")
        by_services = {model._meta.db_table for model in SERVICE_MODELS}
        for table, rows, size_bytes in table_sizes([*MODELS, *RANKING_MODELS]):
            loaded = "services" if table in by_services else f"{outcome.counts.get(table, 0):,}"
            self.stdout.write(
                f"{table:<34} {loaded:>12} {rows:>12,} {size_bytes / 1_048_576:>10.1f} MB"
            )
        self.stdout.write(f"Generated in {outcome.seconds:.1f} s.")
        if ranked is not None:
            self.stdout.write(
                f"Rankings rebuilt by their job (rebuild_rankings): {ranked[0]:,} games rated "
                f"in {ranked[1]:.1f} s."
            )
