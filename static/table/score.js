// The score pad: a hand entered by taps, confirmed from the server's own summary, kept in an
// offline outbox until the server has stored it. This module wires the others together.
//
// What it does: ``start()`` (called by score-page.js, the page's entry point) reads the page's
// data, loads the other modules by their static URLs (config.modules) and listens: a tap turns
// into an action; a tap of the draft goes to draft.js (``tap``), any other action (confirm,
// correct, undo, the refused hand's choices, card mode) is done here; then the page is
// rendered again (views.js). It asks the server what the hand would score (POST
// …/hands/preview/, which stores nothing) and shows that as the summary; on confirmation the
// hand gets its number and an Idempotency-Key and goes into the outbox (outbox.js), which
// sync.js sends in order whenever the connection is up. Undo and corrections go through the
// API (api.js) with If-Match. The game, its hands and the table are kept in localStorage too,
// so a reload offline shows the latest the tablet saw.
//
// What it does not do: know the rules. Points, legality, the end of a game and who wins come
// from the server (the rules engine); this page only lists what was tapped and what the
// server said. The one guess it makes offline is the next dealer (the deal passes left, a
// misdeal is dealt again), which the server checks when the hand is sent. Nothing runs at
// import: a test may load this module without starting a page.
//
// Offline: only a request that got no answer (api.js's OfflineError) makes the page say
// "Offline"; a refusal is said in words and any other exception is a bug, left to surface.
//
// Words: every string it shows is English in the code and goes through ``t`` (words.js).

const $ = (selector, root = document) => root.querySelector(selector);
const readJson = (id) => JSON.parse(document.getElementById(id).textContent);

// Filled in by start(): the modules, the page's configuration and words, and the live data
// (game, hands and table are replaced as the server answers; etag is the game's, tableEtag the
// table's).
let Draft; let words; let views; let outbox; let cards; let api; let sync;
let config; let t; let SUITS;
const live = { game: null, hands: [], table: null, etag: null, tableEtag: null };

const state = {
  draft: null,
  waiting: [],
  online: true,
  preview: null,
  previewKey: null,
  busy: false,
  message: null,
  confirmUndo: null,
  keptNumber: null,
  scorer: null,
};

const rules = () => Draft.rulesOf(live.game);
const names = () => live.game.seats.map((seat) => seat.player.name);
const sideOf = (seat) => live.game.seats[seat].side;
const sideLabel = (side) => config.sideLabels[side] ?? t("Side %(number)s", { number: side + 1 });
const isBidding = () => rules().bidding;
const hasBestTrump = () => rules().bestTrump;
const isTwentyFive = () => live.game.game === "25";
const suit = (code) => SUITS.find((entry) => entry.code === code);

// The draft's steps bound to the live game and the outbox (views.js and cards.js read these).
const steps = {
  auctionTurn: (draft) => Draft.auctionTurn(draft, rules()),
  highestBid: (draft) => Draft.highestBid(draft),
  bidder: (draft) => Draft.bidder(draft),
  everybodyPassed: (draft) => Draft.everybodyPassed(draft, rules()),
  stepOf: (draft) => Draft.stepOf(draft, rules()),
  recordOf: (draft) => (draft.cards ? draft.cards.record() : Draft.recordOf(draft, rules())),
  nextNumber: () => Draft.nextNumber(live.game, state.waiting),
  storedDealerAfter: () => Draft.storedDealerAfter(live.game, state.waiting),
  tap: (draft, action) => Draft.tap(draft, action, rules()),
};

function newDraft(correcting = null) {
  const base = correcting ? live.hands.find((hand) => hand.number === correcting) : null;
  return Draft.newDraft({ dealer: base ? base.dealer : steps.storedDealerAfter(), correcting });
}

// Outside draft.js, the page changes the draft only by giving it a new dealer.
function withDealer(dealer) {
  state.draft = { ...state.draft, dealer };
}

function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// A request that got no answer: say so. Anything else is not the network's fault.
function offline(error) {
  if (!api.isOffline(error)) throw error;
  setOnline(false);
}

function setOnline(online) {
  state.online = online;
  const badge = $("#connection");
  badge.textContent = online ? t("Online") : t("Offline: hands are kept on this tablet");
  badge.classList.toggle("offline", !online);
}

function cacheKey() { return `jink-table:${live.game.id}`; }

function saveCache() {
  const { game, hands, table, etag } = live;
  try { localStorage.setItem(cacheKey(), JSON.stringify({ game, hands, table, etag })); } catch { /* full */ }
}

function loadCache() {
  try {
    const cached = JSON.parse(localStorage.getItem(cacheKey()) || "null");
    if (cached && cached.game.version > live.game.version) {
      Object.assign(live, { game: cached.game, hands: cached.hands, table: cached.table, etag: cached.etag });
    }
  } catch { /* nothing cached */ }
}

