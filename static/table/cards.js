// Card-by-card entry: the deal, the turn-up and the rob (25, 45) or the auction, the bidder's
// trumps, the kitty and the bidder's discards (55/110/220, Auction 45), and every card of every
// trick, picked from the 52 cards. The auction is the tapped one (views.renderAuction, the
// taps of draft.js). Only the cards the server says are legal for the seat to play are enabled
// (POST …/legal-plays/, the rules engine); the record goes to the same preview and outbox as a
// tapped hand, and an error's JSON pointer ("/tricks/2/1") highlights the card it names.
//
// Its words go through ``t`` and the suits are words.js's, both given to createCardEntry by
// score.js (no imports: the page loads every module by its static URL).
//
// What it does not do: decide which card is legal or who won a trick. The scorekeeper taps
// the seat that took each trick (it leads the next one); the server checks all of it.
//
// Terms: ``api(method, path, body)`` is api.js's request and ``isOffline`` tells its dropped
// connection from a bug; ``draft()`` is the page's draft of the hand (draft.js) as it is now;
// ``update(action)`` applies a tap of the auction or the trumps to it.

const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
// The words are looked up with ``t`` when shown (createCardEntry).
const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack" };
const CARDS_PER_SEAT = 5;
const TRICKS = 5;

export function createCardEntry({
  game, dealer, names, api, isOffline, isBidding, online, rerender, onSummary, draft, update, steps,
  views, t, escapeHtml, SUITS,
}) {
  const cardFace = (card) => `${card.slice(0, -1)}<span aria-hidden="true">${SUITS.find((suit) => suit.code === card.slice(-1)).symbol}</span>`;
  const count = game.seats.length;
  const kittySize = isBidding ? (game.house_rules.kitty ?? 5) : 0;
  const entry = {
    step: isBidding ? "auction" : "deal",
    deal: Array.from({ length: count }, () => []),
    turnUp: null,
    rob: null, // 25, 45: {seat, discard}
    robSeat: null,
    kitty: [],
    discard: [],
    tricks: [],
    leaders: [(dealer + 1) % count],
    current: [],
    legal: null,
    asking: false,
  };

  const bidder = () => steps.bidder(draft());
  const trumpSuit = () => (isBidding ? draft().trump : null);
  const firstLeader = () => (isBidding && game.house_rules.first_lead === "left_of_bidder"
    ? (bidder() + 1) % count : (dealer + 1) % count);
  const dealSeat = () => entry.deal.findIndex((cards) => cards.length < CARDS_PER_SEAT);
  const played = () => new Set([...entry.tricks.flat(), ...entry.current]);
  const leader = () => entry.leaders[entry.tricks.length];
  const turnSeat = () => (leader() + entry.current.length) % count;
  const holding = (seat) => {
    let cards = entry.deal[seat].slice();
    if (isBidding && seat === bidder()) {
      cards = cards.concat(entry.kitty).filter((card) => !entry.discard.includes(card));
    }
    if (entry.rob && seat === entry.rob.seat) {
      cards = cards.filter((card) => card !== entry.rob.discard).concat([entry.turnUp]);
    }
    return cards;
  };
  const remaining = (seat) => holding(seat).filter((card) => !played().has(card));
  const dealtCards = () => new Set([...entry.deal.flat(), ...entry.kitty, ...(entry.turnUp ? [entry.turnUp] : [])]);
  const suitName = (code) => t(SUITS.find((suit) => suit.code === code).word);
  const takeBack = () => `<button type="button" class="secondary" data-action="card-back">${t("Take back the last card")}</button>`;

  function cardName(card) {
    const rank = card.slice(0, -1);
    const suit = suitName(card.slice(-1));
    return t("%(rank)s of %(suit)s", { rank: RANK_NAMES[rank] ? t(RANK_NAMES[rank]) : rank, suit });
  }

  function startPlay() {
    entry.leaders = [firstLeader()];
    entry.step = "play";
    return askLegal();
  }

  async function askLegal() {
    const seat = turnSeat();
    entry.legal = null;
    if (!online()) return;
    entry.asking = true;
    try {
      const position = isBidding ? { trump: trumpSuit() } : { turn_up: entry.turnUp };
      const response = await api("POST", `/games/${game.id}/legal-plays/`, {
        hand: remaining(seat), trick: entry.current, ...position,
      });
      if (response.ok) entry.legal = new Set(response.data.legal);
    } catch (error) {
      // Offline: every card of the seat stays enabled; the server checks later. A bug surfaces.
      if (!isOffline(error)) throw error;
    }
    entry.asking = false;
    rerender();
  }

  function picker(enabled, label) {
    return `<div class="card-picker" role="group" aria-label="${escapeHtml(label)}">${SUITS.map((suit) => `<div class="card-row${suit.red ? " red" : ""}">${RANKS.map((rank) => {
      const card = `${rank}${suit.code}`;
      const on = enabled(card);
      return `<button type="button" class="card-button" data-action="card" data-card="${card}" aria-label="${cardName(card)}" ${on ? "" : "disabled"}>${cardFace(card)}</button>`;
    }).join("")}</div>`).join("")}</div>`;
  }

  function playedList(problemNow) {
    const pointer = views.pointerOf(problemNow);
    return `<ol class="played-tricks">${entry.tricks.map((trick, index) => `<li>${t("Trick %(number)s:", { number: index + 1 })} ${trick.map((card, position) => {
      const here = pointer === `/tricks/${index}/${position}`;
      const seat = (entry.leaders[index] + position) % count;
      return `<span class="card-chip${here ? " has-problem" : ""}" data-pointer="/tricks/${index}/${position}">${escapeHtml(names[seat])}: ${cardFace(card)}</span>`;
    }).join(" ")}</li>`).join("")}</ol>`;
  }

  entry.renderPlayed = playedList;

  entry.record = () => {
    if (isBidding) {
      const record = { dealer, bidding: draft().bidding.map((call) => ({ ...call })) };
      if (steps.everybodyPassed(draft())) return record;
      return {
        ...record,
        trump: draft().trump,
        deal: entry.deal.map((cards) => cards.slice()),
        kitty: entry.kitty.slice(),
        discard: entry.discard.slice(),
        tricks: entry.tricks.map((trick) => trick.slice()),
      };
    }
    const record = {
      dealer,
      turn_up: entry.turnUp,
      deal: entry.deal.map((cards) => cards.slice()),
      tricks: entry.tricks.map((trick) => trick.slice()),
    };
    if (entry.rob) record.rob = { ...entry.rob };
    return record;
  };

  // The auction is over: nobody bid (the hand is redealt: straight to the summary) or the
  // bidder names trumps.
  function afterAuction() {
    if (steps.auctionTurn(draft()) !== null) return;
    if (steps.everybodyPassed(draft())) {
      entry.step = "summary";
      onSummary();
    } else {
      entry.step = "trump";
    }
  }

  entry.render = () => {
    if (entry.step === "auction") return views.renderAuction(draft());
    if (entry.step === "trump") return views.renderTrump(draft());
    if (entry.step === "deal") {
      const seat = dealSeat();
      const taken = dealtCards();
      return `<h2 class="step-title">${t("Deal: %(name)s's cards (%(count)s of %(total)s)", { name: escapeHtml(names[seat]), count: entry.deal[seat].length, total: CARDS_PER_SEAT })}</h2>
        ${picker((card) => !taken.has(card), t("Cards dealt to %(name)s", { name: names[seat] }))}
        ${entry.deal.flat().length ? takeBack() : ""}`;
    }
    if (entry.step === "turn-up") {
      const taken = dealtCards();
      return `<h2 class="step-title">${t("The turn-up card")}</h2>${picker((card) => !taken.has(card), t("The turn-up card"))}`;
    }
    if (entry.step === "rob") {
      return `<h2 class="step-title">${t("Did anyone rob the turn-up %(card)s?", { card: cardFace(entry.turnUp) })}</h2>
        <div class="seat-buttons" role="group" aria-label="${t("Who robbed the turn-up")}">${game.seats.map((seat) => `<button type="button" class="seat-button side-${seat.side}" data-action="card-rob" data-seat="${seat.seat}">${escapeHtml(seat.player.name)}</button>`).join("")}
        <button type="button" class="seat-button none" data-action="card-rob" data-seat="none">${t("Nobody robbed")}</button></div>`;
    }
    if (entry.step === "rob-discard") {
      const mine = new Set(entry.deal[entry.robSeat]);
      return `<h2 class="step-title">${t("%(name)s robs %(card)s: which card did they discard?", { name: escapeHtml(names[entry.robSeat]), card: cardFace(entry.turnUp) })}</h2>
        ${picker((card) => mine.has(card), t("The card %(name)s discarded", { name: names[entry.robSeat] }))}
        <button type="button" class="secondary" data-action="card-rob-cancel">${t("Nobody robbed")}</button>`;
    }
    if (entry.step === "kitty") {
      const taken = dealtCards();
      return `<h2 class="step-title">${t("The kitty (%(count)s of %(total)s)", { count: entry.kitty.length, total: kittySize })}</h2>
        ${picker((card) => !taken.has(card), t("The cards of the kitty"))}
        ${entry.kitty.length ? takeBack() : ""}`;
    }
    if (entry.step === "discard") {
      const seat = bidder();
      const mine = new Set(entry.deal[seat].concat(entry.kitty));
      const gone = new Set(entry.discard);
      return `<h2 class="step-title">${t("%(name)s's discards (%(count)s of %(total)s)", { name: escapeHtml(names[seat]), count: entry.discard.length, total: kittySize })}</h2>
        ${picker((card) => mine.has(card) && !gone.has(card), t("The cards %(name)s discarded", { name: names[seat] }))}
        ${entry.discard.length ? takeBack() : ""}`;
    }
    if (entry.step === "winner") {
      return `<h2 class="step-title">${t("Who took trick %(number)s?", { number: entry.tricks.length })}</h2>${playedList(null)}
        <div class="seat-buttons" role="group" aria-label="${t("Who took trick %(number)s", { number: entry.tricks.length })}">${game.seats.map((seat) => `<button type="button" class="seat-button side-${seat.side}" data-action="card-winner" data-seat="${seat.seat}">${escapeHtml(seat.player.name)}</button>`).join("")}</div>`;
    }
    const seat = turnSeat();
    const mine = new Set(remaining(seat));
    const enabled = (card) => mine.has(card) && !entry.asking && (entry.legal === null || entry.legal.has(card));
    const current = entry.current.map((card, position) => `${escapeHtml(names[(leader() + position) % count])}: ${cardFace(card)}`).join(", ");
    const trumps = isBidding
      ? t("Trumps %(suit)s", { suit: `<span aria-hidden="true">${SUITS.find((suit) => suit.code === draft().trump).symbol}</span> ${suitName(draft().trump)}` })
      : t("Turn-up %(card)s", { card: cardFace(entry.turnUp) });
    const robbed = entry.rob ? ` · ${t("robbed by %(name)s", { name: escapeHtml(names[entry.rob.seat]) })}` : "";
    const soFar = current ? ` · ${t("so far %(cards)s", { cards: current })}` : "";
    return `<h2 class="step-title">${t("Trick %(number)s: %(name)s plays", { number: entry.tricks.length + 1, name: escapeHtml(names[seat]) })}</h2>
      <p>${trumps}${robbed}${soFar}</p>
      ${picker(enabled, t("Cards %(name)s may play", { name: names[seat] }))}${playedList(null)}`;
  };

  entry.onAction = async (action, button) => {
    if (entry.step === "auction" && (action === "call" || action === "undo-call")) {
      update(action === "call" ? { type: "call", call: button.dataset.call } : { type: "undo-call" });
      afterAuction();
      return true;
    }
    if (entry.step === "trump" && action === "trump") {
      update({ type: "trump", suit: button.dataset.suit });
      entry.step = "deal";
      return true;
    }
    if (action === "card-rob") {
      if (button.dataset.seat === "none") return startPlay().then(() => true);
      entry.robSeat = Number(button.dataset.seat);
      entry.step = "rob-discard";
      return true;
    }
    if (action === "card-rob-cancel") {
      entry.robSeat = null;
      entry.step = "rob";
      return true;
    }
    if (action === "card-back") {
      if (entry.step === "kitty" && entry.kitty.length) entry.kitty.pop();
      else if (entry.step === "discard" && entry.discard.length) entry.discard.pop();
      else {
        const seat = [...entry.deal.keys()].reverse().find((index) => entry.deal[index].length);
        if (seat !== undefined) entry.deal[seat].pop();
        entry.step = "deal";
      }
      return true;
    }
    if (action === "card-winner") {
      entry.leaders.push(Number(button.dataset.seat));
      entry.step = "play";
      await askLegal();
      return true;
    }
    if (action !== "card") return false;
    const card = button.dataset.card;
    if (entry.step === "deal") {
      entry.deal[dealSeat()].push(card);
      if (dealSeat() === -1) entry.step = isBidding ? (kittySize ? "kitty" : "play") : "turn-up";
      if (entry.step === "play") await startPlay();
    } else if (entry.step === "turn-up") {
      entry.turnUp = card;
      entry.step = "rob";
    } else if (entry.step === "rob-discard") {
      entry.rob = { seat: entry.robSeat, discard: card };
      await startPlay();
    } else if (entry.step === "kitty") {
      entry.kitty.push(card);
      if (entry.kitty.length === kittySize) entry.step = "discard";
    } else if (entry.step === "discard") {
      entry.discard.push(card);
      if (entry.discard.length === kittySize) await startPlay();
    } else if (entry.step === "play") {
      entry.current.push(card);
      if (entry.current.length === count) {
        entry.tricks.push(entry.current);
        entry.current = [];
        entry.step = entry.tricks.length === TRICKS ? "summary" : "winner";
        if (entry.step === "summary") onSummary();
      } else {
        await askLegal();
      }
    }
    return true;
  };

  return entry;
}
