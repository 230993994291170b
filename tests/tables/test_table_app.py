"""The score pad tapped hand by hand in a real browser (Chromium) against the live server on
PostgreSQL.

What it proves: a whole game of 45 (2 v 2) and a whole game of 110 (3 players, with an auction
and a dealer's hold) entered by taps only store exactly the hands tapped, with the totals the
rules engine computes; in a club that has hands confirmed, each hand, a correction and an undo
are accepted by the other side, and the game's page says who corrected and undid what; the page
fits 1024 x 768, 768 x 1024 and 390 x 844 (no sideways scroll, no button under 44 px).
Screenshots go to the screenshot folder.

Elsewhere: offline entry and conflicts (test_table_app_offline.py), table links
(test_table_app_links.py), card-by-card entry, misdeals and reneges (test_table_app_cards.py).
"""

from __future__ import annotations

from playwright.sync_api import expect

from games.models import Hand
from tests.browser import PHONE, TABLET_LANDSCAPE, TABLET_PORTRAIT
from tests.tables.browser_helpers import (
    FIVE_HANDS,
    engine_replay,
    enter_hand,
    open_score_page,
    seed,
    stored_records,
    tap,
)


def test_a_whole_game_of_45_by_taps(live_server, new_context, outside_requests, screenshots):
    data = seed()
    game = data.new_game("45", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    context, page = open_score_page(new_context, live_server, data.scorekeeper, game)
    expect(page.locator("#dealer")).to_have_text("Hand 1: Úna deals")
    expect(page.locator("#totals")).to_contain_text("Mary & Tom")
    page.screenshot(path=str(screenshots / "table-trumps-1024x768.png"))
    enter_hand(
        page,
        number=1,
        trump="Spades",
        winners=["Mary", "Tom", "Mary", "Mary", "Seán"],
        best=("Mary", 1),
    )
    expect(page.locator("#totals")).to_contain_text("25")
    enter_hand(
        page,
        number=2,
        trump="Hearts",
        winners=["Seán", "Úna", "Seán", "Mary", "Seán"],
        best=("Seán", 3),
    )
    enter_hand(
        page,
        number=3,
        trump="Diamonds",
        winners=["Tom", "Tom", "Tom", "Tom", "Tom"],
        best=("Tom", 2),
    )
    expect(page.locator("#banner h2")).to_have_text("Mary & Tom win, 60–30")
    page.screenshot(path=str(screenshots / "table-game-over-1024x768.png"))
    game.refresh_from_db()
    assert game.status == "finished" and game.winner_side == 0
    assert stored_records(game) == [
        {
            "dealer": 3,
            "trump": "S",
            "trick_winners": [0, 2, 0, 0, 1],
            "best_trump": {"seat": 0, "trick": 0},
        },
        {
            "dealer": 0,
            "trump": "H",
            "trick_winners": [1, 3, 1, 0, 1],
            "best_trump": {"seat": 1, "trick": 2},
        },
        {
            "dealer": 1,
            "trump": "D",
            "trick_winners": [2, 2, 2, 2, 2],
            "best_trump": {"seat": 2, "trick": 1},
        },
    ]
    totals, state = engine_replay(game)
    assert totals == [(25, 5), (30, 30), (60, 30)]
    assert list(game.totals) == [60, 30] and state.winner == 0
    assert outside_requests == []


def test_a_whole_game_of_110_by_taps_with_an_auction_and_a_hold(
    live_server, new_context, screenshots
):
    data = seed()
    game = data.new_game("110", 3, first_dealer=2)
    context, page = open_score_page(new_context, live_server, data.scorekeeper, game)
    # Mary opens at 15, Seán passes, Tom (the dealer) holds, Mary raises to 20, Tom passes.
    for call in ("15", "Pass"):
        tap(page, call)
    expect(page.locator(".step-title")).to_have_text("Auction: Tom to call")
    page.screenshot(path=str(screenshots / "table-auction-1024x768.png"))
    tap(page, "Hold 15")
    expect(page.get_by_role("button", name="15", exact=True)).to_be_disabled()
    enter_hand(
        page,
        number=1,
        calls=["20", "Pass"],
        trump="Spades",
        winners=["Mary", "Mary", "Seán", "Mary", "Mary"],
        best=("Mary", 1),
    )
    expect(page.locator("#totals")).to_contain_text("25")
    enter_hand(
        page,
        number=2,
        calls=["Pass", "Pass", "60"],
        trump="Hearts",
        winners=["Mary"] * 5,
        best=("Mary", 1),
    )
    enter_hand(
        page,
        number=3,
        calls=["Pass", "60", "Pass"],
        trump="Diamonds",
        winners=["Mary"] * 5,
        best=("Mary", 2),
    )
    expect(page.locator("#banner h2")).to_have_text("Mary wins, 145–5–0")
    game.refresh_from_db()
    records = stored_records(game)
    assert records[0] == {
        "dealer": 2,
        "bidding": [
            {"seat": 0, "call": "15"},
            {"seat": 1, "call": "pass"},
            {"seat": 2, "call": "hold"},
            {"seat": 0, "call": "20"},
            {"seat": 2, "call": "pass"},
        ],
        "trump": "S",
        "trick_winners": [0, 0, 1, 0, 0],
        "best_trump": {"seat": 0, "trick": 0},
    }
    assert [record["bidding"] for record in records[1:]] == [
        [{"seat": 1, "call": "pass"}, {"seat": 2, "call": "pass"}, {"seat": 0, "call": "60"}],
        [{"seat": 2, "call": "pass"}, {"seat": 0, "call": "60"}, {"seat": 1, "call": "pass"}],
    ]
    totals, state = engine_replay(game)
    assert totals == [(25, 5, 0), (85, 5, 0), (145, 5, 0)]
    assert list(game.totals) == [145, 5, 0] and game.winner_side == state.winner == 0


def test_screenshots_at_three_sizes(live_server, new_context, screenshots):
    data = seed()
    game = data.new_game("45", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    for size, viewport in (
        ("1024x768", TABLET_LANDSCAPE),
        ("768x1024", TABLET_PORTRAIT),
        ("390x844", PHONE),
    ):
        context, page = open_score_page(
            new_context, live_server, data.scorekeeper, game, viewport=viewport
        )
        tap(page, "Hearts")
        for name in ("Mary", "Seán"):
            tap(page, name)
        width = page.evaluate("document.documentElement.scrollWidth")
        wide = page.evaluate("""() => Array.from(document.querySelectorAll('body *'))
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .map(e => e.tagName + '.' + e.className).slice(0, 8)""")
        assert width == viewport["width"], wide
        small = page.evaluate(
            """() => Array.from(document.querySelectorAll('#entry button, #hands button'))
                 .filter(b => b.offsetParent !== null)
                 .filter(b => b.getBoundingClientRect().height < 44
                              || b.getBoundingClientRect().width < 44)
                 .map(b => b.textContent)"""
        )
        assert small == []
        page.screenshot(path=str(screenshots / f"table-tricks-{size}.png"), full_page=True)
        context.close()


def test_accepted_by_the_other_side_then_corrected_and_undone(live_server, new_context):
    data = seed()
    data.club.confirm_hands = True
    data.club.save()
    game = data.new_game(
        "45", 4, teams=[[0, 2], [1, 3]], first_dealer=0, house_rules={"target": 300}
    )
    context, page = open_score_page(new_context, live_server, data.scorekeeper, game)
    for number, (trump, winners, best) in enumerate(FIVE_HANDS[:3], start=1):
        enter_hand(page, number=number, trump=trump, winners=winners, best=best, accept="Seán")
    assert set(
        Hand.objects.filter(game=game).values_list("confirmed_by__display_name", flat=True)
    ) == {"Seán"}
    # Correct hand 1: Seán's side took the best trump, not Mary's.
    tap(page, "Correct hand 1")
    tap(page, "Spades")
    for name in ["Mary", "Seán", "Mary", "Seán", "Mary"]:
        tap(page, name)
    tap(page, "Seán")
    tap(page, "Trick 2")
    later = page.locator("ul.later")
    expect(later).to_contain_text("After hand 1: 20–10 → 15–15")
    expect(later).to_contain_text("After hand 3:")
    # The correction needs its own acceptance (Úna's now, not Seán's of the first version).
    tap(page, "Úna accepts the correction of hand 1")
    expect(page.locator(".message")).to_have_text("Hand 1 corrected.")
    corrected = Hand.objects.get(game=game, number=1)
    assert corrected.record["best_trump"] == {"seat": 1, "trick": 1}
    assert corrected.confirmed_by.display_name == "Úna"
    tap(page, "Undo hand 3")
    tap(page, "Seán accepts undoing hand 3")
    expect(page.locator(".message")).to_have_text("Hand 3 undone.")
    assert list(Hand.objects.filter(game=game).values_list("number", flat=True)) == [1, 2]
    totals, _ = engine_replay(game)
    game.refresh_from_db()
    assert list(game.totals) == list(totals[-1])
    # The game's page says who corrected and undid what, on the hands' own cards (the player
    # pages' game page marks each changed hand in place, the undone one where it stood).
    page.goto(f"{live_server.url}/clubs/{data.club.slug}/games/{game.pk}/")
    changes = page.locator("#hand-list .hand .change")
    expect(changes).to_have_count(2)
    expect(page.locator("#hand-1 .change")).to_contain_text("Corrected by the-crown-keeper")
    expect(page.locator('[id^="hand-3-undone-"] .change')).to_contain_text(
        "Undone by the-crown-keeper"
    )
