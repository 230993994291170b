"""The pages in a real browser on a phone-sized screen: log in, read the standings, open a game.

What it does: starts Debian's Chromium through Python Playwright against pytest-django's live
server, logs in through the session login page as a player, opens the tournament page on a
390 x 844 viewport and checks the standings table as the browser shows it, that the page does
not scroll sideways (wide tables scroll inside their own box), that the pages' stylesheet is
applied and that no request leaves the live server (no CDN); then opens a game page and checks
its hand table. It saves a screenshot of each page to the test's temporary folder, or to the
folder named by ``JINK_SCREENSHOTS`` (``JINK_SCREENSHOTS=docs/screenshots`` refreshes the README's
pictures) — never into the work tree by default, so a test run leaves git clean.

Chromium: the system's ``chromium`` (``apt-get install -y chromium``; ``scripts/ensure_chromium.sh``
installs it when missing), never a browser downloaded by ``playwright install``. Without it the
test is skipped with the reason, and fails when ``CI=true``.

The browser, its contexts and the screenshot folder are the shared fixtures of tests/browser.py.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from tests.browser import PHONE


def _cell_texts(page, selector: str) -> list[list[str]]:
    return page.eval_on_selector_all(
        selector,
        "rows => rows.map(row => Array.from(row.cells).map(cell => cell.innerText.trim()))",
    )


def test_a_player_reads_the_standings_and_a_game_on_a_phone(
    live_server, new_context, outside_requests, screenshots
):
    from tests.pages.seed import PASSWORD, seed_clubs

    seed = seed_clubs()
    tournament_path = f"/clubs/kilkenny/tournaments/{seed.tournaments['cup'].pk}/"
    game_path = f"/clubs/kilkenny/games/{seed.games['twenty_five'].pk}/"
    context = new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "pat")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert urlsplit(page.url).path == "/"  # LOGIN_REDIRECT_URL: logged in

    page.goto(f"{live_server.url}{tournament_path}")
    assert page.title() == "Winter Cup · Kilkenny Card Club · Jink"
    assert _cell_texts(page, "#standings-table tbody tr") == [
        ["1", "Ann", "1", "1", "0", "0", "2", "1", "25", "25"],
        ["2", "Bill", "1", "1", "0", "0", "2", "1", "25", "15"],
        ["3", "Cait", "1", "0", "0", "1", "0", "0", "10", "-15"],
        ["4", "Dan", "1", "0", "0", "1", "0", "0", "0", "-25"],
    ]
    assert page.inner_text("#round-2 .card-head").split() == [
        "Table",
        "1",
        "In",
        "progress",
    ]
    # The page fits the phone's width; only the standings box scrolls sideways.
    page_width = page.evaluate("document.documentElement.scrollWidth")
    assert page_width == PHONE["width"]
    assert (
        page.eval_on_selector("#standings .scroll", "box => getComputedStyle(box).overflowX")
        == "auto"
    )
    # The winners of the semi-finals are highlighted by pages.css.
    assert (
        page.eval_on_selector(
            "#round-1-table-1 li.winner", "item => getComputedStyle(item).backgroundColor"
        )
        == "rgb(227, 243, 234)"
    )
    page.screenshot(path=str(screenshots / "tournament-page.png"), full_page=True)

    page.goto(f"{live_server.url}{game_path}")
    assert " ".join(page.inner_text("#game-status").split()) == ("Finished Won by Ann & Cait")
    assert _cell_texts(page, "#hands-table tbody tr") == [
        ["1", "Pat", "♠", "+15 15", "+10 10"],
        ["2", "Ann", "♥", "+10 25", "+10 20"],
    ]
    assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
    page.screenshot(path=str(screenshots / "game-page.png"), full_page=True)

    assert outside_requests == []
