"""Test environment of Jink: which database and broker the tests use, and the Celery worker.

What it does:
- Before Django's settings load, sets the test environment (a test secret key, no HTTPS
  redirects, no .env file, no hashed static names) and chooses the database: PostgreSQL when it
  answers (``DATABASE_URL`` if set, else ``postgres://postgres@127.0.0.1:5432/jink``). Each run
  gets its own test database, ``test_jink_<pid>``, so parallel runs do not destroy each other's.
- Database tests (``django_db`` marker, ``db``/``transactional_db``/``live_server``/... fixtures)
  are skipped with a clear reason when PostgreSQL does not answer, and fail when ``CI=true``.
- Celery worker tests (``celery_worker`` marker or fixture) run a real worker, in a thread of
  this process, on Redis (``redis://127.0.0.1:6379/15``, or ``JINK_TEST_REDIS_URL``) with a
  queue of their own; skipped without Redis, failing when ``CI=true``.
- The report header says which database and broker ran.
- Marks ``slow`` every test that drives the browser (``new_context``/``browser`` fixtures) or a
  real Celery worker (``celery_worker`` marker or fixture), besides the tests marked
  ``@pytest.mark.slow`` by hand (the fault tests' worker and Redis processes, schemathesis and
  the generated client, the computer players' thousands of games, the longest API plays).
  ``make test`` runs them all; ``make test-fast`` (``pytest -m "not slow"``) skips them.

What it does not do: make ordinary tests use Redis. Outside ``celery_worker`` tests, tasks run in
process and the cache is in memory, as in the embedded configuration, so tests stay independent
of each other and of parallel runs.

Why DJANGO_SETTINGS_MODULE is set here and not in pyproject: pytest-django loads the settings
named in its ini option before any conftest is imported, which would be too late to choose the
database (and the settings refuse to load without a secret key outside debug).

Fixtures: ``celery_worker`` (a worker running for one test), ``celery_worker_with_database``
(the same, with ``transactional_db``, for tasks that read what the test wrote: a worker thread
only sees committed rows); ``table`` (a club with players and an API client per role, for the
games, table-link and hardening tests) and ``staff`` (an admin client). Helpers that are not
fixtures are in ``tests/helpers.py``.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit

import pytest

# The browser fixtures (tests/browser.py) are shared by every test folder.
pytest_plugins = ["tests.browser"]

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/jink"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"
DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "live_server",
        "admin_user",
        "admin_client",
        "django_user_model",
        "celery_worker_with_database",
    }
)
# A test using one of these is marked ``slow`` (a browser, a real worker): see the docstring.
SLOW_FIXTURES = frozenset(
    {"new_context", "browser", "celery_worker", "celery_worker_with_database"}
)


class _Environment:
    """What this run found: filled in by ``pytest_configure``."""

    continuous_integration = False
    database_url = ""
    database_description = ""
    database_problem = ""
    redis_url = ""
    redis_description = ""
    redis_problem = ""


ENVIRONMENT = _Environment()


def _port_answers(url: str, default_port: int) -> bool:
    parts = urlsplit(url)
    try:
        address = (parts.hostname or "127.0.0.1", parts.port or default_port)
        with socket.create_connection(address, timeout=2):
            return True
    except OSError:
        return False


def _postgres_version(url: str) -> str:
    """The server version (e.g. "15.8"), or raise when PostgreSQL cannot be used."""
    import psycopg

    parts = urlsplit(url)
    # Connect to the maintenance database: the test database is created from there.
    with psycopg.connect(
        host=parts.hostname or "127.0.0.1",
        port=parts.port or 5432,
        user=parts.username or "postgres",
        password=parts.password or None,
        dbname="postgres",
        connect_timeout=3,
    ) as connection:
        return connection.info.parameter_status("server_version") or "?"


def _choose_database() -> None:
    url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    parts = urlsplit(url)
    where = f"{parts.hostname}:{parts.port or 5432}"
    if not url.startswith(("postgres://", "postgresql://", "pgsql://")):
        # Someone chose another database on purpose: use it as given.
        ENVIRONMENT.database_url = url
        ENVIRONMENT.database_description = url.split(":", 1)[0]
        return
    if not _port_answers(url, 5432):
        ENVIRONMENT.database_problem = f"PostgreSQL is not reachable at {where}"
    else:
        try:
            version = _postgres_version(url)
        except Exception as error:  # any failure means: cannot run database tests there
            ENVIRONMENT.database_problem = f"PostgreSQL at {where} refused the connection: {error}"
        else:
            ENVIRONMENT.database_url = url
            ENVIRONMENT.database_description = f"PostgreSQL {version} at {where}"
            os.environ["DATABASE_URL"] = url
            return
    # Without PostgreSQL the settings fall back to SQLite; database tests are skipped (or fail).
    os.environ.pop("DATABASE_URL", None)


def _choose_broker() -> None:
    url = os.environ.get("JINK_TEST_REDIS_URL") or DEFAULT_REDIS_URL
    parts = urlsplit(url)
    if _port_answers(url, 6379):
        ENVIRONMENT.redis_url = url
        ENVIRONMENT.redis_description = url
    else:
        ENVIRONMENT.redis_problem = (
            f"Redis is not reachable at {parts.hostname}:{parts.port or 6379}"
        )


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings

    # An xdist worker inherits the environment the controller prepared below (database, secret,
    # settings module), so pytest-django has loaded the right settings already.
    if settings.configured and "PYTEST_XDIST_WORKER" not in os.environ:
        raise pytest.UsageError(
            "Django's settings were loaded before tests/conftest.py could choose the test "
            "database: unset DJANGO_SETTINGS_MODULE and do not pass --ds (the conftest sets it)."
        )
    ENVIRONMENT.continuous_integration = os.environ.get("CI", "").lower() in ("1", "true", "yes")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-" + "x" * 40)
    os.environ["DJANGO_ENV_FILE"] = ""  # a developer's .env must not change the tests
    os.environ["DJANGO_HTTPS"] = "false"  # the test client and live server speak plain HTTP
    os.environ["DJANGO_STATIC_MANIFEST"] = "false"  # no collectstatic before the tests
    os.environ["DJANGO_CONN_MAX_AGE"] = "0"  # worker threads must not hold the test database
    os.environ.pop("REDIS_URL", None)  # ordinary tests: tasks in process, cache in memory
    os.environ.pop("DATABASE_POOLER", None)  # the test database is reached directly
    # The session's Playwright keeps an event loop in the test thread (see tests/browser.py).
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    _choose_database()
    _choose_broker()

    # From here on the settings are loaded (pytest-django then sets Django up); adjust them for
    # the tests before anything uses them.
    # Fast hashing: the tests check who may log in, not the cost of PBKDF2.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Static files straight from the source folders, so pages and live-server tests need no
    # collectstatic (and WhiteNoise does not warn about a missing STATIC_ROOT).
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True

    # Each run its own PostgreSQL test database, so parallel runs do not drop each other's.
    database = settings.DATABASES["default"]
    if ENVIRONMENT.database_url and "postgresql" in database["ENGINE"]:
        database.setdefault("TEST", {})["NAME"] = f"test_{database['NAME']}_{os.getpid()}"
        ENVIRONMENT.database_description += f" (test database {database['TEST']['NAME']})"


def pytest_report_header(config: pytest.Config) -> list[str]:
    database = ENVIRONMENT.database_description or f"none ({ENVIRONMENT.database_problem})"
    broker = ENVIRONMENT.redis_description or f"none ({ENVIRONMENT.redis_problem})"
    return [
        f"database: {database}",
        f"broker: {broker} (celery_worker tests; other tests run tasks in process)",
    ]


def _needs_database(item: pytest.Item) -> bool:
    if item.get_closest_marker("django_db") is not None:
        return True
    return bool(DATABASE_FIXTURES.intersection(getattr(item, "fixturenames", ())))


def _needs_redis(item: pytest.Item) -> bool:
    if any(item.get_closest_marker(name) for name in ("celery_worker", "redis")):
        return True
    return "celery_worker" in getattr(item, "fixturenames", ()) or (
        "celery_worker_with_database" in getattr(item, "fixturenames", ())
    )


def _missing_services(item: pytest.Item) -> list[str]:
    missing = []
    if _needs_database(item) and ENVIRONMENT.database_problem:
        missing.append(ENVIRONMENT.database_problem)
    if _needs_redis(item) and ENVIRONMENT.redis_problem:
        missing.append(ENVIRONMENT.redis_problem)
    return missing


def _is_slow(item: pytest.Item) -> bool:
    """A browser test or a real Celery worker's: among the slowest, whatever it checks."""
    return bool(SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ()))) or (
        item.get_closest_marker("celery_worker") is not None
    )


