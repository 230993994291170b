"""The home page and the session login page."""

import pytest
from django.test import Client

from clubs.models import Club


@pytest.mark.django_db
def test_home_page_links_to_the_docs_and_login_only():
    response = Client().get("/")

    assert response.status_code == 200
    page = response.content.decode()
    assert 'href="/api/docs/"' in page
    # The admin is for staff: an anonymous visitor is not offered it (tests/console/test_pages.py
    # checks a staff member is).
    assert 'href="/admin/"' not in page
    assert 'href="/accounts/login/"' in page
    assert "/static/css/jink.css" in page


@pytest.mark.django_db
def test_home_page_lists_clubs_with_public_standings_only():
    Club.objects.create(
        name="Kilkenny Card Club",
        slug="kilkenny",
        currency="EUR",
        time_zone="Europe/Dublin",
        public_standings=True,
    )
    Club.objects.create(
        name="Private Forty-Fives", slug="private", currency="EUR", time_zone="Europe/Dublin"
    )

    page = Client().get("/").content.decode()

    assert "Kilkenny Card Club" in page
    assert "Private Forty-Fives" not in page


@pytest.mark.django_db
def test_login_page_has_a_form_with_csrf():
    response = Client().get("/accounts/login/")

    assert response.status_code == 200
    page = response.content.decode()
    assert 'name="username"' in page
    assert 'name="password"' in page
    assert "csrfmiddlewaretoken" in page


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "options"])
def test_home_page_answers_only_get_and_head(method):
    response = getattr(Client(), method)("/")

    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
