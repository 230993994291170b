"""Card-by-card entry, misdeals and reneges in a real browser (Chromium) against the live server
on PostgreSQL.

What it proves: card by card, an illegal card cannot be picked (a follower's, a discarded one,
another player's) and an error's pointer highlights the card it names; a whole hand of 110 with
the auction, kitty and discards and a 25 with a rob are stored exactly as picked, with the totals
the rules engine computes; a misdeal and a renege (seat and trick) are recorded by taps, from
card mode and from the page. Screenshots go to the screenshot folder.
"""

from __future__ import annotations

from playwright.sync_api import expect

from games.models import Hand
from tests.browser import PHONE
from tests.tables.browser_helpers import (
    card,
    engine_replay,
    enter_hand,
    open_score_page,
    pick,
    seed,
    stored_records,
    tap,
)


def test_card_by_card_legal_cards_only_and_a_pointer_highlights_the_card(
    live_server, new_context, screenshots
):
    data = seed()
    game = data.new_game("25", 2, first_dealer=1)
    context, page = open_score_page(
        new_context, live_server, data.scorekeeper, game, viewport=PHONE
    )
    tap(page, "Card by card")
    deal = [["KH", "AD", "4C", "7D", "9S"], ["QH", "3C", "8D", "JD", "10S"]]
    for hand in deal:
        pick(page, *hand)
    card(page, "2S").click()  # the turn-up: spades are trumps
    tap(page, "Nobody robbed")
    card(page, "KH").click()  # Mary leads the king of hearts
    # Seán must follow hearts or trump: the queen of hearts or the ten of spades.
    expect(card(page, "QH")).to_be_enabled()
    expect(card(page, "10S")).to_be_enabled()
    for code in ("3C", "8D", "JD"):
        expect(card(page, code)).to_be_disabled()
    page.screenshot(path=str(screenshots / "table-cards-390x844.png"), full_page=True)
    card(page, "QH").click()
    tap(page, "Seán")  # wrong: Mary's king took the trick, so Mary leads trick 2
    for lead, follow in (("3C", "4C"), ("8D", "AD"), ("JD", "7D"), ("10S", "9S")):
        card(page, lead).click()
        card(page, follow).click()
        if lead != "10S":
            tap(page, "Seán")
    chip = page.locator('.card-chip[data-pointer="/tricks/1/0"]')
    expect(chip).to_have_class("card-chip has-problem")
    expect(page.locator(".summary-line.has-problem .problem")).to_contain_text(
        "3C belongs to seat 1"
    )
    assert Hand.objects.filter(game=game).count() == 0


