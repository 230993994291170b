"""The waiting page of a table link, in Chromium: it polls through the score pad's api.js.

Table 1's link of a club night is opened before any game is started there: the page says the
table has no game yet and asks ``GET /api/table/`` on the page clock (conditional: the second
ask carries the first answer's ``ETag``). A poll that gets no answer (the network dropped) is
tried again at the next tick without a word and without a page error; once the organiser
starts a game at table 1, the next poll opens it.
"""

from __future__ import annotations

from playwright.sync_api import expect

from settlements.night_tables import start_night_game
from settlements.services import open_night
from table_links import services as table_services
from tests.browser import TABLET_LANDSCAPE
from tests.tables.browser_helpers import seed, wait_ready


def test_the_waiting_page_polls_through_api_js_survives_a_drop_and_opens_the_game(
    live_server, new_context
):
    data = seed()
    night = open_night(club=data.club, user=data.organiser, name="Tuesday")
    links = table_services.create_night_table_links(night=night, user=data.organiser, tables=2)
    token, _code = table_services.reveal_table_link(links[0])

    context = new_context(viewport=TABLET_LANDSCAPE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    polls = []  # (If-None-Match, Authorization) of every GET /api/table/
    page.on(
        "request",
        lambda request: (
            polls.append(
                (request.headers.get("if-none-match"), request.headers.get("authorization"))
            )
            if request.url.endswith("/api/table/")
            else None
        ),
    )
    page.clock.install()
    page.goto(f"{live_server.url}/t/{token}/")
    wait_ready(page)
    expect(page.locator("#waiting-reason")).to_have_text(
        "This table has no game yet. This page opens it by itself as soon as the organiser "
        "starts one here."
    )
    expect(page.locator("#waiting-status")).to_have_text("Waiting for the next game…")

    with page.expect_response(lambda response: response.url.endswith("/api/table/")) as first:
        page.clock.run_for(10_000)
    assert first.value.status == 200
    etag = first.value.headers["etag"]
    assert polls == [(None, f"Table {token}")]

    # The network drops: the poll gets no answer; the page says nothing and throws nothing.
    page.route("**/api/table/", lambda route: route.abort())
    with page.expect_request(lambda request: request.url.endswith("/api/table/")):
        page.clock.run_for(10_000)
    page.unroute("**/api/table/")
    expect(page.locator("#waiting-status")).to_have_text("Waiting for the next game…")

    # Unchanged: a 304 for the conditional poll.
    with page.expect_response(lambda response: response.url.endswith("/api/table/")) as again:
        page.clock.run_for(10_000)
    assert again.value.status == 304
    assert polls[-1] == (etag, f"Table {token}")

    game = start_night_game(
        night_id=night.pk,
        table_number=1,
        user=data.organiser,
        game="25",
        seat_player_ids=[player.pk for player in data.players[:2]],
    )
    asked_before = len(polls)
    with page.expect_navigation():
        page.clock.run_for(10_000)
    wait_ready(page)
    expect(page.locator("#table-app")).to_have_attribute("data-game", str(game.pk))
    assert errors == []
    # The poll that found the game was conditional too (the score pad's own polls follow it).
    assert polls[asked_before] == (etag, f"Table {token}")
