"""Sign-up abuse: the page and the API share one limit per address (429 problem with
Retry-After on both), refuse the most common passwords, and send the verification link."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "saddle lantern quietly"


@pytest.fixture
def two_an_hour(monkeypatch):
    monkeypatch.setattr(
        ScopedRateThrottle, "THROTTLE_RATES", {"register": "2/hour", "verify_email": "3/hour"}
    )
    # A clock that stands still: Retry-After is then exactly the window, however slow the run.
    monkeypatch.setattr(ScopedRateThrottle, "timer", lambda self: 1_000_000.0)


def api_register(client, username: str, password: str = GOOD_PASSWORD, **extra):
    return client.post("/api/auth/register/", {"username": username, "password": password, **extra})


def test_the_api_answers_a_429_problem_with_retry_after(two_an_hour):
    client = APIClient(REMOTE_ADDR="203.0.113.7")
    assert api_register(client, "one").status_code == 201
    assert api_register(client, "two").status_code == 201

    third = api_register(client, "three")

    assert third.status_code == 429
    assert third["Content-Type"] == "application/problem+json"
    assert third["Retry-After"] == "3600"
    assert third.json()["code"] == "throttled"
    assert not get_user_model().objects.filter(username="three").exists()
    # Another address has its own count.
    assert api_register(APIClient(REMOTE_ADDR="198.51.100.2"), "four").status_code == 201


def test_the_page_answers_429_with_retry_after_on_the_same_count(two_an_hour):
    client = Client(REMOTE_ADDR="203.0.113.7")
    assert api_register(APIClient(REMOTE_ADDR="203.0.113.7"), "one").status_code == 201
    assert (
        client.post("/signup/", {"username": "two", "password": GOOD_PASSWORD}).status_code == 302
    )

    third = Client(REMOTE_ADDR="203.0.113.7").post(
        "/signup/", {"username": "three", "password": GOOD_PASSWORD}
    )

    assert third.status_code == 429
    assert third["Retry-After"] == "3600"
    assert "Too many sign-ups from here. Try again in 60 minutes." in third.content.decode()
    assert not get_user_model().objects.filter(username="three").exists()


def test_the_most_common_passwords_are_refused_on_both():
    api = api_register(APIClient(), "nora", password="password1")
    page = Client().post("/signup/", {"username": "nora", "password": "password1"})

    assert api.status_code == 400
    assert [error["detail"] for error in api.json()["errors"]] == ["This password is too common."]
    assert page.status_code == 400
    assert page.context["problem"].by_field == {"password": ["This password is too common."]}
    assert not get_user_model().objects.filter(username="nora").exists()


def test_a_sign_up_with_an_address_is_sent_its_verification_link(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        response = Client().post(
            "/signup/",
            {"username": "nora", "password": GOOD_PASSWORD, "email": "nora@example.org"},
            follow=True,
        )
        api = api_register(APIClient(), "sean", email="sean@example.org")
        api_register(APIClient(), "nobody")

    assert response.redirect_chain == [("/new-club/", 302)]
    assert (
        "Follow the link we sent to nora@example.org to get your results by e-mail."
        in response.content.decode()
    )
    assert api.status_code == 201
    assert [message.to for message in mail.outbox] == [["nora@example.org"], ["sean@example.org"]]
    assert mail.outbox[0].subject == "Confirm your e-mail address for Jink"
    link = re.search(r"http://localhost:8000(/account/verify/\S+/)", mail.outbox[0].body)
    assert link is not None
    assert Client().get(link.group(1)).status_code == 200
