"""The levy: exact player-session counts per member club, the money owed, the CSV and the period.

What it checks: a player-session is one (player, day in the club's time zone) with a seat in a
night's or an event's game with a hand recorded; games outside nights and events, games without
a hand, days outside the period and time outside the membership (before ``accepted_at``, from
``left_at`` on) do not count; a club that re-joined counts both spells; the levy is sessions ×
rate, written by ``amount_string``; bad periods are refused with the codes of the catalogue.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest

from config.problems import Problem
from federations.levy import csv_text, levy_report, parse_period, report_as_dict
from tests.clubs.factories import make_club, make_player
from tests.federations.factories import make_federation, make_member
from tests.federations.levy_helpers import event_game, lone_game, night_game

pytestmark = pytest.mark.django_db

DUBLIN = zoneinfo.ZoneInfo("Europe/Dublin")
HALIFAX = zoneinfo.ZoneInfo("America/Halifax")


def at(day: int, hour: int, zone=DUBLIN, month: int = 3) -> dt.datetime:
    return dt.datetime(2026, month, day, hour, 0, tzinfo=zone)


@pytest.fixture
def county():
    federation = make_federation(levy_rate_minor=35)  # €0.35 a player-session
    kilkenny = make_club("kilkenny")
    halifax = make_club("halifax", time_zone="America/Halifax", currency="CAD")
    make_member(federation, kilkenny, accepted_at=at(1, 0))
    make_member(federation, halifax, accepted_at=at(1, 0, HALIFAX))
    k = [make_player(kilkenny, name) for name in ("Ann", "Brid", "Con", "Dan", "Eoin")]
    h = [make_player(halifax, name) for name in ("Fay", "Gus", "Hal")]
    return federation, kilkenny, halifax, k, h


def test_sessions_are_distinct_players_per_day_at_nights_and_events(county):
    federation, kilkenny, halifax, k, h = county
    # Tuesday 3rd: two night games; Ann plays both (one session), 4 players -> 4 sessions.
    night_game(kilkenny, k[0:2], at(3, 20))
    night_game(kilkenny, [k[0], k[2], k[3]], at(3, 21))
    # Friday 6th: an event game; Ann again (a new day, a new session) and Eoin -> 2 sessions.
    event_game(kilkenny, [k[0], k[4]], at(6, 20))
    # Not counted: a game outside any night or event, and a night game with no hand recorded.
    lone_game(kilkenny, [k[1], k[4]], at(7, 20))
    night_game(kilkenny, [k[1], k[4]], at(7, 21), hands=0)
    # Halifax: 23:30 local on the 9th is the 10th in UTC, still the 9th for the club; with the
    # next morning's game the same players make 2 + 2 sessions (two local days).
    night_game(halifax, h[0:2], at(9, 23) + dt.timedelta(minutes=30))
    night_game(halifax, h[0:2], dt.datetime(2026, 3, 10, 10, 0, tzinfo=HALIFAX))
    report = levy_report(federation, dt.date(2026, 3, 1), dt.date(2026, 3, 31))
    rows = {row.club_slug: (row.sessions, row.levy_minor) for row in report.rows}
    assert rows == {"halifax": (4, 140), "kilkenny": (6, 210)}
    assert (report.total_sessions, report.total_levy_minor) == (10, 350)


def test_only_the_period_and_the_time_as_a_member_count(county):
    federation, kilkenny, halifax, k, h = county
    membership = kilkenny.federation_memberships.get()
    membership.left_at = at(20, 12)
    membership.save()
    night_game(kilkenny, k[0:2], at(2, 20))  # outside the period asked below
    night_game(kilkenny, k[0:3], at(5, 20))  # counted: 3
    night_game(kilkenny, k[0:2], at(20, 11))  # counted: 2 (before leaving at noon)
    night_game(kilkenny, k[2:4], at(20, 13))  # after leaving: not counted
    make_member(federation, kilkenny, invited_at=at(25, 9), accepted_at=at(25, 10))
    night_game(kilkenny, k[3:5], at(25, 9))  # re-invited, not yet accepted: not counted
    night_game(kilkenny, k[0:1], at(25, 20))  # the second spell: 1
    report = levy_report(federation, dt.date(2026, 3, 3), dt.date(2026, 3, 31))
    kilkenny_row = next(row for row in report.rows if row.club_slug == "kilkenny")
    assert kilkenny_row.sessions == 6
    assert kilkenny_row.levy_minor == 6 * 35


def test_a_club_not_a_member_in_the_period_is_not_listed(county):
    federation, kilkenny, halifax, k, h = county
    night_game(kilkenny, k[0:2], at(3, 20))
    report = levy_report(federation, dt.date(2026, 2, 1), dt.date(2026, 2, 28))
    assert report.rows == []
    assert report_as_dict(report)["total_levy"] == "0.00"


def test_the_csv_has_the_same_numbers_as_the_report(county):
    federation, kilkenny, halifax, k, h = county
    night_game(kilkenny, k[0:3], at(3, 20))
    report = levy_report(federation, dt.date(2026, 3, 1), dt.date(2026, 3, 31))
    assert csv_text(report).splitlines() == [
        "club,club_slug,date_from,date_to,player_sessions,rate,levy,currency",
        "Halifax,halifax,2026-03-01,2026-03-31,0,0.35,0.00,EUR",
        "Kilkenny,kilkenny,2026-03-01,2026-03-31,3,0.35,1.05,EUR",
    ]
    data = report_as_dict(report)
    assert [(c["club"], c["player_sessions"], c["levy"]) for c in data["clubs"]] == [
        ("halifax", 0, "0.00"),
        ("kilkenny", 3, "1.05"),
    ]
    assert (data["total_player_sessions"], data["total_levy"]) == (3, "1.05")


@pytest.mark.parametrize(
    ("date_from", "date_to", "code", "pointer"),
    [
        ("March", None, "invalid_date", "/from"),
        (None, "2026-02-30", "invalid_date", "/to"),
        ("2026-03-10", "2026-03-09", "invalid_range", "/to"),
        ("2000-01-01", "2026-03-09", "invalid_range", "/to"),
    ],
)
def test_a_bad_period_is_refused(date_from, date_to, code, pointer):
    with pytest.raises(Problem) as refused:
        parse_period(date_from, date_to, today=dt.date(2026, 3, 15))
    assert (refused.value.code, refused.value.errors[0]["pointer"]) == (code, pointer)


def test_the_default_period_is_the_month_so_far():
    assert parse_period(None, "", today=dt.date(2026, 3, 15)) == (
        dt.date(2026, 3, 1),
        dt.date(2026, 3, 15),
    )


def test_the_report_reads_the_memberships_once_and_each_club_once(
    county, django_assert_num_queries
):
    federation, kilkenny, halifax, k, h = county
    night_game(kilkenny, k[0:2], at(3, 20))
    with django_assert_num_queries(3):  # the memberships with their clubs, then one per club
        levy_report(federation, dt.date(2026, 3, 1), dt.date(2026, 3, 31))
