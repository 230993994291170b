// Live pages: keeps the live region (#live, data-live) of an event or game page up to date.
//
// Every data-poll seconds (10-20 s as the server renders it; read again before each poll, so a
// test may shorten it) it asks the page's own URL again with If-None-Match and X-Jink-Poll: the
// server answers 304 after one cheap query when nothing changed, and otherwise sends the live
// region alone, compressed. It swaps in, by id, only the parts of the region that changed, and
// keeps what the reader had done: the page's scroll position, the scroll of every box inside
// the region (the bracket scrolls sideways in its own), which folded parts were open or closed,
// and the focus. It stops while the page is hidden and polls as soon as it is shown again.
// It never reloads the page. No inline script: loaded as a module (strict CSP).

const region = document.querySelector("[data-live][data-poll]");

function seconds() {
  const value = Number(region.dataset.poll);
  return Number.isFinite(value) && value > 0 ? value : 15;
}

let etag = region ? region.dataset.etag || "" : "";
let timer = null;
let busy = false;

// What the reader did inside the region, read before a swap and given back after it.
function readerState() {
  const folded = new Map();
  for (const details of region.querySelectorAll("details[id]")) folded.set(details.id, details.open);
  const scrolled = [];
  for (const element of region.querySelectorAll("[id]")) {
    if (element.scrollLeft || element.scrollTop) {
      scrolled.push([element.id, element.scrollLeft, element.scrollTop]);
    }
  }
  return { folded, scrolled, focus: focusPlace(), x: window.scrollX, y: window.scrollY };
}

// The focused element as an id, or as the n-th element of its kind inside the nearest element
// with an id (a link in a table card): enough to find its new copy after the swap.
function focusPlace() {
  const active = document.activeElement;
  if (!active || active === document.body || !region.contains(active)) return null;
  if (active.id) return { id: active.id };
  const holder = active.parentElement && active.parentElement.closest("[id]");
  if (!holder || !region.contains(holder)) return null;
  const kind = active.tagName.toLowerCase();
  return { holder: holder.id, kind, index: Array.from(holder.querySelectorAll(kind)).indexOf(active) };
}

function giveBack(state) {
  for (const [id, open] of state.folded) {
    const details = document.getElementById(id);
    if (details && details.tagName === "DETAILS" && details.open !== open) details.open = open;
  }
  for (const [id, left, top] of state.scrolled) {
    const element = document.getElementById(id);
    if (element) {
      element.scrollLeft = left;
      element.scrollTop = top;
    }
  }
  window.scrollTo(state.x, state.y);
  const place = state.focus;
  if (!place) return;
  let again = null;
  if (place.id) {
    again = document.getElementById(place.id);
  } else {
    const holder = document.getElementById(place.holder);
    again = holder ? holder.querySelectorAll(place.kind)[place.index] : null;
  }
  if (again && again !== document.activeElement) again.focus({ preventScroll: true });
}

function swap(fresh) {
  const state = readerState();
  let changed = false;
  for (const element of Array.from(fresh.children)) {
    const current = element.id ? region.querySelector(`#${CSS.escape(element.id)}`) : null;
    if (current && current.parentElement === region) {
      if (current.outerHTML !== element.outerHTML) {
        current.replaceWith(document.importNode(element, true));
        changed = true;
      }
    }
  }
  // Parts added or removed (a winner, the "tonight" panel): rebuild the region in one go.
  const freshIds = Array.from(fresh.children).map((element) => element.id).join(" ");
  const currentIds = Array.from(region.children).map((element) => element.id).join(" ");
  if (freshIds !== currentIds) {
    region.replaceChildren(...Array.from(fresh.childNodes).map((node) => document.importNode(node, true)));
    changed = true;
  }
  if (changed) {
    giveBack(state);
    document.dispatchEvent(new CustomEvent("jink:updated"));
    // Lines and boxes may settle a frame later: give the scroll back once more then.
    requestAnimationFrame(() => giveBack({ ...state, focus: null }));
  }
}

async function poll() {
  if (busy || document.hidden) return;
  busy = true;
  try {
    const response = await fetch(window.location.href, {
      headers: { "If-None-Match": etag, "X-Jink-Poll": "1" },
      cache: "no-store",
      credentials: "same-origin",
    });
    if (response.status === 200) {
      const html = await response.text();
      const page = new DOMParser().parseFromString(html, "text/html");
      const fresh = page.querySelector("[data-live]");
      if (fresh) {
        etag = response.headers.get("ETag") || fresh.dataset.etag || etag;
        region.dataset.etag = etag;
        swap(fresh);
      }
    }
  } catch (error) {
    // Offline for a moment (a club hall's wifi): try again at the next tick.
  } finally {
    busy = false;
    schedule();
  }
}

function schedule() {
  clearTimeout(timer);
  if (!document.hidden) timer = setTimeout(poll, seconds() * 1000);
}

if (region) {
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      clearTimeout(timer);
    } else {
      poll();
    }
  });
  schedule();
}
