"""The score pad's API and sync modules (static/table/api.js, sync.js) in the browser the suite
already drives (Chromium).

What it proves: api.js sends the page's credentials and headers, turns a refusal's body into its
error object and tells a dropped connection (OfflineError) from a refusal and from a bug; sync.js
sends the outbox in order, stops at a refusal with the hand marked refused, and stops touching
nothing on a 5xx, a request in progress, a dropped connection or a bug. Each module is imported
alone by its static URL on a page of the live server (``module_page`` and ``run_script``, as in
test_modules_browser.py); fetch and the IndexedDB outbox are stood in for by plain objects.
"""

from __future__ import annotations

import json

import pytest

from tests.tables.browser_helpers import run_script


def test_the_api_sends_the_pages_credentials_and_reads_a_refusal(module_page):
    seen = run_script(
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
    seen = run_script(module_page, _sending("key-3", answers))
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
    seen = run_script(module_page, _sending("key-3", [answer]))
    assert seen == {
        "result": {"stored": 0, "offline": offline},
        "posted": [[3, "key-3"]],
        "heard": [not offline],
        "stored": [],
        "left": [[number, "waiting", f"key-{number}", None, None] for number in (3, 4, 5)],
    }


def test_a_bug_is_not_taken_for_a_dropped_connection(module_page):
    # A key no header can carry: the request cannot even be built, so nothing is sent.
    seen = run_script(module_page, _sending("key-\u0100", []))
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
