"""A league's fixtures as an iCalendar feed (RFC 5545), written by hand.

What it does: ``fixtures_calendar`` writes a ``VCALENDAR`` with one all-day ``VEVENT`` per
fixture: ``UID`` ``league-fixture-<id>@<host>`` (stable: a calendar app updates the event when
the fixture moves), ``DTSTAMP`` (when the feed was written, UTC), ``DTSTART``/``DTEND`` (the day,
``VALUE=DATE``), ``SUMMARY`` ("Home v Away"), ``LOCATION`` (the home club), ``DESCRIPTION``
(the league, the round, the status and the score once there is one) and ``SEQUENCE`` (1 once
postponed, so calendar apps take the new date). Text is escaped (backslash, semicolon, comma,
new line), every line ends with CRLF and a line longer than 75 octets is folded (CRLF and a
space), never inside a UTF-8 character.

What it does not do: choose the fixtures (``leagues.selectors.list_fixtures``: a team's or a
club's) or serve them (``web/leagues``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.models import Fixture

LINE_OCTETS = 75


def escape_text(value: str) -> str:
    return (
        value.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
    )


def fold(line: str) -> str:
    """One content line, folded at 75 octets (continuations start with a space)."""
    parts, current, size = [], "", 0
    for char in line:
        width = len(char.encode())
        limit = LINE_OCTETS if not parts else LINE_OCTETS - 1
        if size + width > limit:
            parts.append(current)
            current, size = "", 0
        current += char
        size += width
    parts.append(current)
    return "\r\n ".join(parts)


def _description(fixture: Fixture) -> str:
    lines = [
        fixture.league.name,
        _("Round %(number)s") % {"number": fixture.round},
        str(fixture.get_status_display()),
    ]
    if fixture.home_score is not None:
        lines.append(f"{fixture.home_score}–{fixture.away_score}")
    return "\n".join(lines)


def fixtures_calendar(
    fixtures: Iterable[Fixture], *, name: str, host: str, now: datetime | None = None
) -> str:
    """The feed's text (CRLF line endings) for ``fixtures``, named ``name``."""
    stamp = (now or timezone.now()).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Jink//Leagues//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape_text(name)}",
    ]
    for fixture in fixtures:
        summary = f"{fixture.home.name} v {fixture.away.name}"
        lines += [
            "BEGIN:VEVENT",
            f"UID:league-fixture-{fixture.pk}@{host}",
            f"DTSTAMP:{stamp}",
            f"DTSTART;VALUE=DATE:{fixture.date:%Y%m%d}",
            f"DTEND;VALUE=DATE:{fixture.date + timedelta(days=1):%Y%m%d}",
            f"SUMMARY:{escape_text(summary)}",
            f"LOCATION:{escape_text(fixture.home.club.name)}",
            f"DESCRIPTION:{escape_text(_description(fixture))}",
            f"SEQUENCE:{1 if fixture.original_date else 0}",
            "STATUS:CONFIRMED",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)