async function refresh() {
  try {
    const [gameResponse, handsResponse] = await Promise.all([
      api.request("GET", `/games/${live.game.id}/`),
      api.request("GET", `/games/${live.game.id}/hands/?page_size=200`),
    ]);
    if (gameResponse.ok) { live.game = gameResponse.data; live.etag = gameResponse.etag; }
    if (handsResponse.ok) live.hands = handsResponse.data.results;
    if (config.credential) {
      const tableResponse = await api.request("GET", "/table/");
      if (tableResponse.ok) { live.table = tableResponse.data; live.tableEtag = tableResponse.etag; }
      sync.followCurrentGame();
    }
    setOnline(true);
    saveCache();
  } catch (error) {
    offline(error);
  }
}

function renderEntry() {
  const entry = $("#entry");
  const draft = state.draft;
  const { escapeHtml } = words;
  const message = state.message ? `<p class="message" role="status">${escapeHtml(state.message)}</p>` : "";
  if (views.isClosed() && !draft.correcting) {
    const why = config.closedReason || t("The event is over: this table takes no more hands. Only an organiser can still correct a hand, from the console.");
    entry.innerHTML = live.game.status === "finished" ? message : `${message}<p class="notice">${escapeHtml(why)}</p>`;
    return;
  }
  if (live.game.status === "finished" && !draft.correcting) {
    entry.innerHTML = message;
    return;
  }
  let body;
  if (state.confirmUndo) {
    const hand = live.hands.find((item) => item.number === state.confirmUndo);
    const number = hand.number;
    body = `${views.heading(t("Undo hand %(number)s?", { number }))}<p>${views.describeRecord(hand.record)}</p>
      <div class="actions">${views.undoButtons(number)}
      <button type="button" class="big secondary" data-action="undo-no">${t("Keep it")}</button></div>`;
  } else if (draft.cards) {
    if (draft.cards.step === "summary") ensurePreview(draft);
    body = draft.cards.step === "summary" ? views.renderSummary(draft) : draft.cards.render();
  } else {
    const step = steps.stepOf(draft);
    if (step === "summary") ensurePreview(draft);
    body = {
      auction: () => views.renderAuction(draft),
      trump: () => views.renderTrump(draft),
      tricks: () => views.renderTricks(draft),
      "best-seat": () => views.renderBestSeat(draft),
      "best-trick": () => views.renderBestTrick(draft),
      "renege-seat": () => views.renderRenege(draft),
      "renege-trick": () => views.renderRenege(draft),
      summary: () => views.renderSummary(draft),
    }[step]();
  }
  entry.innerHTML = `${message}${body}${state.confirmUndo ? "" : views.toolbar(draft)}`;
}

function render() {
  views.renderScoreboard();
  views.renderBanner();
  views.renderConflict();
  renderEntry();
  views.renderHands();
}

// ---------------------------------------------------------------------------------------------
// Preview, confirm, correct, undo

async function ensurePreview(draft) {
  const record = steps.recordOf(draft);
  const key = JSON.stringify([draft.correcting, record, state.online, state.waiting.length]);
  if (state.previewKey === key) return;
  state.previewKey = key;
  state.preview = null;
  // The server cannot preview a hand that follows hands it has not stored yet.
  if ((!state.online || state.waiting.length) && !draft.correcting) return;
  state.busy = true;
  queueMicrotask(render);
  const path = draft.correcting
    ? `/games/${live.game.id}/hands/${draft.correcting}/preview/`
    : `/games/${live.game.id}/hands/preview/`;
  const body = draft.correcting ? record : { ...record, number: steps.nextNumber() };
  try {
    const response = await api.request("POST", path, { body, headers: draft.correcting ? { "If-Match": live.etag } : {} });
    if (state.previewKey !== key) return;
    state.preview = response.ok ? { result: response.data } : { problem: response.data };
    if (response.status === 412) await refresh();
    setOnline(true);
  } catch (error) {
    if (state.previewKey !== key) return;
    offline(error);
    state.previewKey = JSON.stringify([draft.correcting, record, false, state.waiting.length]);
  }
  state.busy = false;
  render();
}

// A 25 ends the moment a side reaches 25: whether the server says these tricks end it.
async function gameEndsWith(draft) {
  if (!isTwentyFive() || !state.online || state.waiting.length || draft.tricks.length >= Draft.TRICKS_PER_HAND) return false;
  state.busy = true;
  render();
  let ends = false;
  try {
    const body = { ...steps.recordOf(draft), number: steps.nextNumber() };
    const response = await api.request("POST", `/games/${live.game.id}/hands/preview/`, { body });
    ends = response.ok && response.data.game.status === "finished";
  } catch (error) {
    offline(error);
  }
  state.busy = false;
  return ends;
}

