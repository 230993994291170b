"""A club night's door in Chromium: a player's own phone checks in with the night's door code,
and the night's console list and its hall screen show them.

What it proves, on a live server with an open club night: a phone (390 x 844, no login) opens the
night's door code, picks a name and taps "Check me in"; the console's night page, left open on a
tablet, lists the player at its check-in list's next poll (htmx every 3 s, driven by
``page.clock``), and the night's hall screen on the TV (1920 x 1080, its link open, no login)
lists them among those checked in at its next poll (every second). The phone's page has no axe
violation, no target under 44 px and nothing scrolling sideways.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import PHONE, TABLET_LANDSCAPE
from tests.helpers import log_in
from tests.pages.axe import sideways, small_targets, violations

pytestmark = pytest.mark.slow

PASSWORD = "night-door-pass-123"


@pytest.fixture
def door_night(transactional_db):
    from settlements import attendance
    from settlements.services import open_night
    from tests.tournaments.play_helpers import build_event

    event = build_event(players=6)
    organiser = event.world.users["organiser"]
    organiser.set_password(PASSWORD)
    organiser.save()
    night = open_night(club=event.club, user=organiser, name="Tuesday night")
    _code, token = attendance.create_night_door_code(night_id=night.pk, user=organiser)
    return event, night, token


def test_a_phones_self_check_in_shows_on_the_nights_console_and_hall_screen(
    live_server, new_context, outside_requests, door_night
):
    from hall import services as hall_services

    event, night, token = door_night
    organiser = event.world.users["organiser"]
    _link, hall_token, _code = hall_services.create_hall_link(night_id=night.pk, user=organiser)
    hall = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    hall.clock.install()
    hall.goto(f"{live_server.url}/h/{hall_token}/")
    hall.wait_for_selector("body[data-ready=true]")
    expect(hall.locator("body")).to_have_attribute("data-panel", "waiting")
    expect(hall.locator("#present")).to_have_count(0)  # nobody is here yet

    console = new_context(viewport=TABLET_LANDSCAPE).new_page()
    console.clock.install()
    log_in(console, live_server.url, organiser.username, PASSWORD)
    console.goto(f"{live_server.url}/clubs/{event.club.slug}/console/nights/{night.pk}/")
    listed = console.locator("#night-check-in-list li")
    expect(listed).to_have_text(["Nobody has checked in yet."])

    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"{live_server.url}/door/{token}/")
    expect(phone.locator("h1")).to_have_text("Tuesday night")
    phone.get_by_label("Type two or three letters of your name").press_sequentially("er 04")
    phone.get_by_role("button", name="I am Player 04").click()
    expect(phone.locator(".door-me")).to_have_text("You are Player 04.")
    phone.get_by_role("button", name="Check me in").click()
    expect(phone.locator(".door-done")).to_have_text(
        "You are checked in, Player 04. Enjoy the game!"
    )
    assert (violations(phone), small_targets(phone), sideways(phone)) == ([], [], 0)

    console.clock.run_for(3_500)  # one poll of the check-in list
    expect(listed).to_have_count(1)
    expect(listed.first).to_contain_text("Player 04")
    expect(listed.first).to_contain_text("own phone")
    expect(console.locator("#night-check-in h2")).to_have_text("Checked in (1)")

    hall.clock.run_for(1_500)  # one poll of the hall screen
    expect(hall.locator("#present li")).to_have_text(["Player 04"])
    expect(hall.locator("#panel h2")).to_have_text("Checked in: 1")
    expect(hall.locator("#panel .welcome")).to_have_text(
        "Welcome! The tables appear here as soon as the first game starts."
    )
    assert outside_requests == []
