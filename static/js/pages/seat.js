// Told where to sit: the event page's seat banner, announced once per new seat.
//
// The banner (#seat-banner, in the live region that live.js keeps up to date with its cheap
// conditional poll) names the round, table, seat and partner; its data-seat-key (event, round,
// table, seat) is remembered in this browser's localStorage, so a seat is announced once and a
// reload does not repeat it. Where the player asked for it with the "Tell me when I'm seated"
// button (a user gesture asking Notification.requestPermission), a new seat also raises a
// system notification and vibrates the phone. Nothing leaves the site: no push service, no
// service worker (docs/pages.md says what one would add).
//
// Nothing runs at import: seated.js (the page's entry point) calls start(window). The decision
// is pure (seatNews, remember); reading the page and the storage, and announcing, are apart.

export const SEEN_STORAGE = "jink-seats-seen";
export const ALERTS_STORAGE = "jink-seat-alerts";
export const SEEN_LIMIT = 20;
export const VIBRATION = [200, 100, 200];

// What to do about the banner shown now: null when there is none or it was seen already, else
// the seat to remember and whether to announce it.
export function seatNews(banner, seen, alertsOn) {
  if (!banner || !banner.key || seen.includes(banner.key)) return null;
  return { key: banner.key, title: banner.title, text: banner.text, announce: alertsOn };
}

// The keys remembered once `key` is added: the latest SEEN_LIMIT, oldest first.
export function remember(seen, key) {
  return [...seen.filter((other) => other !== key), key].slice(-SEEN_LIMIT);
}

export function readBanner(doc) {
  const element = doc.getElementById("seat-banner");
  if (!element) return null;
  return {
    key: element.dataset.seatKey || "",
    title: element.dataset.seatTitle || "",
    text: element.textContent.replace(/\s+/g, " ").trim(),
  };
}

function read(storage, name, fallback) {
  try {
    const value = storage.getItem(name);
    return value === null ? fallback : value;
  } catch (error) {
    return fallback; // storage refused (a private window): nothing is remembered
  }
}

function write(storage, name, value) {
  try {
    storage.setItem(name, value);
  } catch (error) {
    // storage refused: the seat may be announced again after a reload
  }
}

export function readSeen(storage) {
  try {
    const seen = JSON.parse(read(storage, SEEN_STORAGE, "[]"));
    return Array.isArray(seen) ? seen : [];
  } catch (error) {
    return [];
  }
}

export function alertsOn(win) {
  return (
    "Notification" in win &&
    win.Notification.permission === "granted" &&
    read(win.localStorage, ALERTS_STORAGE, "") === "on"
  );
}

export function announce(win, news) {
  try {
    new win.Notification(news.title, { body: news.text, tag: news.key });
  } catch (error) {
    // Chrome on Android shows notifications through a service worker only: the vibration and
    // the banner remain.
  }
  if (typeof win.navigator.vibrate === "function") win.navigator.vibrate(VIBRATION);
}

// Look at the banner: remember a new seat and, where allowed, announce it. Returns the news.
export function check(win) {
  const news = seatNews(readBanner(win.document), readSeen(win.localStorage), alertsOn(win));
  if (!news) return null;
  write(win.localStorage, SEEN_STORAGE, JSON.stringify(remember(readSeen(win.localStorage), news.key)));
  if (news.announce) announce(win, news);
  return news;
}

// The button: shown where the browser can notify and the player has not refused; once allowed,
// a line saying so instead.
export function showAlertsChoice(win) {
  const holder = win.document.getElementById("seat-alerts");
  if (!holder) return;
  if (!("Notification" in win) || win.Notification.permission === "denied") {
    holder.hidden = true;
    return;
  }
  const on = alertsOn(win);
  holder.hidden = false;
  win.document.getElementById("seat-alerts-ask").hidden = on;
  win.document.getElementById("seat-alerts-on").hidden = !on;
}

async function askForAlerts(win) {
  const permission = await win.Notification.requestPermission();
  if (permission === "granted") {
    write(win.localStorage, ALERTS_STORAGE, "on");
    // The seat shown now is already in front of the player: only the next one is announced.
    const banner = readBanner(win.document);
    if (banner && banner.key) {
      write(win.localStorage, SEEN_STORAGE, JSON.stringify(remember(readSeen(win.localStorage), banner.key)));
    }
  }
  showAlertsChoice(win);
}

export function start(win) {
  showAlertsChoice(win);
  const ask = win.document.getElementById("seat-alerts-ask");
  if (ask) ask.addEventListener("click", () => askForAlerts(win));
  check(win);
  win.document.addEventListener("jink:updated", () => check(win));
}
