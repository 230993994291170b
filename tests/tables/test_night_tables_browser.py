"""The tablet at a club night's table, in Chromium: it follows its table to the next game without a
reload.

A tablet opened from table 1's link of the night (not logged in) shows the game at table 1; when
that game is over and the organiser starts the next game at table 1, the tablet opens it in
place — the same document (a marker set on ``window`` survives), no new code, the address
updated with ``history.replaceState`` — with the same polling as an event's table (``GET
/api/table/``, conditional). The page clock (Playwright's ``page.clock``) drives the polls; nothing
is timed.
"""

from __future__ import annotations

from playwright.sync_api import expect

from games.services import record_hand
from settlements.night_tables import start_night_game
from settlements.services import open_night
from table_links import services as table_services
from tests.browser import TABLET_LANDSCAPE
from tests.tables.browser_helpers import seed, wait_ready


def test_the_tablet_follows_its_night_table_to_the_next_game_in_place(live_server, new_context):
    data = seed()
    night = open_night(club=data.club, user=data.organiser, name="Tuesday")
    mary, sean, tom, una = data.players

    def start(players):
        return start_night_game(
            night_id=night.pk,
            table_number=1,
            user=data.organiser,
            game="25",
            seat_player_ids=[player.pk for player in players],
        )

    first = start([mary, sean])
    (link,) = table_services.create_night_table_links(night=night, user=data.organiser)
    assert link.table_number == 1
    token, _code = table_services.reveal_table_link(link)

    context = new_context(viewport=TABLET_LANDSCAPE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.clock.install()
    documents = []  # page loads: requests for a document (replaceState makes none)
    page.on(
        "request",
        lambda request: (
            documents.append(request.url) if request.resource_type == "document" else None
        ),
    )
    page.goto(f"{live_server.url}/t/{token}/")
    wait_ready(page)
    expect(page.locator("#table-app")).to_have_attribute("data-game", str(first.pk))
    page.evaluate("window.sameDocument = 'yes'")

    # Game 1 ends (another tablet, the organiser: the server), and the next game starts at
    # table 1 with other players.
    record_hand(
        game_id=first.pk,
        user=data.organiser,
        record={"dealer": 0, "trump": "H", "trick_winners": [0, 0, 0, 0, 0]},
    )
    second = start([tom, una])

    # The next poll sees the finished game and the next one; once the result has been on the
    # screen long enough (8 s of the page's clock) the tablet switches. Each step lets the
    # driver's time pass for the answers to arrive, however busy the machine is.
    for _ in range(6):
        page.clock.run_for(10_000)
        page.wait_for_timeout(500)
        if page.locator("#table-app").get_attribute("data-game") == str(second.pk):
            break
    expect(page.locator("#table-app")).to_have_attribute("data-game", str(second.pk))
    expect(page.locator("#dealer")).to_contain_text("Hand 1:")
    expect(page.locator("#entry .message")).to_have_text("The table's next game is open.")
    assert page.evaluate("window.sameDocument") == "yes"  # no reload
    assert page.url == f"{live_server.url}/t/{token}/?game={second.pk}"
    assert documents == [f"{live_server.url}/t/{token}/"]  # the one load
