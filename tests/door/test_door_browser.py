"""The door in Chromium: the organiser's tablet checks a player in within three taps, and a
player's own phone checks in from the door code and shows on the console's check-in list.

What it proves, on a live server with a drive of individuals (an entry fee of 5.00):
- the door page on a tablet (1024 x 768): the search box has the focus; two letters show the
  names as buttons at least 44 px high; a tap on a name checks the player in, one more tap takes
  the fee in cash, and the confirmation shows with the search box back — two taps, no more than
  three; axe-core finds nothing, every target is 44 px or more, nothing scrolls sideways (the
  phone's page too); "New player" adds and checks in a newcomer in one tap;
- a phone (390 x 844, no login) opens the door code's page, picks a name (the phone remembers it:
  a reload shows "You are …") and taps "Check me in"; the organiser's event page, left open, ticks
  that player on its check-in list at its next poll (htmx every 3 s, driven by ``page.clock``),
  and the hall screen on the TV (1920 x 1080, its link open, no login) lists the player among
  those checked in at its next poll (every second).

Screenshots (``door-search.png``, ``door-fee.png``, ``door-phone.png``) go to ``JINK_SCREENSHOTS``
(``docs/screenshots`` refreshes docs/door.md's) or a temporary folder.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import PHONE, TABLET_LANDSCAPE
from tests.helpers import log_in
from tests.pages.axe import sideways, small_targets, violations

PASSWORD = "door-pass-123"


@pytest.fixture
def door_event(transactional_db):
    from tests.tournaments.play_helpers import build_event
    from tournaments import door
    from tournaments.models import Tournament

    event = build_event(players=8)
    organiser = event.world.users["organiser"]
    organiser.set_password(PASSWORD)
    organiser.save()
    body = {
        "name": "Friday drive",
        "game": "25",
        "format": "drive",
        "table_size": 4,
        "round_count": 3,
        "entry_fee": "5.00",
        "entrants": [{"player": player.pk} for player in event.players[:4]],
    }
    tournament = Tournament.objects.get(pk=event.create_tournament(**body)["id"])
    tournament.entrants.update(is_present=False)
    _code, token = door.create_door_code(tournament_id=tournament.pk, user=organiser)
    return event, tournament, token


def test_the_door_checks_a_player_in_within_three_taps(
    live_server, new_context, outside_requests, door_event, screenshots
):
    from settlements.models import EntryFeePayment
    from tournaments.models import Entrant

    event, tournament, _token = door_event
    context = new_context(viewport=TABLET_LANDSCAPE, has_touch=True)
    page = context.new_page()
    log_in(page, live_server.url, event.world.users["organiser"].username, PASSWORD)
    page.goto(f"{live_server.url}/clubs/{event.club.slug}/console/events/{tournament.pk}/door/")
    taps = 0

    def tap(locator) -> None:
        nonlocal taps
        taps += 1
        locator.click()

    search = page.get_by_label("Type two or three letters of the name")
    expect(search).to_be_focused()
    search.press_sequentially("er 03")
    name = page.get_by_role("button", name="Player 03")
    expect(name).to_be_visible()
    assert page.locator(".door-name").count() == 1
    assert name.bounding_box()["height"] >= 44
    assert (violations(page), small_targets(page), sideways(page)) == ([], [], 0)
    page.screenshot(path=str(screenshots / "door-search.png"))
    tap(name)
    expect(page.locator(".door-done")).to_have_text("Player 03 is checked in.")
    page.screenshot(path=str(screenshots / "door-fee.png"))
    tap(page.get_by_role("button", name="Cash"))
    expect(page.locator(".door-done")).to_have_text("Player 03: entry fee paid in cash.")
    expect(page.get_by_label("Type two or three letters of the name")).to_be_focused()
    assert taps <= 3
    entrant = Entrant.objects.get(tournament=tournament, player=event.players[2])
    assert entrant.is_present
    fee = EntryFeePayment.objects.get(tournament=tournament, player=event.players[2])
    assert (fee.status, fee.amount_minor) == ("cash", 500)

    page.get_by_label("Type two or three letters of the name").press_sequentially("Mary B")
    expect(page.get_by_label("New player: full name")).to_have_value("Mary B")
    page.get_by_label("New player: full name").fill("Mary Byrne")
    tap(page.get_by_role("button", name="Add and check in"))
    expect(page.locator(".door-done")).to_have_text("Mary Byrne is entered and checked in.")
    assert Entrant.objects.get(tournament=tournament, player__display_name="Mary Byrne").is_present
    assert outside_requests == []


def test_a_self_check_in_from_a_phone_shows_on_the_console_and_the_hall_screen(
    live_server, new_context, outside_requests, door_event, screenshots
):
    from hall import services as hall_services
    from tournaments.models import Entrant

    event, tournament, token = door_event
    organiser = event.world.users["organiser"]
    _link, hall_token, _code = hall_services.create_hall_link(
        tournament_id=tournament.pk, user=organiser
    )
    hall = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    hall.clock.install()
    hall.goto(f"{live_server.url}/h/{hall_token}/")
    hall.wait_for_selector("body[data-ready=true]")
    expect(hall.locator("body")).to_have_attribute("data-panel", "waiting")
    expect(hall.locator("#present")).to_have_count(0)  # nobody is here yet
    player = event.players[1]
    entrant = Entrant.objects.get(tournament=tournament, player=player)

    console = new_context(viewport=TABLET_LANDSCAPE).new_page()
    console.clock.install()
    log_in(console, live_server.url, event.world.users["organiser"].username, PASSWORD)
    console.goto(f"{live_server.url}/clubs/{event.club.slug}/console/events/{tournament.pk}/")
    tick = console.locator(f"#present-{entrant.pk}")
    expect(tick).not_to_be_checked()

    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"{live_server.url}/door/{token}/")
    phone.get_by_label("Type two or three letters of your name").press_sequentially("er 02")
    expect(phone.get_by_role("button", name="I am Player 02")).to_be_visible()
    assert (violations(phone), small_targets(phone), sideways(phone)) == ([], [], 0)
    phone.get_by_role("button", name="I am Player 02").click()
    expect(phone.locator(".door-me")).to_have_text("You are Player 02.")
    assert (violations(phone), small_targets(phone), sideways(phone)) == ([], [], 0)
    phone.reload()  # the phone remembers the name
    expect(phone.locator(".door-me")).to_have_text("You are Player 02.")
    phone.get_by_role("button", name="Check me in").click()
    expect(phone.locator(".door-done")).to_have_text(
        "You are checked in, Player 02. Enjoy the game!"
    )
    phone.screenshot(path=str(screenshots / "door-phone.png"), full_page=True)

    console.clock.run_for(3_500)  # one poll of the check-in list
    expect(tick).to_be_checked()
    expect(console.locator("#check-in-live h2").first).to_have_text("Entrants (4, 1 here)")

    hall.clock.run_for(1_500)  # one poll of the hall screen
    expect(hall.locator("#present li")).to_have_text(["Player 02"])
    expect(hall.locator("#panel h2")).to_have_text("Checked in: 1")
    assert outside_requests == []
