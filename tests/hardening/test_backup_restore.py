"""Backups that restore: make backup's dump, restored into a new database, is the same data.

What it proves:
- the demo club (``load_demo``: players, games, three club nights played by the computer players,
  a tournament with its standings) dumped by ``scripts/backup.sh`` (pg_dump -Fc) and restored by
  ``scripts/restore.py`` into a new database has the same tables, each with the same row count
  and the same checksum of its contents (md5 of every row's text, in order), and the same
  sequence positions (the next id continues where the original's would);
- the restored database serves: ``manage.py shell`` pointed at it answers the tournament's
  standings read (``GET /api/tournaments/<id>/standings/``) exactly as the original did;
- the restore refuses a database that holds tables unless forced, and a name that is not a plain
  database name;
- the retention (``scripts/prune_backups.py``) keeps the newest dump of each of the last 7 days,
  5 ISO weeks and 12 months and deletes the rest.

What it does not do: measure how long a dump takes (docs/operations.md gives sizes and times).
The restored database is dropped at the end.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client

from scripts import prune_backups
from scripts.restore import Refused, restore
from tests.second_database import ROOT, database_url, drop_database, manage

TABLES = (
    "SELECT schemaname, tablename FROM pg_tables "
    "WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2"
)
SEQUENCES = (
    "SELECT schemaname, sequencename, last_value FROM pg_sequences "
    "WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2"
)
# What a standings read returns, run inside the restored database's own Django.
STANDINGS_READ = """
import json
from django.contrib.auth import get_user_model
from django.test import Client
client = Client()
client.force_login(get_user_model().objects.get(username={username!r}))
response = client.get({path!r}, HTTP_HOST="127.0.0.1")
print(json.dumps({{"status": response.status_code, "body": response.json()}}))
"""


def fingerprint(url: str) -> dict:
    """Every table's row count and contents checksum, and every sequence's position."""
    with psycopg.connect(url) as database:
        tables = database.execute(TABLES).fetchall()
        found = {}
        for schema, table in tables:
            name = f'"{schema}"."{table}"'
            found[(schema, table)] = database.execute(
                f"SELECT count(*), md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), "
                f"'')) FROM {name} AS t"
            ).fetchone()
        found["sequences"] = database.execute(SEQUENCES).fetchall()
    return found


@pytest.fixture
def restored_name():
    name = f"{connection.settings_dict['NAME']}_restored"
    yield name
    drop_database(name)


def _standings(tournament_id: int) -> dict:
    client = Client()
    client.force_login(_organiser())
    response = client.get(f"/api/tournaments/{tournament_id}/standings/", HTTP_HOST="127.0.0.1")
    return {"status": response.status_code, "body": response.json()}


def _organiser():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username="organiser")


def test_a_dump_restores_into_a_new_database_with_every_row(
    transactional_db, tmp_path, restored_name
):
    from tournaments.demo import DEMO_TOURNAMENT_NAME
    from tournaments.models import Tournament

    call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    tournament = Tournament.objects.get(name=DEMO_TOURNAMENT_NAME)
    original = _standings(tournament.pk)
    assert original["status"] == 200 and original["body"]["standings"]
    original_url = database_url(connection.settings_dict["NAME"])

    backup = subprocess.run(
        ["bash", "scripts/backup.sh"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": original_url, "BACKUP_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
    )
    (dump,) = tmp_path.glob("jink-*.dump")
    assert "kept 1 of 1 dumps" in backup.stdout
    assert not list(tmp_path.glob("*.partial"))

    restored = subprocess.run(
        [sys.executable, "scripts/restore.py", str(dump), restored_name],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": original_url},
        capture_output=True,
        text=True,
    )
    assert restored.returncode == 0, restored.stderr
    before, after = fingerprint(original_url), fingerprint(database_url(restored_name))
    assert set(after) == set(before)
    assert len(before) > 40  # every app's tables, not an empty schema
    for table in before:
        assert after[table] == before[table], table
    games = before[("public", "games_game")][0]
    hands = before[("public", "games_hand")][0]
    assert games > 5 and hands > 50

    # The restored database serves the standings read, answering as the original did.
    read = manage(
        restored_name,
        "shell",
        "-c",
        STANDINGS_READ.format(
            username="organiser", path=f"/api/tournaments/{tournament.pk}/standings/"
        ),
    )
    assert read.returncode == 0, read.stderr[-3000:]
    assert json.loads(read.stdout.strip().splitlines()[-1]) == original


def test_the_restore_refuses_a_database_with_tables(transactional_db, tmp_path, restored_name):
    from tests.clubs.factories import make_club

    make_club("refused")
    url = database_url(connection.settings_dict["NAME"])
    subprocess.run(
        ["bash", "scripts/backup.sh"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url, "BACKUP_DIR": str(tmp_path)},
        capture_output=True,
        check=True,
    )
    (dump,) = tmp_path.glob("jink-*.dump")
    restore(dump, restored_name, url=url)
    with pytest.raises(Refused, match="holds"):
        restore(dump, restored_name, url=url)
    with pytest.raises(Refused, match="DATABASE_URL"):
        restore(dump, connection.settings_dict["NAME"], url=url)
    with pytest.raises(Refused, match="plain database name"):
        restore(dump, 'x"; DROP DATABASE postgres; --', url=url)
    restore(dump, restored_name, url=url, force=True)  # told: dropped and restored again
    assert fingerprint(database_url(restored_name)) == fingerprint(url)


def test_the_retention_keeps_7_daily_5_weekly_12_monthly(tmp_path):
    # A dump every night at 02:00 for 400 days up to Friday 4 December 2026, and a second one
    # at 17:00 on three deploy days.
    last = datetime(2026, 12, 4, 2, 0)
    times = [last - timedelta(days=day) for day in range(400)]
    times += [datetime(2026, 12, 2, 17), datetime(2026, 10, 31, 17), datetime(2026, 10, 15, 17)]
    for when in times:
        (tmp_path / f"jink-{when:%Y%m%dT%H%M%SZ}.dump").write_bytes(b"")
    (tmp_path / "jink-20261204T030000Z.dump.partial").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("not a dump")

    assert prune_backups.main([str(tmp_path)]) == 0

    left = {path.name for path in tmp_path.iterdir()}
    daily = ["20261204T02", "20261203T02", "20261202T17", "20261201T02", "20261130T02"]
    daily += ["20261129T02", "20261128T02"]  # the deploy's dump is the 2nd's newest
    weekly = ["20261122T02", "20261115T02", "20261108T02"]  # Sundays; weeks 49, 48 above
    monthly = ["20261031T17", "20260930T02", "20260831T02", "20260731T02", "20260630T02"]
    monthly += ["20260531T02", "20260430T02", "20260331T02", "20260228T02", "20260131T02"]
    expected = {f"jink-{stamp}0000Z.dump" for stamp in daily + weekly + monthly}
    assert len(expected) == 20
    assert left == expected | {"jink-20261204T030000Z.dump.partial", "notes.txt"}
