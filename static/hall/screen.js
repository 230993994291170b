// The hall screen's wiring: reads the page's data, polls the server about every second,
// keeps the round clock ticking from the server's time, pages the seat list, renders.
//
// What it does: ``start()`` reads the config, the words and the first screen the server put in
// the page (JSON blocks: the strict CSP allows no inline script), renders it, then polls
// (poll.js: one conditional request a second, 304 while nothing changes) and renders each new
// screen; every answer corrects the offset between this screen's clock and the server's, so two
// screens show the same time left whatever their own clocks say. The seat list shows as many
// rows as fit and turns the page every PAGE_MS.
//
// What it does not do: choose the panel (the server does) or compute anything itself (state.js).

import { createPoller } from "./poll.js";
import {
  POLL_MS, PAGE_MS, TICK_MS, clockText, isEnding, offsetOf, pageOf, remainingOf, rowsThatFit,
} from "./state.js";
import { panelHtml, roundText } from "./views.js";
import { translator } from "../table/words.js";

function json(id) {
  return JSON.parse(document.getElementById(id).textContent);
}

export function start() {
  const config = json("hall-config");
  const t = translator(json("hall-strings"));
  const poller = createPoller({ url: config.api });
  const panel = document.getElementById("panel");
  const clock = document.getElementById("clock");
  const round = document.getElementById("round");
  let state = json("hall-state");
  let etag = config.etag;
  let offset = offsetOf(state.server_time, Date.now());
  let pageIndex = 0;
  let pageSize = 0;

  // One row rendered alone (with the pager's line) says how tall a row is and where the list
  // starts; the panel's bottom how many rows fit. Returns the list's columns.
  function measure() {
    panel.innerHTML = panelHtml(state, t, { rows: state.seats.slice(0, 1), index: 0, count: 2 });
    const list = document.getElementById("seats");
    const row = list.querySelector(".seat-row");
    const columns = Number(getComputedStyle(list).getPropertyValue("--columns")) || 1;
    const height = panel.getBoundingClientRect().bottom - list.getBoundingClientRect().top;
    const rowHeight = row ? row.getBoundingClientRect().height : 0;
    pageSize = rowsThatFit({ height, rowHeight, columns });
    return columns;
  }

  function render() {
    document.body.dataset.panel = state.panel;
    round.textContent = roundText(state, t);
    if (state.panel === "seats") {
      const columns = measure();
      const page = pageOf(state.seats, pageSize, pageIndex);
      pageIndex = page.index;
      panel.innerHTML = panelHtml(state, t, page);
      const rows = Math.ceil(pageSize / columns);
      document.getElementById("seats").style.setProperty("--rows", String(rows));
      document.body.dataset.page = String(page.index + 1);
      document.body.dataset.pages = String(page.count);
    } else {
      panel.innerHTML = panelHtml(state, t, null);
      delete document.body.dataset.page;
      delete document.body.dataset.pages;
    }
    tick();
  }

  function tick() {
    const remaining = remainingOf(state.clock, Date.now() + offset);
    clock.textContent = clockText(remaining);
    clock.dataset.state = state.clock.state;
    clock.dataset.ending = String(isEnding(remaining));
    clock.hidden = remaining === null;
  }

  async function poll() {
    try {
      const answer = await poller.poll(etag);
      if (answer.serverTime) offset = offsetOf(answer.serverTime, answer.receivedAt);
      if (answer.status === 200) {
        etag = answer.etag;
        const changedPanel = answer.data.panel !== state.panel || answer.data.round !== state.round;
        state = answer.data;
        if (changedPanel) pageIndex = 0;
        render();
      } else if (answer.status === 404) {
        document.body.dataset.panel = "ended";
        panel.innerHTML = `<p class="welcome">${t("This hall link has ended.")}</p>`;
        clock.hidden = true;
        return; // nothing more to ask
      }
    } finally {
      if (document.body.dataset.panel !== "ended") window.setTimeout(poll, POLL_MS);
    }
  }

  render();
  window.setInterval(tick, TICK_MS);
  window.setInterval(() => {
    if (state.panel !== "seats") return;
    pageIndex += 1;
    render();
  }, PAGE_MS);
  window.addEventListener("resize", () => render());
  window.setTimeout(poll, POLL_MS);
  document.body.dataset.ready = "true";
}
