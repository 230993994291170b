"""The score pad's modules, each loaded alone in the browser the suite already drives (Chromium).

What it proves: each module (static/table/, web.table.views.SCORE_MODULES) imports alone and does
nothing when imported (no request, no error, the page not started); draft.js gives exact drafts,
steps and records for exact taps (a 45 with its best trump, the pre-filled answers, a 110 auction
with a hold, a renege, a misdeal, going back a step) and never changes the draft it is given;
api.js sends the page's credentials and headers, turns a refusal's body into its error object and
tells a dropped connection (OfflineError) from a refusal and from a bug; sync.js sends the outbox
in order, stops at a refusal with the hand marked refused, and stops touching nothing on a 5xx, a
request in progress, a dropped connection or a bug. The score page loads them all under the
strict CSP with no console error. No Node toolchain: the test opens the live server's home page
(same origin, same CSP), imports each module by its static URL with ``page.evaluate`` and calls
it with exact inputs; fetch and the IndexedDB outbox are stood in for by plain objects.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from django.templatetags.static import static

from tests.tables.browser_helpers import logged_in, seed, wait_ready
from web.table.views import SCORE_MODULES

URLS = {name: static(f"table/{name}.js") for name in SCORE_MODULES}


@pytest.fixture
def module_page(live_server, new_context):
    """A page of the live server (``.page``) with its API requests and console errors."""
    page = new_context().new_page()
    page.set_default_timeout(10_000)
    seen = SimpleNamespace(page=page, api_requests=[], errors=[])
    page.on(
        "request",
        lambda request: seen.api_requests.append(request.url) if "/api/" in request.url else None,
    )
    page.on(
        "console",
        lambda message: (
            seen.errors.append(message.text) if message.type in ("error", "warning") else None
        ),
    )
    page.on("pageerror", lambda error: seen.errors.append(str(error)))
    page.goto(f"{live_server.url}/")
    return seen


def run(module_page, body: str, **values):
    """Run ``body`` (the inside of an async function) with ``urls`` and ``values`` in scope."""
    names = ["urls", *values]
    script = f"async ([{', '.join(names)}]) => {{ {body} }}"
    return module_page.page.evaluate(script, [URLS, *values.values()])


def test_each_module_loads_alone_and_does_nothing_when_imported(module_page):
    exports = run(
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


FORTY_FIVE = {
    "seats": [{}, {}, {}, {}],
    "house_rules": {},
    "game": "45",
    "next_dealer": 3,
    "hands_played": 0,
}


def test_a_hand_of_45_tap_by_tap(module_page):
    seen = run(
        module_page,
        """
        const D = await import(urls.draft);
        const rules = D.rulesOf(game);
        let draft = D.newDraft({ dealer: D.storedDealerAfter(game, []) });
        const steps = [D.stepOf(draft, rules)];
        for (const action of [
          { type: "trump", suit: "S" },
          ...[0, 2, 0, 0, 1].map((seat) => ({ type: "trick", seat })),
          { type: "best-seat", seat: 0 },
          { type: "best-trick", trick: 0 },
        ]) {
          draft = D.tap(draft, action, rules);
          steps.push(D.stepOf(draft, rules));
        }
        return { rules, steps, record: D.recordOf(draft, rules), next: D.nextNumber(game, []) };
    """,
        game=FORTY_FIVE,
    )
    assert seen == {
        "rules": {"seats": 4, "bidding": False, "bestTrump": True},
        "steps": [
            "trump",
            "tricks",
            "tricks",
            "tricks",
            "tricks",
            "tricks",
            "best-seat",
            "best-trick",
            "summary",
        ],
        "record": {
            "dealer": 3,
            "trump": "S",
            "trick_winners": [0, 2, 0, 0, 1],
            "best_trump": {"seat": 0, "trick": 0},
        },
        "next": 1,
    }


def test_the_tricks_fill_in_the_best_trump_until_it_is_changed(module_page):
    seen = run(
        module_page,
        """
        const D = await import(urls.draft);
        const rules = D.rulesOf(game);
        let draft = D.newDraft({ dealer: 0 });
        draft = D.tap(draft, { type: "trump", suit: "H" }, rules);
        for (const seat of [2, 2, 2, 2, 2]) draft = D.tap(draft, { type: "trick", seat }, rules);
        const oneSeat = {
          step: D.stepOf(draft, rules), best: [draft.bestSeat, draft.bestTrick ?? "none"],
        };
        draft = D.tap(draft, { type: "change", step: "best-seat" }, rules);
        const changed = { step: D.stepOf(draft, rules), prefill: draft.prefill };
        draft = D.tap(draft, { type: "best-seat", seat: null }, rules);
        const noTrump = { step: D.stepOf(draft, rules), record: D.recordOf(draft, rules) };
        draft = D.tap(draft, { type: "undo-trick" }, rules);
        const undone = [D.stepOf(draft, rules), draft.tricks, draft.bestSeat ?? "unset"];
        return { oneSeat, changed, noTrump, undone };
    """,
        game=FORTY_FIVE,
    )
    assert seen == {
        "oneSeat": {"step": "best-trick", "best": [2, "none"]},
        "changed": {"step": "best-seat", "prefill": False},
        "noTrump": {
            "step": "summary",
            "record": {
                "dealer": 0,
                "trump": "H",
                "trick_winners": [2, 2, 2, 2, 2],
                "best_trump": None,
            },
        },
        "undone": ["tricks", [2, 2, 2, 2], "unset"],
    }


def test_an_auction_of_110_with_the_dealers_hold(module_page):
    seen = run(
        module_page,
        """
        const D = await import(urls.draft);
        const rules = D.rulesOf(game);
        let draft = D.newDraft({ dealer: 2 });
        const turns = [];
        for (const call of ["15", "pass", "hold", "20", "pass"]) {
          turns.push(D.auctionTurn(draft, rules));
          draft = D.tap(draft, { type: "call", call }, rules);
        }
        const after = {
          turn: D.auctionTurn(draft, rules), step: D.stepOf(draft, rules),
          bidder: D.bidder(draft), high: D.highestBid(draft),
        };
        draft = D.tap(draft, { type: "trump", suit: "D" }, rules);
        for (const seat of [0, 0, 1, 2, 0]) draft = D.tap(draft, { type: "trick", seat }, rules);
        const asked = D.stepOf(draft, rules);
        draft = D.tap(draft, { type: "best-seat", seat: 0 }, rules);
        draft = D.tap(draft, { type: "best-trick", trick: 1 }, rules);
        let passed = D.newDraft({ dealer: 0 });
        for (const call of ["pass", "pass", "pass"]) {
          passed = D.tap(passed, { type: "call", call }, rules);
        }
        return {
          turns, after, asked, step: D.stepOf(draft, rules), record: D.recordOf(draft, rules),
          allPassed: [
            D.everybodyPassed(passed, rules), D.stepOf(passed, rules), D.recordOf(passed, rules),
          ],
        };
    """,
        game={"seats": [{}, {}, {}], "house_rules": {"bids": [15, 20, 25, 30]}, "game": "110"},
    )
    assert seen == {
        "turns": [0, 1, 2, 0, 2],
        "after": {"turn": None, "step": "trump", "bidder": 0, "high": 20},
        "asked": "best-seat",
        "step": "summary",
        "record": {
            "dealer": 2,
            "bidding": [
                {"seat": 0, "call": "15"},
                {"seat": 1, "call": "pass"},
                {"seat": 2, "call": "hold"},
                {"seat": 0, "call": "20"},
                {"seat": 2, "call": "pass"},
            ],
            "trump": "D",
            "trick_winners": [0, 0, 1, 2, 0],
            "best_trump": {"seat": 0, "trick": 1},
        },
        "allPassed": [
            True,
            "summary",
            {
                "dealer": 0,
                "bidding": [
                    {"seat": 1, "call": "pass"},
                    {"seat": 2, "call": "pass"},
                    {"seat": 0, "call": "pass"},
                ],
            },
        ],
    }


def test_irregularities_waiting_hands_and_a_tapped_button(module_page):
    seen = run(
        module_page,
        """
        const D = await import(urls.draft);
        const rules = D.rulesOf(game);
        let draft = D.tap(D.newDraft({ dealer: 1 }), { type: "trump", suit: "C" }, rules);
        draft = D.tap(draft, { type: "renege" }, rules);
        const asked = D.stepOf(draft, rules);
        draft = D.tap(draft, { type: "renege-seat", seat: 3 }, rules);
        const trickAsked = D.stepOf(draft, rules);
        draft = D.tap(draft, { type: "renege-trick", trick: 1 }, rules);
        const misdeal = D.tap(D.newDraft({ dealer: 1 }), { type: "misdeal" }, rules);
        const waiting = [
          { number: 3, body: { misdeal: true } }, { number: 4, body: { trump: "S" } },
        ];
        const played = { ...game, next_dealer: 2, hands_played: 2 };
        const button = document.createElement("button");
        Object.assign(button.dataset, { action: "best-seat", seat: "none" });
        const corrected = document.createElement("button");
        Object.assign(corrected.dataset, { action: "correct", number: "3" });
        let unknown = null;
        try { D.tap(draft, { type: "confirm" }, rules); } catch (error) { unknown = error.message; }
        return {
          asked, trickAsked, step: D.stepOf(draft, rules), record: D.recordOf(draft, rules),
          misdeal: [D.stepOf(misdeal, rules), D.recordOf(misdeal, rules)],
          dealer: D.storedDealerAfter(played, waiting), next: D.nextNumber(played, waiting),
          actions: [D.actionOf(button.dataset), D.actionOf(corrected.dataset)], unknown,
        };
    """,
        game=FORTY_FIVE,
    )
    assert seen == {
        "asked": "renege-seat",
        "trickAsked": "renege-trick",
        "step": "tricks",
        "record": {
            "dealer": 1,
            "trump": "C",
            "trick_winners": [],
            "best_trump": None,
            "renege": {"seat": 3, "trick": 1},
        },
        "misdeal": ["summary", {"dealer": 1, "misdeal": True}],
        # Hand 3 a misdeal (dealt again by seat 2), hand 4 passes the deal left.
        "dealer": 3,
        "next": 5,
        "actions": [
            {
                "type": "best-seat",
                "seat": None,
                "call": None,
                "suit": None,
                "trick": None,
                "step": None,
                "number": None,
                "player": None,
            },
            {
                "type": "correct",
                "seat": None,
                "call": None,
                "suit": None,
                "trick": None,
                "step": None,
                "number": 3,
                "player": None,
            },
        ],
        "unknown": "Not a tap of the draft: confirm",
    }


def test_a_tap_gives_a_new_draft_and_never_changes_the_one_it_was_given(module_page):
    seen = run(
        module_page,
        """
        const D = await import(urls.draft);
        const rules = D.rulesOf(game);
        const freeze = (value) => {
          if (value && typeof value === "object") {
            Object.values(value).forEach(freeze);
            Object.freeze(value);
          }
          return value;
        };
        let draft = D.newDraft({ dealer: 0 });
        const tricks = [1, 1, 1, 1, 1].map((seat) => ({ type: "trick", seat }));
        for (const action of [
          { type: "trump", suit: "S" }, ...tricks, { type: "undo-trick" },
          { type: "change", step: "tricks" }, { type: "change", step: "auction" },
        ]) {
          const before = JSON.stringify(draft);
          // Modules are strict: a write to the frozen draft would throw.
          const after = D.tap(freeze(draft), action, rules);
          if (after === draft || JSON.stringify(draft) !== before) return `changed: ${action.type}`;
          draft = after;
        }
        return [draft.trump, draft.tricks, draft.bidding, draft.prefill];
    """,
        game=FORTY_FIVE,
    )
    assert seen == [None, [], [], False]


def test_the_api_sends_the_pages_credentials_and_reads_a_refusal(module_page):
    seen = run(
        module_page,
        """
        const { createApi, problemOf, isOffline } = await import(urls.api);
        const sent = [];
        const answer = (status, body, headers = {}) => async (request) => {
          sent.push({
            method: request.method,
            url: new URL(request.url).pathname + new URL(request.url).search,
            headers: Object.fromEntries(request.headers.entries()),
            body: request.method === "GET" ? null : await request.text(),
            cache: request.cache, credentials: request.credentials,
          });
          return new Response(body === null ? null : JSON.stringify(body), { status, headers });
        };
        const problem = {
          type: "https://jink.example/problems/hand_conflict", title: "Conflict", status: 409,
          detail: "Hand 4 is already recorded.",
          errors: [
            { code: "hand_conflict", detail: "Hand 4 is already recorded.", pointer: "/number" },
          ],
          hand: { number: 4 },
        };
        const credential = "7K3QX92MHD";
        const link = createApi({ credential, csrf: "token", fetch: answer(409, problem) });
        const refused = await link.request(
          "POST", "/games/4/hands/", { body: { number: 4 }, headers: { "Idempotency-Key": "k1" } });
        const etag = { ETag: '"4-7"' };
        const session = createApi({ csrf: "token", fetch: answer(200, { id: 4 }, etag) });
        const read = await session.request("GET", "/games/4/");
        const polling = createApi({ credential, fetch: answer(304, null) });
        const unchanged = await polling.poll("/table/", '"t-1"');
        const down = createApi({ fetch: async () => { throw new TypeError("Failed to fetch"); } });
        let offline = null;
        try {
          await down.request("GET", "/games/4/");
        } catch (error) {
          offline = [error.name, isOffline(error), error.cause.message];
        }
        // A header the browser refuses to build is a bug of the page, not a dropped connection.
        const broken = createApi({ credential: "Ā", fetch: answer(200, {}) });
        let bug = null;
        try {
          await broken.request("GET", "/table/");
        } catch (error) {
          bug = [error.name, isOffline(error)];
        }
        const serverError = { title: "Server error", detail: "Boom", code: "server_error" };
        return {
          refused, read, unchanged, offline, bug, sent,
          problems: [problemOf(null), problemOf(serverError)],
        };
    """,
    )
    assert seen["refused"] == {
        "status": 409,
        "ok": False,
        "data": {
            "type": "https://jink.example/problems/hand_conflict",
            "title": "Conflict",
            "status": 409,
            "detail": "Hand 4 is already recorded.",
            "errors": [
                {
                    "code": "hand_conflict",
                    "detail": "Hand 4 is already recorded.",
                    "pointer": "/number",
                }
            ],
            "hand": {"number": 4},
        },
        "etag": None,
        "problem": {
            "code": "hand_conflict",
            "title": "Conflict",
            "detail": "Hand 4 is already recorded.",
            "pointer": "/number",
        },
    }
    assert seen["read"] == {
        "status": 200,
        "ok": True,
        "data": {"id": 4},
        "etag": '"4-7"',
        "problem": None,
    }
    assert seen["unchanged"] == {
        "status": 304,
        "ok": False,
        "data": None,
        "etag": None,
        "problem": None,
    }
    assert seen["offline"] == ["OfflineError", True, "Failed to fetch"]
    assert seen["bug"] == ["TypeError", False]
    assert seen["problems"] == [
        None,
        {"code": "server_error", "title": "Server error", "detail": "Boom", "pointer": ""},
    ]
    post, get, poll = seen["sent"]
    assert post == {
        "method": "POST",
        "url": "/api/games/4/hands/",
        "headers": {
            "accept": "application/json",
            "authorization": "Table 7K3QX92MHD",
            "content-type": "application/json",
            "idempotency-key": "k1",
            "x-csrftoken": "token",
        },
        "body": json.dumps({"number": 4}, separators=(",", ":")),
        "cache": "default",
        "credentials": "same-origin",
    }
    assert get == {
        "method": "GET",
        "url": "/api/games/4/",
        "headers": {"accept": "application/json"},
        "body": None,
        "cache": "default",
        "credentials": "same-origin",
    }
    assert poll == {
        "method": "GET",
        "url": "/api/table/",
        "headers": {
            "accept": "application/json",
            "authorization": "Table 7K3QX92MHD",
            "if-none-match": '"t-1"',
        },
        "body": None,
        "cache": "no-store",
        "credentials": "omit",
    }


SENDING = """
    const { createApi } = await import(urls.api);
    const { sendOutbox } = await import(urls.sync);
    // The outbox, in memory: what outbox.js does in IndexedDB.
    const entries = new Map();
    const outbox = {
      list: async (game) => [...entries.values()]
        .filter((entry) => entry.game === game).sort((a, b) => a.number - b.number),
      put: async (entry) => { entries.set(entry.id, entry); },
      remove: async (id) => { entries.delete(id); },
    };
    for (const number of [3, 4, 5]) {
      await outbox.put({
        id: `9:${number}`, game: 9, number, key: number === 3 ? firstKey : `key-${number}`,
        body: { number, trump: "S" }, state: "waiting", problem: null, server: null,
      });
    }
    const posted = [];
    const api = createApi({ fetch: async (request) => {
      const { number } = JSON.parse(await request.text());
      posted.push([number, request.headers.get("Idempotency-Key")]);
      const answer = answers.shift();
      if (answer === "offline") throw new TypeError("Failed to fetch");
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    } });
    const heard = [];
    const stored = [];
    let result;
    try {
      result = await sendOutbox({
        outbox, api, gameId: 9,
        onAnswer: (reached) => heard.push(reached),
        onStored: (entry, response) => stored.push([entry.number, response.status]),
      });
    } catch (error) {
      result = { error: error.name, offline: api.isOffline(error) };
    }
    const left = (await outbox.list(9)).map(
      (entry) => [entry.number, entry.state, entry.key, entry.problem, entry.server]);
    return { result, posted, heard, stored, left };
