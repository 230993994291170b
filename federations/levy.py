"""The levy: player-sessions per member club over a period, and what each club owes for them.

What it does: ``levy_report(federation, date_from, date_to)`` counts, for every club that was a
member of the federation at some moment of the period, its *player-sessions* while a member, and
the levy it owes (``sessions × federation.levy_rate_minor``); ``csv_text`` writes the same rows as
CSV, amounts by ``games.money.amount_string``. The page, the CSV and the API all read this one
report.

What it does not do: store anything, bill or mark anything paid, or count a club's games outside
its nights and events (a stand-alone game is no session of the club's).

Terms (docs/federations.md, "The levy"):
- *player-session*: a distinct pair (club player, day) such that the player holds a seat in at
  least one *counted game* of the club begun on that day; the day is the game's ``created_at`` in
  the club's time zone.
- *counted game*: a game of the club that belongs to one of its club nights (``NightGame``) or to
  a match of one of its events (``MatchGame``), with at least one hand recorded
  (``hands_played >= 1``), begun (``created_at``) while the club was a member — from
  ``accepted_at`` (included) to ``left_at`` (excluded) of any of its memberships — and on a day
  from ``date_from`` to ``date_to`` (both included) in the club's time zone.
- *period*: ``date_from`` to ``date_to``, dates, both included.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zoneinfo
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q
from django.db.models.functions import TruncDate
from django.utils.translation import gettext as _

from clubs.models import CURRENCY_MINOR_UNIT_EXPONENTS
from config.problems import Problem
from federations.models import Federation, FederationMembership
from games.models import GameSeat
from games.money import InvalidAmount, amount_string, decimal_string_to_minor
from settlements.models import NightGame

MAX_PERIOD_DAYS = 3660


@dataclass(frozen=True)
class LevyRow:
    club_id: int
    club_name: str
    club_slug: str
    sessions: int
    levy_minor: int


@dataclass(frozen=True)
class LevyReport:
    federation: Federation
    date_from: dt.date
    date_to: dt.date
    rows: list[LevyRow]

    @property
    def total_sessions(self) -> int:
        return sum(row.sessions for row in self.rows)

    @property
    def total_levy_minor(self) -> int:
        return sum(row.levy_minor for row in self.rows)


def _windows(memberships, start: dt.datetime, end: dt.datetime) -> list[tuple]:
    """Each membership's member time cut to [start, end); empty ones left out."""
    windows = []
    for membership in memberships:
        low = max(membership.accepted_at, start)
        high = min(membership.left_at or end, end)
        if low < high:
            windows.append((low, high))
    return windows


def count_sessions(club, windows: list[tuple]) -> int:
    """The club's player-sessions in games begun inside the windows (one query)."""
    if not windows:
        return 0
    inside = Q()
    for low, high in windows:
        inside |= Q(game__created_at__gte=low, game__created_at__lt=high)
    in_night = Exists(NightGame.objects.filter(game_id=OuterRef("game_id")))
    return (
        GameSeat.objects.filter(inside, game__club=club, game__hands_played__gte=1)
        .filter(in_night | Q(game__match_link__isnull=False))
        .annotate(day=TruncDate("game__created_at", tzinfo=zoneinfo.ZoneInfo(club.time_zone)))
        .values("player_id", "day")
        .distinct()
        .count()
    )


def levy_report(federation: Federation, date_from: dt.date, date_to: dt.date) -> LevyReport:
    """Every club that was a member during the period, by name, with its sessions and levy."""
    memberships = list(
        FederationMembership.objects.filter(federation=federation, accepted_at__isnull=False)
        .select_related("club")
        .order_by("club__name", "club_id", "accepted_at")
    )
    by_club: dict[int, list] = {}
    for membership in memberships:
        by_club.setdefault(membership.club_id, []).append(membership)
    rows = []
    for spells in by_club.values():
        club = spells[0].club
        zone = zoneinfo.ZoneInfo(club.time_zone)
        start = dt.datetime.combine(date_from, dt.time.min, tzinfo=zone)
        end = dt.datetime.combine(date_to + dt.timedelta(days=1), dt.time.min, tzinfo=zone)
        windows = _windows(spells, start, end)
        if not windows:
            continue
        sessions = count_sessions(club, windows)
        rows.append(
            LevyRow(
                club_id=club.pk,
                club_name=club.name,
                club_slug=club.slug,
                sessions=sessions,
                levy_minor=sessions * federation.levy_rate_minor,
            )
        )
    return LevyReport(federation=federation, date_from=date_from, date_to=date_to, rows=rows)


CSV_HEADER = [
    "club",
    "club_slug",
    "date_from",
    "date_to",
    "player_sessions",
    "rate",
    "levy",
    "currency",
]


def csv_text(report: LevyReport) -> str:
    """The report as CSV: one line per club, amounts as decimal strings (``amount_string``)."""
    federation = report.federation
    rate = amount_string(federation.levy_rate_minor, federation)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for row in report.rows:
        writer.writerow(
            [
                row.club_name,
                row.club_slug,
                report.date_from.isoformat(),
                report.date_to.isoformat(),
                row.sessions,
                rate,
                amount_string(row.levy_minor, federation),
                federation.currency,
            ]
        )
    return buffer.getvalue()


def report_as_dict(report: LevyReport) -> dict:
    """The report as the API writes it (amounts by ``amount_string``)."""
    federation = report.federation
    return {
        "federation": federation.slug,
        "date_from": report.date_from.isoformat(),
        "date_to": report.date_to.isoformat(),
        "currency": federation.currency,
        "rate": amount_string(federation.levy_rate_minor, federation),
        "clubs": [
            {
                "club": row.club_slug,
                "name": row.club_name,
                "player_sessions": row.sessions,
                "levy": amount_string(row.levy_minor, federation),
            }
            for row in report.rows
        ],
        "total_player_sessions": report.total_sessions,
        "total_levy": amount_string(report.total_levy_minor, federation),
    }


def parse_period(date_from: str | None, date_to: str | None, *, today: dt.date) -> tuple:
    """The period from query text ("YYYY-MM-DD"); by default the month of ``today`` up to it.
    Refused: ``invalid_date`` (not a date), ``invalid_range`` (ends before it starts, or longer
    than ``MAX_PERIOD_DAYS``)."""
    dates = []
    for name, text, default in (
        ("from", date_from, today.replace(day=1)),
        ("to", date_to, today),
    ):
        if not text:
            dates.append(default)
            continue
        try:
            dates.append(dt.date.fromisoformat(text))
        except ValueError:
            raise Problem(
                code="invalid_date",
                detail=_("%(name)s: not a date (YYYY-MM-DD).") % {"name": name},
                pointer=f"/{name}",
            ) from None
    start, end = dates
    if end < start or (end - start).days > MAX_PERIOD_DAYS:
        raise Problem(
            code="invalid_range",
            detail=_("The period must end on or after its first day, within ten years."),
            pointer="/to",
        )
    return start, end


def parse_rate(text: str, currency: str, pointer: str = "/levy_rate") -> int:
    """A levy rate typed as a decimal string in ``currency`` ("0.50") in minor units; refused
    with ``invalid_amount`` otherwise (the API and the pages read a rate through here)."""
    try:
        return decimal_string_to_minor(text.strip(), CURRENCY_MINOR_UNIT_EXPONENTS[currency])
    except (InvalidAmount, KeyError) as error:
        raise Problem(code="invalid_amount", detail=str(error), pointer=pointer) from None
