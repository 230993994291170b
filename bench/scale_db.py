"""The scale bench's generated database: a federation's season in PostgreSQL, kept between runs.

What it does: ``ensure_generated()`` returns the URL of a database named after its size,
``jink_scale_c{clubs}_n{nights}_t{tables}_g{games}_y{year}`` (plus ``_r`` when the federation's
rankings were rebuilt in it; the season is last year's, every night of it in the past),
on the server of ``DATABASE_URL`` (else 127.0.0.1:5432). When no complete one exists it drops
any half-built one, creates it, and runs ``manage.py migrate`` then ``manage.py
generate_history`` in subprocesses pointed at it; once both succeeded it marks the database
complete with ``COMMENT ON DATABASE`` (so a run killed half-way is rebuilt, never read).
``server_options()`` says how to reach the server, or why it cannot be reached.

Size, from the environment (generate_history's defaults otherwise, except the clubs):
``JINK_BENCH_SCALE_CLUBS`` (20: about 20,000 games and 216,000 hands, so that the hands and
games tables are past the 100,000 rows where a full read fails the bench; the full size of issue
27 is 1000), ``JINK_BENCH_SCALE_NIGHTS`` (nights per club, 50), ``JINK_BENCH_SCALE_TABLES`` (10),
``JINK_BENCH_SCALE_GAMES`` (games per table, 2), ``JINK_BENCH_SCALE_RANKINGS`` (1 to rebuild the
federation's rankings after generating: on by default up to 50 clubs, since that rebuild holds
every game in memory, docs/operations.md).

What it does not do: measure anything, or remove the database (it is kept on purpose: building it
takes about a minute at the default size; drop it with ``DROP DATABASE`` to rebuild).
"""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
COMPLETE = "jink scale bench: generated completely"


def size_from_environment() -> dict:
    clubs = int(os.environ.get("JINK_BENCH_SCALE_CLUBS", "20"))
    rankings_default = "1" if clubs <= 50 else "0"
    return {
        "clubs": clubs,
        "nights_per_club": int(os.environ.get("JINK_BENCH_SCALE_NIGHTS", "50")),
        "tables": int(os.environ.get("JINK_BENCH_SCALE_TABLES", "10")),
        "games_per_table": int(os.environ.get("JINK_BENCH_SCALE_GAMES", "2")),
        "rankings": os.environ.get("JINK_BENCH_SCALE_RANKINGS", rankings_default) == "1",
        # Last year's season: a whole season, every night in the past. With this year's, the
        # nights still to come are "finished" games later than any played now, so each game
        # finished by the bench re-rated its club from there on (seasons.ratings: a game that
        # finishes before the last one rated) — a generator artefact, not what a club meets.
        "year": datetime.datetime.now(datetime.UTC).year - 1,
    }


def database_name(size: dict) -> str:
    name = (
        f"jink_scale_c{size['clubs']}_n{size['nights_per_club']}_t{size['tables']}"
        f"_g{size['games_per_table']}_y{size['year']}"
    )
    return name + ("_r" if size["rankings"] else "")


def server_options() -> tuple[dict | None, str]:
    """(psycopg connection options for the server's ``postgres`` database, or None; why not)."""
    server = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
    parts = urlsplit(server)
    if not parts.scheme.startswith("postgres"):
        return None, f"DATABASE_URL is not PostgreSQL ({parts.scheme})"
    options = {
        "host": parts.hostname or "127.0.0.1",
        "port": parts.port or 5432,
        "user": parts.username or "postgres",
        "password": parts.password or None,
        "dbname": "postgres",
        "connect_timeout": 3,
        "autocommit": True,
    }
    try:
        import psycopg

        with psycopg.connect(**options) as connection:
            connection.execute("SELECT 1")
    except Exception as error:  # no server, no rights, no driver
        return None, f"PostgreSQL not usable ({type(error).__name__}: {error})"
    return options, ""


def url_of(options: dict, name: str) -> str:
    credentials = options["user"] + (f":{options['password']}" if options["password"] else "")
    return f"postgres://{credentials}@{options['host']}:{options['port']}/{name}"


def _is_complete(connection, name: str) -> bool | None:
    """True: complete; False: exists, not complete; None: absent."""
    row = connection.execute(
        "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
        [name],
    ).fetchone()
    if row is None:
        return None
    return row[0] == COMPLETE


def _environment(url: str) -> dict:
    environment = dict(os.environ)
    environment.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_DEBUG="false",
        DJANGO_ENV_FILE="",
        DJANGO_HTTPS="false",
        REDIS_URL="",
        PYTHONPATH=str(ROOT),
    )
    environment.setdefault("DJANGO_SECRET_KEY", "jink-bench-secret-not-for-production")
    return environment


def ensure_generated(options: dict, size: dict | None = None) -> tuple[str, str, float]:
    """(URL of the complete generated database, its name, seconds spent building it: 0 if kept).

    Two runs at once (two benches, or a bench and a test of a part) do not build it twice or
    read it half-built: the check and the build hold a PostgreSQL advisory lock on the name."""
    import psycopg

    size = size or size_from_environment()
    name = database_name(size)
    with psycopg.connect(**options) as lock:
        lock.execute("SELECT pg_advisory_lock(hashtext(%s))", [name])
        try:
            return _ensure(options, size, name)
        finally:
            lock.execute("SELECT pg_advisory_unlock(hashtext(%s))", [name])


def _ensure(options: dict, size: dict, name: str) -> tuple[str, str, float]:
    import psycopg

    with psycopg.connect(**options) as connection:
        state = _is_complete(connection, name)
        if state:
            return url_of(options, name), name, 0.0
        if state is False:
            print(f"{name} exists but is not complete (a run stopped half-way): rebuilding it")
            connection.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    url = url_of(options, name)
    environment = _environment(url)
    started = time.monotonic()
    print(f"building {name} (kept for the next runs): migrate, then generate_history")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=environment,
        check=True,
    )
    command = [
        sys.executable,
        "manage.py",
        "generate_history",
        f"--clubs={size['clubs']}",
        f"--nights-per-club={size['nights_per_club']}",
        f"--tables={size['tables']}",
        f"--games-per-table={size['games_per_table']}",
        f"--year={size['year']}",
    ]
    if size["rankings"]:
        command.append("--rankings")
    subprocess.run(command, cwd=ROOT, env=environment, check=True)
    with psycopg.connect(**{**options, "dbname": name}) as connection:
        # Fresh statistics, as autovacuum would leave them, so the plans are the real ones.
        connection.execute("VACUUM ANALYZE")
    with psycopg.connect(**options) as connection:
        connection.execute(f"COMMENT ON DATABASE \"{name}\" IS '{COMPLETE}'")
    return url, name, time.monotonic() - started


def main() -> None:
    options, why = server_options()
    if options is None:
        sys.exit(why)
    url, name, seconds = ensure_generated(options)
    print(f"{name}: {f'built in {seconds:.0f} s' if seconds else 'kept'}; {url}")


if __name__ == "__main__":
    main()
