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

const $ = (selector, root = document) => root.querySelector(selector);
const readJson = (id) => JSON.parse(document.getElementById(id).textContent);
const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (character) => (
  { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[character]));

const config = readJson("table-config");
let game = readJson("game-data");
let hands = readJson("hands-data");
let table = readJson("table-data");
let etag = `"${game.id}-${game.version}"`;
let outbox = null;

const SUITS = [
  { code: "S", symbol: "♠", name: "Spades", red: false },
  { code: "H", symbol: "♥", name: "Hearts", red: true },
  { code: "D", symbol: "♦", name: "Diamonds", red: true },
  { code: "C", symbol: "♣", name: "Clubs", red: false },
];
const TRICKS_PER_HAND = 5;
const WORDS = {
  illegal_play: "That card may not be played there",
  illegal_rob: "That rob is not allowed",
  illegal_bid: "That call is not allowed in the auction",
  wrong_trick_count: "The number of tricks does not fit this hand",
  best_trump_mismatch: "The best trump does not fit the tricks",
  wrong_dealer: "That is not the dealer of this hand",
  wrong_leader: "That card was not played by the seat whose turn it was to lead",
  hand_conflict: "Another tablet has already recorded this hand",
  hand_out_of_sequence: "An earlier hand is missing",
  game_over: "The game is over: it takes no more hands",
  precondition_failed: "The game changed on another tablet while you were looking; the page now shows the latest, check and try again",
  later_hand_invalid: "This correction would make a later hand impossible",
  confirmation_required: "A player of another side must accept the hand",
  invalid_confirmation: "That player may not accept this hand",
  match_locked: "This match is decided and a later match depends on it",
};

const names = () => game.seats.map((seat) => seat.player.name);
const sideOf = (seat) => game.seats[seat].side;
const sideLabel = (side) => config.sideLabels[side] ?? `Side ${side + 1}`;
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
  badge.textContent = online ? "Online" : "Offline: hands are kept on this tablet";
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
      if (tableResponse.ok) table = tableResponse.data;
    }
    setOnline(true);
    saveCache();
  } catch {
    setOnline(false);
  }
}

// ---------------------------------------------------------------------------------------------
// The hand being entered

function storedDealerAfter() {
  // The dealer of the next hand: the server's, then one guess per waiting hand.
  let dealer = game.next_dealer;
  for (const entry of state.waiting) {
    if (entry.number <= game.hands_played) continue;
    if (!entry.body.misdeal) dealer = (dealer + 1) % seatCount();
  }
  return dealer;
}

function newDraft(correcting = null) {
  const base = correcting ? hands.find((hand) => hand.number === correcting) : null;
  return {
    dealer: base ? base.dealer : storedDealerAfter(),
    trump: null,
    tricks: [],
    bestSeat: undefined,
    bestTrick: undefined,
    prefill: true,
    rob: null,
    bidding: [],
    misdeal: false,
    renege: null,
    ended: false,
    step: null,
    correcting,
    cards: null,
  };
}

function nextNumber() {
  const waiting = state.waiting.map((entry) => entry.number);
  return Math.max(game.hands_played, ...waiting) + 1;
}

function passedSeats(draft) {
  return new Set(draft.bidding.filter((call) => call.call === "pass").map((call) => call.seat));
}

function auctionTurn(draft) {
  const count = seatCount();
  if (draft.bidding.length === 0) return (draft.dealer + 1) % count;
  const passed = passedSeats(draft);
  const spoken = new Set(draft.bidding.map((call) => call.seat));
  const active = [...Array(count).keys()].filter((seat) => !passed.has(seat));
  if (spoken.size === count && active.length <= 1) return null;
  let seat = draft.bidding[draft.bidding.length - 1].seat;
  for (let step = 0; step < count; step += 1) {
    seat = (seat + 1) % count;
    if (!passed.has(seat)) return seat;
  }
  return null;
}

function highestBid(draft) {
  const amounts = draft.bidding.filter((call) => /^\d+$/.test(call.call)).map((call) => Number(call.call));
  return amounts.length ? Math.max(...amounts) : null;
}

