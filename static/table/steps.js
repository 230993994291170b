// The hand being entered: which step comes next (auction, trumps, tricks, best trump,
// summary), the turn in the auction, pre-filled answers, and the hand record the taps make.
//
// What it does not do: check the record. The auction only follows whose turn it is (clockwise,
// passed seats out, the dealer's hold); every call, trick and total is checked by the server.
// The one guess is the next dealer while hands wait offline (the deal passes left, a misdeal
// is dealt again), which the server checks when the hand is sent.

export function createSteps(ctx) {
  const { state, seatCount, isBidding, hasBestTrump, TRICKS_PER_HAND } = ctx;


  function storedDealerAfter() {
    // The dealer of the next hand: the server's, then one guess per waiting hand.
    let dealer = ctx.game.next_dealer;
    for (const entry of state.waiting) {
      if (entry.number <= ctx.game.hands_played) continue;
      if (!entry.body.misdeal) dealer = (dealer + 1) % seatCount();
    }
    return dealer;
  }

  function newDraft(correcting = null) {
    const base = correcting ? ctx.hands.find((hand) => hand.number === correcting) : null;
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
    return Math.max(ctx.game.hands_played, ...waiting) + 1;
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

  return { storedDealerAfter, newDraft, nextNumber, passedSeats, auctionTurn, highestBid, bidder, everybodyPassed, applyPrefill, stepOf, recordOf };
}
