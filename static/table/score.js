// The score pad: a hand entered by taps, confirmed from the server's own summary, kept in an
// offline outbox until the server has stored it.
//
// What it does: collects taps (trumps, the seat that took each trick, the best trump, the
// auction, irregularities), asks the server what the hand would score (POST …/hands/preview/,
// which stores nothing) and shows that as the summary; on confirmation the hand gets its
// number and an Idempotency-Key and goes into the outbox (outbox.js), which is sent in order
// whenever the connection is up. Undo and corrections go through the API with If-Match.
//
// What it does not do: know the rules. Points, legality, the end of a game and who wins come
// from the server (the rules engine); this page only lists what was tapped and what the
// server said. The one guess it makes offline is the next dealer (the deal passes left, a
// misdeal is dealt again), which the server checks when the hand is sent.
//
// Words: every string it shows is English in the code and goes through ``t``, which looks it up
// in the page's translated strings (the "table-strings" JSON the server renders into the page:
// web/table/strings.py lists them, so the page has them offline too) and fills in "%(name)s".

const $ = (selector, root = document) => root.querySelector(selector);
const readJson = (id) => JSON.parse(document.getElementById(id).textContent);
const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (character) => (
  { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[character]));

const STRINGS = readJson("table-strings");
// ``text`` in the page's language, its "%(name)s" placeholders filled in from ``params``.
const t = (text, params = {}) => (STRINGS[text] ?? text).replace(
  /%\((\w+)\)s/g, (placeholder, name) => (name in params ? String(params[name]) : placeholder));

const config = readJson("table-config");
let game = readJson("game-data");
let hands = readJson("hands-data");
let table = readJson("table-data");
let etag = `"${game.id}-${game.version}"`;
let outbox = null;
let views = null;
let steps = null;
let cards = null; // loaded at start, so switching to card mode is one synchronous step

const SUITS = [
  { code: "S", symbol: "♠", name: t("Spades"), red: false },
  { code: "H", symbol: "♥", name: t("Hearts"), red: true },
  { code: "D", symbol: "♦", name: t("Diamonds"), red: true },
  { code: "C", symbol: "♣", name: t("Clubs"), red: false },
];
const TRICKS_PER_HAND = 5;
const WORDS = {
  illegal_play: t("That card may not be played there"),
  illegal_rob: t("That rob is not allowed"),
  illegal_bid: t("That call is not allowed in the auction"),
  wrong_trick_count: t("The number of tricks does not fit this hand"),
  best_trump_mismatch: t("The best trump does not fit the tricks"),
  wrong_dealer: t("That is not the dealer of this hand"),
  wrong_leader: t("That card was not played by the seat whose turn it was to lead"),
  hand_conflict: t("Another tablet has already recorded this hand"),
  hand_out_of_sequence: t("An earlier hand is missing"),
  game_over: t("The game is over: it takes no more hands"),
  precondition_failed: t("The game changed on another tablet while you were looking; the page now shows the latest, check and try again"),
  later_hand_invalid: t("This correction would make a later hand impossible"),
  confirmation_required: t("A player of another side must accept the hand"),
  invalid_confirmation: t("That player may not accept this hand"),
  match_locked: t("This match is decided and a later match depends on it"),
  tournament_closed: t("The event is closed: only an organiser can still correct it, from the console"),
};

const names = () => game.seats.map((seat) => seat.player.name);
const sideOf = (seat) => game.seats[seat].side;
const sideLabel = (side) => config.sideLabels[side] ?? t("Side %(number)s", { number: side + 1 });
const seatCount = () => game.seats.length;
const isBidding = () => Array.isArray(game.house_rules.bids);
const hasBestTrump = () => game.game !== "25";
const isTwentyFive = () => game.game === "25";
const suit = (code) => SUITS.find((entry) => entry.code === code);

const state = {
  draft: null,
  waiting: [],
  online: navigator.onLine,
  preview: null,
  previewKey: null,
  busy: false,
  message: null,
  confirmUndo: null,
  keptNumber: null,
  scorer: null,
  correctionOf: null,
  cardMode: false,
};

// ---------------------------------------------------------------------------------------------
// The API

