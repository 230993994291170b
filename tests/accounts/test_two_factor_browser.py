"""Two-factor sign-in in Chromium: set it up, sign in with the app's code, sign in with a
recovery code; an organiser of a club that requires it is sent to set it up before the console.

What it proves: the two-factor page shows a QR code and the key; the test computes the app's
code from that key (django-otp's TOTP, as an authenticator app would), turns it on and reads
the ten recovery codes; signing in again asks for a code after the password and lands on the
page asked for; a recovery code signs in once. An organiser of a club that requires two factors
is sent from the login to the set-up page and, once set up, goes on to the console. No response
is a 4xx or 5xx and the console shows no error (the inline SVG passes the CSP).
"""

from __future__ import annotations

import time
from base64 import b32decode

import pytest
from django_otp.oath import TOTP

from tests.browser import PHONE
from tests.helpers import submit

PASSWORD = "a long walk to Tipperary"


def _code(secret: str, *, steps_ahead: int = 0) -> str:
    totp = TOTP(b32decode(secret.replace(" ", "")))
    totp.time = time.time() + 30 * steps_ahead
    return f"{totp.token():06d}"


def _watch(page) -> tuple[list, list]:
    failures: list = []
    warnings: list = []
    page.on(
        "response",
        lambda response: (
            response.status >= 400 and failures.append((response.status, response.url))
        ),
    )
    page.on(
        "console",
        lambda message: message.type in ("error", "warning") and warnings.append(message.text),
    )
    return failures, warnings


def _sign_in(page, base: str, username: str, next_url: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("form.form button[type=submit]")


def _log_out(page) -> None:
    with page.expect_navigation():
        page.click("header form[action='/accounts/logout/'] button")


@pytest.fixture
def mary(transactional_db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username="mary", password=PASSWORD)


def test_set_up_then_sign_in_with_the_app_and_with_a_recovery_code(
    live_server, new_context, outside_requests, screenshots, mary
):
    base = live_server.url
    page = new_context(viewport=PHONE).new_page()
    failures, warnings = _watch(page)

    # Set up: the QR code and the key; the first code turns it on and shows the recovery codes.
    _sign_in(page, base, "mary", "/accounts/two-factor/")
    assert page.url == f"{base}/accounts/two-factor/"
    assert page.locator("figure.qr svg").count() == 1
    page.screenshot(path=str(screenshots / "two-factor-set-up-390x844.png"), full_page=True)
    secret = page.inner_text("#two-factor-secret")
    page.fill("#confirm-code", _code(secret))
    with page.expect_navigation():
        page.click("button[value=confirm]")
    codes = page.locator("#recovery-codes code").all_inner_texts()
    assert len(codes) == 10
    page.screenshot(path=str(screenshots / "two-factor-recovery-codes-390x844.png"), full_page=True)
    _log_out(page)

    # The password, then the app's code (the next period's: each code works once).
    _sign_in(page, base, "mary", "/me/")
    assert page.url == f"{base}/accounts/login/code/?next=%2Fme%2F"
    page.fill("#login-code", _code(secret, steps_ahead=1))
    submit(page, "form.form")
    assert page.url == f"{base}/me/"
    assert page.inner_text("header .who") == "mary"
    _log_out(page)

    # The password, then a recovery code.
    _sign_in(page, base, "mary", "/me/")
    page.fill("#login-code", codes[0])
    submit(page, "form.form")
    assert page.url == f"{base}/me/"

    assert failures == []
    assert warnings == []
    assert outside_requests == []


def test_a_club_that_requires_it_sends_its_organiser_to_set_up_first(
    live_server, new_context, outside_requests, mary
):
    from clubs.models import Club
    from clubs.services import create_club

    create_club(
        user=mary, name="Ballyjink", slug="ballyjink", currency="EUR", time_zone="Europe/Dublin"
    )
    Club.objects.update(require_two_factor=True)
    base = live_server.url
    page = new_context(viewport=PHONE).new_page()
    failures, warnings = _watch(page)

    _sign_in(page, base, "mary", "/clubs/ballyjink/console/")

    assert page.url == f"{base}/accounts/two-factor/?next=%2Fclubs%2Fballyjink%2Fconsole%2F"
    assert "Set up two-factor sign-in to go on" in page.inner_text("main")
    page.fill("#confirm-code", _code(page.inner_text("#two-factor-secret")))
    with page.expect_navigation():
        page.click("button[value=confirm]")
    assert page.locator("#recovery-codes code").count() == 10
    with page.expect_navigation():
        page.click("text=Continue")
    assert page.url == f"{base}/clubs/ballyjink/console/"
    assert failures == []
    assert warnings == []
    assert outside_requests == []
