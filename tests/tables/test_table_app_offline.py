"""The score pad offline in a real browser (Chromium) against the live server on PostgreSQL.

What it proves: five hands entered offline survive a reload and are stored once each, in order,
when the network returns; a hand 4 recorded elsewhere while the tablet was offline stops the
tablet's queue at its hand 4, shows both versions and sends nothing after it until the
scorekeeper chooses. A screenshot of the waiting hands at 768 x 1024 goes to the screenshot
folder.
"""

from __future__ import annotations

import json

from playwright.sync_api import expect

from games.models import Hand
from tests.browser import TABLET_PORTRAIT
from tests.tables.browser_helpers import (
    FIVE_HANDS,
    engine_replay,
    enter_hand,
    open_score_page,
    seed,
    tap,
    wait_ready,
)


def _wait_cached(page) -> None:
    """The service worker is active and the page is in its cache (it may now open offline)."""
    page.wait_for_function(
        "navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready"
    )
    page.wait_for_function(
        "caches.open('jink-table-v1').then(cache => cache.match(location.pathname))"
        ".then(response => response !== undefined)"
    )


def test_five_hands_offline_survive_a_reload_and_are_stored_once_in_order(
    live_server, new_context, screenshots
):
    data = seed()
    game = data.new_game(
        "45", 4, teams=[[0, 2], [1, 3]], first_dealer=0, house_rules={"target": 300}
    )
    context, page = open_score_page(
        new_context, live_server, data.scorekeeper, game, viewport=TABLET_PORTRAIT
    )
    _wait_cached(page)
    context.set_offline(True)
    for number, (trump, winners, best) in enumerate(FIVE_HANDS, start=1):
        enter_hand(page, number=number, trump=trump, winners=winners, best=best, online=False)
    expect(page.locator("#waiting-badge")).to_have_text("5 hands waiting")
    expect(page.locator("#connection")).to_have_text("Offline: hands are kept on this tablet")
    page.reload()
    wait_ready(page)
    expect(page.locator("#waiting-badge")).to_have_text("5 hands waiting")
    expect(page.locator("#hands-body tr.waiting")).to_have_count(5)
    page.screenshot(path=str(screenshots / "table-offline-768x1024.png"), full_page=True)
    assert Hand.objects.filter(game=game).count() == 0
    context.set_offline(False)
    expect(page.locator("#waiting-badge")).to_be_hidden(timeout=15_000)
    expect(page.locator("#hands-body tr.waiting")).to_have_count(0)
    stored = list(Hand.objects.filter(game=game).order_by("number"))
    assert [hand.number for hand in stored] == [1, 2, 3, 4, 5]
    assert [hand.record["trump"] for hand in stored] == ["S", "H", "C", "D", "S"]
    assert [hand.record["dealer"] for hand in stored] == [0, 1, 2, 3, 0]
    assert stored[1].record["trick_winners"] == [1, 1, 2, 3, 1]
    totals, _ = engine_replay(game)
    assert [tuple(hand.totals_after) for hand in stored] == totals
    game.refresh_from_db()
    assert game.hands_played == 5 and list(game.totals) == list(totals[-1])


def test_a_conflict_stops_the_queue_and_shows_both_versions(live_server, new_context):
    from tests.helpers import token_client

    data = seed()
    game = data.new_game(
        "45", 4, teams=[[0, 2], [1, 3]], first_dealer=0, house_rules={"target": 300}
    )
    context, page = open_score_page(new_context, live_server, data.scorekeeper, game)
    for number, (trump, winners, best) in enumerate(FIVE_HANDS[:3], start=1):
        enter_hand(page, number=number, trump=trump, winners=winners, best=best)
    context.set_offline(True)
    for number, (trump, winners, best) in enumerate(FIVE_HANDS[3:], start=4):
        enter_hand(page, number=number, trump=trump, winners=winners, best=best, online=False)
    # Meanwhile a second tablet records hand 4 through the API.
    other = token_client(data.organiser).post(
        f"/api/games/{game.pk}/hands/",
        {
            "number": 4,
            "dealer": 3,
            "trump": "C",
            "trick_winners": [1, 1, 1, 1, 1],
            "best_trump": {"seat": 1, "trick": 0},
        },
        format="json",
    )
    assert other.status_code == 201
    # Hands the server received (requests that failed offline, as retries do, are not counted).
    posted = []
    page.on(
        "requestfinished",
        lambda request: (
            posted.append(json.loads(request.post_data)["number"])
            if request.method == "POST" and request.url.endswith(f"/api/games/{game.pk}/hands/")
            else None
        ),
    )
    context.set_offline(False)
    conflict = page.locator("#conflict")
    expect(conflict.locator("h2")).to_have_text("Hand 4 was not stored", timeout=15_000)
    expect(conflict).to_contain_text("Another tablet has already recorded this hand")
    expect(conflict.locator(".version")).to_have_count(2)
    expect(conflict.locator(".version").nth(0)).to_contain_text("Trumps ♦ Diamonds")
    expect(conflict.locator(".version").nth(1)).to_contain_text("Trumps ♣ Clubs")
    expect(conflict).to_contain_text("1 later hand waits behind it")
    expect(page.locator("#waiting-badge")).to_have_text("2 hands waiting")
    # Another round of sending (the network "comes back" again): still nothing after hand 4.
    with page.expect_response(lambda response: "/hands/?page_size" in response.url):
        page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#waiting-badge")).to_have_text("2 hands waiting")
    assert posted == [4]
    assert Hand.objects.filter(game=game).count() == 4
    assert Hand.objects.get(game=game, number=4).record["trump"] == "C"
    tap(page, "Keep the stored hand 4")
    expect(page.locator("#waiting-badge")).to_be_hidden(timeout=15_000)
    assert posted == [4, 5]
    stored = list(Hand.objects.filter(game=game).order_by("number"))
    assert [(hand.number, hand.record["trump"]) for hand in stored] == [
        (1, "S"),
        (2, "H"),
        (3, "C"),
        (4, "C"),
        (5, "S"),
    ]
