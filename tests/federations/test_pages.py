"""The federation pages: the levy page and its CSV (same numbers), and the console's box.

What it checks: the levy page shows each member club's sessions and levy in the page's money
format, the CSV the same numbers by ``amount_string``, a bad period is a 400 beside the form;
the club console shows a pending invitation and a proposed link, and its forms join, leave and
confirm the link through the services (an impossible answer is a message, nothing stored).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.test import Client
from django.urls import reverse

from federations import services
from federations.models import FederationMembership, PlayerLink
from tests.clubs.factories import make_club, make_membership, make_player, make_user
from tests.federations.factories import (
    make_federation,
    make_federation_player,
    make_invited,
    make_member,
)
from tests.federations.levy_helpers import night_game

pytestmark = pytest.mark.django_db

DUBLIN = zoneinfo.ZoneInfo("Europe/Dublin")


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_levy_page_and_its_csv_show_the_same_numbers():
    secretary = make_user("secretary")
    federation = make_federation(organiser=secretary, levy_rate_minor=125)
    club = make_club("north")
    make_member(federation, club, accepted_at=dt.datetime(2026, 3, 1, tzinfo=DUBLIN))
    players = [make_player(club, name) for name in ("Ann", "Brid", "Con")]
    night_game(club, players, dt.datetime(2026, 3, 3, 20, tzinfo=DUBLIN))
    client = signed_in(secretary)
    query = {"from": "2026-03-01", "to": "2026-03-31"}
    page = client.get(reverse("federation_pages:levy", args=["county-board"]), query)
    assert page.status_code == 200
    assert "<tr><td>North</td><td>3</td><td>€3.75</td></tr>" in page.content.decode()
    csv = client.get(reverse("federation_pages:levy-csv", args=["county-board"]), query)
    assert csv["Content-Type"] == "text/csv; charset=utf-8"
    assert (
        csv.content.decode().splitlines()[1] == "North,north,2026-03-01,2026-03-31,3,1.25,3.75,EUR"
    )
    bad = client.get(reverse("federation_pages:levy", args=["county-board"]), {"from": "x"})
    assert bad.status_code == 400
    assert "from: not a date" in bad.content.decode()


def test_the_console_box_joins_confirms_a_link_and_leaves():
    secretary, club_organiser = make_user("secretary"), make_user("club-organiser")
    federation = make_federation(organiser=secretary)
    club = make_club("north")
    make_membership(club, club_organiser, "organiser")
    make_invited(federation, club)
    client = signed_in(club_organiser)
    home = reverse("console:home", args=["north"])
    answer = reverse("federation_pages:console-answer", args=["north"])
    assert "County Board invites the club to join." in client.get(home).content.decode()
    response = client.post(answer, {"action": "accept", "federation": "county-board"})
    assert response.status_code == 302 and response["Location"] == home
    assert FederationMembership.objects.get().state == "member"
    mary = make_player(club, "Mary")
    person = make_federation_player(federation, "Mary Byrne")
    invitation = services.invite_link(
        federation=federation, user=secretary, federation_player=person, player=mary
    )
    assert "County Board says Mary is Mary Byrne." in client.get(home).content.decode()
    client.post(
        answer,
        {"action": "accept_link", "federation": "county-board", "invitation": invitation.pk},
    )
    assert PlayerLink.objects.current().get().how == "invitation"
    # Accepting again: no invitation left (404), nothing stored.
    gone = client.post(
        answer, {"action": "accept_link", "federation": "county-board", "invitation": invitation.pk}
    )
    assert gone.status_code == 404
    client.post(answer, {"action": "leave", "federation": "county-board"})
    assert FederationMembership.objects.get().state == "ended"
    refused = client.post(answer, {"action": "leave", "federation": "county-board"}, follow=True)
    assert "The club is not a member of this federation." in refused.content.decode()
    assert FederationMembership.objects.count() == 1


def test_the_levy_page_and_the_console_box_speak_french():
    secretary, club_organiser = make_user("secretary"), make_user("club-organiser")
    federation = make_federation(organiser=secretary)
    club = make_club("north")
    make_membership(club, club_organiser, "organiser")
    make_invited(federation, club)
    levy_page = signed_in(secretary).get(
        reverse("federation_pages:levy", args=["county-board"]), HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert "Séances-joueur" in levy_page.content.decode()
    assert "Cotisation due" in levy_page.content.decode()
    home = signed_in(club_organiser).get(
        reverse("console:home", args=["north"]), HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert "County Board invite le club à la rejoindre." in home.content.decode()
    assert ">Rejoindre</button>" in home.content.decode()
