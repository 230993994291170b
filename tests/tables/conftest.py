"""Fixtures of the table-links app's tests.

What it gives: ``module_page``, a page of the live server's home page (same origin, same CSP as
the score page) with the API requests it makes and the console errors it logs, on which the score
pad's modules are imported alone (``run_script``, tests/tables/browser_helpers.py).

What it does not do: seed a club or log a context in (tests/tables/browser_helpers.py).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest


@pytest.fixture
def module_page(live_server, new_context):
    """A page of the live server (``.page``) with its API requests and console errors."""
    page = new_context().new_page()
    page.set_default_timeout(10_000)
    seen = SimpleNamespace(page=page, api_requests=[], errors=[])
    page.on(
        "request",
        lambda request: seen.api_requests.append(request.url) if "/api/" in request.url else None,
    )
    page.on(
        "console",
        lambda message: (
            seen.errors.append(message.text) if message.type in ("error", "warning") else None
        ),
    )
    page.on("pageerror", lambda error: seen.errors.append(str(error)))
    page.goto(f"{live_server.url}/")
    return seen