function bidder(draft) {
  const calls = draft.bidding.filter((call) => call.call !== "pass");
  return calls.length ? calls[calls.length - 1].seat : null;
}

function everybodyPassed(draft) {
  return auctionTurn(draft) === null && bidder(draft) === null;
}

function applyPrefill(draft) {
  if (!draft.prefill || !hasBestTrump() || draft.tricks.length === 0) return;
  const takers = [...new Set(draft.tricks)];
  if (draft.bestSeat === undefined && takers.length === 1) draft.bestSeat = takers[0];
  if (draft.bestSeat !== undefined && draft.bestSeat !== null && draft.bestTrick === undefined) {
    const taken = draft.tricks.map((seat, trick) => (seat === draft.bestSeat ? trick : null)).filter((trick) => trick !== null);
    if (taken.length === 1) draft.bestTrick = taken[0];
  }
}

function stepOf(draft) {
  if (draft.step) return draft.step;
  if (draft.misdeal) return "summary";
  if (isBidding() && auctionTurn(draft) !== null) return "auction";
  if (isBidding() && everybodyPassed(draft)) return "summary";
  if (!draft.trump) return "trump";
  if (!draft.ended && draft.tricks.length < TRICKS_PER_HAND) return "tricks";
  applyPrefill(draft);
  if (hasBestTrump() && draft.bestSeat === undefined) return "best-seat";
  if (hasBestTrump() && draft.bestSeat !== null && draft.bestTrick === undefined) return "best-trick";
  return "summary";
}

function recordOf(draft) {
  if (draft.cards) return draft.cards.record();
  if (draft.misdeal) return { dealer: draft.dealer, misdeal: true };
  const record = { dealer: draft.dealer };
  if (isBidding()) {
    record.bidding = draft.bidding.map((call) => ({ ...call }));
    if (everybodyPassed(draft)) return record;
  }
  record.trump = draft.trump;
  record.trick_winners = draft.tricks.slice();
  if (hasBestTrump()) {
    record.best_trump = draft.bestSeat === null || draft.bestSeat === undefined
      ? null : { seat: draft.bestSeat, trick: draft.bestTrick };
  }
  if (draft.rob !== null && !isBidding()) record.rob = { seat: draft.rob };
  if (draft.renege) record.renege = { ...draft.renege };
  return record;
}

// ---------------------------------------------------------------------------------------------
// Words

function seatButton(seat, action, extra = "", label = null) {
  return `<button type="button" class="seat-button side-${sideOf(seat)}" data-action="${action}" data-seat="${seat}" ${extra}>${escapeHtml(label ?? names()[seat])}</button>`;
}

function describeTricks(winners) {
  return winners.map((seat, trick) => `<span class="trick-chip side-${sideOf(seat)}" data-trick="${trick}">${trick + 1}: ${escapeHtml(names()[seat])}</span>`).join(" ");
}

function describeRecord(record) {
  if (record.misdeal) return "Misdeal: no score, the same dealer deals again.";
  const parts = [`${escapeHtml(names()[record.dealer])} dealt.`];
  if (record.bidding) {
    parts.push(`Auction: ${record.bidding.map((call) => `${escapeHtml(names()[call.seat])} ${escapeHtml(call.call)}`).join(", ")}.`);
  }
  if (record.trump) parts.push(`Trumps ${suit(record.trump).symbol} ${suit(record.trump).name}.`);
  if (record.trick_winners) parts.push(`Tricks: ${describeTricks(record.trick_winners)}`);
  if (record.best_trump) parts.push(`Best trump: ${escapeHtml(names()[record.best_trump.seat])} in trick ${record.best_trump.trick + 1}.`);
  if (record.renege) parts.push(`Renege by ${escapeHtml(names()[record.renege.seat])} in trick ${record.renege.trick + 1}.`);
  if (record.tricks) parts.push(`${record.tricks.length} tricks played card by card.`);
  return parts.join(" ");
}

function pointsInWords(points) {
  return Object.entries(points || {}).map(([side, value]) => (
    value < 0 ? `${sideLabel(Number(side))} lose ${-value}` : `${sideLabel(Number(side))} take ${value}`)).join(", ");
}

