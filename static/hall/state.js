// The hall screen's arithmetic, pure: the server's clock as this screen sees it, the round
// clock's time left and its text, and the pages of a list too long for the screen.
//
// What it does: ``offsetOf`` is how far the server's clock is ahead of this screen's (from the
// server's time sent with every answer and when the answer arrived); ``remainingOf`` the round
// clock's milliseconds left at the server's now, computed from the stored end (running) or the
// time left (paused), so every screen shows the same whatever its own clock says;
// ``clockText`` "8:05"; ``isEnding`` the last two minutes; ``rowsThatFit`` and ``pageOf`` page
// the "find your seat" list.
//
// What it does not do: read the page, ask the server or keep time (screen.js does).
// No imports and nothing runs at import: a test loads it alone (tests/hall/test_modules_browser.py).

export const POLL_MS = 1000;
export const PAGE_MS = 10000;
export const TICK_MS = 250;
export const ENDING_MS = 120000;

export function offsetOf(serverTime, receivedAt) {
  const server = Date.parse(serverTime);
  return Number.isFinite(server) ? server - receivedAt : 0;
}

export function remainingOf(clock, serverNow) {
  if (!clock || clock.state === "idle") return null;
  if (clock.state === "paused") return clock.remaining_ms;
  return Math.max(0, Date.parse(clock.ends_at) - serverNow);
}

export function clockText(remaining) {
  if (remaining === null || remaining === undefined) return "";
  const seconds = Math.ceil(remaining / 1000);
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

export function isEnding(remaining) {
  return remaining !== null && remaining !== undefined && remaining <= ENDING_MS;
}

// How many rows fit: whole rows of ``rowHeight`` in ``height``, in ``columns`` columns.
export function rowsThatFit({ height, rowHeight, columns }) {
  if (!(rowHeight > 0)) return 1;
  return Math.max(1, Math.floor(height / rowHeight)) * Math.max(1, columns);
}

// Page ``index`` (wrapping round) of ``rows`` with ``size`` a page.
export function pageOf(rows, size, index) {
  const count = Math.max(1, Math.ceil(rows.length / Math.max(1, size)));
  const page = ((index % count) + count) % count;
  return { rows: rows.slice(page * size, (page + 1) * size), index: page, count };
}