def test_a_whole_hand_of_110_card_by_card_with_an_illegal_card_disabled(
    live_server, new_context, screenshots
):
    data = seed()
    game = data.new_game("110", 3, first_dealer=2)  # Tom deals; Mary calls first and leads
    context, page = open_score_page(new_context, live_server, data.scorekeeper, game)
    tap(page, "Card by card")
    for call in ("15", "Pass", "Pass"):  # Mary bids 15, Seán and Tom (the dealer) pass
        tap(page, call)
    expect(page.locator(".step-title")).to_have_text("Mary names trumps")
    tap(page, "Spades")
    deal = [
        ["KS", "QS", "2H", "3H", "4H"],
        ["10S", "2D", "3D", "4D", "6D"],
        ["2C", "3C", "4C", "6C", "7C"],
    ]
    kitty = ["2S", "3S", "4S", "5H", "6H"]
    discard = ["2H", "3H", "4H", "5H", "6H"]
    for cards in deal:
        pick(page, *cards)
    expect(page.locator(".step-title")).to_have_text("The kitty (0 of 5)")
    pick(page, *kitty)
    expect(page.locator(".step-title")).to_have_text("Mary's discards (0 of 5)")
    expect(card(page, "2D")).to_be_disabled()  # not Mary's
    pick(page, *discard)
    tricks = [
        ["KS", "10S", "2C"],
        ["QS", "2D", "3C"],
        ["2S", "3D", "4C"],
        ["3S", "4D", "6C"],
        ["4S", "6D", "7C"],
    ]
    expect(page.locator(".step-title")).to_have_text("Trick 1: Mary plays")
    expect(card(page, "2H")).to_be_disabled()  # discarded
    card(page, "KS").click()
    # A trump led: Seán must play his one trump; his diamonds are disabled by the engine.
    expect(page.locator(".step-title")).to_have_text("Trick 1: Seán plays")
    expect(card(page, "10S")).to_be_enabled()
    for code in ("2D", "3D", "4D", "6D"):
        expect(card(page, code)).to_be_disabled()
    page.screenshot(path=str(screenshots / "table-cards-110-1024x768.png"), full_page=True)
    pick(page, "10S", "2C")
    for trick in tricks[1:]:
        tap(page, "Mary")  # Mary took the last trick and leads the next
        pick(page, *trick)
    page.get_by_role("button", name="Confirm hand 1").wait_for()
    page.locator(".verdict", has_text="new totals").wait_for()
    tap(page, "Confirm hand 1")
    page.locator("#hands-body tr[data-number='1']:not(.waiting)").wait_for()
    stored = Hand.objects.get(game=game, number=1)
    assert stored.record == {
        "dealer": 2,
        "bidding": [
            {"seat": 0, "call": "15"},
            {"seat": 1, "call": "pass"},
            {"seat": 2, "call": "pass"},
        ],
        "trump": "S",
        "deal": deal,
        "kitty": kitty,
        "discard": discard,
        "tricks": tricks,
    }
    game.refresh_from_db()
    totals, _ = engine_replay(game)
    assert totals == [(30, 0, 0)]
    assert list(game.totals) == [30, 0, 0]


def test_a_rob_in_card_mode_for_25(live_server, new_context):
    data = seed()
    game = data.new_game("25", 2, first_dealer=1)  # Seán deals, Mary leads
    context, page = open_score_page(
        new_context, live_server, data.scorekeeper, game, viewport=PHONE
    )
    tap(page, "Card by card")
    deal = [["KH", "AD", "4C", "7D", "AS"], ["QH", "3C", "8D", "JD", "10S"]]
    for cards in deal:
        pick(page, *cards)
    card(page, "2S").click()  # the turn-up
    expect(page.locator(".step-title")).to_contain_text("Did anyone rob the turn-up")
    tap(page, "Mary")  # Mary holds the ace of trumps and robs
    expect(card(page, "QH")).to_be_disabled()  # not Mary's card
    card(page, "4C").click()  # she discards the four of clubs
    expect(page.locator(".step-title")).to_have_text("Trick 1: Mary plays")
    expect(card(page, "2S")).to_be_enabled()  # the robbed turn-up is in her hand
    expect(card(page, "4C")).to_be_disabled()  # the discard is not
    tricks = [["AS", "10S"], ["2S", "QH"], ["7D", "JD"], ["8D", "AD"], ["3C", "KH"]]
    winners = ["Mary", "Mary", "Seán", "Seán"]
    pick(page, "AS")
    for code in ("QH", "3C", "8D", "JD"):  # a trump led: Seán must play his trump
        expect(card(page, code)).to_be_disabled()
    pick(page, "10S")
    for trick, winner in zip(tricks[1:], winners, strict=True):
        tap(page, winner)
        if trick == ["8D", "AD"]:
            card(page, "8D").click()
            expect(card(page, "KH")).to_be_disabled()  # Mary must follow diamonds
            card(page, "AD").click()
        else:
            pick(page, *trick)
    page.locator(".verdict", has_text="new totals").wait_for()
    expect(page.locator('.summary-line[data-line="rob"]')).to_contain_text(
        "Mary robbed 2S, discarding 4C"
    )
    tap(page, "Confirm hand 1")
    page.locator("#hands-body tr[data-number='1']:not(.waiting)").wait_for()
    stored = Hand.objects.get(game=game, number=1)
    assert stored.record == {
        "dealer": 1,
        "turn_up": "2S",
        "deal": deal,
        "rob": {"seat": 0, "discard": "4C"},
        "tricks": tricks,
    }
    game.refresh_from_db()
    totals, _ = engine_replay(game)
    assert totals == [(10, 15)]
    assert list(game.totals) == [10, 15]


