"""A federation's organisers, added and removed by its organisers (service, API and page).

What it checks: an organiser adds an existing account by its username or its e-mail address
(case-insensitive), and removes one, their own role included; each is audited with the account.
Refused, storing nothing: an unknown account, an e-mail nobody or several accounts use
(``no_such_account``, 400 at ``/identifier``), an account already an organiser (``unique``),
the last organiser (``last_organiser``, 409); a user who is no organiser of this federation is a
404 under its URL. The organisers' page lists them and its forms do the same through the service.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from config.problems import Problem
from federations import organisers as service
from federations.models import FederationAuditEntry, FederationRole
from tests.clubs.factories import make_user
from tests.federations.factories import make_federation

pytestmark = pytest.mark.django_db


def organisers(federation) -> list[str]:
    return list(
        FederationRole.objects.filter(federation=federation)
        .order_by("pk")
        .values_list("user__username", flat=True)
    )


def audit(federation) -> list[tuple]:
    return list(
        FederationAuditEntry.objects.filter(federation=federation)
        .order_by("pk")
        .values_list("kind", "user__username", "details")
    )


@pytest.fixture
def board():
    secretary = make_user("secretary")
    return make_federation("kk", organiser=secretary), secretary


def test_add_by_username_or_email_and_remove(board):
    federation, secretary = board
    treasurer = make_user("treasurer", email="Treasurer@Example.ie")
    chair = make_user("chair")
    service.add_organiser(federation=federation, user=secretary, identifier="CHAIR")
    service.add_organiser(federation=federation, user=secretary, identifier="treasurer@example.ie")
    assert organisers(federation) == ["secretary", "chair", "treasurer"]
    role = FederationRole.objects.get(federation=federation, user=chair)
    service.remove_organiser(federation=federation, user=treasurer, role=role)
    assert organisers(federation) == ["secretary", "treasurer"]
    assert audit(federation) == [
        ("organiser_added", "secretary", {"organiser": chair.pk}),
        ("organiser_added", "secretary", {"organiser": treasurer.pk}),
        ("organiser_removed", "treasurer", {"organiser": chair.pk}),
    ]


@pytest.mark.parametrize(
    ("identifier", "code"),
    [
        ("nobody", "no_such_account"),
        ("nobody@example.ie", "no_such_account"),
        ("shared@example.ie", "no_such_account"),  # two accounts: neither is picked
        ("secretary", "unique"),
    ],
)
def test_add_refused(board, identifier, code):
    federation, secretary = board
    make_user("one", email="shared@example.ie")
    make_user("two", email="shared@example.ie")
    with pytest.raises(Problem) as problem:
        service.add_organiser(federation=federation, user=secretary, identifier=identifier)
    assert (problem.value.code, problem.value.errors[0]["pointer"]) == (code, "/identifier")
    assert organisers(federation) == ["secretary"]
    assert audit(federation) == []


def test_the_last_organiser_stays(board):
    federation, secretary = board
    role = FederationRole.objects.get(federation=federation)
    with pytest.raises(Problem) as problem:
        service.remove_organiser(federation=federation, user=secretary, role=role)
    assert (problem.value.code, problem.value.status_code) == ("last_organiser", 409)
    assert organisers(federation) == ["secretary"]
    assert audit(federation) == []


def test_the_api(board):
    federation, secretary = board
    chair = make_user("chair", email="chair@example.ie")
    api = APIClient()
    api.force_authenticate(secretary)
    url = "/api/federations/kk/organisers/"
    added = api.post(url, {"identifier": "chair@example.ie"}, format="json")
    assert added.status_code == 201
    assert added.json() == {
        "user": chair.pk,
        "username": "chair",
        "since": added.json()["since"],
    }
    listed = api.get(url).json()
    assert [(each["user"], each["username"]) for each in listed] == [
        (secretary.pk, "secretary"),
        (chair.pk, "chair"),
    ]
    unknown = api.post(url, {"identifier": "ghost"}, format="json")
    assert unknown.status_code == 400
    assert [(e["code"], e["pointer"]) for e in unknown.json()["errors"]] == [
        ("no_such_account", "/identifier")
    ]
    extra = api.post(url, {"identifier": "chair", "role": "boss"}, format="json")
    assert extra.status_code == 400
    assert api.delete(f"{url}{make_user('stranger').pk}/").status_code == 404
    assert api.delete(f"{url}{secretary.pk}/").status_code == 204
    assert organisers(federation) == ["chair"]
    chair_api = APIClient()
    chair_api.force_authenticate(chair)
    last = chair_api.delete(f"{url}{chair.pk}/")
    assert (last.status_code, last.json()["errors"][0]["code"]) == (409, "last_organiser")
    assert organisers(federation) == ["chair"]
    # the secretary stepped down: the federation's organiser routes are closed to them now
    assert api.get(url).status_code == 403


def test_the_page(board):
    federation, secretary = board
    make_user("chair")
    client = Client()
    client.force_login(secretary)
    page = reverse("federation_pages:federation", kwargs={"slug": "kk"})
    shown = client.get(page).content.decode()
    assert 'id="organisers"' in shown and "secretary" in shown
    assert 'value="remove_organiser"' not in shown  # the only organiser: nothing to remove
    refused = client.post(page, {"action": "add_organiser", "identifier": "ghost"})
    assert refused.status_code == 400
    assert "No account can be added with that username or e-mail." in refused.content.decode()
    added = client.post(page, {"action": "add_organiser", "identifier": "chair"})
    assert (added.status_code, added["Location"]) == (302, page)
    assert organisers(federation) == ["secretary", "chair"]
    assert 'value="remove_organiser"' in client.get(page).content.decode()
    stepped_down = client.post(page, {"action": "remove_organiser", "organiser": secretary.pk})
    assert (stepped_down.status_code, stepped_down["Location"]) == (
        302,
        reverse("federation_pages:index"),
    )
    assert organisers(federation) == ["chair"]
    assert client.get(page).status_code == 403
