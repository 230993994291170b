// Card-by-card entry: the deal, the turn-up and every card of every trick, picked from the
// 52 cards. Only the cards the server says are legal for the seat to play are enabled (POST
// …/legal-plays/, the rules engine); the record goes to the same preview and outbox as a
// tapped hand, and an error's JSON pointer ("/tricks/2/1") highlights the card it names.
//
// What it does not do: decide which card is legal or who won a trick. The scorekeeper taps
// the seat that took each trick (it leads the next one); the server checks all of it.

const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
const SUITS = [
  { code: "S", symbol: "♠", name: "spades", red: false },
  { code: "H", symbol: "♥", name: "hearts", red: true },
  { code: "D", symbol: "♦", name: "diamonds", red: true },
  { code: "C", symbol: "♣", name: "clubs", red: false },
];
const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack" };
const CARDS_PER_SEAT = 5;
const TRICKS = 5;

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (character) => (
  { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[character]));

export function cardName(card) {
  const rank = card.slice(0, -1);
  const suit = SUITS.find((entry) => entry.code === card.slice(-1));
  return `${RANK_NAMES[rank] || rank} of ${suit.name}`;
}

function cardFace(card) {
  const suit = SUITS.find((entry) => entry.code === card.slice(-1));
  return `${card.slice(0, -1)}<span aria-hidden="true">${suit.symbol}</span>`;
}

export function createCardEntry({ game, dealer, names, api, isBidding, online, rerender, onSummary, problem }) {
  const count = game.seats.length;
  const entry = {
    step: isBidding ? "unsupported" : "deal",
    deal: Array.from({ length: count }, () => []),
    turnUp: null,
    tricks: [],
    leaders: [(dealer + 1) % count],
    current: [],
    legal: null,
    asking: false,
  };

  const dealSeat = () => entry.deal.findIndex((cards) => cards.length < CARDS_PER_SEAT);
  const played = () => new Set([...entry.tricks.flat(), ...entry.current]);
  const leader = () => entry.leaders[entry.tricks.length];
  const turnSeat = () => (leader() + entry.current.length) % count;
  const remaining = (seat) => entry.deal[seat].filter((card) => !played().has(card));

  async function askLegal() {
    const seat = turnSeat();
    entry.legal = null;
    if (!online()) return;
    entry.asking = true;
    try {
      const response = await api("POST", `/games/${game.id}/legal-plays/`, {
        hand: remaining(seat), trick: entry.current, turn_up: entry.turnUp,
      });
      if (response.ok) entry.legal = new Set(response.data.legal);
    } catch { /* offline: every card of the seat stays enabled; the server checks later */ }
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
    const pointer = ((problemNow && problemNow.errors && problemNow.errors[0]) || {}).pointer || "";
    return `<ol class="played-tricks">${entry.tricks.map((trick, index) => `<li>Trick ${index + 1}: ${trick.map((card, position) => {
      const here = pointer === `/tricks/${index}/${position}`;
      const seat = (entry.leaders[index] + position) % count;
      return `<span class="card-chip${here ? " has-problem" : ""}" data-pointer="/tricks/${index}/${position}">${escapeHtml(names[seat])}: ${cardFace(card)}</span>`;
    }).join(" ")}</li>`).join("")}</ol>`;
  }

  entry.renderPlayed = playedList;

  entry.record = () => ({
    dealer,
    turn_up: entry.turnUp,
    deal: entry.deal.map((cards) => cards.slice()),
    tricks: entry.tricks.map((trick) => trick.slice()),
  });

  entry.render = () => {
    if (entry.step === "unsupported") {
      return '<h2 class="step-title">Card by card</h2><p>On this tablet, card-by-card entry is for 25 and 45. Enter this hand by taps.</p>';
    }
    if (entry.step === "deal") {
      const seat = dealSeat();
      const taken = new Set(entry.deal.flat());
      return `<h2 class="step-title">Deal: ${escapeHtml(names[seat])}'s cards (${entry.deal[seat].length} of ${CARDS_PER_SEAT})</h2>
        ${picker((card) => !taken.has(card), `Cards dealt to ${names[seat]}`)}
        ${entry.deal.flat().length ? '<button type="button" class="secondary" data-action="card-back">Take back the last card</button>' : ""}`;
    }
    if (entry.step === "turn-up") {
      const taken = new Set(entry.deal.flat());
      return `<h2 class="step-title">The turn-up card</h2>${picker((card) => !taken.has(card), "The turn-up card")}`;
    }
    if (entry.step === "winner") {
      return `<h2 class="step-title">Who took trick ${entry.tricks.length}?</h2>${playedList(null)}
        <div class="seat-buttons" role="group" aria-label="Who took trick ${entry.tricks.length}">${game.seats.map((seat) => `<button type="button" class="seat-button side-${seat.side}" data-action="card-winner" data-seat="${seat.seat}">${escapeHtml(seat.player.name)}</button>`).join("")}</div>`;
    }
    const seat = turnSeat();
    const mine = new Set(remaining(seat));
    const enabled = (card) => mine.has(card) && !entry.asking && (entry.legal === null || entry.legal.has(card));
    const current = entry.current.map((card, position) => `${escapeHtml(names[(leader() + position) % count])}: ${cardFace(card)}`).join(", ");
    return `<h2 class="step-title">Trick ${entry.tricks.length + 1}: ${escapeHtml(names[seat])} plays</h2>
      <p>Turn-up ${cardFace(entry.turnUp)}${current ? ` · so far ${current}` : ""}</p>
      ${picker(enabled, `Cards ${names[seat]} may play`)}${playedList(null)}`;
  };

  entry.onAction = async (action, button) => {
    if (action === "card-back") {
      const seat = [...entry.deal.keys()].reverse().find((index) => entry.deal[index].length);
      if (seat !== undefined) entry.deal[seat].pop();
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
      if (dealSeat() === -1) entry.step = "turn-up";
    } else if (entry.step === "turn-up") {
      entry.turnUp = card;
      entry.step = "play";
      await askLegal();
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
