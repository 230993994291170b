"""The federation's own pages: a new federation, the organisers' page and its forms, the
player's public choices.

What it checks: a signed-in user creates a federation from the list page and is its organiser;
on the organisers' page the forms invite a club, add a player, link a member club's player, merge
and undo the merge, unlink, each through the services (the audit says so); a refusal is shown
beside its form with its status and stores nothing; the player changes their choices, an
organiser only reads them.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from federations.models import Federation, FederationAuditEntry, FederationPlayer, PlayerLink
from tests.clubs.factories import make_club, make_player, make_user
from tests.federations.factories import (
    make_federation,
    make_federation_player,
    make_link,
    make_member,
)

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_new_federation_from_the_list_page():
    client = signed_in(make_user("secretary"))
    index = reverse("federation_pages:index")
    bad = client.post(index, {"name": "Board", "slug": "no spaces", "currency": "EUR"})
    assert bad.status_code == 400 and not Federation.objects.exists()
    assert "Letters, digits and hyphens only" in bad.content.decode()
    made = client.post(
        index, {"name": "Kilkenny Board", "slug": "kk", "currency": "EUR", "levy_rate": "0.40"}
    )
    assert made["Location"] == reverse("federation_pages:federation", args=["kk"])
    federation = Federation.objects.get()
    assert (federation.levy_rate_minor, federation.roles.get().user.username) == (40, "secretary")


def test_the_organisers_page_runs_the_records():
    secretary = make_user("secretary")
    federation = make_federation("kk", organiser=secretary)
    north = make_club("north")
    make_member(federation, north)
    make_club("south")
    ann = make_player(north, "Ann")
    client = signed_in(secretary)
    page = reverse("federation_pages:federation", args=["kk"])
    assert client.post(page, {"action": "invite", "club": "south"}).status_code == 302
    unknown = client.post(page, {"action": "invite", "club": "nowhere"})
    assert unknown.status_code == 400 and "No club has this slug." in unknown.content.decode()
    client.post(page, {"action": "new_player", "display_name": "Ann Byrne"})
    client.post(page, {"action": "new_player", "display_name": "A. Byrne"})
    first, second = FederationPlayer.objects.order_by("pk")
    client.post(page, {"action": "link", "player": ann.pk, "federation_player": second.pk})
    client.post(page, {"action": "merge", "source": second.pk, "target": first.pk})
    assert PlayerLink.objects.current().get().federation_player_id == first.pk
    merge = FederationAuditEntry.objects.get(kind="merged")
    client.post(page, {"action": "unmerge", "merge": merge.pk})
    link = PlayerLink.objects.current().get()
    assert link.federation_player_id == second.pk
    again = client.post(page, {"action": "unmerge", "merge": merge.pk})
    assert again.status_code == 409 and "This merge was already undone." in again.content.decode()
    client.post(page, {"action": "unlink", "link": link.pk})
    assert not PlayerLink.objects.current().exists()
    shown = client.get(page).content.decode()
    assert "Ann Byrne" in shown and "South" in shown
    assert list(federation.audit_entries.order_by("pk").values_list("kind", flat=True)) == [
        "club_invited",
        "player_created",
        "player_created",
        "linked",
        "merged",
        "unmerged",
        "unlinked",
    ]


def test_the_player_sets_their_choices_and_an_organiser_only_reads_them():
    secretary, nora = make_user("secretary"), make_user("nora")
    federation = make_federation("kk", organiser=secretary)
    north = make_club("north")
    make_member(federation, north)
    person = make_federation_player(federation, "Nora Kelly")
    make_link(person, make_player(north, "Nora", user=nora))
    url = reverse("federation_pages:player", args=["kk", person.pk])
    saved = signed_in(nora).post(url, {"name_shown": "initials"})
    assert saved.status_code == 200 and "N. K." in saved.content.decode()
    person.refresh_from_db()
    assert (person.name_shown, person.ranking_shown) == ("initials", False)
    assert signed_in(secretary).get(url).status_code == 200
    assert signed_in(secretary).post(url, {"name_shown": "full"}).status_code == 403
    person.refresh_from_db()
    assert person.name_shown == "initials"
