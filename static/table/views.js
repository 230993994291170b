// The score pad's words and views: the scoreboard, the end-of-game banner, a refused hand's two
// versions, the hand list, and each step of entering a hand, rendered as HTML from what was
// tapped and what the server said.
//
// Every word goes through ``t`` (words.js): the page's translated strings, rendered by the server
// into the page (web/scorepad/strings.py), with "%(name)s" placeholders filled in.
//
// What it does not do: decide anything about the rules, send anything or change the state:
// score.js owns the state and the actions and hands this module its context (createViews): the
// live game, the state, the draft's steps (draft.js, bound to the game), words.js's helpers and
// api.js's ``problemOf``. No imports and nothing runs at import.

export function createViews(ctx) {
  const {
    config, state, escapeHtml, names, sideOf, sideLabel, suit, SUITS, isBidding,
    hasBestTrump, auctionTurn, highestBid, bidder, recordOf, nextNumber, problemOf, $, t,
  } = ctx;
  const nameOf = (seat) => escapeHtml(names()[seat]);
  const suitWords = (code) => `${suit(code).symbol} ${suit(code).name}`;

  // ---------------------------------------------------------------------------------------------
  // Words

  // A refusal's words by its code (api.md's catalogue of problem codes).
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

  function seatButton(seat, action, extra = "", label = null) {
    return `<button type="button" class="seat-button side-${sideOf(seat)}" data-action="${action}" data-seat="${seat}" ${extra}>${escapeHtml(label ?? names()[seat])}</button>`;
  }

  function describeTricks(winners) {
    return winners.map((seat, trick) => `<span class="trick-chip side-${sideOf(seat)}" data-trick="${trick}">${trick + 1}: ${escapeHtml(names()[seat])}</span>`).join(" ");
  }

  function describeRecord(record) {
    if (record.misdeal) return t("Misdeal: no score, the same dealer deals again.");
    const parts = [t("%(name)s dealt.", { name: nameOf(record.dealer) })];
    if (record.bidding) {
      parts.push(t("Auction: %(calls)s.", { calls: callsInWords(record.bidding) }));
    }
    if (record.trump) parts.push(t("Trumps %(suit)s.", { suit: suitWords(record.trump) }));
    if (record.trick_winners) parts.push(t("Tricks: %(tricks)s", { tricks: describeTricks(record.trick_winners) }));
    if (record.best_trump) parts.push(t("Best trump: %(name)s in trick %(trick)s.", { name: nameOf(record.best_trump.seat), trick: record.best_trump.trick + 1 }));
    if (record.renege) parts.push(t("Renege by %(name)s in trick %(trick)s.", { name: nameOf(record.renege.seat), trick: record.renege.trick + 1 }));
    if (record.tricks) parts.push(t("%(count)s tricks played card by card.", { count: record.tricks.length }));
    return parts.join(" ");
  }

  function callWords(call) {
    if (call === "pass") return t("pass");
    if (call === "hold") return t("hold");
    return call;
  }

  function callsInWords(bidding) {
    return bidding.map((call) => `${nameOf(call.seat)} ${escapeHtml(callWords(call.call))}`).join(", ");
  }

  function pointsInWords(points) {
    return Object.entries(points || {}).map(([side, value]) => (
      value < 0 ? t("%(side)s lose %(points)s", { side: sideLabel(Number(side)), points: -value })
        : t("%(side)s take %(points)s", { side: sideLabel(Number(side)), points: value }))).join(", ");
  }

  function totalsInWords(totals) {
    return Object.keys(totals).sort((a, b) => a - b).map((side) => totals[side]).join("–");
  }

  const PLAIN_CODES = new Set([
    "hand_conflict", "hand_out_of_sequence", "game_over", "precondition_failed",
    "confirmation_required", "invalid_confirmation", "match_locked", "tournament_closed",
  ]);

  // ``problem``: a refusal's body as the server sent it (a refused hand keeps it in the outbox).
  function problemWords(problem) {
    if (!problem) return t("The server did not answer.");
    const { code, detail } = problemOf(problem);
    // Refusals about the table's own situation are said in the page's words alone: their
    // details are written for API clients ("the stored hand is in this response's 'hand'").
    if (PLAIN_CODES.has(code) && WORDS[code]) return `${WORDS[code]}.`;
    return `${WORDS[code] || problem.title || t("The server refused this hand")}. ${detail}`;
  }

  function pointerOf(problem) {
    return problem ? problemOf(problem).pointer : "";
  }

  // ---------------------------------------------------------------------------------------------
  // Rendering

  function renderScoreboard() {
    $("#seats").innerHTML = ctx.game.seats.map((seat) => {
      const dealer = seat.seat === (state.draft ? state.draft.dealer : ctx.game.next_dealer);
      return `<li class="seat side-${seat.side}${dealer ? " is-dealer" : ""}">${escapeHtml(seat.player.name)}${dealer ? ` <span class="dealer-mark">${t("deals")}</span>` : ""}</li>`;
    }).join("");
    const totals = Object.keys(ctx.game.totals).sort((a, b) => a - b);
    $("#totals").innerHTML = totals.map((side) => `<li class="total side-${side}"><span class="side-name">${escapeHtml(sideLabel(Number(side)))}</span> <strong>${ctx.game.totals[side]}</strong></li>`).join("");
    const dealer = state.draft ? state.draft.dealer : ctx.game.next_dealer;
    const number = state.draft && state.draft.correcting ? state.draft.correcting : nextNumber();
    $("#dealer").textContent = ctx.game.status === "finished" && !state.draft?.correcting
      ? t("Game over after %(count)s hands", { count: ctx.game.hands_played })
      : t("Hand %(number)s: %(name)s deals", { number, name: names()[dealer] });
    const badge = $("#waiting-badge");
    const count = state.waiting.length;
    badge.hidden = count === 0;
    badge.textContent = count === 1 ? t("1 hand waiting") : t("%(count)s hands waiting", { count });
  }

  // What the table says about itself (an event's table): empty this round, the event over.
  function tableNotice() {
    const table = ctx.table;
    if (!table) return "";
    if (table.status === "event_over") {
      return `<p class="notice">${t("The event is over: this table takes no more hands. Only an organiser can still correct a hand, from the console.")}</p>`;
    }
    if (table.status === "empty") {
      return `<p class="notice">${t("Nobody plays at table %(table)s in round %(round)s. This page opens the table's next game by itself.", { table: table.table, round: table.round })}</p>`;
    }
    return "";
  }

  function renderBanner() {
    const banner = $("#banner");
    const notice = tableNotice();
    if (ctx.game.status !== "finished") {
      banner.hidden = !notice;
      banner.innerHTML = notice;
      return;
    }
    const winner = sideLabel(ctx.game.winner);
    const score = totalsInWords(ctx.game.totals);
    const wins = winner.includes("&") ? "%(winner)s win, %(score)s" : "%(winner)s wins, %(score)s";
    const parts = [`<h2>${t(wins, { winner: escapeHtml(winner), score })}</h2>`];
    if (ctx.game.double_stake) parts.push(`<p class="double">${t("Double stake: won from zero with every trick.")}</p>`);
    if (ctx.table && ctx.table.match) {
      const match = ctx.table.match;
      parts.push(`<p>${t("Match score: %(score)s", { score: match.score.map((entry) => `${escapeHtml(entry.name)} ${entry.games_won}`).join(" · ") })}</p>`);
      if (ctx.table.current_game && ctx.table.current_game !== ctx.game.id) {
        parts.push(`<p><a class="button big" href="${config.tableUrl}?game=${ctx.table.current_game}">${t("Start the next game")}</a></p>`);
      } else if (match.status !== "decided") {
        parts.push(`<p>${t("The next game of the match opens here as soon as it starts.")}</p>`);
      } else if (ctx.table.status === "playing" && ctx.table.follows && ctx.table.table) {
        parts.push(`<p>${t("The match is decided. The next round's game at this table opens here by itself when the organiser releases it.")}</p>`);
      } else {
        parts.push(`<p>${t("The match is decided.")}</p>`);
      }
    }
    if (notice) parts.push(notice);
    const standings = config.standingsUrl
      ? `<a href="${config.standingsUrl}">${t("Standings")}</a>` : `<a href="${config.gamePageUrl}">${t("The game's page")}</a>`;
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
    const mine = `<div class="version"><h3>${t("Yours, entered on this tablet")}</h3><p>${describeRecord(refused.body)}</p></div>`;
    const theirs = conflict
      ? `<div class="version"><h3>${t("Stored by %(name)s", { name: escapeHtml(server.entered_by ? server.entered_by.username : t("another tablet")) })}</h3><p>${describeRecord(server.record)}</p><p>${t("%(points)s; totals %(totals)s.", { points: escapeHtml(pointsInWords(server.points)), totals: totalsInWords(server.totals) })}</p></div>`
      : "";
    const later = state.waiting.filter((entry) => entry.number > refused.number).length;
    let held = t("Nothing more is sent until you choose.");
    if (later === 1) held = t("1 later hand waits behind it: nothing more is sent until you choose.");
    if (later > 1) held = t("%(count)s later hands wait behind it: nothing more is sent until you choose.", { count: later });
    const number = refused.number;
    panel.innerHTML = `<h2>${t("Hand %(number)s was not stored", { number })}</h2>
      <p class="problem">${escapeHtml(problemWords(refused.problem))}</p>
      <div class="versions">${mine}${theirs}</div>
      <p>${held}</p>
      <div class="actions">${conflict
      ? `<button type="button" data-action="keep-server" class="big">${t("Keep the stored hand %(number)s", { number })}</button>
         <button type="button" data-action="keep-mine" class="big secondary">${t("Keep mine as hand %(number)s", { number })}</button>`
      : `<button type="button" data-action="drop-refused" class="big">${t("Drop my hand %(number)s", { number })}</button>
         <button type="button" data-action="retry-refused" class="big secondary">${t("Send it again")}</button>`}</div>`;
    panel.hidden = false;
  }

  function renderHands() {
    // Corrections and undo act on stored hands only: not while hands wait to be numbered after them.
    const canFix = state.online && state.waiting.length === 0 && !isClosed();
    const rows = ctx.hands.map((hand) => {
      const last = hand.number === ctx.game.hands_played;
      const trump = hand.trump ? suitWords(hand.trump) : "—";
      const kind = hand.kind === "misdeal" ? t("Misdeal") : hand.kind === "redeal" ? t("All passed") : describeTricks(hand.trick_winners || []);
      const cells = Object.keys(ctx.game.totals).sort((a, b) => a - b).map((side) => `<td>${hand.totals[side] ?? ""}${hand.points && hand.points[side] !== undefined ? ` <small>(${hand.points[side] >= 0 ? "+" : ""}${hand.points[side]})</small>` : ""}</td>`).join("");
      const actions = isClosed() ? [] : [
        `<button type="button" class="small secondary" data-action="correct" data-number="${hand.number}" ${canFix ? "" : "disabled"}>${t("Correct hand %(number)s", { number: hand.number })}</button>`,
        last ? `<button type="button" class="small secondary" data-action="undo" data-number="${hand.number}" ${canFix ? "" : "disabled"}>${t("Undo hand %(number)s", { number: hand.number })}</button>` : "",
      ].join(" ");
      return `<tr data-number="${hand.number}"><th scope="row">${hand.number}</th><td>${escapeHtml(names()[hand.dealer])}</td><td>${trump}</td><td>${kind}</td>${cells}<td class="row-actions">${actions}</td></tr>`;
    });
    const waiting = state.waiting.map((entry) => {
      const record = entry.body;
      const trump = record.trump ? suitWords(record.trump) : "—";
      const tricks = record.misdeal ? t("Misdeal") : describeTricks(record.trick_winners || []);
      const status = entry.state === "refused" ? t("Refused: see above") : t("Waiting: points will follow");
      return `<tr class="waiting" data-number="${entry.number}"><th scope="row">${entry.number}</th><td>${escapeHtml(names()[record.dealer])}</td><td>${trump}</td><td>${tricks}</td><td colspan="${Object.keys(ctx.game.totals).length + 1}">${status}</td></tr>`;
    });
    $("#hands-body").innerHTML = rows.concat(waiting).reverse().join("") || `<tr><td colspan="${5 + Object.keys(ctx.game.totals).length}">${t("No hands yet.")}</td></tr>`;
  }

  // The hand list's side columns and the page's heading, for a game the table moved on to.
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
    const title = $("h1.visually-hidden");
    if (title) title.textContent = `${title.textContent.split(" · ")[0]} · ${config.sideLabels.join(` ${config.versus} `)}`;
  }

  // A closed event's game: the server refuses corrections and undos from the table.
  function isClosed() {
    return Boolean(config.closedReason) || Boolean(ctx.table && ctx.table.status === "event_over");
  }

  // ``html`` is put in as it is: words from ``t`` with any name in them already escaped.
  function heading(html) { return `<h2 class="step-title">${html}</h2>`; }

  function toolbar(draft) {
    const buttons = [];
    if (draft.tricks.length || draft.trump || draft.bidding.length || draft.misdeal || draft.cards) {
      buttons.push(`<button type="button" class="secondary" data-action="start-over">${t("Start this hand again")}</button>`);
    }
    if (!draft.misdeal) {
      buttons.push(`<button type="button" class="secondary" data-action="misdeal">${t("Misdeal")}</button>`);
      if (draft.trump || (draft.cards && draft.cards.turnUp)) buttons.push(`<button type="button" class="secondary" data-action="renege">${t("Renege…")}</button>`);
    }
    if (!draft.correcting) {
      buttons.push(`<button type="button" class="secondary" data-action="card-mode" aria-pressed="${draft.cards ? "true" : "false"}">${draft.cards ? t("Enter by taps") : t("Card by card")}</button>`);
    } else if (draft.correcting) {
      buttons.push(`<button type="button" class="secondary" data-action="cancel-correction">${t("Cancel the correction")}</button>`);
    }
    return `<div class="toolbar">${buttons.join(" ")}</div>`;
  }

  function renderAuction(draft) {
    const seat = auctionTurn(draft);
    const high = highestBid(draft);
    const bids = ctx.game.house_rules.bids.map((amount) => `<button type="button" class="bid-button" data-action="call" data-call="${amount}" ${high !== null && amount <= high ? "disabled" : ""}>${amount}</button>`).join("");
    const hold = seat === draft.dealer && high !== null
      ? `<button type="button" class="bid-button hold" data-action="call" data-call="hold">${t("Hold %(bid)s", { bid: high })}</button>` : "";
    const calls = draft.bidding.map((call) => `<li>${nameOf(call.seat)}: ${escapeHtml(call.call === "hold" ? t("holds") : callWords(call.call))}</li>`).join("");
    return `${heading(t("Auction: %(name)s to call", { name: nameOf(seat) }))}
      <ol class="calls" aria-label="${t("Calls so far")}">${calls}</ol>
      <div class="bids" role="group" aria-label="${t("Calls for %(name)s", { name: nameOf(seat) })}">${bids}${hold}<button type="button" class="bid-button pass" data-action="call" data-call="pass">${t("Pass")}</button></div>
      ${draft.bidding.length ? `<button type="button" class="secondary" data-action="undo-call">${t("Take back the last call")}</button>` : ""}`;
  }

  function renderTrump(draft) {
    const who = isBidding() ? t("%(name)s names trumps", { name: nameOf(bidder(draft)) }) : t("Trumps");
    const rob = isBidding() ? "" : `<label class="rob" for="rob">${t("Who robbed the turn-up? (optional)")}
        <select id="rob" data-action="rob"><option value="">${t("Nobody")}</option>${ctx.game.seats.map((seat) => `<option value="${seat.seat}" ${draft.rob === seat.seat ? "selected" : ""}>${escapeHtml(seat.player.name)}</option>`).join("")}</select></label>`;
    return `${heading(who)}<div class="suits" role="group" aria-label="${t("Trumps")}">${SUITS.map((entry) => `<button type="button" class="suit-button${entry.red ? " red" : ""}" data-action="trump" data-suit="${entry.code}"><span aria-hidden="true">${entry.symbol}</span> ${entry.name}</button>`).join("")}</div>${rob}`;
  }

  function renderTricks(draft) {
    const number = draft.tricks.length + 1;
    const renege = draft.renege
      ? ` · ${t("renege by %(name)s in trick %(trick)s", { name: nameOf(draft.renege.seat), trick: draft.renege.trick + 1 })}` : "";
    return `${heading(t("Trick %(number)s: who took it?", { number }))}
      <p class="trump-line">${t("Trumps %(suit)s", { suit: suitWords(draft.trump) })}${renege}</p>
      <div class="seat-buttons" role="group" aria-label="${t("Who took trick %(number)s", { number })}">${ctx.game.seats.map((seat) => seatButton(seat.seat, "trick", state.busy ? "disabled" : "")).join("")}</div>
      <p class="tricks-so-far">${describeTricks(draft.tricks)}</p>
      ${draft.tricks.length ? `<button type="button" class="secondary" data-action="undo-trick">${t("Take back the last trick")}</button>` : ""}`;
  }

  function renderBestSeat(draft) {
    const takers = [...new Set(draft.tricks)];
    return `${heading(t("Who played the best trump?"))}
      <div class="seat-buttons" role="group" aria-label="${t("Who played the best trump")}">${takers.map((seat) => seatButton(seat, "best-seat")).join("")}
      <button type="button" class="seat-button none" data-action="best-seat" data-seat="none">${t("No trump was played")}</button></div>`;
  }

  function renderBestTrick(draft) {
    const tricks = draft.tricks.map((seat, trick) => (seat === draft.bestSeat ? trick : null)).filter((trick) => trick !== null);
    return `${heading(t("In which trick did %(name)s play it?", { name: nameOf(draft.bestSeat) }))}
      <div class="seat-buttons" role="group" aria-label="${t("Trick of the best trump")}">${tricks.map((trick) => `<button type="button" class="seat-button" data-action="best-trick" data-trick="${trick}">${t("Trick %(number)s", { number: trick + 1 })}</button>`).join("")}</div>`;
  }

  function renderRenege(draft) {
    if (draft.step === "renege-seat") {
      return `${heading(t("Who reneged?"))}<div class="seat-buttons" role="group" aria-label="${t("Who reneged")}">${ctx.game.seats.map((seat) => seatButton(seat.seat, "renege-seat")).join("")}</div>
        <button type="button" class="secondary" data-action="renege-cancel">${t("No renege")}</button>`;
    }
    return `${heading(t("In which trick did %(name)s renege?", { name: nameOf(draft.renegeSeat) }))}<div class="seat-buttons" role="group" aria-label="${t("Trick of the renege")}">${[0, 1, 2, 3, 4].map((trick) => `<button type="button" class="seat-button" data-action="renege-trick" data-trick="${trick}">${t("Trick %(number)s", { number: trick + 1 })}</button>`).join("")}</div>`;
  }

  function summaryLine(key, label, content, change, problem) {
    const pointer = problem ? pointerOf(problem) : "";
    const here = problem && (pointer === `/${key}` || pointer.startsWith(`/${key}/`));
    return `<li class="summary-line${here ? " has-problem" : ""}" data-line="${key}"><span class="line-label">${label}</span> <span>${content}</span>
      ${change ? `<button type="button" class="small secondary" data-action="change" data-step="${change}">${t("Change")}</button>` : ""}
      ${here ? `<p class="problem" role="alert">${escapeHtml(problemWords(problem))}</p>` : ""}</li>`;
  }

  // Who may accept: a player of another side than the entering side's — the logged-in player's
  // own side, and the side of the player this tablet says entered the hand (a table link's
  // tablet is nobody in particular: it asks once per game, ``state.scorer``).
  function needsScorer() {
    return Boolean(config.confirmHands && config.credential) && state.scorer === null;
  }

  function acceptors() {
    const entering = new Set(ctx.game.seats.filter((seat) => config.userPlayerIds.includes(seat.player.id)).map((seat) => seat.side));
    const scorer = ctx.game.seats.find((seat) => seat.player.id === state.scorer);
    if (scorer) entering.add(scorer.side);
    return ctx.game.seats.filter((seat) => !entering.has(seat.side));
  }

  function scorerPicker() {
    return `<p>${t("Who is entering the hands at this table?")}</p><div class="seat-buttons" role="group" aria-label="${t("Who is entering the hands at this table?")}">${ctx.game.seats.map((seat) => `<button type="button" class="seat-button side-${seat.side}" data-action="scorer" data-player="${seat.player.id}">${t("%(name)s enters the hands", { name: escapeHtml(seat.player.name) })}</button>`).join("")}</div>`;
  }

  function scorerLine() {
    const scorer = ctx.game.seats.find((seat) => seat.player.id === state.scorer);
    if (!scorer) return "";
    return `<p class="muted">${t("Entered by %(name)s.", { name: escapeHtml(scorer.player.name) })} <button type="button" class="small secondary" data-action="scorer" data-player="">${t("Change")}</button></p>`;
  }

  // ``label`` names what is accepted (a computed string: web/scorepad/strings.py); ``action`` the tap.
  function acceptButtons(label, number, action) {
    if (needsScorer()) return scorerPicker();
    return `${scorerLine()}<p>${t("A player of another side accepts it:")}</p><div class="seat-buttons">${acceptors().map((seat) => `<button type="button" class="seat-button side-${seat.side}" data-action="${action}" data-player="${seat.player.id}">${t(label, { name: escapeHtml(seat.player.name), number })}</button>`).join("")}</div>`;
  }

  function confirmButtons(draft) {
    const number = draft.correcting || nextNumber();
    if (draft.correcting) {
      if (config.confirmHands) return acceptButtons("%(name)s accepts the correction of hand %(number)s", number, "confirm");
      return `<button type="button" class="big" data-action="confirm">${t("Save the correction of hand %(number)s", { number })}</button>`;
    }
    if (!config.confirmHands) return `<button type="button" class="big" data-action="confirm">${t("Confirm hand %(number)s", { number })}</button>`;
    return acceptButtons("%(name)s accepts hand %(number)s", number, "confirm");
  }

  function undoButtons(number) {
    if (config.confirmHands) return acceptButtons("%(name)s accepts undoing hand %(number)s", number, "undo-yes");
    return `<button type="button" class="big" data-action="undo-yes">${t("Yes, undo hand %(number)s", { number })}</button>`;
  }

  function renderSummary(draft) {
    const record = recordOf(draft);
    const problem = state.preview && state.preview.problem;
    const preview = state.preview && state.preview.result;
    const lines = [summaryLine("dealer", t("Dealer"), nameOf(record.dealer), null, problem)];
    if (draft.cards) {
      if (record.bidding) lines.push(summaryLine("bidding", t("Auction"), callsInWords(record.bidding), null, problem));
      if (record.trump) lines.push(summaryLine("trump", t("Trumps"), suitWords(record.trump), null, problem));
      if (record.kitty) lines.push(summaryLine("kitty", t("Kitty"), t("%(kitty)s; discarded %(discard)s", { kitty: record.kitty.join(" "), discard: record.discard.join(" ") }), null, problem));
      if (record.rob) lines.push(summaryLine("rob", t("Rob"), t("%(name)s robbed %(card)s, discarding %(discard)s", { name: nameOf(record.rob.seat), card: record.turn_up, discard: record.rob.discard }), null, problem));
      if (record.tricks) lines.push(summaryLine("tricks", t("Cards played"), draft.cards.renderPlayed(problem), null, problem));
    } else if (record.misdeal) {
      lines.push(summaryLine("misdeal", t("Misdeal"), t("no score; the same dealer deals again"), null, problem));
    } else {
      if (record.bidding) lines.push(summaryLine("bidding", t("Auction"), callsInWords(record.bidding), "auction", problem));
      if (record.trump) lines.push(summaryLine("trump", t("Trumps"), suitWords(record.trump), "trump", problem));
      if (record.trick_winners) lines.push(summaryLine("trick_winners", t("Tricks"), describeTricks(record.trick_winners), "tricks", problem));
      if (hasBestTrump() && record.trick_winners) {
        lines.push(summaryLine("best_trump", t("Best trump"), record.best_trump ? t("%(name)s, trick %(trick)s", { name: nameOf(record.best_trump.seat), trick: record.best_trump.trick + 1 }) : t("no trump played"), "best-seat", problem));
      }
      if (record.rob) lines.push(summaryLine("rob", t("Rob"), nameOf(record.rob.seat), "trump", problem));
      if (record.renege) lines.push(summaryLine("renege", t("Renege"), t("%(name)s, trick %(trick)s", { name: nameOf(record.renege.seat), trick: record.renege.trick + 1 }), "renege-seat", problem));
    }
    let verdict;
    if (state.busy) {
      verdict = `<p class="verdict">${t("Asking the server what this hand scores…")}</p>`;
    } else if (preview) {
      const after = preview.game;
      const kind = preview.kind === "misdeal" ? `${t("Misdeal: no score.")} ` : preview.kind === "redeal" ? `${t("Everybody passed: no score.")} ` : "";
      const later = draft.correcting && preview.hands
        ? `<ul class="later">${preview.hands.filter((hand) => hand.changed).map((hand) => `<li>${t("After hand %(number)s: %(before)s → %(after)s", { number: hand.number, before: totalsInWords(hand.totals_before), after: `<strong>${totalsInWords(hand.totals_after)}</strong>` })}</li>`).join("") || `<li>${t("No total changes.")}</li>`}</ul>` : "";
      let ends = "";
      if (after.status === "finished") {
        const winner = escapeHtml(sideLabel(after.winner));
        ends = ` ${after.double_stake ? t("%(winner)s win the game, double stake.", { winner }) : t("%(winner)s win the game.", { winner })}`;
      }
      verdict = `<p class="verdict">${kind}${t("%(points)s — new totals %(totals)s.", { points: escapeHtml(pointsInWords(preview.points)), totals: totalsInWords(preview.totals) })}${ends}</p>${later}`;
    } else if (problem) {
      const pointer = pointerOf(problem);
      const placed = pointer && lines.some((line) => line.includes("has-problem"));
      verdict = placed ? `<p class="verdict problem">${t("The server refused this hand: see the line marked above.")}</p>`
        : `<p class="verdict problem" role="alert">${escapeHtml(problemWords(problem))}</p>`;
    } else if (!state.online) {
      verdict = `<p class="verdict">${t("Offline: the tricks are listed above; the points will follow when the connection is back.")}</p>`;
    } else {
      verdict = `<p class="verdict">${t("Earlier hands are still being sent: the tricks are listed above; the points will follow.")}</p>`;
    }
    const unchecked = (!state.online || state.waiting.length) && !draft.correcting;
    const canConfirm = !state.busy && !problem && (preview || unchecked);
    return `${heading(draft.correcting ? t("Correct hand %(number)s", { number: draft.correcting }) : t("Check the hand"))}
      <ul class="summary">${lines.join("")}</ul>${verdict}
      <div class="confirm">${canConfirm ? confirmButtons(draft) : ""}</div>`;
  }


  return { isClosed, seatButton, describeTricks, describeRecord, callsInWords, pointsInWords, totalsInWords, problemWords, pointerOf, renderScoreboard, renderBanner, renderConflict, renderHands, renderSideHeadings, heading, toolbar, renderAuction, renderTrump, renderTricks, renderBestSeat, renderBestTrick, renderRenege, summaryLine, confirmButtons, undoButtons, renderSummary };
}
