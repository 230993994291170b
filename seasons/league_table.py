"""A club's season table: per player over a date range — games, wins, points, net stakes — stored
as a snapshot by a job and read from it.

What it does:
- ``season_range(year=None)``: the default range, a calendar year (this one by default).
- ``data_stamp(club_id, date_from, date_to)``: one aggregate query saying what the table would be
  computed from (the finished games of the range and the sum of their versions).
- ``compute_season_rows``: the table from the rows (two queries however many games).
- ``refresh_season(club_id, date_from, date_to)``: the job: under a PostgreSQL advisory lock per
  club and range, recompute and store a new snapshot version unless the stored one already has
  the current stamp (a duplicate or late message stores nothing); goes round again while the
  stamp moved during the computation.
- ``read_season``: the snapshot for the API and the club page with ``stale``; the first read of a
  range computes and stores it.

What it does not do: rank by anything else than wins, then points, then name; count unfinished
games. A game belongs to the day it was created (UTC).

Terms: *points* — the final total of the player's side in each game; *net stakes* — the player's
ledger over the games (minor units; + received).
"""

from __future__ import annotations

import datetime
from collections import defaultdict

from django.db import connection, transaction
from django.db.models import Count, Sum
from django.utils import timezone

from clubs.models import Club, Player
from games.models import Game, GameSeat, GameStatus, LedgerEntry
from games.money import amount_string
from seasons.models import SeasonSnapshot

ADVISORY_LOCK_CLASS = 0x5345  # "SE": season tables; the second key mixes the club and range
MAX_ROUNDS = 5


def season_range(year: int | None = None) -> tuple[datetime.date, datetime.date]:
    year = year or timezone.now().year
    return datetime.date(year, 1, 1), datetime.date(year, 12, 31)


def _games(club_id: int, date_from: datetime.date, date_to: datetime.date):
    start = datetime.datetime.combine(date_from, datetime.time.min, tzinfo=datetime.UTC)
    end = datetime.datetime.combine(
        date_to + datetime.timedelta(days=1), datetime.time.min, tzinfo=datetime.UTC
    )
    return Game.objects.filter(
        club_id=club_id, status=GameStatus.FINISHED, created_at__gte=start, created_at__lt=end
    )


def data_stamp(club_id: int, date_from: datetime.date, date_to: datetime.date) -> str:
    totals = _games(club_id, date_from, date_to).aggregate(
        games=Count("pk"), versions=Sum("version")
    )
    return f"{totals['games']}:{totals['versions'] or 0}"


def compute_season_rows(
    club_id: int, date_from: datetime.date, date_to: datetime.date
) -> list[dict]:
    games = _games(club_id, date_from, date_to)
    tally: dict[int, dict] = defaultdict(lambda: {"games": 0, "wins": 0, "points": 0})
    seats = GameSeat.objects.filter(game__in=games).values_list(
        "player_id", "side", "game__winner_side", "game__totals"
    )
    for player_id, side, winner_side, totals in seats.iterator(chunk_size=5000):
        line = tally[player_id]
        line["games"] += 1
        line["wins"] += 1 if side == winner_side else 0
        line["points"] += totals[side] if side < len(totals) else 0
    stakes = dict(
        LedgerEntry.objects.filter(game__in=games)
        .order_by()
        .values_list("player_id")
        .annotate(net=Sum("amount_minor"))
        .values_list("player_id", "net")
    )
    names = dict(Player.objects.filter(pk__in=list(tally)).values_list("pk", "display_name"))
    ordered = sorted(
        tally.items(),
        key=lambda item: (-item[1]["wins"], -item[1]["points"], names[item[0]].lower(), item[0]),
    )
    rows = []
    for index, (player_id, line) in enumerate(ordered):
        previous = rows[-1] if rows else None
        tied = previous is not None and (previous["wins"], previous["points"]) == (
            line["wins"],
            line["points"],
        )
        rows.append(
            {
                "rank": previous["rank"] if tied else index + 1,
                "player": {"id": player_id, "name": names[player_id]},
                **line,
                "net_stakes_minor": stakes.get(player_id, 0),
            }
        )
    return rows


def _lock_key(club_id: int, date_from: datetime.date, date_to: datetime.date) -> int:
    # A 32-bit key from the club and the range (collisions only make two tables wait in turn).
    return (club_id * 1_000_003 + date_from.toordinal() * 31 + date_to.toordinal()) % (2**31)


