"""Browser sessions: the store keeps keys hashed and lists each signed-in browser; ending the
others (``accounts.devices.end_other_sessions``) and a password change end them."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth import SESSION_KEY
from django.test import Client
from rest_framework.test import APIClient

from accounts import devices
from accounts.models import BrowserSession, DeviceToken
from accounts.sessions import browser_name
from tests.accounts.helpers import PASSWORD, client_with_token, login, make_user

pytestmark = pytest.mark.django_db

FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
SAFARI_IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)


def browser(user_agent: str = FIREFOX, address: str = "203.0.113.7") -> Client:
    """A browser signed in as mary through the login page."""
    client = Client(HTTP_USER_AGENT=user_agent, REMOTE_ADDR=address)
    response = client.post("/accounts/login/", {"username": "mary", "password": PASSWORD})
    assert response.status_code == 302
    return client


def session_key(client: Client) -> str:
    return client.cookies["sessionid"].value


def test_login_records_the_browser_with_its_key_hashed():
    user = make_user()

    client = browser()

    key = session_key(client)
    row = BrowserSession.objects.get()
    assert row.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in (row.key_hash, row.session_data)
    assert row.user == user
    assert row.user_agent == FIREFOX
    assert row.address == "203.0.113.7"
    assert row.signed_in_at is not None
    assert row.last_seen == row.signed_in_at
    assert client.session[SESSION_KEY] == str(user.pk)


def test_browser_names():
    assert browser_name(FIREFOX) == "Firefox on Windows"
    assert browser_name(SAFARI_IPHONE) == "Safari on iPhone"
    assert browser_name("") == "Unknown browser"


def test_token_login_records_no_browser():
    make_user()

    assert login(APIClient(), device="bar tablet").status_code == 200

    assert not BrowserSession.objects.exists()


def test_end_other_sessions_keeps_the_given_session_and_token():
    user = make_user()
    other_user = make_user("john")
    this_browser, other_browser = browser(), browser(SAFARI_IPHONE)
    kept_token = login(APIClient(), device="phone").json()["token"]
    login(APIClient(), device="bar tablet")
    login(APIClient(), username="john", device="bar tablet")
    kept = DeviceToken.objects.get(user=user, device="phone")

    ended = devices.end_other_sessions(
        user, keep_session_key=session_key(this_browser), keep_token_key=kept.token_key
    )

    assert ended == 2
    assert list(BrowserSession.objects.values_list("user_agent", flat=True)) == [FIREFOX]
    assert set(DeviceToken.objects.values_list("user__username", "device")) == {
        ("mary", "phone"),
        ("john", "bar tablet"),
    }
    assert DeviceToken.objects.filter(user=other_user).count() == 1
    # The ended browser is signed out at its next request; the kept one and token still work.
    assert other_browser.get("/me/").status_code == 302
    assert this_browser.get("/me/").status_code == 200
    assert client_with_token(kept_token).get("/api/auth/me/").status_code == 200


def test_end_other_sessions_without_keys_ends_everything():
    user = make_user()
    browser()
    login(APIClient())

    assert devices.end_other_sessions(user) == 2

    assert not BrowserSession.objects.exists()
    assert not DeviceToken.objects.exists()


def test_ending_a_session_of_another_account_does_nothing():
    make_user()
    john = make_user("john")
    browser()
    row = BrowserSession.objects.get()

    assert devices.end_browser_session(john, row.pk) is False

    assert BrowserSession.objects.count() == 1


def test_password_change_through_the_api_by_token_ends_every_browser():
    make_user()
    signed_in = browser()
    token = login(APIClient(), device="phone").json()["token"]

    response = client_with_token(token).post(
        "/api/auth/password/",
        {"current_password": PASSWORD, "new_password": "a new and longer secret"},
    )

    assert response.status_code == 204
    assert not BrowserSession.objects.exists()
    assert signed_in.get("/me/").status_code == 302
    assert client_with_token(token).get("/api/auth/me/").status_code == 200


def test_password_change_through_the_api_by_session_keeps_this_browser():
    make_user()
    this_browser, other_browser = browser(), browser(SAFARI_IPHONE)
    login(APIClient(), device="phone")

    response = this_browser.post(
        "/api/auth/password/",
        {"current_password": PASSWORD, "new_password": "a new and longer secret"},
        content_type="application/json",
    )

    assert response.status_code == 204
    assert list(BrowserSession.objects.values_list("user_agent", flat=True)) == [FIREFOX]
    assert not DeviceToken.objects.exists()
    assert this_browser.get("/me/").status_code == 200
    assert other_browser.get("/me/").status_code == 302


def test_password_change_page_keeps_this_browser_and_ends_the_others():
    make_user()
    this_browser, other_browser = browser(), browser(SAFARI_IPHONE)
    login(APIClient(), device="phone")

    response = this_browser.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "a new and longer secret",
            "new_password2": "a new and longer secret",
        },
    )

    assert response.status_code == 302
    assert list(BrowserSession.objects.values_list("user_agent", flat=True)) == [FIREFOX]
    assert not DeviceToken.objects.exists()
    assert this_browser.get("/me/").status_code == 200
    assert other_browser.get("/me/").status_code == 302


class Clock:
    def __init__(self, now: float):
        self.now = now

    def time(self) -> float:
        return self.now


def test_last_seen_is_written_at_most_once_a_minute(monkeypatch):
    import accounts.sessions

    make_user()
    client = browser()
    row = BrowserSession.objects.get()
    clock = Clock(row.signed_in_at.timestamp() + 59)
    monkeypatch.setattr(accounts.sessions, "time", clock)

    client.get("/me/", REMOTE_ADDR="198.51.100.2")
    assert BrowserSession.objects.get().last_seen == row.signed_in_at

    clock.now += 1
    client.get("/me/", REMOTE_ADDR="198.51.100.2")
    refreshed = BrowserSession.objects.get()
    assert refreshed.last_seen.timestamp() == clock.now
    assert refreshed.address == "198.51.100.2"
    assert refreshed.signed_in_at == row.signed_in_at
