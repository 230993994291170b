"""The account page (/account/): the signed-in browsers and device tokens listed, one ended, all
but this one ended, another account's refused; its query count pinned."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import BrowserSession, DeviceToken
from tests.accounts.helpers import client_with_token, login, make_user
from tests.accounts.test_sessions import FIREFOX, SAFARI_IPHONE, browser

pytestmark = pytest.mark.django_db


def rows_of(page: str) -> list[str]:
    return [line.split('"')[1] for line in page.split("<li id=")[1:]]


def test_the_page_lists_browsers_this_one_first_and_device_tokens():
    make_user(email="mary@example.org")
    other = browser(SAFARI_IPHONE, address="198.51.100.2")
    this = browser(FIREFOX)
    login(APIClient(), device="bar tablet")
    mine = BrowserSession.objects.get(user_agent=FIREFOX)
    theirs = BrowserSession.objects.get(user_agent=SAFARI_IPHONE)
    token = DeviceToken.objects.get()

    response = this.get("/account/")

    assert response.status_code == 200
    page = response.content.decode()
    assert rows_of(page) == [f"browser-{mine.pk}", f"browser-{theirs.pk}", f"device-{token.pk}"]
    this_row = page.split(f'id="browser-{mine.pk}"')[1].split("</li>")[0]
    their_row = page.split(f'id="browser-{theirs.pk}"')[1].split("</li>")[0]
    assert "Firefox on Windows" in this_row and "this browser" in this_row
    assert "from 203.0.113.7" in this_row and "last used just now" in this_row
    assert "Safari on iPhone" in their_row and "this browser" not in their_row
    assert "from 198.51.100.2" in their_row
    assert "bar tablet" in page
    assert other.get("/me/").status_code == 200


def test_the_page_needs_a_sign_in():
    response = Client().get("/account/")
    assert (response.status_code, response["Location"]) == (302, "/accounts/login/?next=/account/")


def test_ending_another_browser_signs_it_out_at_its_next_request():
    make_user()
    other = browser(SAFARI_IPHONE)
    this = browser()
    theirs = BrowserSession.objects.get(user_agent=SAFARI_IPHONE)

    response = this.post(f"/account/sessions/{theirs.pk}/end/")

    assert (response.status_code, response["Location"]) == (302, "/account/")
    assert list(BrowserSession.objects.values_list("user_agent", flat=True)) == [FIREFOX]
    assert other.get("/me/").status_code == 302
    assert this.get("/me/").status_code == 200


def test_ending_this_browser_signs_it_out():
    make_user()
    this = browser()
    mine = BrowserSession.objects.get()

    response = this.post(f"/account/sessions/{mine.pk}/end/")

    assert (response.status_code, response["Location"]) == (302, "/")
    assert not BrowserSession.objects.filter(user__isnull=False).exists()
    assert this.get("/me/").status_code == 302


def test_revoking_a_device_token():
    make_user()
    this = browser()
    token = login(APIClient(), device="bar tablet").json()["token"]

    response = this.post(f"/account/devices/{DeviceToken.objects.get().pk}/end/")

    assert (response.status_code, response["Location"]) == (302, "/account/")
    assert not DeviceToken.objects.exists()
    assert client_with_token(token).get("/api/auth/me/").status_code == 401


def test_ending_all_but_this_one():
    make_user()
    other = browser(SAFARI_IPHONE)
    this = browser()
    token = login(APIClient(), device="bar tablet").json()["token"]

    response = this.post("/account/end-others/", follow=True)

    assert "2 other browsers and devices signed out." in response.content.decode()
    assert list(BrowserSession.objects.values_list("user_agent", flat=True)) == [FIREFOX]
    assert not DeviceToken.objects.exists()
    assert other.get("/me/").status_code == 302
    assert client_with_token(token).get("/api/auth/me/").status_code == 401
    assert this.get("/me/").status_code == 200


def test_another_accounts_session_or_token_is_a_404_and_stays():
    make_user()
    make_user("john")
    browser()
    login(APIClient(), username="john", device="phone")
    johns = Client()
    johns.post("/accounts/login/", {"username": "john", "password": "correct horse battery staple"})
    marys_session = BrowserSession.objects.get(user__username="mary")

    assert johns.post(f"/account/sessions/{marys_session.pk}/end/").status_code == 404
    assert johns.post("/account/devices/999999/end/").status_code == 404
    this = browser()
    assert this.post(f"/account/devices/{DeviceToken.objects.get().pk}/end/").status_code == 404
    assert BrowserSession.objects.count() == 3
    assert DeviceToken.objects.count() == 1


def test_ending_needs_a_post():
    make_user()
    this = browser()
    assert this.get("/account/end-others/").status_code == 405
    assert BrowserSession.objects.count() == 1


def test_the_page_costs_a_fixed_number_of_queries(django_assert_num_queries):
    make_user(email="mary@example.org")
    this = browser()
    browser(SAFARI_IPHONE)
    for device in ("phone", "bar tablet"):
        login(APIClient(), device=device)

    # The session, the user, the browsers, the tokens, the address's verification.
    with django_assert_num_queries(5):
        assert this.get("/account/").status_code == 200


def test_the_page_in_french():
    make_user()
    this = browser()
    this.cookies["django_language"] = "fr"

    page = this.get("/account/").content.decode()

    assert "Navigateurs connectés" in page
    assert "Firefox sur Windows" in page and "ce navigateur" in page
    assert "utilisé à l'instant" in page or "utilisé à l&#x27;instant" in page
