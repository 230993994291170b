"""The hall screen's modules, loaded alone in Chromium by their static URLs (no Node toolchain).

Each module does nothing when imported; ``state.js`` answers exact inputs exactly (the server
offset, the time left running and paused, the clock's text, the last two minutes, rows that
fit, pages wrapping round); ``poll.js`` sends If-None-Match and reads the server's time from a
304, and tells a dropped connection (status 0) from a bug; ``views.js`` escapes names and
formats a prize in the club's currency.
"""

from __future__ import annotations

MODULES = ("state", "poll", "views", "screen")


def _page(live_server, new_context):
    page = new_context().new_page()
    page.set_default_timeout(10_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/h/")
    return page, errors


def test_each_module_loads_alone_and_does_nothing(live_server, new_context):
    page, errors = _page(live_server, new_context)
    exported = page.evaluate(
        """async (names) => {
          const found = {};
          for (const name of names) {
            found[name] = Object.keys(await import(`/static/hall/${name}.js`)).sort();
          }
          return { found, body: document.body.dataset.ready || null };
        }""",
        list(MODULES),
    )
    assert exported["found"] == {
        "state": [
            "ENDING_MS",
            "PAGE_MS",
            "POLL_MS",
            "TICK_MS",
            "clockText",
            "isEnding",
            "offsetOf",
            "pageOf",
            "remainingOf",
            "rowsThatFit",
        ],
        "poll": ["createPoller"],
        "views": ["moneyText", "panelHtml", "roundText"],
        "screen": ["start"],
    }
    assert exported["body"] is None and errors == []


def test_the_state_is_exact(live_server, new_context):
    page, _errors = _page(live_server, new_context)
    result = page.evaluate(
        """async () => {
          const s = await import("/static/hall/state.js");
          const running = {
            state: "running", ends_at: "2026-12-04T21:10:00.000Z", remaining_ms: null,
          };
          const serverNow = Date.parse("2026-12-04T21:08:00.500Z");
          return {
            offset: s.offsetOf("2026-12-04T21:00:01.000Z", Date.parse("2026-12-04T21:00:00.000Z")),
            running: s.remainingOf(running, serverNow),
            over: s.remainingOf(running, Date.parse("2026-12-04T21:11:00Z")),
            paused: s.remainingOf(
              { state: "paused", ends_at: null, remaining_ms: 65000 }, serverNow),
            idle: s.remainingOf({ state: "idle" }, serverNow),
            texts: [s.clockText(119500), s.clockText(600000), s.clockText(0), s.clockText(null)],
            ending: [s.isEnding(120000), s.isEnding(120001), s.isEnding(null)],
            fit: s.rowsThatFit({ height: 700, rowHeight: 48, columns: 3 }),
            page: s.pageOf([1, 2, 3, 4, 5], 2, 3),
          };
        }"""
    )
    assert result == {
        "offset": 1000,
        "running": 119500,
        "over": 0,
        "paused": 65000,
        "idle": None,
        "texts": ["2:00", "10:00", "0:00", ""],
        "ending": [True, False, False],
        "fit": 42,
        "page": {"rows": [1, 2], "index": 0, "count": 3},
    }


def test_the_poll_is_conditional_and_tells_a_drop_from_a_bug(live_server, new_context):
    page, _errors = _page(live_server, new_context)
    result = page.evaluate(
        """async () => {
          const { createPoller } = await import("/static/hall/poll.js");
          const sent = [];
          const answer304 = async (url, options) => {
            sent.push([url, options.headers["If-None-Match"], options.cache]);
            const headers = { ETag: 'W/"a"', "X-Jink-Server-Time": "2026-12-04T21:00:00.000Z" };
            return new Response(null, { status: 304, headers });
          };
          const url = "/api/hall/x/";
          const idle = await createPoller({ url, fetch: answer304, now: () => 5 }).poll('W/"a"');
          const offline = async () => { throw new TypeError("offline"); };
          const dropped = await createPoller({ url, fetch: offline }).poll(null);
          let bug = null;
          const broken = async () => { throw new Error("bug"); };
          try { await createPoller({ url, fetch: broken }).poll(null); }
          catch (error) { bug = error.message; }
          return { sent, idle, dropped, bug };
        }"""
    )
    assert result["sent"] == [["/api/hall/x/", 'W/"a"', "no-store"]]
    assert result["idle"] == {
        "status": 304,
        "etag": 'W/"a"',
        "serverTime": "2026-12-04T21:00:00.000Z",
        "receivedAt": 5,
        "data": None,
    }
    assert result["dropped"] == {"status": 0}
    assert result["bug"] == "bug"


def test_the_views_escape_names_and_format_prizes(live_server, new_context):
    page, _errors = _page(live_server, new_context)
    result = page.evaluate(
        """async () => {
          const v = await import("/static/hall/views.js");
          const t = (text, params = {}) =>
            text.replace(/%\\((\\w+)\\)s/g, (_, name) => String(params[name]));
          const rows = [
            { name: "<b>Ann</b>", table: 4, seat: 2 }, { name: "Bo", table: null, seat: null },
          ];
          const seats = v.panelHtml({ panel: "seats" }, t, { rows, index: 0, count: 1 });
          const round = v.roundText({ panel: "play", round: 2, rounds_planned: 3 }, t);
          return { seats, money: v.moneyText("2.50", "EUR", "fr"), round };
        }"""
    )
    assert "&lt;b&gt;Ann&lt;/b&gt;" in result["seats"] and "<b>Ann" not in result["seats"]
    assert "Table 4" in result["seats"] and "seat 2" in result["seats"] and "Bye" in result["seats"]
    assert result["money"].replace("\u202f", " ").replace("\xa0", " ") == "2,50 €"
    assert result["round"] == "Round 2 of 3"
