"""The practice page in Debian's Chromium: a person plays a hand of 45 to its end against two
computer opponents; the cards they may not play are marked, and a tap on one says why in words.

What it does: starts the anonymous trial from the menu, fixes the hand's shuffle (so the test
knows the cards), lets the page's ES module play the computer opponents after their short delay,
checks that the cards breaking the follow rules are marked on the hand and that a tap on one
says why in a player's words ("the eight of hearts", not "8H") without sending it, asks for the
hint (the legal cards), plays a card and sees the finished trick stay on the table (who took
it, with which card) until the next card, then plays every trick to the end of the hand by
clicking playable cards, and checks the hand stored as an engine-checked card-by-card record,
the totals shown and the summary of the hand. Saves ``practice.png`` to the screenshots folder.

Uses the shared fixtures of tests/browser.py (one Chromium per session, contexts that may reach
only the live server).
"""

from __future__ import annotations

from tests.browser import PHONE

ERROR = "#practice-error"
TURN = "#practice-turn"


def _click_and_wait(page, selector: str) -> None:
    """Click, then wait until the page's script has swapped in the table the server sent."""
    table = page.query_selector("#practice-table")
    page.click(selector)
    page.wait_for_function("table => !table.isConnected", arg=table)


def _wait_for_my_turn_or_summary(page) -> str:
    page.wait_for_function(
        "() => { const turn = document.querySelector('#practice-turn');"
        " const last = document.querySelector('.last-hand');"
        " return (turn && turn.innerText.startsWith('Your turn')) || last; }",
        timeout=20_000,
    )
    return "summary" if page.query_selector(".last-hand") else "turn"


def test_a_hand_of_45_played_to_its_end_with_an_illegal_click_refused(
    live_server, new_context, outside_requests, screenshots
):
    from practice.models import PracticeGame, PracticeHand
    from tests.practice.helpers import set_deal

    context = new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/practice/")
    with page.expect_navigation():
        page.click("button:has-text('Deal')")
    game = PracticeGame.objects.get()
    assert game.game == "45" and game.rules_name == "classic_45"
    # Seat 2 (Finn) leads KD; the person (seat 0) holds 7D and must follow diamonds or trump.
    set_deal(game, "KD 2C 3C 6C 7C | 7D 8H 9H 10H JH | QD 3D 2H 4H 8C", "4S", dealer=1)
    page.goto(f"{live_server.url}/practice/{game.pk}/")
    assert _wait_for_my_turn_or_summary(page) == "turn"
    assert page.inner_text(".trick").split() == ["Finn", "(club)", "K♦"]

    # The hearts may not be played to a diamond lead while the person holds 7D: marked (a sign
    # and a dashed edge, not colour alone), and a tap says why without sending the card.
    assert page.eval_on_selector_all(
        "form.hand button.unplayable", "buttons => buttons.map(button => button.value)"
    ) == ["8H", "9H", "10H", "JH"]
    page.click("button[value='8H']")
    page.wait_for_function("() => document.querySelector('#practice-why').innerText !== ''")
    assert page.inner_text("#practice-why") == (
        "You may not play the eight of hearts: diamonds were led and you hold the seven of "
        "diamonds: follow suit or play a trump."
    )
    game.refresh_from_db()
    assert game.moves == [{"kind": "play", "seat": 2, "card": "KD"}]  # nothing was sent
    assert page.is_visible("button[value='8H']")

    _click_and_wait(page, "a:has-text('Hint')")
    assert page.inner_text("#practice-hint p") == "You may play: 7♦."
    page.screenshot(path=str(screenshots / "practice.png"), full_page=True)

    # 7♦, then Nora follows: the finished trick stays on the table, saying who took it and with
    # which card, until the next card is played.
    _click_and_wait(page, "button[value='7D']")
    page.wait_for_selector("#practice-taken", timeout=10_000)
    game.refresh_from_db()
    trick = [move["card"] for move in game.moves if move["kind"] == "play"][:3]
    assert trick[:2] == ["KD", "7D"] and len(trick) == 3
    assert page.inner_text("#practice-taken") == (
        "Finn (club) took the trick with the king of diamonds."
    )
    assert page.inner_text("#practice-trick .took") == "K♦"
    page.screenshot(path=str(screenshots / "practice-trick-taken.png"), full_page=True)
    clicks = 1
    while _wait_for_my_turn_or_summary(page) == "turn":
        # Click the first card the page says may be played: the server takes it.
        code = page.eval_on_selector_all(
            "form.hand button.playing-card:not([disabled]):not(.unplayable)",
            "buttons => buttons.map(b => b.value)",
        )[0]
        _click_and_wait(page, f"button[value='{code}']")
        clicks += 1
        assert not page.query_selector(ERROR)
    stored = PracticeHand.objects.get(practice_game=game)
    assert stored.number == 1
    assert stored.record["deal"][0] == ["7D", "8H", "9H", "10H", "JH"]
    assert [trick[0] for trick in stored.record["tricks"]][0] == "KD"
    # No spade was dealt to anyone: no trump played, so no bonus trick: five tricks of 5.
    assert sum(stored.points) == 25
    shown = page.inner_text(".last-hand")
    names = ["You", "Nora (club)", "Finn (club)"]
    expected = ", ".join(
        f"{name} {points}" for name, points in zip(names, stored.points, strict=True)
    )
    assert shown == f"Hand 1: {expected}."
    assert page.inner_text(".totals").split() == [
        "You",
        str(stored.points[0]),
        "Nora",
        "(club)",
        str(stored.points[1]),
        "Finn",
        "(club)",
        str(stored.points[2]),
    ]
    assert clicks == 5
    assert outside_requests == []
