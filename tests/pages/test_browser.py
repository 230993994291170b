"""The pages in a real browser on a phone-sized screen: log in, read the standings, open a game.

What it does: starts Debian's Chromium through Python Playwright against pytest-django's live
server, logs in through the session login page as a player, opens the tournament page on a
390 x 844 viewport and checks the standings table as the browser shows it, that the page does
not scroll sideways (the standings show the figures the format ranks by, the others behind "All
figures"; the bracket scrolls inside its own box), that the pages' stylesheet is
applied and that no request leaves the live server (no CDN); then opens a game page and checks
its hand table. It saves a screenshot of each page to the test's temporary folder, or to the
folder named by ``JINK_SCREENSHOTS`` (``JINK_SCREENSHOTS=docs/screenshots`` refreshes the README's
pictures) — never into the work tree by default, so a test run leaves git clean.

Chromium: the system's ``chromium`` (``apt-get install -y chromium``;
``scripts/ensure_test_packages.sh`` installs it when missing), never a browser downloaded by
``playwright install``. Without it the test is skipped with the reason, and fails when
``CI=true``.

The browser, its contexts and the screenshot folder are the shared fixtures of tests/browser.py.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from tests.browser import PHONE
from tests.helpers import log_in


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
    log_in(page, live_server.url, "pat", PASSWORD)
    assert urlsplit(page.url).path == "/"  # LOGIN_REDIRECT_URL: logged in

    page.goto(f"{live_server.url}{tournament_path}")
    assert page.title() == "Winter Cup · Kilkenny Card Club · Jink"
    # On a phone the standings show the figures the knockout ranks by — the round reached,
    # under the first name of each group, then match wins, games won and points difference;
    # the others wait behind "All figures" (a detail row under each entrant, once opened), and a
    # tie is explained in words.
    assert page.eval_on_selector_all(
        "#standings-table tbody tr.entrant-row",
        """rows => rows.map(row => Array.from(row.cells)
            .filter(cell => getComputedStyle(cell).display !== 'none')
            .map(cell => cell.innerText.trim().replace('\\n', ' / ')))""",
    ) == [
        ["1", "Ann / Final", "1", "1", "25"],
        ["2", "Bill", "1", "1", "15"],
        ["3", "Cait / Semi-finals", "0", "0", "-15"],
        ["4", "Dan", "0", "0", "-25"],
    ]
    assert not page.is_visible("#standings-table tbody tr.detail")
    page.click("#standings-more > summary")
    assert " ".join(page.inner_text("#standings-table tbody tr.detail").split()) == (
        "Matches played 1 Matches drawn 0 Matches lost 0 Match points 2 Points scored 25"
    )
    assert " ".join(page.inner_text("#standings-table tbody tr.why").split()) == (
        "Level with Ann on match wins and games won; split by points difference (25 to 15)."
    )
    # The final is in progress, as its round says: its card links the game.
    assert page.inner_text("#round-2 .card-head").split() == ["Table", "1"]
    assert page.get_attribute("#round-2 .card-head a", "href") == (
        f"/clubs/kilkenny/games/{seed.games['final'].pk}/"
    )
    # The page fits the phone's width: the table fits, the bracket scrolls in its own box.
    page_width = page.evaluate("document.documentElement.scrollWidth")
    assert page_width == PHONE["width"]
    assert (
        page.evaluate("document.querySelector('#standings-table').getBoundingClientRect().right")
        <= PHONE["width"]
    )
    assert (
        page.eval_on_selector(".bracket-scroll", "box => getComputedStyle(box).overflowX") == "auto"
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
    # Each hand names each side with its running total and the hand's points, newest first.
    assert page.eval_on_selector_all(
        "#hand-list .hand-score", "rows => rows.map(row => row.innerText.trim())"
    ) == [
        "Ann & Cait 25 (+10) – (+10) 20 Bill & Pat",
        "Ann & Cait 15 (+15) – (+10) 10 Bill & Pat",
    ]
    assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
    page.screenshot(path=str(screenshots / "game-page.png"), full_page=True)

    assert outside_requests == []
