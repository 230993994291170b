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

import json
from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from games.bridge import start_for
from games.models import Game, Hand
from tables import services as table_services
from tests.browser import PHONE, TABLET_LANDSCAPE, TABLET_PORTRAIT
from tests.tables.browser_helpers import enter_hand, logged_in, seed, tap, wait_ready


def _engine_replay(game: Game) -> list[tuple[int, ...]]:
    """The totals after each stored hand, as the engine computes them from the stored records."""
    state = start_for(game)  # the engine's state before hand 1 (the game's frozen rules)
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


def _stored_records(game) -> list[dict]:
    return list(Hand.objects.filter(game=game).order_by("number").values_list("record", flat=True))


def test_a_whole_game_of_45_by_taps(live_server, new_context, outside_requests, screenshots):
    data = seed()
    game = data.new_game("45", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    context, page = _open_score_page(new_context, live_server, data.scorekeeper, game)
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
    assert _stored_records(game) == [
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
    totals, state = _engine_replay(game)
    assert totals == [(25, 5), (30, 30), (60, 30)]
    assert list(game.totals) == [60, 30] and state.winner == 0
    assert outside_requests == []


def test_a_whole_game_of_110_by_taps_with_an_auction_and_a_hold(
    live_server, new_context, screenshots
):
    data = seed()
    game = data.new_game("110", 3, first_dealer=2)
    context, page = _open_score_page(new_context, live_server, data.scorekeeper, game)
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
    records = _stored_records(game)
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
    totals, state = _engine_replay(game)
    assert totals == [(25, 5, 0), (85, 5, 0), (145, 5, 0)]
    assert list(game.totals) == [145, 5, 0] and game.winner_side == state.winner == 0


def _wait_cached(page) -> None:
    """The service worker is active and the page is in its cache (it may now open offline)."""
    page.wait_for_function(
        "navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready"
    )
    page.wait_for_function(
        "caches.open('jink-table-v1').then(cache => cache.match(location.pathname))"
        ".then(response => response !== undefined)"
    )


FIVE_HANDS = [
    ("Spades", ["Mary", "Seán", "Mary", "Seán", "Mary"], ("Mary", 1)),
    ("Hearts", ["Seán", "Seán", "Tom", "Úna", "Seán"], ("Úna", 4)),
    ("Clubs", ["Tom", "Tom", "Tom", "Seán", "Seán"], ("Seán", 4)),
    ("Diamonds", ["Úna", "Mary", "Úna", "Mary", "Úna"], ("Mary", 2)),
    ("Spades", ["Mary", "Mary", "Mary", "Mary", "Seán"], ("Seán", 5)),
]


def test_five_hands_offline_survive_a_reload_and_are_stored_once_in_order(
    live_server, new_context, screenshots
):
    data = seed()
    game = data.new_game(
        "45", 4, teams=[[0, 2], [1, 3]], first_dealer=0, house_rules={"target": 300}
    )
    context, page = _open_score_page(
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
    totals, _ = _engine_replay(game)
    assert [tuple(hand.totals_after) for hand in stored] == totals
    game.refresh_from_db()
    assert game.hands_played == 5 and list(game.totals) == list(totals[-1])


def test_a_conflict_stops_the_queue_and_shows_both_versions(live_server, new_context):
    from tests.helpers import token_client

    data = seed()
    game = data.new_game(
        "45", 4, teams=[[0, 2], [1, 3]], first_dealer=0, house_rules={"target": 300}
    )
    context, page = _open_score_page(new_context, live_server, data.scorekeeper, game)
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


def test_a_table_link_opens_its_table_and_nothing_else(live_server, new_context, screenshots):
    data = seed()
    game = data.new_game("45", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    other = data.new_game("45", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    link, token, code = table_services.create_table_link(
        club=data.club, user=data.organiser, game_id=game.pk
    )
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/t/")
    page.get_by_label("The table's code").fill(code.lower())
    page.get_by_role("button", name="Open the table").click()
    wait_ready(page)
    assert page.url == f"{live_server.url}/t/{code}/"
    page.screenshot(path=str(screenshots / "table-link-390x844.png"), full_page=True)
    enter_hand(
        page,
        number=1,
        trump="Clubs",
        winners=["Mary", "Tom", "Mary", "Mary", "Seán"],
        best=("Mary", 1),
    )
    assert Hand.objects.filter(game=game).count() == 1

    def fetch(path, method="GET", body=None):
        return page.evaluate(
            """([path, method, body, credential]) => fetch(path, {method,
                 headers: {"Authorization": `Table ${credential}`,
                           "Content-Type": "application/json"},
                 body: body === null ? undefined : JSON.stringify(body)}).then(r => r.status)""",
            [path, method, body, token],
        )

    hand = {
        "dealer": 3,
        "trump": "S",
        "trick_winners": [0, 0, 0, 0, 0],
        "best_trump": {"seat": 0, "trick": 0},
    }
    assert fetch(f"/api/games/{other.pk}/") == 404
    assert fetch(f"/api/games/{other.pk}/hands/", "POST", hand) == 404
    assert fetch(f"/api/clubs/{data.club.slug}/games/") == 404
    assert fetch(f"/api/games/{game.pk}/ledger/") == 404
    assert page.goto(f"{live_server.url}/clubs/{data.club.slug}/").status == 404
    assert page.goto(f"{live_server.url}/t/{token}/?game={other.pk}").status == 200
    expect(page.locator("#dealer")).to_have_text("Hand 2: Mary deals")  # still its own game
    table_services.revoke_table_link(club=data.club, link_id=link.pk, user=data.organiser)
    assert page.goto(f"{live_server.url}/t/{token}/").status == 404
    assert fetch(f"/api/games/{game.pk}/hands/", "POST", dict(hand, dealer=0)) == 404
    _, expired_token, _ = table_services.create_table_link(
        club=data.club, user=data.organiser, game_id=game.pk
    )
    from tables.models import TableLink

    TableLink.objects.exclude(pk=link.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    assert page.goto(f"{live_server.url}/t/{expired_token}/").status == 404
    assert Hand.objects.filter(game__in=[game, other]).count() == 1


def test_card_by_card_legal_cards_only_and_a_pointer_highlights_the_card(
    live_server, new_context, screenshots
):
    data = seed()
    game = data.new_game("25", 2, first_dealer=1)
    context, page = _open_score_page(
        new_context, live_server, data.scorekeeper, game, viewport=PHONE
    )
    tap(page, "Card by card")
    deal = [["KH", "AD", "4C", "7D", "9S"], ["QH", "3C", "8D", "JD", "10S"]]
    names = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

    def card(code):
        return page.get_by_role(
            "button", name=f"{names.get(code[:-1], code[:-1])} of {suits[code[-1]]}", exact=True
        )

    for hand in deal:
        for code in hand:
            card(code).click()
    card("2S").click()  # the turn-up: spades are trumps
    tap(page, "Nobody robbed")
    card("KH").click()  # Mary leads the king of hearts
    # Seán must follow hearts or trump: the queen of hearts or the ten of spades.
    expect(card("QH")).to_be_enabled()
    expect(card("10S")).to_be_enabled()
    for code in ("3C", "8D", "JD"):
        expect(card(code)).to_be_disabled()
    page.screenshot(path=str(screenshots / "table-cards-390x844.png"), full_page=True)
    card("QH").click()
    tap(page, "Seán")  # wrong: Mary's king took the trick, so Mary leads trick 2
    for lead, follow in (("3C", "4C"), ("8D", "AD"), ("JD", "7D"), ("10S", "9S")):
        card(lead).click()
        card(follow).click()
        if lead != "10S":
            tap(page, "Seán")
    chip = page.locator('.card-chip[data-pointer="/tricks/1/0"]')
    expect(chip).to_have_class("card-chip has-problem")
    expect(page.locator(".summary-line.has-problem .problem")).to_contain_text(
        "3C belongs to seat 1"
    )
    assert Hand.objects.filter(game=game).count() == 0


def test_screenshots_at_three_sizes(live_server, new_context, screenshots):
    data = seed()
    game = data.new_game("45", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    for size, viewport in (
        ("1024x768", TABLET_LANDSCAPE),
        ("768x1024", TABLET_PORTRAIT),
        ("390x844", PHONE),
    ):
        context, page = _open_score_page(
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
    context, page = _open_score_page(new_context, live_server, data.scorekeeper, game)
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
    totals, _ = _engine_replay(game)
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


_CARD_RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}
_CARD_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def _card(page, code):
    rank = _CARD_RANKS.get(code[:-1], code[:-1])
    return page.get_by_role("button", name=f"{rank} of {_CARD_SUITS[code[-1]]}", exact=True)


def _pick(page, *codes):
    for code in codes:
        _card(page, code).click()


def test_a_whole_hand_of_110_card_by_card_with_an_illegal_card_disabled(
    live_server, new_context, screenshots
):
    data = seed()
    game = data.new_game("110", 3, first_dealer=2)  # Tom deals; Mary calls first and leads
    context, page = _open_score_page(new_context, live_server, data.scorekeeper, game)
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
        _pick(page, *cards)
    expect(page.locator(".step-title")).to_have_text("The kitty (0 of 5)")
    _pick(page, *kitty)
    expect(page.locator(".step-title")).to_have_text("Mary's discards (0 of 5)")
    expect(_card(page, "2D")).to_be_disabled()  # not Mary's
    _pick(page, *discard)
    tricks = [
        ["KS", "10S", "2C"],
        ["QS", "2D", "3C"],
        ["2S", "3D", "4C"],
        ["3S", "4D", "6C"],
        ["4S", "6D", "7C"],
    ]
    expect(page.locator(".step-title")).to_have_text("Trick 1: Mary plays")
    expect(_card(page, "2H")).to_be_disabled()  # discarded
    _card(page, "KS").click()
    # A trump led: Seán must play his one trump; his diamonds are disabled by the engine.
    expect(page.locator(".step-title")).to_have_text("Trick 1: Seán plays")
    expect(_card(page, "10S")).to_be_enabled()
    for code in ("2D", "3D", "4D", "6D"):
        expect(_card(page, code)).to_be_disabled()
    page.screenshot(path=str(screenshots / "table-cards-110-1024x768.png"), full_page=True)
    _pick(page, "10S", "2C")
    for trick in tricks[1:]:
        tap(page, "Mary")  # Mary took the last trick and leads the next
        _pick(page, *trick)
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
    totals, _ = _engine_replay(game)
    assert totals == [(30, 0, 0)]
    assert list(game.totals) == [30, 0, 0]


def test_a_rob_in_card_mode_for_25(live_server, new_context):
    data = seed()
    game = data.new_game("25", 2, first_dealer=1)  # Seán deals, Mary leads
    context, page = _open_score_page(
        new_context, live_server, data.scorekeeper, game, viewport=PHONE
    )
    tap(page, "Card by card")
    deal = [["KH", "AD", "4C", "7D", "AS"], ["QH", "3C", "8D", "JD", "10S"]]
    for cards in deal:
        _pick(page, *cards)
    _card(page, "2S").click()  # the turn-up
    expect(page.locator(".step-title")).to_contain_text("Did anyone rob the turn-up")
    tap(page, "Mary")  # Mary holds the ace of trumps and robs
    expect(_card(page, "QH")).to_be_disabled()  # not Mary's card
    _card(page, "4C").click()  # she discards the four of clubs
    expect(page.locator(".step-title")).to_have_text("Trick 1: Mary plays")
    expect(_card(page, "2S")).to_be_enabled()  # the robbed turn-up is in her hand
    expect(_card(page, "4C")).to_be_disabled()  # the discard is not
    tricks = [["AS", "10S"], ["2S", "QH"], ["7D", "JD"], ["8D", "AD"], ["3C", "KH"]]
    winners = ["Mary", "Mary", "Seán", "Seán"]
    _pick(page, "AS")
    for code in ("QH", "3C", "8D", "JD"):  # a trump led: Seán must play his trump
        expect(_card(page, code)).to_be_disabled()
    _pick(page, "10S")
    for trick, winner in zip(tricks[1:], winners, strict=True):
        tap(page, winner)
        if trick == ["8D", "AD"]:
            _card(page, "8D").click()
            expect(_card(page, "KH")).to_be_disabled()  # Mary must follow diamonds
            _card(page, "AD").click()
        else:
            _pick(page, *trick)
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
    totals, _ = _engine_replay(game)
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
    context, page = _open_score_page(new_context, live_server, data.scorekeeper, game)
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
        _pick(page, *cards)
    _card(page, "2S").click()  # the turn-up: spades are trumps
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
    assert _stored_records(game) == [
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
    context, page = _open_score_page(new_context, live_server, data.scorekeeper, game)
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
    assert _stored_records(game) == [
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
    totals, state = _engine_replay(game)
    # The renege: Seán (the offender, penalty offender_scores_zero) scores nothing this hand.
    assert totals == [(0, 0, 0), (10, 0, 0)]
    assert list(game.totals) == [10, 0, 0] and game.next_dealer == state.next_dealer == 1


def test_a_tournament_table_with_no_game_yet_waits_and_opens_the_next_game(
    live_server, new_context
):
    from tournaments.services import create_tournament, draw_next_round, progress_match

    data = seed()
    final = create_tournament(
        club=data.club,
        user=data.organiser,
        values={"name": "Final", "game": "25", "format": "knockout", "match_games": 3},
        entrants=[{"player": player.pk} for player in data.players[:2]],
    )
    match_id = draw_next_round(tournament_id=final.pk, user=data.organiser).matches.get().pk
    # The match between games: none of its games exists yet (the draw made the first at once).
    Game.objects.filter(match_link__match_id=match_id).delete()
    _, token, _ = table_services.create_table_link(
        club=data.club, user=data.organiser, match_id=match_id
    )
    context = new_context(viewport=TABLET_LANDSCAPE, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{live_server.url}/t/{token}/")
    wait_ready(page)
    expect(page.locator("h1")).to_have_text("Final, round 1, table 1")
    expect(page.locator("#waiting-status")).to_have_text("Waiting for the next game…")
    page.wait_for_timeout(5_000)  # one poll answered "no game yet": the page stays
    expect(page.locator("#waiting-status")).to_be_visible()
    progress_match(match_id=match_id)  # the tournament starts the match's next game
    game = Game.objects.get(match_link__match_id=match_id)
    page.wait_for_url(f"{live_server.url}/t/{token}/?game={game.pk}")
    wait_ready(page)
    expect(page.locator("#dealer")).to_contain_text("Hand 1:")
    # Between games: the first game ends at the table; when the tournament starts the next one
    # the page opens it by itself.
    winner = game.seat_players()[0].display_name
    enter_hand(page, number=1, trump="Hearts", winners=[winner] * 5)
    expect(page.locator("#banner h2")).to_contain_text(f"{winner} wins")  # shown a while
    progress_match(match_id=match_id)  # the match's task (it may already have run on commit)
    second = Game.objects.filter(match_link__match_id=match_id).exclude(pk=game.pk).get()
    page.wait_for_url(f"{live_server.url}/t/{token}/?game={second.pk}")
    wait_ready(page)
    expect(page.locator("#dealer")).to_contain_text("Hand 1:")
