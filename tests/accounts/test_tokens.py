"""Device tokens: issue, use, expiry, one per device, list, revoke, logout, me."""

from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from knox.crypto import hash_token
from rest_framework.test import APIClient

from accounts.models import DeviceToken
from clubs.models import Club, Membership
from tests.accounts.helpers import PASSWORD, client_with_token, login, make_user

pytestmark = pytest.mark.django_db


def test_token_is_issued_for_right_credentials_and_stored_hashed():
    user = make_user()
    before = timezone.now()

    response = login(APIClient(), device="bar tablet")

    assert response.status_code == 200
    body = response.json()
    token = body["token"]
    stored = DeviceToken.objects.get()
    assert stored.user == user
    assert stored.device == "bar tablet"
    assert stored.digest == hash_token(token)
    assert token not in (stored.digest, stored.token_key)
    assert body["user"] == {"id": user.pk, "username": "mary", "email": ""}
    assert body["device"]["id"] == stored.pk
    assert body["device"]["name"] == "bar tablet"
    assert body["device"]["current"] is True
    expiry = parse_datetime(body["expiry"])
    assert timedelta(days=30) <= expiry - before <= timedelta(days=30, minutes=1)


def test_device_defaults_to_default():
    make_user()

    response = login(APIClient())

    assert response.json()["device"]["name"] == "default"


def test_token_lifetime_follows_the_setting(settings):
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_TTL": timedelta(days=2)}
    make_user()
    before = timezone.now()

    response = login(APIClient())

    expiry = parse_datetime(response.json()["expiry"])
    assert timedelta(days=2) <= expiry - before <= timedelta(days=2, minutes=1)


def test_wrong_password_and_unknown_user_get_the_same_problem():
    make_user()

    wrong_password = login(APIClient(), password="not the password")
    unknown_user = login(APIClient(), username="nobody")

    for response in (wrong_password, unknown_user):
        assert response.status_code == 400
        assert response.json()["errors"] == [
            {
                "code": "invalid_credentials",
                "detail": "Unable to log in with the username and password given.",
                "pointer": "",
            }
        ]
    assert not DeviceToken.objects.exists()


def test_inactive_user_gets_no_token():
    make_user(is_active=False)

    response = login(APIClient())

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_credentials"


def test_token_authenticates_requests():
    make_user()
    token = login(APIClient()).json()["token"]

    response = client_with_token(token).get("/api/auth/me/")

    assert response.status_code == 200
    assert response.json()["username"] == "mary"


def test_no_token_is_401_not_authenticated():
    response = APIClient().get("/api/auth/me/")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["code"] == "not_authenticated"


def test_wrong_token_is_401_authentication_failed():
    make_user()
    token = login(APIClient()).json()["token"]

    response = client_with_token(token[:-4] + "0000").get("/api/auth/me/")

    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


def test_expired_token_is_refused_and_deleted():
    make_user()
    token = login(APIClient()).json()["token"]
    DeviceToken.objects.update(expiry=timezone.now() - timedelta(seconds=1))

    response = client_with_token(token).get("/api/auth/me/")

    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
    assert not DeviceToken.objects.exists()


def test_new_login_on_the_same_device_replaces_its_token():
    make_user()
    first = login(APIClient(), device="bar tablet").json()["token"]
    second = login(APIClient(), device="bar tablet").json()["token"]

    assert first != second
    assert DeviceToken.objects.filter(device="bar tablet").count() == 1
    assert client_with_token(first).get("/api/auth/me/").status_code == 401
    assert client_with_token(second).get("/api/auth/me/").status_code == 200


def test_tokens_of_different_devices_live_side_by_side():
    make_user()
    tablet = login(APIClient(), device="bar tablet").json()["token"]
    phone = login(APIClient(), device="phone").json()["token"]

    assert client_with_token(tablet).get("/api/auth/me/").status_code == 200
    assert client_with_token(phone).get("/api/auth/me/").status_code == 200


def test_devices_lists_my_unexpired_devices_newest_first():
    make_user()
    make_user("sean")
    login(APIClient(), device="bar tablet")
    phone = login(APIClient(), device="phone").json()["token"]
    login(APIClient(), device="old laptop")
    login(APIClient(), username="sean", device="sean's phone")
    DeviceToken.objects.filter(device="old laptop").update(
        expiry=timezone.now() - timedelta(minutes=1)
    )

    response = client_with_token(phone).get("/api/auth/devices/")

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2
    assert [(device["name"], device["current"]) for device in body["results"]] == [
        ("phone", True),
        ("bar tablet", False),
    ]


def test_revoking_a_device_kills_its_token_only():
    make_user()
    tablet_login = login(APIClient(), device="bar tablet").json()
    phone = login(APIClient(), device="phone").json()["token"]

    response = client_with_token(phone).delete(f"/api/auth/devices/{tablet_login['device']['id']}/")

    assert response.status_code == 204
    assert client_with_token(tablet_login["token"]).get("/api/auth/me/").status_code == 401
    assert client_with_token(phone).get("/api/auth/me/").status_code == 200


def test_revoking_someone_elses_device_is_404_and_changes_nothing():
    make_user()
    make_user("sean")
    sean = login(APIClient(), username="sean").json()
    mine = login(APIClient()).json()["token"]

    response = client_with_token(mine).delete(f"/api/auth/devices/{sean['device']['id']}/")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert client_with_token(sean["token"]).get("/api/auth/me/").status_code == 200


def test_logout_revokes_the_current_token_only():
    make_user()
    tablet = login(APIClient(), device="bar tablet").json()["token"]
    phone = login(APIClient(), device="phone").json()["token"]

    response = client_with_token(tablet).post("/api/auth/logout/")

    assert response.status_code == 204
    assert client_with_token(tablet).get("/api/auth/me/").status_code == 401
    assert client_with_token(phone).get("/api/auth/me/").status_code == 200
    assert list(DeviceToken.objects.values_list("device", flat=True)) == ["phone"]


def test_logout_without_a_token_is_401():
    response = APIClient().post("/api/auth/logout/")

    assert response.status_code == 401


def test_session_login_can_use_the_api():
    user = make_user()
    client = APIClient()
    client.force_login(user)

    response = client.get("/api/auth/me/")

    assert response.status_code == 200
    assert response.json() == {"id": user.pk, "username": "mary", "email": "", "memberships": []}


def test_me_lists_club_memberships():
    user = make_user(email="mary@example.org")
    other = make_user("sean")
    kilkenny = Club.objects.create(
        name="Kilkenny Card Club", slug="kilkenny", currency="EUR", time_zone="Europe/Dublin"
    )
    boston = Club.objects.create(
        name="Boston Forty-Fives", slug="boston", currency="USD", time_zone="America/New_York"
    )
    Membership.objects.create(club=kilkenny, user=user, role="organiser")
    Membership.objects.create(club=boston, user=user, role="player")
    Membership.objects.create(club=boston, user=other, role="organiser")
    token = login(APIClient(), password=PASSWORD).json()["token"]

    response = client_with_token(token).get("/api/auth/me/")

    assert response.json() == {
        "id": user.pk,
        "username": "mary",
        "email": "mary@example.org",
        "memberships": [
            {"club": {"slug": "boston", "name": "Boston Forty-Fives"}, "role": "player"},
            {"club": {"slug": "kilkenny", "name": "Kilkenny Card Club"}, "role": "organiser"},
        ],
    }
