"""Device tokens in the admin: listed and revocable, never created or shown there."""

import pytest
from django.contrib import admin
from django.test import Client
from knox.models import AuthToken
from rest_framework.test import APIClient

from accounts.models import DeviceToken
from tests.accounts.helpers import PASSWORD, login, make_user
from tests.helpers import logged_in_client

pytestmark = pytest.mark.django_db


def admin_client() -> Client:
    return logged_in_client(make_user("boss", is_staff=True, is_superuser=True))


def test_device_tokens_are_listed_without_their_digest():
    make_user()
    login(APIClient(), device="bar tablet")
    token = DeviceToken.objects.get()

    client = admin_client()
    listing = client.get("/admin/accounts/devicetoken/")
    detail = client.get(f"/admin/accounts/devicetoken/{token.pk}/change/")

    assert listing.status_code == 200
    assert "bar tablet" in listing.content.decode()
    assert detail.status_code == 200
    assert token.digest not in detail.content.decode()


def test_tokens_cannot_be_added_in_the_admin_but_can_be_revoked():
    make_user()
    login(APIClient(), device="bar tablet")
    token = DeviceToken.objects.get()
    client = admin_client()

    assert client.get("/admin/accounts/devicetoken/add/").status_code == 403
    response = client.post(f"/admin/accounts/devicetoken/{token.pk}/delete/", {"post": "yes"})

    assert response.status_code == 302
    assert not DeviceToken.objects.exists()


def test_knox_swapped_out_model_is_not_in_the_admin():
    assert not admin.site.is_registered(AuthToken)
    assert admin.site.is_registered(DeviceToken)


def test_token_login_records_last_login():
    user = make_user()
    assert user.last_login is None

    login(APIClient(), password=PASSWORD)

    user.refresh_from_db()
    assert user.last_login is not None
