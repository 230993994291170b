"""/health/: database and cache (and the Redis broker when REDIS_URL is set)."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from rest_framework.test import APIClient

from tests.conftest import ENVIRONMENT


def health(path="/health/", accept="application/json"):
    # In a thread of its own: the health checks run through async_to_sync, which refuses a
    # thread with a running event loop, and a worker that ran a browser test keeps Playwright's
    # loop in the main thread for the session (tests/browser.py).
    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(lambda: APIClient().get(path, HTTP_ACCEPT=accept)).result()


@pytest.mark.django_db
def test_health_checks_database_and_cache():
    response = health()

    assert response.status_code == 200
    body = response.json()
    assert sorted(body) == ["Cache(alias='default')", "Database(alias='default')"]
    assert set(body.values()) == {"OK"}


@pytest.mark.django_db
def test_health_fails_when_the_broker_does_not_answer(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"

    response = health()

    assert response.status_code == 500
    body = response.json()
    assert body["Database(alias='default')"] == "OK"
    [redis_key] = [key for key in body if key.startswith("Redis")]
    assert body[redis_key] != "OK"


@pytest.mark.redis
@pytest.mark.django_db
def test_health_checks_the_redis_broker_when_configured(settings):
    settings.REDIS_URL = ENVIRONMENT.redis_url

    response = health()

    assert response.status_code == 200
    body = response.json()
    assert sorted(key.split("(")[0] for key in body) == ["Cache", "Database", "Redis"]
    assert set(body.values()) == {"OK"}


@pytest.mark.django_db
def test_health_text_format_for_load_balancers():
    response = health("/health/?format=text", accept="*/*")

    assert response.status_code == 200
    assert response.content.decode().splitlines() == [
        "Database(alias='default'): OK",
        "Cache(alias='default'): OK",
    ]