// Who accepted (and, at a table link's tablet, who entered): added to a hand, a correction or
// an undo in a club with confirm_hands.
function acceptance(playerId) {
  const body = {};
  if (playerId) body.confirmed_by = playerId;
  if (playerId && state.scorer !== null) body.scored_by = state.scorer;
  return body;
}

function scorerKey() { return `jink-scorer:${live.game.id}`; }

function loadScorer() {
  let stored = null;
  try { stored = JSON.parse(localStorage.getItem(scorerKey()) || "null"); } catch { stored = null; }
  state.scorer = live.game.seats.some((seat) => seat.player.id === stored) ? stored : null;
}

function chooseScorer(playerId) {
  state.scorer = playerId;
  try { localStorage.setItem(scorerKey(), JSON.stringify(playerId)); } catch { /* full */ }
}

async function confirm(playerId) {
  const draft = state.draft;
  const record = steps.recordOf(draft);
  if (draft.correcting) {
    await sendCorrection(draft.correcting, { ...record, ...acceptance(playerId) });
    return;
  }
  const number = steps.nextNumber();
  const body = { ...record, number, ...acceptance(playerId) };
  await outbox.put({
    id: `${live.game.id}:${number}`, game: live.game.id, number, key: newKey(), body, state: "waiting", problem: null, server: null,
  });
  state.waiting = await outbox.list(live.game.id);
  state.draft = newDraft();
  state.preview = null;
  state.previewKey = null;
  state.message = state.online ? t("Hand %(number)s sent.", { number })
    : t("Hand %(number)s kept on this tablet: it is sent when the connection is back.", { number });
  state.keptNumber = state.online ? null : number;
  render();
  await sync.flush();
}

async function sendCorrection(number, record) {
  try {
    const response = await api.request("PUT", `/games/${live.game.id}/hands/${number}/`, { body: record, headers: { "If-Match": live.etag } });
    if (response.ok) {
      state.message = t("Hand %(number)s corrected.", { number });
      state.draft = newDraft();
    } else {
      state.preview = { problem: response.data };
      state.message = views.problemWords(response.data);
    }
  } catch (error) {
    offline(error);
    state.message = t("Corrections need the connection: try again when it is back.");
  }
  await refresh();
  render();
}

async function undo(number, playerId) {
  try {
    const accepted = acceptance(playerId);
    const body = Object.keys(accepted).length ? accepted : undefined;
    const response = await api.request("DELETE", `/games/${live.game.id}/hands/${number}/`, { body, headers: { "If-Match": live.etag } });
    state.message = response.ok ? t("Hand %(number)s undone.", { number }) : views.problemWords(response.data);
  } catch (error) {
    offline(error);
    state.message = t("Undo needs the connection: try again when it is back.");
  }
  state.confirmUndo = null;
  await refresh();
  state.draft = newDraft();
  render();
}

// ---------------------------------------------------------------------------------------------
// Taps

function restart(correcting = null) {
  state.draft = newDraft(correcting);
  state.preview = null;
  state.previewKey = null;
}

async function onClick(event) {
  const button = event.target.closest("[data-action]");
  if (!button || button.tagName === "SELECT" || button.disabled) return;
  const action = Draft.actionOf(button.dataset);
  state.message = null;
  if (state.draft.cards && action.type !== "card-mode" && (await state.draft.cards.onAction(action.type, button))) {
    render();
    return;
  }
  if (Draft.TAPS.has(action.type)) {
    await tapDraft(action);
    render();
    return;
  }
  switch (action.type) {
    case "start-over": restart(state.draft.correcting); break;
    case "cancel-correction": restart(); break;
    case "confirm": await confirm(action.player); return;
    case "correct":
      restart(action.number);
      window.scrollTo({ top: 0 });
      break;
    case "undo": state.confirmUndo = action.number; window.scrollTo({ top: 0 }); break;
    case "undo-yes": await undo(state.confirmUndo, action.player); return;
    case "scorer": chooseScorer(action.player); break;
    case "undo-no": state.confirmUndo = null; break;
    case "keep-server": case "keep-mine": case "drop-refused": case "retry-refused":
      await sync.resolveRefused(action.type); return;
    case "card-mode": toggleCardMode(); break;
    default: break;
  }
  render();
}

async function tapDraft(action) {
  // A misdeal and a renege are recorded by taps, not cards: from card mode they leave it first.
  if (action.type === "misdeal" || action.type === "renege") leaveCards();
  if (action.type === "change") {
    state.preview = null;
    state.previewKey = null;
  }
  state.draft = steps.tap(state.draft, action);
  if (action.type !== "trick") return;
  const tapped = state.draft;
  if ((await gameEndsWith(tapped)) && state.draft === tapped) state.draft = steps.tap(tapped, { type: "game-ended" });
}

