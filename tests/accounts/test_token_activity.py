"""When a device token was last used and where from: recorded at most once a minute, at sign-in at
once, shown by the devices list and the account page, gone with the token."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

import accounts.token_activity
from accounts.models import DeviceToken
from accounts.services import issue_device_token
from tests.accounts.helpers import client_with_token, login, make_user
from tests.accounts.test_sessions import FIREFOX, Clock, browser

pytestmark = pytest.mark.django_db

# GET /api/auth/me/ by token: the token and its user, the user's other tokens (knox), the
# memberships.
ME_QUERIES = 3
START = 1_800_000_000.0  # a fixed moment (2027-01-15 08:00 UTC)


@pytest.fixture
def clock(monkeypatch) -> Clock:
    """One clock for the recorded moment and for the cache's expiry of the token's minute."""
    import django.core.cache.backends.base
    import django.core.cache.backends.locmem

    clock = Clock(START)
    for module in (
        accounts.token_activity,
        django.core.cache.backends.base,
        django.core.cache.backends.locmem,
    ):
        monkeypatch.setattr(module, "time", clock)
    return clock


def moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)


def never_used_token(device: str = "bar tablet") -> tuple[DeviceToken, APIClient]:
    """A token issued without a sign-in request (a script's, the admin's): nothing recorded."""
    device_token, token = issue_device_token(user=make_user(), device=device)
    return device_token, client_with_token(token)


def test_the_first_request_records_the_moment_and_the_address(clock, django_assert_num_queries):
    device_token, client = never_used_token()
    assert (device_token.last_used, device_token.address) == (None, None)

    with django_assert_num_queries(ME_QUERIES + 1):  # + the UPDATE of the token's row
        assert client.get("/api/auth/me/", REMOTE_ADDR="203.0.113.5").status_code == 200

    device_token.refresh_from_db()
    assert (device_token.last_used, device_token.address) == (moment(START), "203.0.113.5")


def test_a_second_request_within_the_minute_writes_nothing_and_one_after_it_does(
    clock, django_assert_num_queries
):
    device_token, client = never_used_token()
    client.get("/api/auth/me/", REMOTE_ADDR="203.0.113.5")

    clock.now = START + 59
    with django_assert_num_queries(ME_QUERIES):
        assert client.get("/api/auth/me/", REMOTE_ADDR="198.51.100.2").status_code == 200
    device_token.refresh_from_db()
    assert (device_token.last_used, device_token.address) == (moment(START), "203.0.113.5")

    clock.now = START + 60
    with django_assert_num_queries(ME_QUERIES + 1):
        assert client.get("/api/auth/me/", REMOTE_ADDR="198.51.100.2").status_code == 200
    device_token.refresh_from_db()
    assert (device_token.last_used, device_token.address) == (moment(START + 60), "198.51.100.2")


def test_each_token_has_its_own_minute(clock):
    user = make_user()
    tablet, tablet_token = issue_device_token(user=user, device="bar tablet")
    phone, phone_token = issue_device_token(user=user, device="phone")
    client_with_token(tablet_token).get("/api/auth/me/", REMOTE_ADDR="203.0.113.5")

    clock.now = START + 10
    client_with_token(phone_token).get("/api/auth/me/", REMOTE_ADDR="198.51.100.2")

    tablet.refresh_from_db()
    phone.refresh_from_db()
    assert (tablet.last_used, tablet.address) == (moment(START), "203.0.113.5")
    assert (phone.last_used, phone.address) == (moment(START + 10), "198.51.100.2")


def test_a_refused_token_records_nothing(clock):
    device_token, _client = never_used_token()

    response = client_with_token("0" * 64).get("/api/auth/me/", REMOTE_ADDR="203.0.113.5")

    assert response.status_code == 401
    device_token.refresh_from_db()
    assert (device_token.last_used, device_token.address) == (None, None)


def test_an_unreadable_address_records_the_moment_only(clock):
    device_token, client = never_used_token()

    client.get("/api/auth/me/", REMOTE_ADDR="not an address")

    device_token.refresh_from_db()
    assert (device_token.last_used, device_token.address) == (moment(START), None)


def test_the_sign_in_records_its_address_at_once_and_opens_the_minute(
    clock, django_assert_num_queries
):
    make_user()

    response = login(APIClient(REMOTE_ADDR="203.0.113.5"), device="bar tablet")

    assert response.status_code == 200
    device = response.json()["device"]
    assert (device["last_used"], device["address"]) == ("2027-01-15T08:00:00Z", "203.0.113.5")
    stored = DeviceToken.objects.get()
    assert (stored.last_used, stored.address) == (moment(START), "203.0.113.5")
    client = client_with_token(response.json()["token"])
    clock.now = START + 30
    with django_assert_num_queries(ME_QUERIES):  # the sign-in's minute: nothing to write
        client.get("/api/auth/me/", REMOTE_ADDR="198.51.100.2")
    stored.refresh_from_db()
    assert (stored.last_used, stored.address) == (moment(START), "203.0.113.5")


def test_the_devices_list_shows_when_and_where_from(clock):
    user = make_user()
    used, used_token = issue_device_token(user=user, device="bar tablet")
    issue_device_token(user=user, device="phone")
    client = client_with_token(used_token)
    client.get("/api/auth/me/", REMOTE_ADDR="203.0.113.5")

    clock.now = START + 30
    body = client.get("/api/auth/devices/", REMOTE_ADDR="198.51.100.2").json()

    assert [
        (device["name"], device["last_used"], device["address"]) for device in body["results"]
    ] == [
        ("phone", None, None),
        ("bar tablet", "2027-01-15T08:00:00Z", "203.0.113.5"),
    ]


def page_row(client: Client, device_token: DeviceToken) -> str:
    page = client.get("/account/").content.decode()
    return page.split(f'id="device-{device_token.pk}"')[1].split("</li>")[0]


def used(user, device: str, *, minutes_ago: int, address: str | None) -> DeviceToken:
    device_token, _token = issue_device_token(user=user, device=device)
    DeviceToken.objects.filter(pk=device_token.pk).update(
        last_used=timezone.now() - timedelta(minutes=minutes_ago, seconds=10), address=address
    )
    return device_token


def test_the_account_page_shows_when_and_where_from_or_never_used():
    user = make_user()
    this = browser(FIREFOX)
    three_minutes = used(user, "bar tablet", minutes_ago=3, address="203.0.113.5")
    just_now = used(user, "phone", minutes_ago=0, address="198.51.100.2")
    no_address = used(user, "laptop", minutes_ago=3, address=None)
    never, _token = issue_device_token(user=user, device="new")

    assert "last used 3\xa0minutes ago from 203.0.113.5" in page_row(this, three_minutes)
    assert "last used just now from 198.51.100.2" in page_row(this, just_now)
    assert "last used 3\xa0minutes ago</span>" in page_row(this, no_address)
    assert "never used" in page_row(this, never)
    assert "never used" not in page_row(this, three_minutes)


def test_the_account_page_in_french():
    user = make_user()
    this = browser(FIREFOX)
    this.cookies["django_language"] = "fr"
    three_minutes = used(user, "bar tablet", minutes_ago=3, address="203.0.113.5")
    never, _token = issue_device_token(user=user, device="new")

    assert "utilisé il y a 3\xa0minutes depuis 203.0.113.5" in page_row(this, three_minutes)
    assert "jamais utilisé" in page_row(this, never)


def test_ending_a_token_removes_its_activity(clock):
    device_token, client = never_used_token()
    client.get("/api/auth/me/", REMOTE_ADDR="203.0.113.5")
    this = browser(FIREFOX)

    response = this.post(f"/account/devices/{device_token.pk}/end/")

    assert (response.status_code, response["Location"]) == (302, "/account/")
    assert not DeviceToken.objects.filter(address="203.0.113.5").exists()
    assert not DeviceToken.objects.filter(last_used__isnull=False).exists()


def test_the_schema_shows_both_read_only_and_keeps_the_token_scheme():
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()

    properties = schema["components"]["schemas"]["DeviceOutput"]["properties"]
    assert properties["last_used"]["type"] == ["string", "null"]
    assert properties["last_used"]["format"] == "date-time"
    assert properties["address"]["type"] == ["string", "null"]
    assert properties["last_used"]["readOnly"] is properties["address"]["readOnly"] is True
    token_scheme = schema["components"]["securitySchemes"]["knoxApiToken"]
    assert (token_scheme["type"], token_scheme["scheme"]) == ("http", "Token")
    assert schema["paths"]["/api/auth/devices/"]["get"]["security"][0] == {"knoxApiToken": []}