def _try_lock(key: int) -> bool:
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", [ADVISORY_LOCK_CLASS, key])
        return bool(cursor.fetchone()[0])


def _refresh_once(club_id: int, date_from: datetime.date, date_to: datetime.date) -> str:
    with transaction.atomic():
        if not _try_lock(_lock_key(club_id, date_from, date_to)):
            return "busy"
        stamp = data_stamp(club_id, date_from, date_to)
        snapshot = SeasonSnapshot.objects.filter(
            club_id=club_id, date_from=date_from, date_to=date_to
        ).first()
        if snapshot is not None and snapshot.data_stamp == stamp:
            return "current"
        rows = compute_season_rows(club_id, date_from, date_to)
        if snapshot is None:
            SeasonSnapshot.objects.create(
                club_id=club_id,
                date_from=date_from,
                date_to=date_to,
                data_stamp=stamp,
                rows=rows,
                computed_at=timezone.now(),
            )
        else:
            snapshot.version += 1
            snapshot.data_stamp = stamp
            snapshot.rows = rows
            snapshot.computed_at = timezone.now()
            snapshot.save()
        return "stored"


def refresh_season(*, club_id: int, date_from: datetime.date, date_to: datetime.date) -> dict:
    """Bring the club's table of the range up to its data; ``{"stored": n, "outcome"}``."""
    stored = 0
    outcome = "current"
    for _ in range(MAX_ROUNDS):
        outcome = _refresh_once(club_id, date_from, date_to)
        if outcome != "stored":
            break
        stored += 1
    return {"club": club_id, "stored": stored, "outcome": outcome}


def read_season(
    club: Club, date_from: datetime.date | None = None, date_to: datetime.date | None = None
) -> dict:
    """``{"date_from", "date_to", "version", "stale", "computed_at", "rows", "etag"}``."""
    if date_from is None or date_to is None:
        date_from, date_to = season_range()
    snapshot = SeasonSnapshot.objects.filter(
        club=club, date_from=date_from, date_to=date_to
    ).first()
    if snapshot is None:
        refresh_season(club_id=club.pk, date_from=date_from, date_to=date_to)
        snapshot = SeasonSnapshot.objects.get(club=club, date_from=date_from, date_to=date_to)
    return {
        "club": club.slug,
        "date_from": date_from,
        "date_to": date_to,
        "version": snapshot.version,
        "stale": snapshot.data_stamp != data_stamp(club.pk, date_from, date_to),
        "computed_at": snapshot.computed_at,
        "rows": [
            {**row, "net_stakes": amount_string(row["net_stakes_minor"], club)}
            for row in snapshot.rows
        ],
        "etag": f'"season{club.pk}-{date_from}-{date_to}-{snapshot.version}"',
    }


def ranges_touched(club_id: int, created_at: datetime.datetime) -> list[tuple]:
    """The stored ranges of the club a game of ``created_at`` belongs to, and its default year."""
    day = created_at.astimezone(datetime.UTC).date()
    stored = list(
        SeasonSnapshot.objects.filter(
            club_id=club_id, date_from__lte=day, date_to__gte=day
        ).values_list("date_from", "date_to")
    )
    default = season_range(day.year)
    return sorted(set(stored) | {default})


def list_stale_seasons() -> list[tuple[int, datetime.date, datetime.date]]:
    """Every stored table whose stamp moved (for the sweep): one aggregate query each."""
    return [
        (club_id, date_from, date_to)
        for club_id, date_from, date_to, stamp in SeasonSnapshot.objects.values_list(
            "club_id", "date_from", "date_to", "data_stamp"
        )
        if stamp != data_stamp(club_id, date_from, date_to)
    ]


def oldest_stale_age() -> float | None:
    """Seconds since the oldest stale season table was computed (None: none stale), for
    ``/health/workers/``: one aggregate query per stored table, like the sweep."""
    stale = [
        computed_at
        for club_id, date_from, date_to, stamp, computed_at in SeasonSnapshot.objects.values_list(
            "club_id", "date_from", "date_to", "data_stamp", "computed_at"
        )
        if stamp != data_stamp(club_id, date_from, date_to)
    ]
    if not stale:
        return None
    return (timezone.now() - min(stale)).total_seconds()
