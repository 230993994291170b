"""Real processes for the fault and load tests: a Redis of the test's own, Celery workers.

What it gives: ``PrivateRedis`` (a ``redis-server`` on a free port, no persistence, that a test
may SIGSTOP, SIGCONT, kill -9 and start again on the same port), ``start_worker`` (``celery -A
config worker`` with embedded beat, in a process group of its own, on the test's Redis and the
test database: the name pytest-django gave it, read from the settings during the test),
``start_gunicorn`` (the web processes, on the test database or another URL, e.g. through
``PgBouncer``: Debian's ``pgbouncer`` on a free port in front of the test's PostgreSQL, in
transaction mode, with ``show`` reading its admin console through ``psql``).

What it does not do: skip anything (the tests that use it need PostgreSQL and Redis installed;
``redis-server`` is Debian's, installed with Redis).
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.helpers import free_port

ROOT = Path(__file__).resolve().parents[2]
CELERY = str(Path(sys.executable).with_name("celery"))


def wait_for_port(port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing answers on port {port}")


class PrivateRedis:
    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--loglevel",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port)

    def signal(self, number: int) -> None:
        assert self.process is not None
        self.process.send_signal(number)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


def database_url() -> str:
    """The test database, as a URL for another process (pytest-django renamed it)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    user = database.get("USER") or "postgres"
    host = database.get("HOST") or "127.0.0.1"
    port = database.get("PORT") or 5432
    return f"postgres://{user}@{host}:{port}/{database['NAME']}"


def stack_environment(redis_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url(),
        REDIS_URL=redis_url,
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_ENV_FILE="",
        DJANGO_HTTPS="false",
        DJANGO_DEBUG="false",
        PYTHONPATH=str(ROOT),
    )
    env.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-" + "x" * 40)
    return env


def start_worker(redis_url: str, folder: Path, *, beat: bool = True, name: str = "w"):
    arguments = [
        CELERY,
        "-A",
        "config",
        "worker",
        "--pool=solo",
        "--loglevel=WARNING",
        "--without-gossip",
        "--without-mingle",
        "-n",
        f"{name}@%h",
        # The default queue and its standings lane (config.settings' router), as make serve.
        "-Q",
        "{0},{0}.standings".format(stack_environment(redis_url).get("JINK_CELERY_QUEUE", "celery")),
    ]
    if beat:
        arguments += ["-B", "-s", str(folder / f"beat-{name}")]
    log = open(folder / f"worker-{name}.log", "w")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(
        arguments,
        cwd=ROOT,
        env=stack_environment(redis_url),
        stdout=log,
        stderr=log,
        start_new_session=True,
    )


def kill_group(process: subprocess.Popen, number: int = signal.SIGTERM) -> None:
    """Signal the process group; after SIGTERM (a clean stop that closes database connections,
    so the test database can be dropped) wait, then SIGKILL what is left."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, number)
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=15)
    except ProcessLookupError:
        pass


GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
# The sizing docs/operations.md explains: on 2 cores, 3 processes of 4 threads each.
GUNICORN_WORKERS = 3
GUNICORN_THREADS = 4


def start_gunicorn(
    redis_url: str,
    folder: Path,
    port: int,
    *,
    workers: int = GUNICORN_WORKERS,
    environment: dict[str, str] | None = None,
):
    env = stack_environment(redis_url)
    env.update(
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_STATIC_MANIFEST="false",
        DJANGO_CONN_MAX_AGE="60",
        **(environment or {}),
    )
    log = open(folder / "gunicorn.log", "w")  # noqa: SIM115 - closed with the process
    process = subprocess.Popen(
        [
            GUNICORN,
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--worker-class",
            "gthread",
            "--threads",
            str(GUNICORN_THREADS),
            "--timeout",
            "30",
            "--graceful-timeout",
            "5",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    wait_for_port(port, timeout=30)
    return process


def pgbouncer_binary() -> str | None:
    """Debian's pgbouncer (in /usr/sbin, not always on a user's PATH), or None."""
    return shutil.which("pgbouncer") or shutil.which("pgbouncer", path="/usr/sbin:/sbin")


class PgBouncer:
    """PgBouncer in ``pool_mode = transaction`` on a free port, in front of 127.0.0.1:5432.

    At most ``pool_size`` server connections per database and user, whatever the clients: the
    pooler hands one to a client for one transaction. Trust authentication, as the test server.
    Run as root it drops to the ``postgres`` user (pgbouncer refuses to run as root), so its
    folder (a temporary one of its own, removed by ``stop``) is made that user's.
    """

    def __init__(self, *, pool_size: int) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="jink-pgbouncer-"))
        self.port = free_port()
        self.pool_size = pool_size
        self.process: subprocess.Popen | None = None

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        (self.folder / "users.txt").write_text('"postgres" ""\n')
        (self.folder / "pgbouncer.ini").write_text(
            "[databases]\n"
            "* = host=127.0.0.1 port=5432\n"
            "[pgbouncer]\n"
            "listen_addr = 127.0.0.1\n"
            f"listen_port = {self.port}\n"
            "unix_socket_dir =\n"
            "auth_type = trust\n"
            f"auth_file = {self.folder / 'users.txt'}\n"
            "pool_mode = transaction\n"
            f"default_pool_size = {self.pool_size}\n"
            "min_pool_size = 0\n"
            "reserve_pool_size = 0\n"
            "max_client_conn = 500\n"
            "admin_users = postgres\n"
            "ignore_startup_parameters = extra_float_digits\n"
            f"logfile = {self.folder / 'pgbouncer.log'}\n"
        )
        command = [pgbouncer_binary(), str(self.folder / "pgbouncer.ini")]
        if os.geteuid() == 0:
            import pwd

            user = pwd.getpwnam("postgres")
            for path in (self.folder, *self.folder.iterdir()):
                os.chown(path, user.pw_uid, user.pw_gid)
            command[1:1] = ["-u", "postgres"]
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=open(self.folder / "stderr.log", "w"),  # noqa: SIM115 - closed with the process
            start_new_session=True,
        )
        wait_for_port(self.port)

    def show(self, what: str) -> list[dict[str, str]]:
        """``SHOW <what>`` on the admin console (simple query protocol: psql), as rows."""
        result = subprocess.run(
            [
                "psql",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-d",
                "pgbouncer",
                "--csv",
                "-c",
                f"SHOW {what}",
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        )
        return list(csv.DictReader(io.StringIO(result.stdout)))

    def stop(self) -> None:
        if self.process is not None:
            kill_group(self.process)
        shutil.rmtree(self.folder, ignore_errors=True)


def play_and_prove_night(base_url: str, token: str, *, slug: str, tables: int, rounds: int, seed):
    """bench/night.py's drive of ``tables`` × ``rounds`` with 5% of requests dropped and two
    phones polling, then its proof asserted exactly; returns (figures, proof)."""
    from bench.night import current_standings, play_night, prepare_night, verify_night

    tournament = prepare_night(base_url, token, slug=slug, tables=tables, rounds=rounds)
    figures = play_night(
        base_url,
        token,
        tournament,
        tables=tables,
        rounds=rounds,
        drop_rate=0.05,
        pollers=2,
        seed=seed,
    )
    assert figures["errors"] == []
    standings = current_standings(base_url, token, tournament["id"])
    assert standings["stale"] is False
    proof = verify_night(tournament["id"], figures["stored"], standings)
    assert proof["games"] == tables * rounds
    assert proof["hands"] == figures["hands"] > 0
    assert proof["matches"] == tables * rounds
    return figures, proof