function totalsInWords(totals) {
  return Object.keys(totals).sort((a, b) => a - b).map((side) => totals[side]).join("–");
}

function problemWords(problem) {
  if (!problem) return "The server did not answer.";
  const first = (problem.errors && problem.errors[0]) || {};
  const code = first.code || problem.code;
  const detail = first.detail || problem.detail || "";
  return `${WORDS[code] || problem.title || "The server refused this hand"}. ${detail}`;
}

function pointerOf(problem) {
  return ((problem && problem.errors && problem.errors[0]) || {}).pointer || "";
}

// ---------------------------------------------------------------------------------------------
// Rendering

function renderScoreboard() {
  $("#seats").innerHTML = game.seats.map((seat) => {
    const dealer = seat.seat === (state.draft ? state.draft.dealer : game.next_dealer);
    return `<li class="seat side-${seat.side}${dealer ? " is-dealer" : ""}">${escapeHtml(seat.player.name)}${dealer ? ' <span class="dealer-mark">deals</span>' : ""}</li>`;
  }).join("");
  const totals = Object.keys(game.totals).sort((a, b) => a - b);
  $("#totals").innerHTML = totals.map((side) => `<li class="total side-${side}"><span class="side-name">${escapeHtml(sideLabel(Number(side)))}</span> <strong>${game.totals[side]}</strong></li>`).join("");
  const dealer = state.draft ? state.draft.dealer : game.next_dealer;
  const number = state.draft && state.draft.correcting ? state.draft.correcting : nextNumber();
  $("#dealer").textContent = game.status === "finished" && !state.draft?.correcting
    ? `Game over after ${game.hands_played} hands`
    : `Hand ${number}: ${names()[dealer]} deals`;
  const badge = $("#waiting-badge");
  const count = state.waiting.length;
  badge.hidden = count === 0;
  badge.textContent = count === 1 ? "1 hand waiting" : `${count} hands waiting`;
}

function renderBanner() {
  const banner = $("#banner");
  if (game.status !== "finished") { banner.hidden = true; banner.innerHTML = ""; return; }
  const winner = sideLabel(game.winner);
  const score = totalsInWords(game.totals);
  const parts = [`<h2>${escapeHtml(winner)} win${winner.includes("&") ? "" : "s"}, ${score}</h2>`];
  if (game.double_stake) parts.push('<p class="double">Double stake: won from zero with every trick.</p>');
  if (table && table.match) {
    const match = table.match;
    parts.push(`<p>Match score: ${match.score.map((entry) => `${escapeHtml(entry.name)} ${entry.games_won}`).join(" · ")}</p>`);
    if (table.current_game && table.current_game !== game.id) {
      parts.push(`<p><a class="button big" href="${config.tableUrl}?game=${table.current_game}">Start the next game</a></p>`);
    } else if (match.status !== "decided") {
      parts.push("<p>The next game of the match opens here as soon as it starts.</p>");
    } else {
      parts.push("<p>The match is decided.</p>");
    }
  }
  const standings = config.standingsUrl
    ? `<a href="${config.standingsUrl}">Standings</a>` : `<a href="${config.gamePageUrl}">The game's page</a>`;
  parts.push(`<p>${standings}</p>`);
  banner.innerHTML = parts.join("");
  banner.hidden = false;
}

