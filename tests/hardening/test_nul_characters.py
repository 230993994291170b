"""A NUL character in a query parameter or a page's form field is a 400 before any view runs
(config.middleware.NulBytesMiddleware): no database text holds one, so a form or filter passing
it on would otherwise end in a 500. Nothing is stored."""

from __future__ import annotations

import pytest
from django.test import Client

from federations.models import FederationAuditEntry, FederationPlayer, FederationRole
from tests.federations import test_permission_matrix_federations as federations_matrix
from tests.helpers import logged_in_client

pytestmark = pytest.mark.django_db


def _stored() -> tuple:
    return (
        FederationAuditEntry.objects.count(),
        FederationPlayer.objects.count(),
        FederationRole.objects.count(),
    )


@pytest.mark.parametrize("content", ["multipart", "urlencoded"])
def test_a_pages_form_with_a_nul_character_is_a_400_page_and_stores_nothing(content):
    world = federations_matrix.World()
    client = logged_in_client(world.users["organiser"])
    before = _stored()
    answers = {}
    for action, field in (
        ("invite", "club"),
        ("add_organiser", "identifier"),
        ("new_player", "display_name"),
    ):
        body = {"action": action, field: "Se\x00an"}
        if content == "urlencoded":
            from urllib.parse import urlencode

            response = client.post(
                "/federations/county/",
                urlencode(body),
                content_type="application/x-www-form-urlencoded",
            )
        else:
            response = client.post("/federations/county/", body)
        answers[action] = (response.status_code, response["Content-Type"])
    assert answers == dict.fromkeys(
        ("invite", "add_organiser", "new_player"), (400, "text/html; charset=utf-8")
    )
    assert _stored() == before
    # The same forms without the NUL character are taken.
    response = client.post("/federations/county/", {"action": "new_player", "display_name": "Sean"})
    assert response.status_code == 302
    assert FederationPlayer.objects.filter(display_name="Sean").count() == 1


def test_a_query_parameter_with_a_nul_character_is_a_400_page_or_problem():
    federations_matrix.World()
    page = Client().get("/f/county/rankings/", {"club": "no\x00rth"})
    assert (page.status_code, page["Content-Type"]) == (400, "text/html; charset=utf-8")
    api = Client().get("/api/federations/", {"ordering": "\x00"})
    assert (api.status_code, api["Content-Type"], api.json()["code"]) == (
        400,
        "application/problem+json",
        "bad_request",
    )
    assert Client().get("/f/county/rankings/", {"club": "north"}).status_code == 200
