"""The hall screen in Chromium, at a TV's sizes (1920×1080 and 1280×720), landscape.

- Two screens, one of them with a clock an hour wrong, show the same time left: each computes it
  from the server's time sent with every answer. The last two minutes stand out.
- The panels change by themselves, each within two polls of the organiser's change: a draw
  released shows "find your seat"; the clock started shows the tables still playing; the
  leaders hidden by the organiser stay hidden through many polls; the event closed shows the
  winners.
- "Find your seat" for 120 players: every row of a page fits on the screen, and the pages turn
  by themselves until every player has been shown.

Time is the page's clock (Playwright's ``page.clock``), never a sleep.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from playwright.sync_api import expect

from hall import services as hall_services
from tests.hall.helpers import drive
from tests.tournaments.play_helpers import build_event, game_at, win_game
from tournaments.evening import release_round
from tournaments.services import close_tournament

TV = {"width": 1920, "height": 1080}
SMALL_TV = {"width": 1280, "height": 720}


def _screen(new_context, url: str, viewport: dict, *, clock_error=timedelta(0)):
    page = new_context(viewport=viewport).new_page()
    page.set_default_timeout(15_000)
    page.clock.install(time=datetime.now(UTC) + clock_error)
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    return page


def _panel(pages, panel: str) -> None:
    """Every screen shows ``panel`` within two polls of the page's clock."""
    for page in pages:
        page.clock.run_for(2_000)
        expect(page.locator("body")).to_have_attribute("data-panel", panel)


def _seconds(text: str) -> int:
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def test_two_screens_agree_and_the_panels_change_by_themselves(
    live_server, new_context, screenshots
):
    event = build_event(players=8)
    tournament_id = drive(event, rounds=1)
    organiser = event.world.users["organiser"]
    _link, token, _code = hall_services.create_hall_link(
        tournament_id=tournament_id, user=organiser
    )
    event.draw(tournament_id)
    url = f"{live_server.url}/h/{token}/"
    screens = [
        _screen(new_context, url, TV),
        _screen(new_context, url, SMALL_TV, clock_error=timedelta(hours=1)),
    ]
    for page in screens:
        expect(page.locator("body")).to_have_attribute("data-panel", "waiting")
        expect(page.locator("#clock")).to_be_hidden()

    release_round(tournament_id=tournament_id, round_number=1, user=organiser)
    _panel(screens, "seats")
    for page in screens:
        expect(page.locator(".seat-row")).to_have_count(8)
        expect(page.locator("#round")).to_have_text("Round 1 of 1")

    hall_services.act_on_clock(
        tournament_id=tournament_id, user=organiser, action="start", minutes=10
    )
    _panel(screens, "play")
    shown = []
    for page in screens:
        expect(page.locator("#clock")).to_be_visible()
        expect(page.locator("#clock")).to_have_attribute("data-state", "running")
        shown.append(_seconds(page.locator("#clock").inner_text()))
    # The same time left on both (the wrong clock corrected), a whole round's worth of it.
    assert abs(shown[0] - shown[1]) <= 1, shown
    assert 590 <= min(shown) and max(shown) <= 600, shown
    expect(screens[0].locator(".playing-table")).to_have_count(2)
    screens[0].screenshot(path=screenshots / "hall-play-1920.png")

    # The organiser hides the leaders: they stay hidden, poll after poll.
    hall_services.update_hall_settings(
        tournament_id=tournament_id, user=organiser, hide_leaders=True
    )
    for page in screens:
        page.clock.run_for(2_000)
        expect(page.locator("#leaders-hidden")).to_be_visible()
    win_game(event, game_at(tournament_id, 1, 1), side=0)
    for page in screens:
        for _ in range(5):
            page.clock.run_for(1_000)
            expect(page.locator("#leaders")).to_have_count(0)
        expect(page.locator(".playing-table")).to_have_count(1)

    # The last two minutes stand out, on both screens alike.
    hall_services.act_on_clock(
        tournament_id=tournament_id, user=organiser, action="start", minutes=1
    )
    for page in screens:
        page.clock.run_for(2_000)
        expect(page.locator("#clock")).to_have_attribute("data-ending", "true")
    # Paused, the clock stands still whatever the screen's own clock does.
    hall_services.act_on_clock(tournament_id=tournament_id, user=organiser, action="pause")
    for page in screens:
        page.clock.run_for(2_000)
        expect(page.locator("#clock")).to_have_attribute("data-state", "paused")
    before = [page.locator("#clock").inner_text() for page in screens]
    for page in screens:
        page.clock.run_for(5_000)
    assert [page.locator("#clock").inner_text() for page in screens] == before
    assert before[0] == before[1]

    win_game(event, game_at(tournament_id, 1, 2), side=1)
    close_tournament(tournament_id=tournament_id, user=organiser)
    _panel(screens, "winners")
    for page in screens:
        expect(page.locator("#round")).to_have_text("Final results")
        expect(page.locator("#clock")).to_be_hidden()
        expect(page.locator("#leaders tbody tr").first).to_be_visible()
    screens[1].screenshot(path=screenshots / "hall-winners-1280.png")


