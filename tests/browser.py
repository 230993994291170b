"""Shared fixtures of the browser tests: Debian's Chromium driven by Python Playwright.

What it gives (registered for every test by ``tests/conftest.py``):
- ``chromium_path``: the system Chromium; the test is skipped with the reason without it (or
  without the ``playwright`` package), and fails when ``CI=true``.
- ``browser``: one headless Chromium for the whole session (starting it costs about a second).
- ``new_context(**options)``: a fresh browser context (cookies, storage, viewport of its own)
  that can reach only the live server: any other request is aborted and recorded in
  ``outside_requests`` (a page must never load anything from a CDN). Closed after the test.
- ``screenshots``: the folder screenshots go to: ``JINK_SCREENSHOTS`` when set
  (``JINK_SCREENSHOTS=docs/screenshots`` refreshes the README's pictures), else the test's
  temporary folder, so a test run leaves git clean.
- ``PHONE``, ``TABLET_LANDSCAPE``, ``TABLET_PORTRAIT``: the viewports the pages are made for.

Chromium: the system's ``chromium`` (``scripts/ensure_test_packages.sh`` installs it when missing),
never a browser downloaded by ``playwright install``.

Playwright's sync API keeps an event loop in the test thread for as long as it runs, and Django
refuses database calls from a thread with a running loop; the browser lives for the whole session,
so ``tests/conftest.py`` sets ``DJANGO_ALLOW_ASYNC_UNSAFE`` for the test run (the project's code
is synchronous: the check protects nothing here). Rows a live-server test needs must be committed:
use ``transactional_db`` (``live_server`` implies it).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

PHONE = {"width": 390, "height": 844}
TABLET_LANDSCAPE = {"width": 1024, "height": 768}
TABLET_PORTRAIT = {"width": 768, "height": 1024}
CHROMIUM_ARGUMENTS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """The system Chromium; skipped without it (failing when CI=true)."""
    from tests.conftest import ENVIRONMENT

    missing = []
    path = shutil.which("chromium")
    if path is None:
        missing.append(
            "Chromium is not installed "
            "(apt-get install -y chromium, or scripts/ensure_test_packages.sh)"
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the Python package playwright is not installed")
    if missing:
        reason = "; ".join(missing)
        if ENVIRONMENT.continuous_integration:
            pytest.fail(f"CI=true and {reason}", pytrace=False)
        pytest.skip(f"{reason} (with CI=true this fails)")
    return path


@pytest.fixture(scope="session")
def browser(chromium_path):
    """One headless Chromium for the session."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=chromium_path, args=CHROMIUM_ARGUMENTS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def outside_requests() -> list[str]:
    """Requests a page tried to send anywhere but the live server (they were aborted)."""
    return []


@pytest.fixture
def new_context(browser, live_server, outside_requests):
    """Make browser contexts limited to the live server; all are closed after the test."""
    live_host = urlsplit(live_server.url).netloc
    contexts = []

    def only_the_live_server(route) -> None:
        if urlsplit(route.request.url).netloc == live_host:
            route.continue_()
        else:
            outside_requests.append(route.request.url)
            route.abort()

    def make(**options):
        options.setdefault("viewport", PHONE)
        context = browser.new_context(**options)
        context.route("**/*", only_the_live_server)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def screenshots(tmp_path) -> Path:
    """Where screenshots go (see the module docstring)."""
    folder = Path(os.environ.get("JINK_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
