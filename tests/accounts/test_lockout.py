"""Repeated failed logins lock out (django-axes) the token endpoint, login page and admin."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client
from rest_framework.test import APIClient

from tests.accounts.helpers import PASSWORD, login, make_user

pytestmark = pytest.mark.django_db

LOCKED_OUT_DETAIL = "Too many failed logins. Try again in 15 minutes."


def test_token_endpoint_locks_out_after_five_failures():
    make_user()
    client = APIClient()

    statuses = [login(client, password=f"wrong {attempt}").status_code for attempt in range(5)]
    locked = login(client)  # even the right password is refused now

    assert statuses == [400, 400, 400, 400, 429]
    assert locked.status_code == 429
    assert locked["Content-Type"] == "application/problem+json"
    assert locked["Retry-After"] == "900"
    assert locked.json() == {
        "type": "urn:jink:problem:locked_out",
        "title": "Too many requests.",
        "status": 429,
        "detail": LOCKED_OUT_DETAIL,
        "code": "locked_out",
        "errors": [{"code": "locked_out", "detail": LOCKED_OUT_DETAIL, "pointer": None}],
    }


def test_a_success_before_the_limit_resets_the_count():
    make_user()
    client = APIClient()
    for attempt in range(4):
        login(client, password=f"wrong {attempt}")
    assert login(client).status_code == 200

    statuses = [login(client, password=f"wrong {attempt}").status_code for attempt in range(4)]

    assert statuses == [400, 400, 400, 400]
    assert login(client).status_code == 200


def test_lockout_is_per_address_so_a_stranger_cannot_lock_a_member_out():
    make_user()
    for attempt in range(5):
        login(APIClient(REMOTE_ADDR="203.0.113.9"), password=f"wrong {attempt}")

    assert login(APIClient(REMOTE_ADDR="203.0.113.9")).status_code == 429
    assert login(APIClient(REMOTE_ADDR="198.51.100.7")).status_code == 200


def test_lockout_ends_after_the_cool_off():
    make_user()
    client = APIClient()
    for attempt in range(5):
        login(client, password=f"wrong {attempt}")
    attempt = AccessAttempt.objects.get()
    AccessAttempt.objects.filter(pk=attempt.pk).update(
        attempt_time=attempt.attempt_time - timedelta(minutes=16)
    )

    assert login(client).status_code == 200


def test_login_page_locks_out_after_five_failures():
    make_user()
    client = Client()

    statuses = [
        client.post("/accounts/login/", {"username": "mary", "password": f"wrong {n}"}).status_code
        for n in range(5)
    ]
    locked = client.post("/accounts/login/", {"username": "mary", "password": PASSWORD})

    assert statuses == [200, 200, 200, 200, 429]
    assert locked.status_code == 429
    assert LOCKED_OUT_DETAIL in locked.content.decode()
    assert "_auth_user_id" not in client.session


def test_login_page_logs_in_with_the_right_password():
    make_user()
    client = Client()

    response = client.post("/accounts/login/", {"username": "mary", "password": PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert "_auth_user_id" in client.session


def test_admin_login_locks_out_too():
    make_user("boss", is_staff=True, is_superuser=True)
    client = Client()

    statuses = [
        client.post(
            "/admin/login/", {"username": "boss", "password": f"wrong {n}", "next": "/admin/"}
        ).status_code
        for n in range(5)
    ]
    locked = client.post(
        "/admin/login/", {"username": "boss", "password": PASSWORD, "next": "/admin/"}
    )

    assert statuses == [200, 200, 200, 200, 429]
    assert locked.status_code == 429
    assert client.get("/admin/").status_code == 302  # still not logged in
