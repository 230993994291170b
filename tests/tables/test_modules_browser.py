"""The score pad's modules, each loaded alone in the browser the suite already drives (Chromium).

What it proves: each module (static/table/, web.scorepad.views.SCORE_MODULES) imports alone and does
nothing when imported (no request, no error, the page not started); words.js escapes, translates
and names the suits; the score page loads them all under the strict CSP with no console error.
No Node toolchain: the test opens the live server's home page (same origin, same CSP), imports
each module by its static URL with ``page.evaluate`` and calls it with exact inputs (the
``module_page`` fixture, tests/tables/conftest.py, and ``run_script``,
tests/tables/browser_helpers.py).

Elsewhere: draft.js (test_draft_module_browser.py), api.js and sync.js
(test_api_sync_modules_browser.py).
"""

from __future__ import annotations

from django.templatetags.static import static

from tests.tables.browser_helpers import MODULE_URLS, logged_in, run_script, seed, wait_ready


def test_each_module_loads_alone_and_does_nothing_when_imported(module_page):
    exports = run_script(
        module_page,
        """
        const found = {};
        for (const [name, url] of Object.entries(urls)) {
          found[name] = Object.keys(await import(url)).sort();
        }
        return { found, ready: document.body.dataset.ready ?? null };
    """,
    )
    assert exports == {
        "found": {
            "score": ["start"],
            "words": ["SUITS", "escapeHtml", "suitOf", "translator"],
            "draft": [
                "TAPS",
                "TRICKS_PER_HAND",
                "actionOf",
                "auctionTurn",
                "bidder",
                "everybodyPassed",
                "highestBid",
                "newDraft",
                "nextNumber",
                "passedSeats",
                "recordOf",
                "rulesOf",
                "stepOf",
                "storedDealerAfter",
                "tap",
            ],
            "api": ["OfflineError", "createApi", "isOffline", "problemOf"],
            "sync": ["POLL_MS", "RESULT_SHOWN_MS", "createSync", "sendOutbox", "sideLabelsOf"],
            "outbox": ["entryId", "list", "put", "remove", "renumber"],
            "views": ["createViews"],
            "cards": ["createCardEntry"],
        },
        "ready": None,
    }
    assert module_page.api_requests == []
    assert module_page.errors == []


def test_words_escape_translate_and_name_the_suits(module_page):
    seen = run_script(
        module_page,
        """
        const { escapeHtml, translator, SUITS, suitOf } = await import(urls.words);
        const t = translator({
          "Trick %(number)s: who took it?": "Pli %(number)s : qui l'a remporté ?",
        });
        return {
          escaped: escapeHtml(`Seán "the <b>dealer</b>" & O'Brien`),
          translated: [
            t("Trick %(number)s: who took it?", { number: 2 }), t("Untranslated %(name)s", {}),
            t("Hearts"),
          ],
          suits: SUITS.map((suit) => [suit.code, suit.symbol, suit.red, suit.name, suit.word]),
          frozen: Object.isFrozen(SUITS) && Object.isFrozen(SUITS[0]),
          clubs: suitOf("C").name,
        };
    """,
    )
    assert seen == {
        "escaped": "Seán &quot;the &lt;b&gt;dealer&lt;/b&gt;&quot; &amp; O&#39;Brien",
        "translated": ["Pli 2 : qui l'a remporté ?", "Untranslated %(name)s", "Hearts"],
        "suits": [
            ["S", "♠", False, "Spades", "spades"],
            ["H", "♥", True, "Hearts", "hearts"],
            ["D", "♦", True, "Diamonds", "diamonds"],
            ["C", "♣", False, "Clubs", "clubs"],
        ],
        "frozen": True,
        "clubs": "Clubs",
    }


def test_the_score_page_loads_every_module_under_the_policy_without_an_error(
    live_server, new_context
):
    data = seed()
    game = data.new_game("45", 4, teams=[[0, 2], [1, 3]], first_dealer=3)
    context = logged_in(new_context(), live_server, data.scorekeeper)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors = []
    scripts = []
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if message.type in ("error", "warning") else None
        ),
    )
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "response",
        lambda response: (
            scripts.append((response.url.removeprefix(live_server.url), response.status))
            if "/static/" in response.url and response.url.endswith(".js")
            else None
        ),
    )
    page.goto(f"{live_server.url}/clubs/{game.club.slug}/games/{game.pk}/score/")
    wait_ready(page)
    assert page.locator(".step-title").inner_text() == "Trumps"
    assert errors == []
    assert sorted(set(scripts)) == sorted(
        [(static("table/score-page.js"), 200)] + [(url, 200) for url in MODULE_URLS.values()]
    )