// Leaving card mode for taps keeps the dealer, the auction and the trumps (the bidder's, or the
// suit of the turn-up); the tricks are then tapped.
function leaveCards() {
  const old = state.draft;
  if (!old.cards) return;
  const turnUp = old.cards.turnUp;
  restart(old.correcting);
  state.draft = {
    ...state.draft,
    dealer: old.dealer,
    bidding: old.bidding,
    trump: old.trump || (turnUp ? turnUp.slice(-1) : null),
  };
}

function toggleCardMode() {
  if (state.draft.cards) { restart(); return; }
  restart();
  const cardEntry = cards.createCardEntry({
    game: live.game, dealer: state.draft.dealer, names: names(), isBidding: isBidding(),
    api: (method, path, body) => api.request(method, path, { body }), isOffline: api.isOffline,
    online: () => state.online, rerender: render,
    onSummary: () => { state.preview = null; state.previewKey = null; ensurePreview(state.draft); },
    draft: () => state.draft,
    update: (action) => { state.draft = steps.tap(state.draft, action); },
    steps, views, t, escapeHtml: words.escapeHtml, SUITS: words.SUITS,
  });
  state.draft = { ...state.draft, cards: cardEntry };
}

function onChange(event) {
  if (event.target.id === "rob") {
    state.draft = steps.tap(state.draft, { type: "rob", seat: event.target.value === "" ? null : Number(event.target.value) });
  }
}

// A game the table moved on to is open: its headings, the address, the entry (sync.js has
// fetched it and put it in ``live``).
function showGame() {
  loadScorer();
  restart();
  withDealer(steps.storedDealerAfter());
  state.confirmUndo = null;
  state.message = live.table && live.table.round
    ? t("Round %(round)s: this table's new game is open.", { round: live.table.round })
    : t("The table's next game is open.");
  $("#table-app").dataset.game = String(live.game.id);
  views.renderSideHeadings();
  history.replaceState(null, "", `${config.tableUrl}?game=${live.game.id}`);
  saveCache();
  render();
}

// ---------------------------------------------------------------------------------------------
// Start

// Load the modules (their static URLs are in config.modules: hashed names in production, so
// the service worker's shell and the page agree) and read the page's data.
async function load() {
  config = readJson("table-config");
  const importModule = (name) => import(config.modules[name]);
  const [apiModule, syncModule, viewsModule] = await Promise.all(["api", "sync", "views"].map(importModule));
  [Draft, words, outbox, cards] = await Promise.all(["draft", "words", "outbox", "cards"].map(importModule));
  t = words.translator(readJson("table-strings"));
  SUITS = words.SUITS.map((entry) => ({ ...entry, name: t(entry.name) }));
  Object.assign(live, { game: readJson("game-data"), hands: readJson("hands-data"), table: readJson("table-data") });
  live.etag = `"${live.game.id}-${live.game.version}"`;
  api = apiModule.createApi({ credential: config.credential, csrf: config.csrf });
  // What views.js reads: the live data (getters: game, hands and table are replaced on
  // refresh), the state and the helpers.
  views = viewsModule.createViews({
    get game() { return live.game; },
    get hands() { return live.hands; },
    get table() { return live.table; },
    config, state, escapeHtml: words.escapeHtml, names, sideOf, sideLabel, suit, SUITS,
    isBidding, hasBestTrump, problemOf: apiModule.problemOf,
    ...steps, $, t,
  });
  sync = syncModule.createSync({
    live, state, config, api, outbox, t,
    setOnline, render, refresh, saveCache, newKey, showGame,
    problemWords: (problem) => views.problemWords(problem),
    storedDealerAfter: steps.storedDealerAfter,
  });
}

export async function start() {
  await load();
  loadCache();
  state.online = navigator.onLine;
  state.waiting = await outbox.list(live.game.id);
  state.draft = newDraft();
  loadScorer();
  setOnline(navigator.onLine);
  document.addEventListener("click", onClick);
  document.addEventListener("change", onChange);
  window.addEventListener("online", () => { setOnline(true); refresh().then(sync.flush); });
  window.addEventListener("offline", () => { setOnline(false); render(); });
  render();
  if (navigator.onLine) {
    await refresh();
    withDealer(steps.storedDealerAfter());
    render();
    await sync.flush();
  }
  sync.follow();
  if ("serviceWorker" in navigator && window.isSecureContext) {
    try {
      await navigator.serviceWorker.register(config.workerUrl, { scope: "/" });
      if (navigator.onLine) {
        const cache = await caches.open("jink-table-v1");
        await cache.add(location.pathname + location.search);
      }
    } catch { /* the page still works online without the worker */ }
  }
  document.body.dataset.ready = "true";
}
