// The draft of a hand entered by taps, and what a tap does to it.
//
// What it does: ``newDraft`` starts a hand; ``tap(draft, action, rules)`` gives the draft after
// one tap (a call, the trumps, a trick's taker, the best trump, a misdeal, a renege, changing a
// step, …) as a new object, never changing the one it was given; ``stepOf`` says which step the
// page shows next (auction, trumps, tricks, best trump, summary) and ``recordOf`` the hand
// record the taps make, as the API takes it. It also follows whose turn it is in the auction
// (clockwise, passed seats out, the dealer's hold) and numbers the next hand and guesses its
// dealer from the hands that wait in the outbox.
//
// What it does not do: check the record, know the points or touch the page, the network or the
// storage. Every call, trick and total is checked by the server; the one guess is the next
// dealer while hands wait offline (the deal passes left, a misdeal is dealt again), which the
// server checks when the hand is sent. Card-by-card entry keeps its own state (cards.js).
//
// Terms: ``rules`` is ``rulesOf(game)``: the seat count, whether the game has an auction
// (``bidding``) and whether it asks for the best trump (every game but 25). An ``action`` is
// ``{type, seat, call, suit, trick, step}`` (the fields its type needs): the tapped button's
// ``data-action`` and its data. A seat or a trick is a 0-based number.
//
// No imports and nothing runs at import: tests/tables/test_modules_browser.py loads it alone.

export const TRICKS_PER_HAND = 5;

// The taps ``tap`` knows; the page handles every other action itself.
export const TAPS = new Set([
  "call", "undo-call", "trump", "rob", "trick", "undo-trick", "game-ended", "best-seat",
  "best-trick", "misdeal", "renege", "renege-cancel", "renege-seat", "renege-trick", "change",
]);

// The action a tapped button asks for, from its data attributes (``button.dataset``): a seat
// "none" is no seat (null), numbers are numbers.
export function actionOf(data) {
  const number = (value) => (value === undefined || value === "" ? null : Number(value));
  return {
    type: data.action,
    seat: data.seat === "none" ? null : number(data.seat),
    call: data.call,
    suit: data.suit,
    trick: number(data.trick),
    step: data.step,
    number: number(data.number),
    player: number(data.player),
  };
}

export function rulesOf(game) {
  return {
    seats: game.seats.length,
    bidding: Array.isArray(game.house_rules.bids),
    bestTrump: game.game !== "25",
  };
}

export function newDraft({ dealer, correcting = null }) {
  return {
    dealer,
    trump: null,
    tricks: [],
    bestSeat: undefined,
    bestTrick: undefined,
    prefill: true,
    rob: null,
    bidding: [],
    misdeal: false,
    renege: null,
    renegeSeat: undefined,
    ended: false,
    step: null,
    correcting,
    cards: null,
  };
}

// The dealer of the next hand: the server's, then one guess per waiting hand (``waiting``:
// the outbox's entries of this game, each with its ``number`` and ``body``).
export function storedDealerAfter(game, waiting) {
  let dealer = game.next_dealer;
  for (const entry of waiting) {
    if (entry.number <= game.hands_played) continue;
    if (!entry.body.misdeal) dealer = (dealer + 1) % game.seats.length;
  }
  return dealer;
}

export function nextNumber(game, waiting) {
  return Math.max(game.hands_played, ...waiting.map((entry) => entry.number)) + 1;
}

export function passedSeats(draft) {
  return new Set(draft.bidding.filter((call) => call.call === "pass").map((call) => call.seat));
}