function renderConflict() {
  const panel = $("#conflict");
  const refused = state.waiting.find((entry) => entry.state === "refused");
  if (!refused) { panel.hidden = true; panel.innerHTML = ""; return; }
  const server = refused.server;
  const conflict = server !== null && server !== undefined;
  const mine = `<div class="version"><h3>Yours, entered on this tablet</h3><p>${describeRecord(refused.body)}</p></div>`;
  const theirs = conflict
    ? `<div class="version"><h3>Stored by ${escapeHtml(server.entered_by ? server.entered_by.username : "another tablet")}</h3><p>${describeRecord(server.record)}</p><p>${escapeHtml(pointsInWords(server.points))}; totals ${totalsInWords(server.totals)}.</p></div>`
    : "";
  const later = state.waiting.filter((entry) => entry.number > refused.number).length;
  panel.innerHTML = `<h2>Hand ${refused.number} was not stored</h2>
    <p class="problem">${escapeHtml(problemWords(refused.problem))}</p>
    <div class="versions">${mine}${theirs}</div>
    <p>${later ? `${later} later hand${later === 1 ? "" : "s"} wait${later === 1 ? "s" : ""} behind it: n` : "N"}othing more is sent until you choose.</p>
    <div class="actions">${conflict
    ? `<button type="button" data-action="keep-server" class="big">Keep the stored hand ${refused.number}</button>
       <button type="button" data-action="keep-mine" class="big secondary">Keep mine as hand ${refused.number}</button>`
    : `<button type="button" data-action="drop-refused" class="big">Drop my hand ${refused.number}</button>
       <button type="button" data-action="retry-refused" class="big secondary">Send it again</button>`}</div>`;
  panel.hidden = false;
}

function renderHands() {
  // Corrections and undo act on stored hands only: not while hands wait to be numbered after them.
  const canFix = state.online && state.waiting.length === 0;
  const rows = hands.map((hand) => {
    const last = hand.number === game.hands_played;
    const trump = hand.trump ? `${suit(hand.trump).symbol} ${suit(hand.trump).name}` : "—";
    const kind = hand.kind === "misdeal" ? "Misdeal" : hand.kind === "redeal" ? "All passed" : describeTricks(hand.trick_winners || []);
    const cells = Object.keys(game.totals).sort((a, b) => a - b).map((side) => `<td>${hand.totals[side] ?? ""}${hand.points && hand.points[side] !== undefined ? ` <small>(${hand.points[side] >= 0 ? "+" : ""}${hand.points[side]})</small>` : ""}</td>`).join("");
    const actions = [
      `<button type="button" class="small secondary" data-action="correct" data-number="${hand.number}" ${canFix ? "" : "disabled"}>Correct hand ${hand.number}</button>`,
      last ? `<button type="button" class="small secondary" data-action="undo" data-number="${hand.number}" ${canFix ? "" : "disabled"}>Undo hand ${hand.number}</button>` : "",
    ].join(" ");
    return `<tr data-number="${hand.number}"><th scope="row">${hand.number}</th><td>${escapeHtml(names()[hand.dealer])}</td><td>${trump}</td><td>${kind}</td>${cells}<td class="row-actions">${actions}</td></tr>`;
  });
  const waiting = state.waiting.map((entry) => {
    const record = entry.body;
    const trump = record.trump ? `${suit(record.trump).symbol} ${suit(record.trump).name}` : "—";
    const tricks = record.misdeal ? "Misdeal" : describeTricks(record.trick_winners || []);
    const status = entry.state === "refused" ? "Refused: see above" : "Waiting: points will follow";
    return `<tr class="waiting" data-number="${entry.number}"><th scope="row">${entry.number}</th><td>${escapeHtml(names()[record.dealer])}</td><td>${trump}</td><td>${tricks}</td><td colspan="${Object.keys(game.totals).length + 1}">${status}</td></tr>`;
  });
  $("#hands-body").innerHTML = rows.concat(waiting).reverse().join("") || `<tr><td colspan="${5 + Object.keys(game.totals).length}">No hands yet.</td></tr>`;
}

function heading(text) { return `<h2 class="step-title">${text}</h2>`; }

function toolbar(draft) {
  const buttons = [];
  if (draft.tricks.length || draft.trump || draft.bidding.length || draft.misdeal || draft.cards) {
    buttons.push('<button type="button" class="secondary" data-action="start-over">Start this hand again</button>');
  }
  if (!draft.misdeal && !draft.cards) {
    buttons.push('<button type="button" class="secondary" data-action="misdeal">Misdeal</button>');
    if (draft.trump) buttons.push('<button type="button" class="secondary" data-action="renege">Renege…</button>');
  }
  if (!draft.correcting && !isBidding()) {
    buttons.push(`<button type="button" class="secondary" data-action="card-mode" aria-pressed="${draft.cards ? "true" : "false"}">${draft.cards ? "Enter by taps" : "Card by card"}</button>`);
  } else if (draft.correcting) {
    buttons.push('<button type="button" class="secondary" data-action="cancel-correction">Cancel the correction</button>');
  }
  return `<div class="toolbar">${buttons.join(" ")}</div>`;
}