async function api(method, path, body, headers = {}) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json", ...headers } };
  if (config.credential) init.headers.Authorization = `Table ${config.credential}`;
  if (method !== "GET" && config.csrf) init.headers["X-CSRFToken"] = config.csrf;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(`/api${path}`, init); // throws when the network is down
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  return { status: response.status, ok: response.ok, data, etag: response.headers.get("ETag") };
}

function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function setOnline(online) {
  state.online = online;
  const badge = $("#connection");
  badge.textContent = online ? t("Online") : t("Offline: hands are kept on this tablet");
  badge.classList.toggle("offline", !online);
}

function cacheKey() { return `jink-table:${game.id}`; }

function saveCache() {
  try { localStorage.setItem(cacheKey(), JSON.stringify({ game, hands, table, etag })); } catch { /* full */ }
}

function loadCache() {
  try {
    const cached = JSON.parse(localStorage.getItem(cacheKey()) || "null");
    if (cached && cached.game.version > game.version) ({ game, hands, table, etag } = cached);
  } catch { /* nothing cached */ }
}

async function refresh() {
  try {
    const [gameResponse, handsResponse] = await Promise.all([
      api("GET", `/games/${game.id}/`),
      api("GET", `/games/${game.id}/hands/?page_size=200`),
    ]);
    if (gameResponse.ok) { game = gameResponse.data; etag = gameResponse.etag; }
    if (handsResponse.ok) hands = handsResponse.data.results;
    if (config.credential) {
      const tableResponse = await api("GET", "/table/");
      if (tableResponse.ok) { table = tableResponse.data; tableEtag = tableResponse.etag; }
      followCurrentGame();
    }
    setOnline(true);
    saveCache();
  } catch {
    setOnline(false);
  }
}


function renderEntry() {
  const entry = $("#entry");
  const draft = state.draft;
  if (views.isClosed() && !draft.correcting) {
    const why = config.closedReason || t("The event is over: this table takes no more hands. Only an organiser can still correct a hand, from the console.");
    const message = state.message ? `<p class="message" role="status">${escapeHtml(state.message)}</p>` : "";
    entry.innerHTML = game.status === "finished" ? message : `${message}<p class="notice">${escapeHtml(why)}</p>`;
    return;
  }
  if (game.status === "finished" && !draft.correcting) {
    entry.innerHTML = state.message ? `<p class="message" role="status">${escapeHtml(state.message)}</p>` : "";
    return;
  }
  let body;
  if (state.confirmUndo) {
    const hand = hands.find((item) => item.number === state.confirmUndo);
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
  const message = state.message ? `<p class="message" role="status">${escapeHtml(state.message)}</p>` : "";
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
// Preview, confirm, outbox

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
    ? `/games/${game.id}/hands/${draft.correcting}/preview/`
    : `/games/${game.id}/hands/preview/`;
  const body = draft.correcting ? record : { ...record, number: steps.nextNumber() };
  try {
    const response = await api("POST", path, body, draft.correcting ? { "If-Match": etag } : {});
    if (state.previewKey !== key) return;
    state.preview = response.ok ? { result: response.data } : { problem: response.data };
    if (response.status === 412) await refresh();
    setOnline(true);
  } catch {
    if (state.previewKey !== key) return;
    setOnline(false);
    state.previewKey = JSON.stringify([draft.correcting, record, false, state.waiting.length]);
  }
  state.busy = false;
  render();
}

async function askWhetherTheGameEnded(draft) {
  // A 25 ends the moment a side reaches 25: the server says whether these tricks end it.
  if (!isTwentyFive() || !state.online || state.waiting.length || draft.tricks.length >= TRICKS_PER_HAND) return;
  state.busy = true;
  render();
  try {
    const response = await api("POST", `/games/${game.id}/hands/preview/`, { ...steps.recordOf(draft), number: steps.nextNumber() });
    if (response.ok && response.data.game.status === "finished") draft.ended = true;
  } catch {
    setOnline(false);
  }
  state.busy = false;
}

// Who accepted (and, at a table link's tablet, who entered): added to a hand, a correction or
// an undo in a club with confirm_hands.
function acceptance(playerId) {
  const body = {};
  if (playerId) body.confirmed_by = playerId;
  if (playerId && state.scorer !== null) body.scored_by = state.scorer;
  return body;
}

function scorerKey() { return `jink-scorer:${game.id}`; }

function loadScorer() {
  let stored = null;
  try { stored = JSON.parse(localStorage.getItem(scorerKey()) || "null"); } catch { stored = null; }
  state.scorer = game.seats.some((seat) => seat.player.id === stored) ? stored : null;
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
    id: `${game.id}:${number}`, game: game.id, number, key: newKey(), body, state: "waiting", problem: null, server: null,
  });
  state.waiting = await outbox.list(game.id);
  state.draft = steps.newDraft();
  state.preview = null;
  state.previewKey = null;
  state.message = state.online ? t("Hand %(number)s sent.", { number })
    : t("Hand %(number)s kept on this tablet: it is sent when the connection is back.", { number });
  state.keptNumber = state.online ? null : number;
  render();
  await flush();
}