// The seat to call next, or null when the auction is over.
export function auctionTurn(draft, rules) {
  const count = rules.seats;
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

export function highestBid(draft) {
  const amounts = draft.bidding.filter((call) => /^\d+$/.test(call.call)).map((call) => Number(call.call));
  return amounts.length ? Math.max(...amounts) : null;
}

export function bidder(draft) {
  const calls = draft.bidding.filter((call) => call.call !== "pass");
  return calls.length ? calls[calls.length - 1].seat : null;
}

export function everybodyPassed(draft, rules) {
  return auctionTurn(draft, rules) === null && bidder(draft) === null;
}

// The step before the best trump's, or null once the tricks are all in.
function stepBeforeBestTrump(draft, rules) {
  if (draft.step) return draft.step;
  if (draft.misdeal) return "summary";
  if (rules.bidding && auctionTurn(draft, rules) !== null) return "auction";
  if (rules.bidding && everybodyPassed(draft, rules)) return "summary";
  if (!draft.trump) return "trump";
  if (!draft.ended && draft.tricks.length < TRICKS_PER_HAND) return "tricks";
  return null;
}

// Once the tricks are in, the answers the tricks give: the best trump's seat when one seat took
// every trick, its trick when that seat took one (unless the scorekeeper changed them).
function withPrefill(draft, rules) {
  if (stepBeforeBestTrump(draft, rules) !== null) return draft;
  if (!draft.prefill || !rules.bestTrump || draft.tricks.length === 0) return draft;
  const filled = { ...draft };
  const takers = [...new Set(draft.tricks)];
  if (filled.bestSeat === undefined && takers.length === 1) filled.bestSeat = takers[0];
  if (filled.bestSeat !== undefined && filled.bestSeat !== null && filled.bestTrick === undefined) {
    const taken = draft.tricks.map((seat, trick) => (seat === filled.bestSeat ? trick : null)).filter((trick) => trick !== null);
    if (taken.length === 1) filled.bestTrick = taken[0];
  }
  return filled;
}

export function stepOf(draft, rules) {
  const early = stepBeforeBestTrump(draft, rules);
  if (early !== null) return early;
  const filled = withPrefill(draft, rules);
  if (rules.bestTrump && filled.bestSeat === undefined) return "best-seat";
  if (rules.bestTrump && filled.bestSeat !== null && filled.bestTrick === undefined) return "best-trick";
  return "summary";
}

// The hand record of a tapped draft (a card-by-card draft's record is its card entry's).
export function recordOf(draft, rules) {
  const filled = withPrefill(draft, rules);
  if (filled.misdeal) return { dealer: filled.dealer, misdeal: true };
  const record = { dealer: filled.dealer };
  if (rules.bidding) {
    record.bidding = filled.bidding.map((call) => ({ ...call }));
    if (everybodyPassed(filled, rules)) return record;
  }
  record.trump = filled.trump;
  record.trick_winners = filled.tricks.slice();
  if (rules.bestTrump) {
    record.best_trump = filled.bestSeat === null || filled.bestSeat === undefined
      ? null : { seat: filled.bestSeat, trick: filled.bestTrick };
  }
  if (filled.rob !== null && !rules.bidding) record.rob = { seat: filled.rob };
  if (filled.renege) record.renege = { ...filled.renege };
  return record;
}

const BEFORE_THE_BEST_TRUMP = { bestSeat: undefined, bestTrick: undefined };

// Going back to a step forgets what it and the steps after it said.
function changeTo(draft, step) {
  const changed = { ...draft, prefill: false };
  if (step === "auction") Object.assign(changed, { bidding: [], trump: null, tricks: [] });
  if (step === "trump") changed.trump = null;
  if (step === "tricks") Object.assign(changed, { tricks: [], ended: false }, BEFORE_THE_BEST_TRUMP);
  if (step === "best-seat") Object.assign(changed, BEFORE_THE_BEST_TRUMP);
  if (step === "renege-seat") Object.assign(changed, { renege: null, step: "renege-seat" });
  return changed;
}

function applied(draft, action, rules) {
  switch (action.type) {
    case "call": return { ...draft, bidding: [...draft.bidding, { seat: auctionTurn(draft, rules), call: action.call }] };
    case "undo-call": return { ...draft, bidding: draft.bidding.slice(0, -1) };
    case "trump": return { ...draft, trump: action.suit, step: null };
    case "rob": return { ...draft, rob: action.seat };
    case "trick": return { ...draft, tricks: [...draft.tricks, action.seat] };
    case "undo-trick": return { ...draft, tricks: draft.tricks.slice(0, -1), ended: false, ...BEFORE_THE_BEST_TRUMP };
    // The server said the tricks so far end the game (a 25 that reached 25).
    case "game-ended": return { ...draft, ended: true };
    case "best-seat": return { ...draft, bestSeat: action.seat, bestTrick: undefined, step: null };
    case "best-trick": return { ...draft, bestTrick: action.trick, step: null };
    case "misdeal": return { ...draft, misdeal: true, step: null };
    case "renege": return { ...draft, step: "renege-seat" };
    case "renege-cancel": return { ...draft, renege: null, step: null };
    case "renege-seat": return { ...draft, renegeSeat: action.seat, step: "renege-trick" };
    case "renege-trick": return { ...draft, renege: { seat: draft.renegeSeat, trick: action.trick }, step: null };
    case "change": return changeTo(draft, action.step);
    default: throw new Error(`Not a tap of the draft: ${action.type}`);
  }
}

// The draft after one tap, with the answers the tricks give filled in.
export function tap(draft, action, rules) {
  return withPrefill(applied(draft, action, rules), rules);
}