function renderAuction(draft) {
  const seat = auctionTurn(draft);
  const high = highestBid(draft);
  const bids = game.house_rules.bids.map((amount) => `<button type="button" class="bid-button" data-action="call" data-call="${amount}" ${high !== null && amount <= high ? "disabled" : ""}>${amount}</button>`).join("");
  const hold = seat === draft.dealer && high !== null
    ? `<button type="button" class="bid-button hold" data-action="call" data-call="hold">Hold ${high}</button>` : "";
  const calls = draft.bidding.map((call) => `<li>${escapeHtml(names()[call.seat])}: ${escapeHtml(call.call === "hold" ? "holds" : call.call)}</li>`).join("");
  return `${heading(`Auction: ${escapeHtml(names()[seat])} to call`)}
    <ol class="calls" aria-label="Calls so far">${calls}</ol>
    <div class="bids" role="group" aria-label="Calls for ${escapeHtml(names()[seat])}">${bids}${hold}<button type="button" class="bid-button pass" data-action="call" data-call="pass">Pass</button></div>
    ${draft.bidding.length ? '<button type="button" class="secondary" data-action="undo-call">Take back the last call</button>' : ""}`;
}

function renderTrump(draft) {
  const who = isBidding() ? `${escapeHtml(names()[bidder(draft)])} names trumps` : "Trumps";
  const rob = isBidding() ? "" : `<label class="rob" for="rob">Who robbed the turn-up? (optional)
      <select id="rob" data-action="rob"><option value="">Nobody</option>${game.seats.map((seat) => `<option value="${seat.seat}" ${draft.rob === seat.seat ? "selected" : ""}>${escapeHtml(seat.player.name)}</option>`).join("")}</select></label>`;
  return `${heading(who)}<div class="suits" role="group" aria-label="Trumps">${SUITS.map((entry) => `<button type="button" class="suit-button${entry.red ? " red" : ""}" data-action="trump" data-suit="${entry.code}"><span aria-hidden="true">${entry.symbol}</span> ${entry.name}</button>`).join("")}</div>${rob}`;
}

function renderTricks(draft) {
  const number = draft.tricks.length + 1;
  return `${heading(`Trick ${number}: who took it?`)}
    <p class="trump-line">Trumps ${suit(draft.trump).symbol} ${suit(draft.trump).name}${draft.renege ? ` · renege by ${escapeHtml(names()[draft.renege.seat])} in trick ${draft.renege.trick + 1}` : ""}</p>
    <div class="seat-buttons" role="group" aria-label="Who took trick ${number}">${game.seats.map((seat) => seatButton(seat.seat, "trick", state.busy ? "disabled" : "")).join("")}</div>
    <p class="tricks-so-far">${describeTricks(draft.tricks)}</p>
    ${draft.tricks.length ? '<button type="button" class="secondary" data-action="undo-trick">Take back the last trick</button>' : ""}`;
}

function renderBestSeat(draft) {
  const takers = [...new Set(draft.tricks)];
  return `${heading("Who played the best trump?")}
    <div class="seat-buttons" role="group" aria-label="Who played the best trump">${takers.map((seat) => seatButton(seat, "best-seat")).join("")}
    <button type="button" class="seat-button none" data-action="best-seat" data-seat="none">No trump was played</button></div>`;
}

function renderBestTrick(draft) {
  const tricks = draft.tricks.map((seat, trick) => (seat === draft.bestSeat ? trick : null)).filter((trick) => trick !== null);
  return `${heading(`In which trick did ${escapeHtml(names()[draft.bestSeat])} play it?`)}
    <div class="seat-buttons" role="group" aria-label="Trick of the best trump">${tricks.map((trick) => `<button type="button" class="seat-button" data-action="best-trick" data-trick="${trick}">Trick ${trick + 1}</button>`).join("")}</div>`;
}