async function sendCorrection(number, record) {
  try {
    const response = await api("PUT", `/games/${game.id}/hands/${number}/`, record, { "If-Match": etag });
    if (response.ok) {
      state.message = t("Hand %(number)s corrected.", { number });
      state.draft = steps.newDraft();
    } else {
      state.preview = { problem: response.data };
      state.message = views.problemWords(response.data);
    }
  } catch {
    setOnline(false);
    state.message = t("Corrections need the connection: try again when it is back.");
  }
  await refresh();
  render();
}

function applyStored(response) {
  // The stored hand and the game after it, from the 201 itself: the page stays right even
  // when the connection drops before the next refresh.
  const hand = response.data;
  const summary = hand.game;
  hands = hands.filter((item) => item.number !== hand.number).concat([hand]).sort((a, b) => a.number - b.number);
  game = {
    ...game,
    totals: hand.totals,
    status: summary.status,
    winner: summary.winner,
    next_dealer: summary.next_dealer,
    double_stake: summary.double_stake,
    hands_played: summary.hands_played,
  };
  if (response.etag) {
    etag = response.etag;
    game.version = Number(response.etag.replace(/"/g, "").split("-")[1]);
  }
  saveCache();
}

let flushing = false;

async function flush() {
  if (flushing || !outbox) return;
  flushing = true;
  let stored = false;
  try {
    for (;;) {
      const entries = await outbox.list(game.id);
      const next = entries[0];
      if (!next || next.state === "refused") break;
      let response;
      try {
        response = await api("POST", `/games/${game.id}/hands/`, next.body, { "Idempotency-Key": next.key });
      } catch {
        setOnline(false);
        break;
      }
      setOnline(true);
      if (response.status === 201) {
        await outbox.remove(next.id);
        // "Kept on this tablet" is no longer true once the hand is stored.
        if (state.keptNumber !== null && next.number >= state.keptNumber) {
          state.message = t("Hand %(number)s sent.", { number: next.number });
          state.keptNumber = null;
        }
        applyStored(response);
        stored = true;
        continue;
      }
      const code = ((response.data && response.data.errors && response.data.errors[0]) || {}).code;
      if (response.status >= 500 || code === "idempotency_in_progress") break;
      await outbox.put({ ...next, state: "refused", problem: response.data, server: (response.data && response.data.hand) || null });
      break;
    }
    if (stored) await refresh();
  } finally {
    flushing = false;
    state.waiting = await outbox.list(game.id);
    if (!state.draft.correcting && !state.draft.trump && !state.draft.bidding.length && !state.draft.misdeal) {
      state.draft.dealer = steps.storedDealerAfter();
    }
    render();
  }
}

async function resolveRefused(choice) {
  const refused = state.waiting.find((entry) => entry.state === "refused");
  if (!refused) return;
  if (choice === "keep-server" || choice === "drop-refused") {
    await outbox.remove(refused.id);
  } else if (choice === "retry-refused") {
    await outbox.put({ ...refused, state: "waiting", problem: null, server: null, key: newKey() });
  } else if (choice === "keep-mine") {
    await refresh();
    // The stored hand becomes this tablet's version, with the acceptance it was entered with.
    const { number, ...record } = refused.body;
    try {
      const response = await api("PUT", `/games/${game.id}/hands/${number}/`, record, { "If-Match": etag });
      if (!response.ok) {
        state.message = views.problemWords(response.data);
        render();
        return;
      }
      await outbox.remove(refused.id);
    } catch {
      setOnline(false);
      return;
    }
  }
  state.waiting = await outbox.list(game.id);
  await refresh();
  render();
  await flush();
}

async function undo(number, playerId) {
  try {
    const accepted = acceptance(playerId);
    const body = Object.keys(accepted).length ? accepted : undefined;
    const response = await api("DELETE", `/games/${game.id}/hands/${number}/`, body, { "If-Match": etag });
    state.message = response.ok ? t("Hand %(number)s undone.", { number }) : views.problemWords(response.data);
  } catch {
    setOnline(false);
    state.message = t("Undo needs the connection: try again when it is back.");
  }
  state.confirmUndo = null;
  await refresh();
  state.draft = steps.newDraft();
  render();
}

// ---------------------------------------------------------------------------------------------
// Taps

function restart(correcting = null) {
  state.draft = steps.newDraft(correcting);
  state.preview = null;
  state.previewKey = null;
}

async function onClick(event) {
  const button = event.target.closest("[data-action]");
  if (!button || button.tagName === "SELECT" || button.disabled) return;
  const draft = state.draft;
  const action = button.dataset.action;
  const seat = button.dataset.seat === undefined ? null : Number(button.dataset.seat);
  state.message = null;
  if (draft.cards && action !== "card-mode" && (await draft.cards.onAction(action, button))) {
    render();
    return;
  }
  switch (action) {
    case "call": draft.bidding.push({ seat: steps.auctionTurn(draft), call: button.dataset.call }); break;
    case "undo-call": draft.bidding.pop(); break;
    case "trump": draft.trump = button.dataset.suit; draft.step = null; break;
    case "trick":
      draft.tricks.push(seat);
      await askWhetherTheGameEnded(draft);
      break;
    case "undo-trick": draft.tricks.pop(); draft.ended = false; draft.bestSeat = undefined; draft.bestTrick = undefined; break;
    case "best-seat":
      draft.bestSeat = button.dataset.seat === "none" ? null : seat;
      draft.bestTrick = undefined;
      draft.step = null;
      break;
    case "best-trick": draft.bestTrick = Number(button.dataset.trick); draft.step = null; break;
    case "misdeal": leaveCards(); state.draft.misdeal = true; state.draft.step = null; break;
    case "renege": leaveCards(); state.draft.step = "renege-seat"; break;
    case "renege-cancel": draft.renege = null; draft.step = null; break;
    case "renege-seat": draft.renegeSeat = seat; draft.step = "renege-trick"; break;
    case "renege-trick": draft.renege = { seat: draft.renegeSeat, trick: Number(button.dataset.trick) }; draft.step = null; break;
    case "change": changeStep(draft, button.dataset.step); break;
    case "start-over": restart(draft.correcting); break;
    case "cancel-correction": restart(); break;
    case "confirm": await confirm(button.dataset.player ? Number(button.dataset.player) : null); return;
    case "correct":
      restart(Number(button.dataset.number));
      window.scrollTo({ top: 0 });
      break;
    case "undo": state.confirmUndo = Number(button.dataset.number); window.scrollTo({ top: 0 }); break;
    case "undo-yes": await undo(state.confirmUndo, button.dataset.player ? Number(button.dataset.player) : null); return;
    case "scorer": chooseScorer(button.dataset.player ? Number(button.dataset.player) : null); break;
    case "undo-no": state.confirmUndo = null; break;
    case "keep-server": case "keep-mine": case "drop-refused": case "retry-refused":
      await resolveRefused(action); return;
    case "card-mode": toggleCardMode(); break;
    default: break;
  }
  render();
}

function changeStep(draft, step) {
  state.preview = null;
  state.previewKey = null;
  draft.prefill = false;
  if (step === "auction") { draft.bidding = []; draft.trump = null; draft.tricks = []; }
  if (step === "trump") { draft.trump = null; }
  if (step === "tricks") { draft.tricks = []; draft.ended = false; draft.bestSeat = undefined; draft.bestTrick = undefined; }
  if (step === "best-seat") { draft.bestSeat = undefined; draft.bestTrick = undefined; }
  if (step === "renege-seat") { draft.renege = null; draft.step = "renege-seat"; }
  if (step === "cards" && draft.cards) draft.cards.step = "tricks";
}

// A misdeal and a renege are recorded by taps, not cards: from card mode they leave it, keeping
// the dealer, the auction and the trumps (the bidder's, or the suit of the turn-up), and the
// tricks are then tapped.
function leaveCards() {
  const old = state.draft;
  if (!old.cards) return;
  const turnUp = old.cards.turnUp;
  restart(old.correcting);
  state.draft.dealer = old.dealer;
  state.draft.bidding = old.bidding;
  state.draft.trump = old.trump || (turnUp ? turnUp.slice(-1) : null);
}

function toggleCardMode() {
  const draft = state.draft;
  if (draft.cards) { restart(); return; }
  restart();
  state.draft.cards = cards.createCardEntry({
    game, dealer: state.draft.dealer, names: names(), api, isBidding: isBidding(),
    online: () => state.online, rerender: render,
    onSummary: () => { state.preview = null; state.previewKey = null; ensurePreview(state.draft); },
    problem: () => state.preview && state.preview.problem,
    draft: state.draft, steps, views, t,
  });
}

function onChange(event) {
  if (event.target.id === "rob") {
    state.draft.rob = event.target.value === "" ? null : Number(event.target.value);
  }
}

// ---------------------------------------------------------------------------------------------
// Following the table
//
// An idle page asks ONE endpoint, conditionally, at most every POLL_MS: a table link's page asks
// GET /api/table/ (its ETag changes when a hand is stored or corrected anywhere, a game starts, a
// round is released or the event closes), a logged-in page GET /api/games/{id}/. A 304 costs the
// server two queries and changes nothing here. A finished game whose table brings no next game is
// not asked about at all. A page opened on its table's current game follows the table: when the
// table's current game changes (the match's next game, the next round's game at an event's
// table) it opens it in place — no reload — once a finished game's result has been shown for
// RESULT_SHOWN_MS.

const POLL_MS = 10000;
const RESULT_SHOWN_MS = 8000;
let tableEtag = null;
let polling = false;
let finishedSince = null;
let linkEnded = false;
let switchTimer = null;

function followsTable() {
  return Boolean(config.credential) && config.followsTable;
}

function pollWanted() {
  if (linkEnded || document.hidden) return false;
  if (game.status !== "finished") return true;
  return followsTable() && Boolean(table && table.follows);
}

async function poll() {
  if (polling || !outbox) return;
  if (state.waiting.some((entry) => entry.state === "waiting")) { await flush(); return; }
  if (!pollWanted()) return;
  polling = true;
  try {
    if (config.credential) await pollTable();
    else await pollGame();
    setOnline(true);
  } catch {
    setOnline(false);
  } finally {
    polling = false;
  }
}

async function conditionalGet(path, etagSeen) {
  const headers = { Accept: "application/json" };
  if (etagSeen) headers["If-None-Match"] = etagSeen;
  if (config.credential) headers.Authorization = `Table ${config.credential}`;
  const response = await fetch(`/api${path}`, {
    headers, cache: "no-store", credentials: config.credential ? "omit" : "same-origin",
  });
  if (response.status === 304) return { status: 304 };
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  return { status: response.status, ok: response.ok, data, etag: response.headers.get("ETag") };
}

async function pollGame() {
  const response = await conditionalGet(`/games/${game.id}/`, etag);
  if (!response.ok) return;
  await refresh();
  render();
}

async function pollTable() {
  const response = await conditionalGet("/table/", tableEtag);
  if (response.status === 304) return;
  if (response.status === 404) {
    linkEnded = true;
    state.message = t("This table link has ended. Ask the organiser for a new one.");
    render();
    return;
  }
  if (!response.ok) return;
  table = response.data;
  tableEtag = response.etag;
  const mine = table.games.find((entry) => entry.id === game.id);
  if (mine && mine.version !== game.version) await refresh();
  followCurrentGame();
  saveCache();
  render();
}

// The table's current game is another one: open it (not during a correction), once a finished
// game's result has been on the screen for a while.
function followCurrentGame() {
  if (game.status === "finished") finishedSince = finishedSince || Date.now();
  if (!followsTable() || !table || !table.current_game || table.current_game === game.id) return;
  if (state.draft && state.draft.correcting) return;
  const wait = game.status === "finished" ? Math.max(0, finishedSince + RESULT_SHOWN_MS - Date.now()) : 0;
  window.clearTimeout(switchTimer);
  switchTimer = window.setTimeout(() => switchGame(table.current_game), wait);
}

// Each side's name as the server gives it (web.table.views._side_labels): the team's name, or
// its players' names.
function sideLabelsOf(data) {
  const nameOf = new Map(data.seats.map((seat) => [seat.player.id, seat.player.name]));
  return data.sides.map((side) => (side.team ? side.team.name : side.players.map((id) => nameOf.get(id)).join(" & ")));
}

async function switchGame(id) {
  if (id === game.id || (state.draft && state.draft.correcting)) return;
  let gameResponse;
  let handsResponse;
  try {
    [gameResponse, handsResponse] = await Promise.all([
      api("GET", `/games/${id}/`),
      api("GET", `/games/${id}/hands/?page_size=200`),
    ]);
  } catch {
    setOnline(false);
    return;
  }
  if (!gameResponse.ok || !handsResponse.ok) return;
  const previous = game.id;
  game = gameResponse.data;
  etag = gameResponse.etag;
  hands = handsResponse.data.results;
  config.gameId = game.id;
  config.sideLabels = sideLabelsOf(game);
  config.gamePageUrl = config.gamePageUrl.replace(`/games/${previous}/`, `/games/${game.id}/`);
  finishedSince = null;
  state.waiting = await outbox.list(game.id);
  loadScorer();
  restart();
  state.draft.dealer = steps.storedDealerAfter();
  state.confirmUndo = null;
  state.message = table && table.round
    ? t("Round %(round)s: this table's new game is open.", { round: table.round })
    : t("The table's next game is open.");
  $("#table-app").dataset.game = String(game.id);
  renderSideHeadings();
  history.replaceState(null, "", `${config.tableUrl}?game=${game.id}`);
  saveCache();
  render();
  await flush();
}

function renderSideHeadings() {
  const row = $("#hands thead tr");
  const cells = Array.from(row.children);
  const fixed = cells.slice(0, 4);
  const last = cells[cells.length - 1];
  row.replaceChildren(...fixed, ...config.sideLabels.map((label) => {
    const cell = document.createElement("th");
    cell.scope = "col";
    cell.textContent = label;
    return cell;
  }), last);
  const heading = $("h1.visually-hidden");
  if (heading) heading.textContent = `${heading.textContent.split(" · ")[0]} · ${config.sideLabels.join(` ${config.versus} `)}`;
}

// ---------------------------------------------------------------------------------------------
// Start

// What steps.js and views.js read: the live data (getters: game, hands and table are replaced
// on refresh), the state and the helpers.
const ctx = {
  get game() { return game; },
  get hands() { return hands; },
  get table() { return table; },
  config, state, escapeHtml, names, sideOf, sideLabel, suit, SUITS, WORDS, isBidding,
  hasBestTrump, seatCount, TRICKS_PER_HAND, $, t,
};

async function start() {
  loadCache();
  steps = (await import(config.modules.steps)).createSteps(ctx);
  Object.assign(ctx, steps);
  views = (await import(config.modules.views)).createViews(ctx);
  outbox = await import(config.modules.outbox);
  cards = await import(config.modules.cards);
  state.waiting = await outbox.list(game.id);
  state.draft = steps.newDraft();
  loadScorer();
  setOnline(navigator.onLine);
  document.addEventListener("click", onClick);
  document.addEventListener("change", onChange);
  window.addEventListener("online", () => { setOnline(true); refresh().then(flush); });
  window.addEventListener("offline", () => { setOnline(false); render(); });
  render();
  if (navigator.onLine) {
    await refresh();
    state.draft.dealer = steps.storedDealerAfter();
    render();
    await flush();
  }
  // Follow the table: one conditional request every POLL_MS while the page is shown, and one as
  // soon as it is shown again (visibilitychange).
  setInterval(poll, POLL_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
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

start();
