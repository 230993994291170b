"""``make demo``'s database: every migration applies on SQLite, and load_demo fills it.

What it proves: the commands ``make demo`` runs (``migrate``, ``load_demo``, in the demo's
environment: debug, no DATABASE_URL or REDIS_URL, tasks in process) succeed on a new SQLite file,
and the demo club is there afterwards. The suite itself runs on PostgreSQL, so a migration written
for PostgreSQL alone (raw SQL) would otherwise break the newcomer's first command unseen.

What it does not do: serve the site (tests/web/test_load_demo.py checks the demo's content).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def _manage(database: Path, *arguments: str) -> subprocess.CompletedProcess:
    environment = os.environ | {
        "DJANGO_DEBUG": "true",
        "DJANGO_SECRET_KEY": "jink-demo-secret-not-for-production",
        "DATABASE_URL": f"sqlite:///{database}",
        "REDIS_URL": "",
        "DJANGO_HTTPS": "false",
    }
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_demo_migrates_and_loads_on_sqlite(tmp_path):
    database = tmp_path / "demo.sqlite3"
    migrated = _manage(database, "migrate", "--noinput")
    assert migrated.returncode == 0, migrated.stderr[-3000:]
    loaded = _manage(database, "load_demo")
    assert loaded.returncode == 0, loaded.stderr[-3000:]
    assert "Demo ready" in loaded.stdout
    with sqlite3.connect(database) as connection:
        (name,) = connection.execute(
            "SELECT name FROM clubs_club WHERE slug = 'hole-in-the-wall'"
        ).fetchone()
        (applied,) = connection.execute(
            "SELECT count(*) FROM django_migrations"
            " WHERE app = 'hall' AND name = '0002_night_halls'"
        ).fetchone()
    assert (name, applied) == ("The Hole in the Wall", 1)