"""


def _sending(first_key: str, answers: list) -> str:
    """SENDING with the first hand's Idempotency-Key and the server's answers, in order."""
    values = f"const firstKey = {json.dumps(first_key)}; const answers = {json.dumps(answers)};"
    return values + SENDING


def test_the_outbox_is_sent_in_order_and_stops_at_a_refusal(module_page):
    conflict = {
        "title": "Conflict",
        "errors": [{"code": "hand_conflict", "detail": "Taken.", "pointer": "/number"}],
        "hand": {"number": 4, "trump": "C"},
    }
    answers = [{"status": 201, "body": {"number": 3}}, {"status": 409, "body": conflict}]
    seen = run(module_page, _sending("key-3", answers))
    assert seen == {
        "result": {"stored": 1, "offline": False},
        "posted": [[3, "key-3"], [4, "key-4"]],
        "heard": [True, True],
        "stored": [[3, 201]],
        "left": [
            [4, "refused", "key-4", conflict, {"number": 4, "trump": "C"}],
            [5, "waiting", "key-5", None, None],
        ],
    }


BUSY = {"errors": [{"code": "idempotency_in_progress", "detail": "Still running."}]}


@pytest.mark.parametrize(
    ("answer", "offline"),
    [
        ("offline", True),
        ({"status": 409, "body": BUSY}, False),
        ({"status": 503, "body": {}}, False),
    ],
)
def test_the_outbox_waits_for_the_network_and_a_retry(module_page, answer, offline):
    seen = run(module_page, _sending("key-3", [answer]))
    assert seen == {
        "result": {"stored": 0, "offline": offline},
        "posted": [[3, "key-3"]],
        "heard": [not offline],
        "stored": [],
        "left": [[number, "waiting", f"key-{number}", None, None] for number in (3, 4, 5)],
    }


def test_a_bug_is_not_taken_for_a_dropped_connection(module_page):
    # A key no header can carry: the request cannot even be built, so nothing is sent.
    seen = run(module_page, _sending("key-\u0100", []))
    assert seen == {
        "result": {"error": "TypeError", "offline": False},
        "posted": [],
        "heard": [],
        "stored": [],
        "left": [
            [3, "waiting", "key-\u0100", None, None],
            [4, "waiting", "key-4", None, None],
            [5, "waiting", "key-5", None, None],
        ],
    }


def test_words_escape_translate_and_name_the_suits(module_page):
    seen = run(
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
        [(static("table/score-page.js"), 200)] + [(url, 200) for url in URLS.values()]
    )
