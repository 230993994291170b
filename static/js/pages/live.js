// Live pages: keeps the live region (#live, data-live) of an event or game page up to date.
//
// Every data-poll seconds (10-20 s as the server renders it; read again before each poll, so a
// test may shorten it) it asks the page's own URL again with If-None-Match: the server answers
// 304 after one cheap query when nothing changed. On a 200 it swaps in, by id, only the parts of
// the region that changed, keeping the scroll position, the open/closed state of folded rounds
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

function openDetails(root) {
  return new Set(
    Array.from(root.querySelectorAll("details[id]"))
      .filter((element) => element.open)
      .map((element) => element.id),
  );
}

function swap(fresh) {
  const open = openDetails(region);
  const focused = document.activeElement && document.activeElement.id;
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
  for (const id of open) {
    const details = document.getElementById(id);
    if (details && details.tagName === "DETAILS") details.open = true;
  }
  if (focused) {
    const again = document.getElementById(focused);
    if (again && again !== document.activeElement) again.focus({ preventScroll: true });
  }
  if (changed) document.dispatchEvent(new CustomEvent("jink:updated"));
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
        const x = window.scrollX;
        const y = window.scrollY;
        swap(fresh);
        window.scrollTo(x, y);
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
