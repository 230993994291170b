"""Restore a Jink backup into a new PostgreSQL database: pg_restore of a pg_dump -Fc file.

What it does: ``restore.py DUMP NAME [--force]`` creates the database ``NAME`` on the server
``DATABASE_URL`` names (its user, host and port; read from .env when unset) and restores the dump
into it with ``pg_restore`` in one transaction (``--single-transaction --exit-on-error``: a dump
that fails half-way leaves an empty database, never half a restore). A database ``NAME`` that
exists and is empty is used as it is; one that holds tables is refused (exit 3) unless
``--force``, which drops and recreates it. ``NAME`` may not be the database ``DATABASE_URL``
itself without ``--force`` either: restoring over the live database is a decision, not a typo.
At the end it prints the number of tables restored and the URL to point ``DATABASE_URL`` at.

What it does not do: stop the site or switch it to the restored database (the operator does:
docs/operations.md, "Restoring"), or run migrations (a dump carries its schema and its
``django_migrations`` rows; run ``manage.py migrate`` after a restore into a newer release).

Terms: *empty* — no table in any schema but PostgreSQL's own.

Usage: ``python scripts/restore.py backups/jink-20261204T020000Z.dump jink_restored``
(``make restore DUMP=... DB=... [FORCE=1]``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

ROOT = Path(__file__).resolve().parents[1]
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")
COUNT_TABLES = (
    "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')"
)


class Refused(Exception):
    """The restore would overwrite something it was not told to."""


def database_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url and (ROOT / ".env").exists():
        for line in (ROOT / ".env").read_text().splitlines():
            if line.startswith("DATABASE_URL="):
                url = line.split("=", 1)[1].strip().strip("\"'")
    if not url.startswith(("postgres://", "postgresql://")):
        raise SystemExit("restore: set DATABASE_URL to the PostgreSQL server to restore on")
    return url.replace("postgres://", "postgresql://", 1)


def _table_count(conninfo: str) -> int:
    with psycopg.connect(conninfo) as connection:
        return connection.execute(COUNT_TABLES).fetchone()[0]


def prepare_database(server: dict, name: str, *, force: bool) -> str:
    """Create (or, with ``force``, recreate) the empty database ``name``; its conninfo."""
    target = make_conninfo(**{**server, "dbname": name})
    maintenance = make_conninfo(**{**server, "dbname": "postgres"})
    with psycopg.connect(maintenance, autocommit=True) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if exists and not force:
            if name == server.get("dbname"):
                raise Refused(f"{name} is the database DATABASE_URL names (use --force)")
            tables = _table_count(target)
            if tables:
                raise Refused(f"{name} exists and holds {tables} tables (use --force)")
            return target
        if exists:
            connection.execute(sql.SQL("DROP DATABASE {}").format(sql.Identifier(name)))
        connection.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE template0").format(sql.Identifier(name))
        )
    return target


def restore(dump: Path, name: str, *, force: bool = False, url: str | None = None) -> str:
    """Restore ``dump`` into the database ``name``; returns its conninfo."""
    if not NAME.match(name):
        raise Refused(f"{name!r} is not a plain database name (letters, digits, _)")
    if not dump.is_file():
        raise Refused(f"{dump} is not a file")
    server = conninfo_to_dict(url or database_url())
    target = prepare_database(server, name, force=force)
    subprocess.run(
        [
            "pg_restore",
            "--no-owner",
            "--no-privileges",
            "--single-transaction",
            "--exit-on-error",
            f"--dbname={target}",
            str(dump),
        ],
        check=True,
    )
    return target


def main(arguments: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump", type=Path, help="a file written by scripts/backup.sh")
    parser.add_argument("name", help="the new database to restore into")
    parser.add_argument("--force", action="store_true", help="drop and recreate NAME")
    options = parser.parse_args(arguments)
    try:
        target = restore(options.dump, options.name, force=options.force)
    except Refused as refusal:
        print(f"restore: refused: {refusal}", file=sys.stderr)
        return 3
    except subprocess.CalledProcessError as error:
        print(f"restore: pg_restore failed ({error.returncode})", file=sys.stderr)
        return 1
    server = conninfo_to_dict(target)
    print(f"restore: {_table_count(target)} tables restored into {options.name}")
    print(
        "restore: DATABASE_URL=postgres://{user}@{host}:{port}/{dbname}".format(
            user=server.get("user", ""),
            host=server.get("host", "127.0.0.1"),
            port=server.get("port", "5432"),
            dbname=options.name,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