function renderRenege(draft) {
  if (draft.step === "renege-seat") {
    return `${heading("Who reneged?")}<div class="seat-buttons" role="group" aria-label="Who reneged">${game.seats.map((seat) => seatButton(seat.seat, "renege-seat")).join("")}</div>
      <button type="button" class="secondary" data-action="renege-cancel">No renege</button>`;
  }
  return `${heading(`In which trick did ${escapeHtml(names()[draft.renegeSeat])} renege?`)}<div class="seat-buttons" role="group" aria-label="Trick of the renege">${[0, 1, 2, 3, 4].map((trick) => `<button type="button" class="seat-button" data-action="renege-trick" data-trick="${trick}">Trick ${trick + 1}</button>`).join("")}</div>`;
}

function summaryLine(key, label, content, change, problem) {
  const pointer = problem ? pointerOf(problem) : "";
  const here = problem && (pointer === `/${key}` || pointer.startsWith(`/${key}/`));
  return `<li class="summary-line${here ? " has-problem" : ""}" data-line="${key}"><span class="line-label">${label}</span> <span>${content}</span>
    ${change ? `<button type="button" class="small secondary" data-action="change" data-step="${change}">Change</button>` : ""}
    ${here ? `<p class="problem" role="alert">${escapeHtml(problemWords(problem))}</p>` : ""}</li>`;
}

function confirmButtons(draft) {
  const number = draft.correcting || nextNumber();
  if (draft.correcting) return `<button type="button" class="big" data-action="confirm">Save the correction of hand ${number}</button>`;
  if (!config.confirmHands) return `<button type="button" class="big" data-action="confirm">Confirm hand ${number}</button>`;
  const mine = new Set(game.seats.filter((seat) => config.userPlayerIds.includes(seat.player.id)).map((seat) => seat.side));
  const others = game.seats.filter((seat) => !mine.has(seat.side));
  return `<p>A player of another side accepts the hand:</p><div class="seat-buttons">${others.map((seat) => `<button type="button" class="seat-button side-${seat.side}" data-action="confirm" data-player="${seat.player.id}">${escapeHtml(seat.player.name)} accepts hand ${number}</button>`).join("")}</div>`;
}

function renderSummary(draft) {
  const record = recordOf(draft);
  const problem = state.preview && state.preview.problem;
  const preview = state.preview && state.preview.result;
  const lines = [summaryLine("dealer", "Dealer", escapeHtml(names()[record.dealer]), null, problem)];
  if (draft.cards) {
    lines.push(summaryLine("tricks", "Cards played", draft.cards.renderPlayed(problem), null, problem));
  } else if (record.misdeal) {
    lines.push(summaryLine("misdeal", "Misdeal", "no score; the same dealer deals again", null, problem));
  } else {
    if (record.bidding) lines.push(summaryLine("bidding", "Auction", record.bidding.map((call) => `${escapeHtml(names()[call.seat])} ${escapeHtml(call.call)}`).join(", "), "auction", problem));
    if (record.trump) lines.push(summaryLine("trump", "Trumps", `${suit(record.trump).symbol} ${suit(record.trump).name}`, "trump", problem));
    if (record.trick_winners) lines.push(summaryLine("trick_winners", "Tricks", describeTricks(record.trick_winners), "tricks", problem));
    if (hasBestTrump() && record.trick_winners) {
      lines.push(summaryLine("best_trump", "Best trump", record.best_trump ? `${escapeHtml(names()[record.best_trump.seat])}, trick ${record.best_trump.trick + 1}` : "no trump played", "best-seat", problem));
    }
    if (record.rob) lines.push(summaryLine("rob", "Rob", escapeHtml(names()[record.rob.seat]), "trump", problem));
    if (record.renege) lines.push(summaryLine("renege", "Renege", `${escapeHtml(names()[record.renege.seat])}, trick ${record.renege.trick + 1}`, "renege-seat", problem));
  }
  let verdict;
  if (state.busy) {
    verdict = '<p class="verdict">Asking the server what this hand scores…</p>';
  } else if (preview) {
    const after = preview.game;
    const kind = preview.kind === "misdeal" ? "Misdeal: no score. " : preview.kind === "redeal" ? "Everybody passed: no score. " : "";
    const later = draft.correcting && preview.hands
      ? `<ul class="later">${preview.hands.filter((hand) => hand.changed).map((hand) => `<li>After hand ${hand.number}: ${totalsInWords(hand.totals_before)} → <strong>${totalsInWords(hand.totals_after)}</strong></li>`).join("") || "<li>No total changes.</li>"}</ul>` : "";
    const ends = after.status === "finished" ? ` ${escapeHtml(sideLabel(after.winner))} win the game${after.double_stake ? ", double stake" : ""}.` : "";
    verdict = `<p class="verdict">${kind}${escapeHtml(pointsInWords(preview.points))} — new totals ${totalsInWords(preview.totals)}.${ends}</p>${later}`;
  } else if (problem) {
    const pointer = pointerOf(problem);
    const placed = pointer && lines.some((line) => line.includes("has-problem"));
    verdict = placed ? '<p class="verdict problem">The server refused this hand: see the line marked above.</p>'
      : `<p class="verdict problem" role="alert">${escapeHtml(problemWords(problem))}</p>`;
  } else if (!state.online) {
    verdict = '<p class="verdict">Offline: the tricks are listed above; the points will follow when the connection is back.</p>';
  } else {
    verdict = '<p class="verdict">Earlier hands are still being sent: the tricks are listed above; the points will follow.</p>';
  }
  const unchecked = (!state.online || state.waiting.length) && !draft.correcting;
  const canConfirm = !state.busy && !problem && (preview || unchecked);
  return `${heading(draft.correcting ? `Correct hand ${draft.correcting}` : "Check the hand")}
    <ul class="summary">${lines.join("")}</ul>${verdict}
    <div class="confirm">${canConfirm ? confirmButtons(draft) : ""}</div>`;
}

