"""A second PostgreSQL database beside the test database, and ``manage.py`` run against it.

What it does: ``database_url(name)`` is the URL of database ``name`` on the test database's
server; ``drop_database(name)`` drops it (``WITH (FORCE)``: a subprocess left connected does not
stop it); ``second_database(stem)`` creates an empty database with a unique name
(``<test database>_<stem>_<8 hex>``), yields its name and drops it afterwards, even when the test
failed; ``manage(name, *args)`` runs ``manage.py`` in a subprocess whose ``DATABASE_URL`` is that
database (the test environment's settings otherwise: no ``.env`` file, host 127.0.0.1) and
returns the finished process. Used by tests/hardening/test_backup_restore.py (a restored dump)
and tests/exchange/test_two_databases.py (the exchange round trip between two sites).

What it does not do: migrate (run ``manage(name, "migrate")``) or check the process's status
(the tests assert it, with its stderr).
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def database_url(name: str) -> str:
    database = connection.settings_dict
    return (
        f"postgresql://{database['USER'] or 'postgres'}@{database['HOST'] or '127.0.0.1'}:"
        f"{database['PORT'] or 5432}/{name}"
    )


def drop_database(name: str) -> None:
    with psycopg.connect(database_url("postgres"), autocommit=True) as server:
        server.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def second_database(stem: str) -> Iterator[str]:
    name = f"{connection.settings_dict['NAME']}_{stem}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(database_url("postgres"), autocommit=True) as server:
        server.execute(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        drop_database(name)


def manage(name: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={
            **os.environ,
            "DATABASE_URL": database_url(name),
            "DJANGO_ENV_FILE": "",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        },
        capture_output=True,
        text=True,
    )
