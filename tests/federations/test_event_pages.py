"""Federation events on the pages: the organisers' Events section and the console box's
nominations.

What it checks: the organisers' page creates an event through its form (a bad number or a host
club of another federation shown beside its field with its status, nothing stored), shows the
nominations and the selected entrants, selects them and creates the host club's tournament (the
page then links to the host club's event); the club console's box lists the open event, takes a
nomination of the club's own player and a withdrawal, and says why it refuses one over the
quota (nothing stored); the section reads in French.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from federations import events
from federations.models import FederationEvent, FederationNomination
from tests.federations.event_world import county

pytestmark = pytest.mark.django_db

NEW_EVENT = {
    "action": "new_event",
    "name": "County Championship",
    "host_club": "north",
    "date": "2026-03-01",
    "game": "25",
    "format": "knockout",
    "rule": "top_n",
    "quota": "2",
    "season_year": "2025",
    "table_size": "2",
    "match_games": "1",
    "round_count": "",
}


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_organisers_page_runs_an_event():
    w = county()
    client = signed_in(w.secretary)
    page = reverse("federation_pages:federation", args=["kk"])
    bad = client.post(page, {**NEW_EVENT, "quota": "two"})
    assert bad.status_code == 400 and "Give a whole number." in bad.content.decode()
    outside = client.post(page, {**NEW_EVENT, "host_club": "west"})
    assert outside.status_code == 409
    assert "The host club is not a member of this federation." in outside.content.decode()
    swiss = client.post(page, {**NEW_EVENT, "format": "swiss"})
    assert swiss.status_code == 400 and "needs round_count" in swiss.content.decode()
    assert not FederationEvent.objects.exists()
    assert client.post(page, NEW_EVENT)["Location"] == page
    event = FederationEvent.objects.get()
    assert (event.host_club, event.quota, event.season_year, event.settings) == (
        w.north,
        2,
        2025,
        {"table_size": 2, "match_games": 1},
    )
    shown = client.get(page).content.decode()
    assert "County Championship" in shown and "Select the entrants" in shown
    assert client.post(page, {"action": "select_event", "event": event.pk}).status_code == 302
    shown = client.get(page).content.decode()
    assert "Selected entrants" in shown and "Tia" in shown
    assert client.post(page, {"action": "event_tournament", "event": event.pk}).status_code == 302
    event.refresh_from_db()
    link = reverse("console:event", args=["north", event.tournament_id])
    assert f'href="{link}"' in client.get(page).content.decode()
    again = client.post(page, {"action": "select_event", "event": event.pk})
    assert again.status_code == 409
    assert "no longer changes" in again.content.decode()


def test_the_console_box_nominates_the_clubs_players():
    w = county()
    event = events.create_event(
        federation=w.federation,
        user=w.secretary,
        name="Open Singles",
        host_club=w.south,
        game="25",
        format="round_robin",
        date="2026-05-01",
        rule="nominations",
        quota=1,
    )
    client = signed_in(w.north_org)
    console = reverse("console:home", args=["north"])
    assert "Open Singles" in client.get(console).content.decode()
    answer = reverse("federation_pages:console-answer", args=["north"])
    form = {"federation": "kk", "event": event.pk, "action": "nominate"}
    assert client.post(answer, {**form, "player": w.bob.pk})["Location"] == console
    nomination = FederationNomination.objects.get()
    assert (nomination.player, nomination.club, nomination.order) == (w.bob, w.north, 1)
    over = client.post(answer, {**form, "player": w.ann.pk}, follow=True)
    assert "The club has nominated 1 players, its quota." in over.content.decode()
    assert FederationNomination.objects.count() == 1
    tia = client.post(answer, {**form, "player": w.tia.pk}, follow=True)
    assert "No such player in this club." in tia.content.decode()
    withdraw = {**form, "action": "withdraw_nomination", "nomination": nomination.pk}
    assert client.post(answer, withdraw).status_code == 302
    assert not FederationNomination.objects.exists()
    # another member club's organiser cannot use north's console
    assert signed_in(w.south_org).post(answer, {**form, "player": w.bob.pk}).status_code == 404


def test_the_events_section_in_french():
    w = county()
    client = signed_in(w.secretary)
    client.cookies["django_language"] = "fr"
    page = client.get(
        reverse("federation_pages:federation", args=["kk"]), HTTP_ACCEPT_LANGUAGE="fr"
    )
    text = page.content.decode()
    assert "Événements" in text and "Nouvel événement" in text
    assert "Participants par table" in text