function renderEntry() {
  const entry = $("#entry");
  const draft = state.draft;
  if (game.status === "finished" && !draft.correcting) {
    entry.innerHTML = state.message ? `<p class="message" role="status">${escapeHtml(state.message)}</p>` : "";
    return;
  }
  let body;
  if (state.confirmUndo) {
    const hand = hands.find((item) => item.number === state.confirmUndo);
    body = `${heading(`Undo hand ${hand.number}?`)}<p>${describeRecord(hand.record)}</p>
      <div class="actions"><button type="button" class="big" data-action="undo-yes">Yes, undo hand ${hand.number}</button>
      <button type="button" class="big secondary" data-action="undo-no">Keep it</button></div>`;
  } else if (draft.cards) {
    if (draft.cards.step === "summary") ensurePreview(draft);
    body = draft.cards.step === "summary" ? renderSummary(draft) : draft.cards.render();
  } else {
    const step = stepOf(draft);
    if (step === "summary") ensurePreview(draft);
    body = {
      auction: () => renderAuction(draft),
      trump: () => renderTrump(draft),
      tricks: () => renderTricks(draft),
      "best-seat": () => renderBestSeat(draft),
      "best-trick": () => renderBestTrick(draft),
      "renege-seat": () => renderRenege(draft),
      "renege-trick": () => renderRenege(draft),
      summary: () => renderSummary(draft),
    }[step]();
  }
  const message = state.message ? `<p class="message" role="status">${escapeHtml(state.message)}</p>` : "";
  entry.innerHTML = `${message}${body}${state.confirmUndo ? "" : toolbar(draft)}`;
}

function render() {
  renderScoreboard();
  renderBanner();
  renderConflict();
  renderEntry();
  renderHands();
}

// ---------------------------------------------------------------------------------------------
// Preview, confirm, outbox

async function ensurePreview(draft) {
  const record = recordOf(draft);
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
  const body = draft.correcting ? record : { ...record, number: nextNumber() };
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
    const response = await api("POST", `/games/${game.id}/hands/preview/`, { ...recordOf(draft), number: nextNumber() });
    if (response.ok && response.data.game.status === "finished") draft.ended = true;
  } catch {
    setOnline(false);
  }
  state.busy = false;
}