# tryfirst: the marks are added before ``-m "not slow"`` deselects by them.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _is_slow(item):
            item.add_marker(pytest.mark.slow)
    if ENVIRONMENT.continuous_integration:
        return  # pytest_runtest_setup fails them instead
    for item in items:
        missing = _missing_services(item)
        if missing:
            item.add_marker(
                pytest.mark.skip(reason="; ".join(missing) + " (with CI=true this fails)")
            )


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if ENVIRONMENT.continuous_integration:
        missing = _missing_services(item)
        if missing:
            pytest.fail("CI=true and " + "; ".join(missing), pytrace=False)


@pytest.fixture(autouse=True)
def _clear_cache():
    """Throttle counters and cached values must not leak from one test into the next."""
    yield
    from django.core.cache import cache

    cache.clear()


def _point_celery_at(app, **conf) -> dict:
    """Reconfigure ``app`` and drop its cached connections; returns the previous values."""
    previous = {key: app.conf.get(key) for key in conf}
    app.conf.update(conf)
    app._pool = None
    app.amqp._producer_pool = None
    app._backend_cache = None
    app._local.__dict__.pop("backend", None)
    return previous


@pytest.fixture
def celery_worker():
    """A real Celery worker, in a thread, consuming this run's own queue on Redis.

    For the test's duration the Celery app publishes to Redis and is not eager; afterwards it is
    put back as it was (tasks in process), so later tests are not affected.
    """
    if not ENVIRONMENT.redis_url:
        pytest.skip(ENVIRONMENT.redis_problem)
    import celery.contrib.testing.tasks  # noqa: F401  (registers celery.ping for the start check)
    from celery.contrib.testing.worker import start_worker
    from django.conf import settings

    from config.celery import app

    # A queue of this run's own: parallel runs on the same Redis must not take each other's
    # tasks (a task run by another run's worker would use that run's test database).
    queue = f"jink-test-{socket.gethostname()}-{os.getpid()}"
    previous = _point_celery_at(
        app,
        broker_url=ENVIRONMENT.redis_url,
        result_backend=ENVIRONMENT.redis_url,
        task_always_eager=False,
        task_eager_propagates=False,
        task_default_queue=queue,
    )
    try:
        # Both of this run's queues: its default one and its standings lane (config.settings).
        queues = [queue, queue + settings.JINK_STANDINGS_QUEUE_SUFFIX]
        with start_worker(
            app, pool="solo", loglevel="WARNING", shutdown_timeout=20, queues=queues
        ) as worker:
            yield worker
    finally:
        _point_celery_at(app, **previous)


@pytest.fixture
def celery_worker_with_database(transactional_db, celery_worker):
    """A worker for tasks that read or write the database: the test's writes are committed."""
    return celery_worker


@pytest.fixture
def admin_client(admin_user):
    """pytest-django's ``admin_client``, its session signed in with a second factor: staff
    reach the admin only so (``accounts.two_factor_middleware``)."""
    from tests.helpers import logged_in_client

    return logged_in_client(admin_user)


@pytest.fixture
def table(db):
    """A club with ten players and an API client per role (``tests.games.helpers.Table``)."""
    from tests.games.helpers import build_table

    return build_table()


@pytest.fixture
def staff():
    """A client logged in to the admin as a superuser (user ``admin``), signed in with a second
    factor as the admin requires."""
    from django.test import Client

    from tests.accounts.two_factor_helpers import verify_session
    from tests.clubs.factories import make_user

    client = Client()
    user = make_user("admin", is_staff=True, is_superuser=True)
    client.force_login(user)
    verify_session(client, user)
    return client
