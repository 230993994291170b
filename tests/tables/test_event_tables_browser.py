"""The tablet at an event's table, in Chromium: it follows its table without a reload, and it is
quiet.

- A tablet opened from table 1's link (not logged in) shows round 1's game; when round 2 is
  released it opens table 1's new game in place — the same document (a marker set on ``window``
  survives), no new code, the address updated with ``history.replaceState`` — and a revoked link
  at another table does not touch it.
- While idle it asks ONE endpoint (``GET /api/table/``), at most six times in a minute of the
  page's clock, each time with ``If-None-Match``, and gets 304s; it asks again as soon as the page
  is shown (``visibilitychange``). A tablet of a finished game whose table brings no next game
  asks nothing at all. Requests are counted with the page clock (Playwright's ``page.clock``),
  never timed.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import expect

from table_links import services as table_services
from table_links.models import TableLink
from tests.browser import TABLET_LANDSCAPE
from tests.tables.browser_helpers import seed, wait_ready
from tests.tournaments.play_helpers import build_event, game_at, win_game
from tournaments.evening import release_round
from tournaments.models import Match, Tournament


def _api_requests(page) -> list:
    seen = []
    page.on(
        "request",
        lambda request: (
            seen.append(request) if urlsplit(request.url).path.startswith("/api/") else None
        ),
    )
    return seen


def _minute(page) -> None:
    """A minute of the page's clock, ten seconds at a time, letting each poll be answered."""
    for _ in range(6):
        page.clock.run_for(10_000)
        page.wait_for_timeout(400)  # the driver's time: the poll's fetch is answered


def test_the_tablet_follows_its_table_to_round_two_in_place_and_polls_quietly(
    live_server, new_context
):
    event = build_event(players=8)
    tournament = event.create_tournament(
        name="Parish Drive",
        game="25",
        format="drive",
        table_size=4,
        sides_per_table=2,
        round_count=3,
        private_draws=True,
        lots_seed=7,
        entrants=[{"player": player.pk} for player in event.players],
    )
    tournament_id = tournament["id"]
    organiser = event.world.users["organiser"]
    links = table_services.create_event_table_links(
        tournament=Tournament.objects.get(pk=tournament_id), user=organiser
    )
    assert [link.table_number for link in links] == [1, 2]
    token, _code = table_services.reveal_table_link(links[0])
    event.draw(tournament_id)
    release_round(tournament_id=tournament_id, round_number=1, user=organiser)
    first = game_at(tournament_id, 1, 1)

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
    expect(page.locator("#table-app")).to_have_attribute("data-game", str(first))
    page.evaluate("window.sameDocument = 'yes'")

    # Idle: one endpoint, conditional, at most six times a minute, all 304.
    requests = _api_requests(page)
    _minute(page)
    polls = [request for request in requests if urlsplit(request.url).path == "/api/table/"]
    assert len(requests) == len(polls), [request.url for request in requests]
    assert 1 <= len(polls) <= 6
    assert all(request.headers.get("if-none-match") for request in polls)
    assert {request.response().status for request in polls} == {304}
    # Shown again: it asks at once, with no clock running.
    before = len(requests)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_timeout(400)
    assert len(requests) == before + 1

    # Round 1 is played at both tables (another tablet, the organiser's board: the server), table
    # 2's link is revoked, round 2 is drawn and released.
    for table in (1, 2):
        win_game(event, game_at(tournament_id, 1, table), side=0)
    TableLink.objects.filter(pk=links[1].pk).update(revoked_at=links[1].created_at)
    round_two = Match.objects.filter(tournament_id=tournament_id, round__number=2)
    assert round_two.count() == 2  # drawn by itself, private
    release_round(tournament_id=tournament_id, round_number=2, user=organiser)
    second = game_at(tournament_id, 2, 1)
    assert second != first

    page.clock.run_for(10_000)  # the next poll sees the finished game and the new round
    page.wait_for_timeout(600)
    page.clock.run_for(10_000)  # the result has been on the screen long enough: switch
    expect(page.locator("#table-app")).to_have_attribute("data-game", str(second))
    expect(page.locator("#dealer")).to_contain_text("Hand 1:")
    expect(page.locator("#entry .message")).to_have_text("Round 2: this table's new game is open.")
    assert page.evaluate("window.sameDocument") == "yes"  # no reload
    assert page.url == f"{live_server.url}/t/{token}/?game={second}"
    assert documents == [f"{live_server.url}/t/{token}/"]  # the one load


def test_a_finished_game_with_no_next_game_asks_nothing(live_server, new_context):
    data = seed()
    game = data.new_game("25", 2, first_dealer=1)
    from games.services import record_hand

    record_hand(
        game_id=game.pk,
        user=data.organiser,
        record={"dealer": 1, "trump": "H", "trick_winners": [0, 0, 0, 0, 0]},
    )
    _, token, _ = table_services.create_table_link(
        club=data.club, user=data.organiser, game_id=game.pk
    )
    context = new_context(viewport=TABLET_LANDSCAPE, has_touch=True)
    page = context.new_page()
    page.clock.install()
    page.goto(f"{live_server.url}/t/{token}/")
    wait_ready(page)
    expect(page.locator("#banner h2")).to_contain_text("wins")
    requests = _api_requests(page)
    _minute(page)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_timeout(400)
    assert [request.url for request in requests] == []
