"""config.settings: safe by default, embedded without variables, the real stack with them.

Each test loads the settings in a fresh Python process with a controlled environment, because
the settings are read once per process.
"""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONTROLLED = (
    "DJANGO_SECRET_KEY",
    "DJANGO_DEBUG",
    "DJANGO_ALLOWED_HOSTS",
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_HTTPS",
    "DJANGO_STATIC_MANIFEST",
    "DJANGO_CONN_MAX_AGE",
    "DATABASE_POOLER",
    # Set by tests/conftest.py for the session's browser; a deployment must never have it.
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)

PRINT_SETTINGS = """
import json, django
django.setup()
from django.conf import settings as s
print(json.dumps({
    "DEBUG": s.DEBUG,
    "ENGINE": s.DATABASES["default"]["ENGINE"],
    "DATABASE_NAME": str(s.DATABASES["default"]["NAME"]),
    "CACHE": s.CACHES["default"]["BACKEND"],
    "BROKER": s.CELERY_BROKER_URL,
    "EAGER": s.CELERY_TASK_ALWAYS_EAGER,
    "ALLOWED_HOSTS": s.ALLOWED_HOSTS,
    "SECURE_SSL_REDIRECT": s.SECURE_SSL_REDIRECT,
    "SESSION_COOKIE_SECURE": s.SESSION_COOKIE_SECURE,
}))
"""


def run_python(arguments: list[str], **environment: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in CONTROLLED}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DJANGO_ENV_FILE="", **environment)
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def load_settings(**environment: str) -> dict:
    result = run_python(["-c", PRINT_SETTINGS], **environment)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def production_environment() -> dict[str, str]:
    return {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "jink.example.org",
        "DATABASE_URL": "postgres://jink:secret@127.0.0.1:5432/jink",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
    }


def test_startup_refuses_without_a_secret_key_outside_debug():
    result = run_python(["manage.py", "check"])

    assert result.returncode != 0
    assert "django.core.exceptions.ImproperlyConfigured: DJANGO_SECRET_KEY is not set." in (
        result.stderr
    )


def test_empty_secret_key_is_refused_too():
    result = run_python(["manage.py", "check"], DJANGO_SECRET_KEY="", DJANGO_DEBUG="false")

    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


def test_debug_is_off_unless_asked_for():
    assert load_settings(DJANGO_SECRET_KEY="k" * 50)["DEBUG"] is False
    assert load_settings(DJANGO_SECRET_KEY="k" * 50, DJANGO_DEBUG="false")["DEBUG"] is False


def test_debug_runs_without_a_secret_key():
    loaded = load_settings(DJANGO_DEBUG="true")

    assert loaded["DEBUG"] is True
    assert loaded["SECURE_SSL_REDIRECT"] is False


def test_embedded_default_needs_nothing_installed():
    loaded = load_settings(DJANGO_DEBUG="true")

    assert loaded["ENGINE"] == "django.db.backends.sqlite3"
    assert loaded["DATABASE_NAME"] == str(ROOT / "db.sqlite3")
    assert loaded["CACHE"] == "django.core.cache.backends.locmem.LocMemCache"
    assert loaded["BROKER"] == "memory://"
    assert loaded["EAGER"] is True


def test_database_and_redis_urls_select_the_real_stack():
    loaded = load_settings(**production_environment())

    assert loaded == {
        "DEBUG": False,
        "ENGINE": "django.db.backends.postgresql",
        "DATABASE_NAME": "jink",
        "CACHE": "django.core.cache.backends.redis.RedisCache",
        "BROKER": "redis://127.0.0.1:6379/0",
        "EAGER": False,
        "ALLOWED_HOSTS": ["jink.example.org"],
        "SECURE_SSL_REDIRECT": True,
        "SESSION_COOKIE_SECURE": True,
    }


POOLER_SETTINGS = """
import json, django
django.setup()
from django.conf import settings as s
database = s.DATABASES["default"]
print(json.dumps({
    "POOLER": s.DATABASE_POOLER,
    "DISABLE_SERVER_SIDE_CURSORS": database.get("DISABLE_SERVER_SIDE_CURSORS", False),
    "prepare_threshold": "prepare_threshold" in database.get("OPTIONS", {}),
}))
"""


def test_behind_a_transaction_pooler_there_are_no_server_side_cursors_nor_prepared_statements():
    direct = run_python(["-c", POOLER_SETTINGS], **production_environment())
    pooled = run_python(
        ["-c", POOLER_SETTINGS], DATABASE_POOLER="transaction", **production_environment()
    )

    assert json.loads(direct.stdout) == {
        "POOLER": "",
        "DISABLE_SERVER_SIDE_CURSORS": False,
        "prepare_threshold": False,
    }
    # No prepare_threshold in OPTIONS: Django's psycopg backend then turns prepared statements
    # off (prepare_threshold=None), as PgBouncer before 1.21 in transaction mode needs.
    assert json.loads(pooled.stdout) == {
        "POOLER": "transaction",
        "DISABLE_SERVER_SIDE_CURSORS": True,
        "prepare_threshold": False,
    }


def test_an_unknown_pooler_mode_is_refused_at_startup():
    result = run_python(
        ["manage.py", "check"], DATABASE_POOLER="session", **production_environment()
    )

    assert result.returncode != 0
    assert "DATABASE_POOLER='session': leave it empty, or 'transaction'" in result.stderr


def test_allowed_hosts_is_a_comma_separated_list():
    loaded = load_settings(DJANGO_DEBUG="true", DJANGO_ALLOWED_HOSTS="a.example.org,b.example.org")

    assert loaded["ALLOWED_HOSTS"] == ["a.example.org", "b.example.org"]


def test_check_deploy_is_clean_in_production():
    result = run_python(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **production_environment()
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."


@pytest.mark.parametrize(
    "variable",
    ["DJANGO_SECRET_KEY", "DJANGO_DEBUG", "DJANGO_ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL"],
)
def test_every_variable_is_listed_in_env_example(variable):
    example = (ROOT / ".env.example").read_text()

    assert f"\n{variable}=" in example