def _record_a_misdeal(page) -> None:
    """Tap Misdeal, wait for the engine's summary, confirm it as hand 1 and wait till stored."""
    tap(page, "Misdeal")
    page.locator(".verdict", has_text="new totals").wait_for()
    tap(page, "Confirm hand 1")
    page.locator("#hands-body tr[data-number='1']:not(.waiting)").wait_for()


def _mark_a_renege(page, who: str, trick: int) -> None:
    tap(page, "Renege…")
    expect(page.locator(".step-title")).to_have_text("Who reneged?")
    tap(page, who)
    tap(page, f"Trick {trick}")


def test_from_card_mode_a_misdeal_and_a_renege_are_recorded_by_taps(live_server, new_context):
    data = seed()
    game = data.new_game("45", 3, first_dealer=0)  # Mary deals, Seán leads
    context, page = open_score_page(new_context, live_server, data.scorekeeper, game)
    tap(page, "Card by card")
    expect(page.get_by_role("button", name="Renege…")).to_have_count(0)  # no trumps yet
    _record_a_misdeal(page)
    tap(page, "Card by card")
    deal = [
        ["KH", "AD", "4C", "7D", "AS"],
        ["QH", "3C", "8D", "JD", "10S"],
        ["2C", "5C", "6C", "7C", "8C"],
    ]
    for cards in deal:
        pick(page, *cards)
    card(page, "2S").click()  # the turn-up: spades are trumps
    _mark_a_renege(page, "Tom", 3)  # card by card cannot show a renege: it goes on by taps
    expect(page.locator(".trump-line")).to_contain_text("Trumps ♠ Spades")
    expect(page.locator(".trump-line")).to_contain_text("renege by Tom in trick 3")
    enter_hand(
        page,
        number=2,
        trump=None,
        winners=["Mary", "Mary", "Seán", "Seán", "Mary"],
        best=("Mary", 1),
    )
    assert stored_records(game) == [
        {"dealer": 0, "misdeal": True},
        {
            "dealer": 0,
            "trump": "S",
            "renege": {"seat": 2, "trick": 2},
            "trick_winners": [0, 0, 1, 1, 0],
            "best_trump": {"seat": 0, "trick": 0},
        },
    ]


def test_a_misdeal_and_a_renege_recorded_from_the_page(live_server, new_context):
    data = seed()
    game = data.new_game("45", 3, first_dealer=0)  # Mary deals
    context, page = open_score_page(new_context, live_server, data.scorekeeper, game)
    _record_a_misdeal(page)
    expect(page.locator("#dealer")).to_have_text("Hand 2: Mary deals")  # a misdeal: again
    tap(page, "Spades")
    _mark_a_renege(page, "Seán", 2)
    expect(page.locator(".trump-line")).to_contain_text("renege by Seán in trick 2")
    enter_hand(
        page,
        number=2,
        trump=None,
        winners=["Mary", "Seán", "Seán", "Mary", "Seán"],
        best=("Seán", 2),
    )
    assert stored_records(game) == [
        {"dealer": 0, "misdeal": True},
        {
            "dealer": 0,
            "trump": "S",
            "renege": {"seat": 1, "trick": 1},
            "trick_winners": [0, 1, 1, 0, 1],
            "best_trump": {"seat": 1, "trick": 1},
        },
    ]
    game.refresh_from_db()
    totals, state = engine_replay(game)
    # The renege: Seán (the offender, penalty offender_scores_zero) scores nothing this hand.
    assert totals == [(0, 0, 0), (10, 0, 0)]
    assert list(game.totals) == [10, 0, 0] and game.next_dealer == state.next_dealer == 1
