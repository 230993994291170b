"""The practice page in Debian's Chromium: a person plays a hand of 45 to its end against two
computer opponents, and an illegal click is refused with the engine's reason.

What it does: starts the anonymous trial from the menu, fixes the hand's shuffle (so the test
knows the cards), lets the page's ES module play the computer opponents after their short delay,
clicks a card that breaks the follow rules (the reason appears, the card stays in the hand),
asks for the hint (the legal cards), then plays every trick to the end of the hand by clicking
cards, and checks the hand stored as an engine-checked card-by-card record, the totals shown and
the summary of the hand. Saves ``practice.png`` to the screenshots folder.

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

    _click_and_wait(page, "button[value='8H']")
    assert page.inner_text(ERROR) == (
        "Not allowed: diamonds were led and the hand held 7D: follow suit or trump"
    )
    assert page.is_visible("button[value='8H']")

    _click_and_wait(page, "a:has-text('Hint')")
    assert page.inner_text("#practice-hint p") == "You may play: 7♦."
    page.screenshot(path=str(screenshots / "practice.png"), full_page=True)

    _click_and_wait(page, "button[value='7D']")
    clicks = 1
    while _wait_for_my_turn_or_summary(page) == "turn":
        # Click the cards in hand order until the server accepts one (it says why it refuses).
        played = False
        for code in page.eval_on_selector_all(
            "form.hand button.playing-card:not([disabled])", "buttons => buttons.map(b => b.value)"
        ):
            _click_and_wait(page, f"button[value='{code}']")
            clicks += 1
            if not page.query_selector(ERROR):
                played = True
                break
        assert played
    stored = PracticeHand.objects.get(practice_game=game)
    assert stored.number == 1
    assert stored.record["deal"][0] == ["7D", "8H", "9H", "10H", "JH"]
    assert [trick[0] for trick in stored.record["tricks"]][0] == "KD"
    # No spade was dealt to anyone: no trump played, so no bonus trick: five tricks of 5.
    assert sum(stored.points) == 25
    shown = page.inner_text(".last-hand")
    names = ["You", "Nora (club)", "Finn (club)"]
    expected = ", ".join(f"{name} {points}" for name, points in zip(names, stored.points,
                                                                       strict=True))
    assert shown == f"Hand 1: {expected}."
    assert page.inner_text(".totals").split() == [
        "You", str(stored.points[0]), "Nora", "(club)", str(stored.points[1]),
        "Finn", "(club)", str(stored.points[2]),
    ]
    assert clicks >= 5
    assert outside_requests == []