def test_find_your_seat_pages_a_list_of_120_players(live_server, new_context, screenshots):
    event = build_event(players=120)
    tournament_id = drive(event, rounds=1)
    organiser = event.world.users["organiser"]
    _link, token, _code = hall_services.create_hall_link(
        tournament_id=tournament_id, user=organiser
    )
    event.draw(tournament_id)
    release_round(tournament_id=tournament_id, round_number=1, user=organiser)
    everyone = sorted(player.display_name for player in event.players)
    for viewport in (TV, SMALL_TV):
        page = _screen(new_context, f"{live_server.url}/h/{token}/", viewport)
        expect(page.locator("body")).to_have_attribute("data-panel", "seats")
        pages = int(page.locator("body").get_attribute("data-pages"))
        assert pages > 1
        seen = []
        for number in range(1, pages + 1):
            expect(page.locator("body")).to_have_attribute("data-page", str(number))
            expect(page.locator("#pager")).to_have_text(f"Page {number} of {pages}")
            rows = page.locator(".seat-row")
            names = rows.locator(".name").all_inner_texts()
            assert names, number
            # Every row of the page is on the screen: nothing scrolls, nothing is cut.
            for box in (rows.first.bounding_box(), rows.last.bounding_box()):
                assert box["y"] + box["height"] <= viewport["height"], (number, box)
                assert box["x"] + box["width"] <= viewport["width"], (number, box)
            seen.extend(names)
            if number == 1:
                page.screenshot(path=screenshots / f"hall-seats-{viewport['width']}.png")
            page.clock.run_for(10_000)
        assert seen == everyone
        # Round again to the first page.
        expect(page.locator("body")).to_have_attribute("data-page", "1")


def test_the_console_box_makes_the_link_and_runs_the_clock_the_screen_follows(
    live_server, new_context
):
    from tests.tables.browser_helpers import logged_in

    event = build_event(players=8)
    tournament_id = drive(event, rounds=1)
    organiser = event.world.users["organiser"]
    event.draw(tournament_id)
    release_round(tournament_id=tournament_id, round_number=1, user=organiser)
    console = logged_in(new_context(viewport=TV), live_server, organiser).new_page()
    console.set_default_timeout(15_000)
    console.goto(f"{live_server.url}/clubs/{event.club.slug}/console/events/{tournament_id}/")
    box = console.locator("#hall")
    box.get_by_role("button", name="Make the hall link").click()
    expect(console.locator("#hall-url")).to_be_visible()
    expect(console.locator("#hall svg")).to_be_visible()
    url = console.locator("#hall-url").inner_text()
    screen = _screen(new_context, url, SMALL_TV)
    expect(screen.locator("body")).to_have_attribute("data-panel", "seats")

    console.locator("#hall-minutes").fill("12")
    console.get_by_role("button", name="Start the clock").click()
    expect(console.locator("#hall-clock")).to_have_attribute("data-state", "running")
    _panel([screen], "play")
    assert 700 <= _seconds(screen.locator("#clock").inner_text()) <= 720
    console.get_by_role("button", name="Hide the leaders while a round is played").click()
    expect(console.locator("#hall-leaders")).to_contain_text("Hidden")
    screen.clock.run_for(2_000)
    expect(screen.locator("#leaders-hidden")).to_be_visible()
