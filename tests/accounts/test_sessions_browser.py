"""Ending another session, in Chromium: two browser contexts signed in as the same account; the
first ends the second from the account page, and the second is signed out at its next request.
"""

from __future__ import annotations

import pytest

from tests.browser import PHONE
from tests.helpers import submit

PASSWORD = "sessions-night-2026"


@pytest.fixture
def account(transactional_db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user(username="mary", password=PASSWORD)


def sign_in(context, base: str):
    page = context.new_page()
    page.goto(f"{base}/accounts/login/?next=/account/")
    page.fill("#id_username", "mary")
    page.fill("#id_password", PASSWORD)
    submit(page, "form.form")
    assert page.url == f"{base}/account/"
    return page


@pytest.mark.slow
def test_ending_the_other_browser_signs_it_out(
    live_server, new_context, outside_requests, screenshots, account
):
    from accounts.models import BrowserSession

    base = live_server.url
    laptop = sign_in(new_context(), base)
    phone = sign_in(new_context(viewport=PHONE), base)
    assert BrowserSession.objects.filter(user=account).count() == 2

    laptop.reload()
    rows = laptop.locator("#account-browsers li")
    assert rows.count() == 2
    assert "this browser" in rows.nth(0).inner_text()
    assert "this browser" not in rows.nth(1).inner_text()
    laptop.screenshot(path=str(screenshots / "account-sessions.png"), full_page=True)

    submit(laptop, "#account-browsers li:nth-child(2) form")
    assert laptop.url == f"{base}/account/"
    assert "That browser is signed out." in laptop.inner_text("main")
    assert laptop.locator("#account-browsers li").count() == 1

    # The phone's next request finds no session: the login page, not the account.
    phone.goto(f"{base}/account/")
    assert phone.url == f"{base}/accounts/login/?next=/account/"
    laptop.goto(f"{base}/account/")
    assert laptop.url == f"{base}/account/"
    assert BrowserSession.objects.filter(user=account).count() == 1
    assert outside_requests == []
