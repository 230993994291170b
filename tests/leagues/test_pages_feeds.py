"""The public league pages (English and French) and the iCalendar feeds (RFC 5545)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.test import Client

from leagues import services
from leagues.ical import fixtures_calendar, fold
from leagues.models import Fixture
from tests.leagues.factories import LeagueWorld

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    world = LeagueWorld()
    world.draw()
    fixture = Fixture.objects.get(
        league=world.league, home=world.teams["north"], away=world.teams["south"]
    )
    services.enter_result(fixture=fixture, user=world.captains["north"], home_score=2, away_score=0)
    services.accept_result(fixture=fixture, user=world.captains["south"])
    postponed = Fixture.objects.get(
        league=world.league, home=world.teams["east"], away=world.teams["north"]
    )
    services.postpone_fixture(fixture=postponed, user=world.organiser, new_date=date(2026, 12, 1))
    services.give_penalty(
        league=world.league,
        user=world.organiser,
        team=world.teams["east"],
        points=2,
        reason="Unregistered player",
    )
    world.postponed = postponed
    return world


def test_the_league_page_shows_the_table_penalties_and_fixtures(world):
    page = Client().get("/f/county/leagues/winter/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "North A" in text and "2–0" in text and "Played" in text
    assert "Unregistered player" in text and "−2" in text
    assert "Postponed" in text and f"teams/{world.teams['north'].pk}.ics" in text
    assert "clubs/east.ics" in text
    assert text.count("Bye: ") == 6  # three teams: one sits out each round
    index = Client().get("/f/county/leagues/").content.decode()
    assert "/f/county/leagues/winter/" in index


def test_the_league_page_in_french(world):
    page = Client().get("/f/county/leagues/winter/", HTTP_ACCEPT_LANGUAGE="fr")
    text = page.content.decode()
    assert "Rencontres et résultats" in text and "Pénalités" in text and "Reportée" in text
    assert "Jouée" in text and "Tour 1" in text and "Exempt : " in text


def test_a_team_feed(world):
    response = Client().get(f"/f/county/leagues/winter/teams/{world.teams['north'].pk}.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    body = response.content.decode()
    assert body.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
    assert body.endswith("END:VCALENDAR\r\n")
    assert "\n" not in body.replace("\r\n", "")
    assert body.count("BEGIN:VEVENT") == 4
    uid = f"UID:league-fixture-{world.postponed.pk}@testserver\r\n"
    event = body.split(uid, 1)[1].split("END:VEVENT", 1)[0]
    assert "DTSTART;VALUE=DATE:20261201\r\n" in event
    assert "DTEND;VALUE=DATE:20261202\r\n" in event
    assert "SEQUENCE:1\r\n" in event and "LOCATION:East\r\n" in event
    assert "SUMMARY:East A v North A\r\n" in event
    assert all(len(line.encode()) <= 75 for line in body.split("\r\n"))


def test_a_club_feed_has_every_fixture_of_its_teams(world):
    body = Client().get("/f/county/leagues/winter/clubs/south.ics").content.decode()
    assert body.count("BEGIN:VEVENT") == 4
    assert "DESCRIPTION:Winter\\nRound 1\\nPlayed\\n2–0\r\n" in body or "2–0" in body


def test_folding_and_escaping_exactly():
    line = "DESCRIPTION:" + "é" * 40
    folded = fold(line)
    parts = folded.split("\r\n ")
    assert "".join(parts) == line
    assert [len(part.encode()) for part in parts] == [74, 18]

    class Club:
        name = "Kelly's, Ennis; upstairs"

    class Team:
        def __init__(self, name):
            self.name, self.club = name, Club()

    class League:
        name = "Winter"

    class Fake:
        pk, round, home_score, away_score, original_date = 7, 2, None, None, None
        date = date(2026, 9, 8)
        home, away, league = Team("A"), Team("B"), League()

        def get_status_display(self):
            return "Scheduled"

    text = fixtures_calendar(
        [Fake()], name="A", host="jink.example", now=datetime(2026, 9, 1, 12, 0, tzinfo=UTC)
    )
    assert text == (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Jink//Leagues//EN\r\n"
        "CALSCALE:GREGORIAN\r\nMETHOD:PUBLISH\r\nX-WR-CALNAME:A\r\n"
        "BEGIN:VEVENT\r\nUID:league-fixture-7@jink.example\r\nDTSTAMP:20260901T120000Z\r\n"
        "DTSTART;VALUE=DATE:20260908\r\nDTEND;VALUE=DATE:20260909\r\nSUMMARY:A v B\r\n"
        "LOCATION:Kelly's\\, Ennis\\; upstairs\r\n"
        "DESCRIPTION:Winter\\nRound 2\\nScheduled\r\nSEQUENCE:0\r\nSTATUS:CONFIRMED\r\n"
        "END:VEVENT\r\nEND:VCALENDAR\r\n"
    )


def test_unknown_ids_are_404(world):
    client = Client()
    assert client.get("/f/county/leagues/summer/").status_code == 404
    assert client.get("/f/county/leagues/winter/teams/999999.ics").status_code == 404
    assert client.get("/f/nowhere/leagues/").status_code == 404