async function confirm(playerId) {
  const draft = state.draft;
  const record = recordOf(draft);
  if (draft.correcting) {
    await sendCorrection(draft.correcting, record);
    return;
  }
  const number = nextNumber();
  const body = { ...record, number };
  if (playerId) body.confirmed_by = playerId;
  await outbox.put({
    id: `${game.id}:${number}`, game: game.id, number, key: newKey(), body, state: "waiting", problem: null, server: null,
  });
  state.waiting = await outbox.list(game.id);
  state.draft = newDraft();
  state.preview = null;
  state.previewKey = null;
  state.message = state.online ? `Hand ${number} sent.` : `Hand ${number} kept on this tablet: it is sent when the connection is back.`;
  render();
  await flush();
}

async function sendCorrection(number, record) {
  try {
    const response = await api("PUT", `/games/${game.id}/hands/${number}/`, record, { "If-Match": etag });
    if (response.ok) {
      state.message = `Hand ${number} corrected.`;
      state.draft = newDraft();
    } else {
      state.preview = { problem: response.data };
      state.message = problemWords(response.data);
    }
  } catch {
    setOnline(false);
    state.message = "Corrections need the connection: try again when it is back.";
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
      state.draft.dealer = storedDealerAfter();
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
    const { number, ...record } = refused.body;
    delete record.confirmed_by;
    try {
      const response = await api("PUT", `/games/${game.id}/hands/${number}/`, record, { "If-Match": etag });
      if (!response.ok) {
        state.message = problemWords(response.data);
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

async function undo(number) {
  try {
    const response = await api("DELETE", `/games/${game.id}/hands/${number}/`, undefined, { "If-Match": etag });
    state.message = response.ok ? `Hand ${number} undone.` : problemWords(response.data);
  } catch {
    setOnline(false);
    state.message = "Undo needs the connection: try again when it is back.";
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
  const draft = state.draft;
  const action = button.dataset.action;
  const seat = button.dataset.seat === undefined ? null : Number(button.dataset.seat);
  state.message = null;
  switch (action) {
    case "call": draft.bidding.push({ seat: auctionTurn(draft), call: button.dataset.call }); break;
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
    case "misdeal": draft.misdeal = true; draft.step = null; break;
    case "renege": draft.step = "renege-seat"; break;
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
    case "undo-yes": await undo(state.confirmUndo); return;
    case "undo-no": state.confirmUndo = null; break;
    case "keep-server": case "keep-mine": case "drop-refused": case "retry-refused":
      await resolveRefused(action); return;
    case "card-mode": await toggleCardMode(); break;
    default:
      if (draft.cards && (await draft.cards.onAction(action, button))) break;
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

async function toggleCardMode() {
  const draft = state.draft;
  if (draft.cards) { restart(); return; }
  const cards = await import(config.modules.cards);
  restart();
  state.draft.cards = cards.createCardEntry({
    game, dealer: state.draft.dealer, names: names(), api, isBidding: isBidding(),
    online: () => state.online, rerender: render,
    onSummary: () => { state.preview = null; state.previewKey = null; ensurePreview(state.draft); },
    problem: () => state.preview && state.preview.problem,
  });
}

function onChange(event) {
  if (event.target.id === "rob") {
    state.draft.rob = event.target.value === "" ? null : Number(event.target.value);
  }
}

// ---------------------------------------------------------------------------------------------
// Start

async function start() {
  loadCache();
  outbox = await import(config.modules.outbox);
  state.waiting = await outbox.list(game.id);
  state.draft = newDraft();
  setOnline(navigator.onLine);
  document.addEventListener("click", onClick);
  document.addEventListener("change", onChange);
  window.addEventListener("online", () => { setOnline(true); refresh().then(flush); });
  window.addEventListener("offline", () => { setOnline(false); render(); });
  render();
  if (navigator.onLine) {
    await refresh();
    state.draft.dealer = storedDealerAfter();
    render();
    await flush();
  }
  // Retry the outbox and follow a tournament table's next game now and then.
  setInterval(async () => {
    if (state.waiting.some((entry) => entry.state === "waiting")) await flush();
    else if (game.status === "finished" && table && table.match && table.current_game === game.id) {
      await refresh();
      render();
    }
  }, 4000);
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
