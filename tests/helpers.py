"""The helpers that test modules of several folders share: the one place for them.

What it does:
- ``error_of(call, *args, **kwargs)``: the ``RulesError`` that a call into the rules engine
  raises (``error_of(state.record, record)``, ``error_of(new_game, "25", 1)``); the test fails
  when the call raises none.
- ``draw_error_code(call, *args, **kwargs)``: the code of the ``DrawError`` a call into the
  tournament draw raises; the test fails when it raises none.
- ``count_queries(call, *args, status=200, **kwargs)``: makes one request
  (``count_queries(client.get, url)``), fails the test unless it answers ``status``, and returns
  ``Counted``: how many database queries it made, their SQL and the response. The queries of the
  request's on-commit callbacks count when the call runs them (``Event.call`` does).
- ``token_client(user)``: an API client with a device token of ``user``, as tablets sign in
  (its sign-in recorded and its first minute of use open, ``accounts.token_activity``: pinned
  query counts hold from its first request);
  ``api_client(user)``: an API client authenticated as ``user`` without a token (anonymous for
  None); ``table_link_client(credential)``: an API client presenting a table link's token or
  code; ``logged_in_client(user)``: a client of the pages with ``user``'s session.
- ``log_in(page, base_url, username, password)``: signs in through the login page in a browser
  page; ``submit(page, form)``: submits a form and waits for the next page (the browser itself:
  ``tests/browser.py``).
- ``free_port()``: a TCP port free on 127.0.0.1 for a server a test starts (a Redis of its own).

What it does not do: build a folder's data (``tests/clubs/factories.py``,
``tests/games/helpers.py``, ``tests/tournaments/play_helpers.py``, ...) or assert what a test
checks: the tests do.

Fixtures shared by every folder are in ``tests/conftest.py`` (``table``, ``staff``, the Celery
worker) and ``tests/browser.py`` (the browser).
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from rules_engine import RulesError
from tournaments.draw import DrawError

if TYPE_CHECKING:
    from rest_framework.test import APIClient


def error_of(call: Callable[..., Any], *args: Any, **kwargs: Any) -> RulesError:
    """The ``RulesError`` that ``call(*args, **kwargs)`` raises."""
    with pytest.raises(RulesError) as caught:
        call(*args, **kwargs)
    return caught.value


def draw_error_code(call: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    """The code of the ``DrawError`` that ``call(*args, **kwargs)`` raises."""
    with pytest.raises(DrawError) as caught:
        call(*args, **kwargs)
    return caught.value.code


@dataclass(frozen=True)
class Counted:
    """What one request cost: ``count`` queries, their ``sql`` in order, and its ``response``."""

    count: int
    sql: list[str]
    response: Any


def count_queries(
    call: Callable[..., Any], *args: Any, status: int = 200, **kwargs: Any
) -> Counted:
    """Make one request, ``call(*args, **kwargs)``, counting its database queries; it must
    answer ``status``."""
    with CaptureQueriesContext(connection) as context:
        response = call(*args, **kwargs)
    assert response.status_code == status, (response.status_code, response.content[:2000])
    return Counted(
        count=len(context.captured_queries),
        sql=[query["sql"] for query in context.captured_queries],
        response=response,
    )


def _new_api_client() -> APIClient:
    # Imported here: DRF's test module reads the settings at import, and the folders' conftests
    # (tests/jobs/conftest.py through tests/jobs/stack.py) import this module before they are set.
    from rest_framework.test import APIClient

    return APIClient()


def token_client(user, device: str = "tablet") -> APIClient:
    """An API client with a fresh device token of ``user`` (anonymous for None)."""
    # Imported here: the engine's and the draw's tests import this module and load no model.
    from accounts.services import issue_device_token
    from accounts.token_activity import note_sign_in

    client = _new_api_client()
    if user is not None:
        device_token, token = issue_device_token(user=user, device=device)
        # As the sign-in endpoint does: the test client's address, and the token's minute open
        # (accounts.token_activity), so its first request costs what the next ones do.
        note_sign_in(device_token, "127.0.0.1")
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def api_client(user=None) -> APIClient:
    """An API client authenticated as ``user`` with no token at all (anonymous for None)."""
    client = _new_api_client()
    if user is not None:
        client.force_authenticate(user)
    return client


def logged_in_client(user) -> Client:
    """A client of the pages logged in as ``user`` (a session, no password needed); a staff
    session is signed in with a second factor, as the admin requires."""
    client = Client()
    client.force_login(user)
    if user.is_staff:
        from tests.accounts.two_factor_helpers import verify_session

        verify_session(client, user)
    return client


def table_link_client(credential: str) -> APIClient:
    """An API client presenting a table link's token or short code (``Table <credential>``)."""
    client = _new_api_client()
    client.credentials(HTTP_AUTHORIZATION=f"Table {credential}")
    return client


def log_in(page, base_url: str, username: str, password: str) -> None:
    """Sign in through the login page in the browser ``page``; returns once the next page loads."""
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.click("main button[type=submit]")


def submit(page, form: str) -> None:
    """Submit ``form`` (a CSS selector) by its submit button; returns once the next page loads."""
    with page.expect_navigation():
        page.click(f"{form} button[type=submit]")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 just now (the system picks it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
