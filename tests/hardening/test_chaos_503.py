"""A request that meets a fault answers 503 with Retry-After, never 500 (config.middleware).

What it proves: a database fault (``OperationalError``, ``InterfaceError``: a connection ended by
``pg_terminate_backend``) or a Redis fault (connection refused, timed out) raised in an API view
answers the problem ``service_unavailable`` (503, ``Retry-After``, ``no-store``), a page the
"try again in a moment" page with 503; one raised in another middleware too (Django turned it
into a 500 first); a fault wrapped in another exception is recognised by its cause; any other
exception stays a 500. A hand POST that met the fault stored nothing, and its retry with the
same ``Idempotency-Key`` records it once.

What it does not do: start real processes (the chaos night, test_chaos_night.py, does).
"""

from __future__ import annotations

import random
from unittest import mock

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bench.night import random_hand
from config.middleware import is_fault
from games.models import Hand

pytestmark = pytest.mark.django_db

FAULTS = [
    OperationalError("terminating connection due to administrator command"),
    InterfaceError("connection already closed"),
    RedisConnectionError("Connection refused"),
    RedisTimeoutError("Timeout reading from socket"),
]


def _assert_503(response, *, api: bool = True) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert response["Cache-Control"] == "private, no-store"
    if api:
        assert response["Content-Type"] == "application/problem+json"
        assert response.json()["code"] == "service_unavailable"


@pytest.mark.parametrize("fault", FAULTS, ids=lambda fault: type(fault).__name__)
def test_a_fault_in_an_api_view_is_a_503(fault, staff):
    with mock.patch("rest_framework.views.APIView.initial", side_effect=fault):
        response = Client(raise_request_exception=False).get("/api/clubs/")
    _assert_503(response)


@pytest.mark.parametrize("fault", FAULTS, ids=lambda fault: type(fault).__name__)
def test_a_fault_under_a_page_is_a_503_page(fault):
    with mock.patch(
        "django.contrib.sessions.middleware.SessionMiddleware.process_request",
        side_effect=fault,
    ):
        response = Client(raise_request_exception=False).get("/")
    _assert_503(response, api=False)
    assert b"Something went wrong" in response.content


def test_a_fault_in_another_middleware_is_a_503():
    with mock.patch(
        "django.contrib.sessions.middleware.SessionMiddleware.process_request",
        side_effect=OperationalError("server closed the connection unexpectedly"),
    ):
        response = Client(raise_request_exception=False).get("/api/clubs/")
    _assert_503(response)


def test_a_wrapped_fault_is_a_fault_and_a_bug_is_not():
    try:
        try:
            raise RedisConnectionError("refused")
        except RedisConnectionError as error:
            raise RuntimeError("cache failed") from error
    except RuntimeError as wrapped:
        assert is_fault(wrapped)
    assert not is_fault(ValueError("a bug"))
    with mock.patch("rest_framework.views.APIView.initial", side_effect=ZeroDivisionError):
        response = Client(raise_request_exception=False).get("/api/clubs/")
    assert response.status_code == 500


def test_a_hand_that_met_a_fault_stored_nothing_and_its_retry_stores_it_once(table):
    game = table.new_game("25", 4)
    body = {"number": 1, **random_hand(game, random.Random(1))}
    client = table.client()
    client.raise_request_exception = False
    with mock.patch("games.services.record_hand", side_effect=OperationalError("terminated")):
        response = table.post_hand(game["id"], body, **{"Idempotency-Key": "hand-1"})
    _assert_503(response)
    assert Hand.objects.filter(game_id=game["id"]).count() == 0
    first = table.post_hand(game["id"], body, **{"Idempotency-Key": "hand-1"})
    again = table.post_hand(game["id"], body, **{"Idempotency-Key": "hand-1"})
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(game_id=game["id"]).count() == 1
