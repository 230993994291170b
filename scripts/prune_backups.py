"""Retention of Jink's backups: keep 7 daily, 5 weekly and 12 monthly dumps, delete the rest.

What it does: reads the dumps ``jink-<YYYYmmddTHHMMSSZ>.dump`` in a folder (what
scripts/backup.sh writes), keeps the newest dump of each of the 7 most recent days that have one,
of each of the 5 most recent ISO weeks, and of each of the 12 most recent months (one dump may
count for all three), and deletes every other one. ``--dry-run`` prints what it would delete;
the counts are options (``--daily``, ``--weekly``, ``--monthly``).

What it does not do: touch a file of another name (a ``.partial`` dump being written, an
operator's own copy), reach the off-site copy, or check that a dump restores (the restore test,
tests/hardening/test_backup_restore.py, and the monthly restore drill of docs/operations.md do).

Terms: *period* — a day, an ISO week or a month, in UTC (the time in the file's name).

Usage: ``python scripts/prune_backups.py [--dry-run] [--daily 7] [--weekly 5] [--monthly 12]
FOLDER`` (run by ``make backup`` after each dump).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path

NAME = re.compile(r"^jink-(\d{8}T\d{6}Z)\.dump$")
DAILY, WEEKLY, MONTHLY = 7, 5, 12


def dumps_in(folder: Path) -> dict[Path, datetime]:
    """Each dump in ``folder`` and the time its name gives."""
    found = {}
    for path in folder.iterdir():
        match = NAME.match(path.name)
        if match and path.is_file():
            found[path] = datetime.strptime(match.group(1), "%Y%m%dT%H%M%SZ")
    return found


def _newest_per_period(
    times: Iterable[tuple[Path, datetime]], period: Callable[[datetime], tuple], count: int
) -> set[Path]:
    kept: set[Path] = set()
    seen: set[tuple] = set()
    for path, when in sorted(times, key=lambda item: item[1], reverse=True):
        key = period(when)
        if key in seen:
            continue
        if len(seen) == count:
            break
        seen.add(key)
        kept.add(path)
    return kept


def to_keep(
    dumps: dict[Path, datetime],
    *,
    daily: int = DAILY,
    weekly: int = WEEKLY,
    monthly: int = MONTHLY,
) -> set[Path]:
    """The dumps the retention keeps (the newest of each recent day, ISO week and month)."""
    items = list(dumps.items())
    return (
        _newest_per_period(items, lambda when: (when.year, when.month, when.day), daily)
        | _newest_per_period(items, lambda when: tuple(when.isocalendar())[:2], weekly)
        | _newest_per_period(items, lambda when: (when.year, when.month), monthly)
    )


def main(arguments: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--daily", type=int, default=DAILY)
    parser.add_argument("--weekly", type=int, default=WEEKLY)
    parser.add_argument("--monthly", type=int, default=MONTHLY)
    parser.add_argument("--dry-run", action="store_true", help="print, delete nothing")
    options = parser.parse_args(arguments)
    dumps = dumps_in(options.folder)
    kept = to_keep(dumps, daily=options.daily, weekly=options.weekly, monthly=options.monthly)
    deleted = sorted(set(dumps) - kept)
    for path in deleted:
        if options.dry_run:
            print(f"prune: would delete {path}")
        else:
            path.unlink()
            print(f"prune: deleted {path}")
    print(f"prune: kept {len(kept)} of {len(dumps)} dumps in {options.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
