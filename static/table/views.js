// The score pad's words and views: the scoreboard, the end-of-game banner, a refused hand's two
// versions, the hand list, and each step of entering a hand, rendered as HTML from what was
// tapped and what the server said.
//
// What it does not do: decide anything about the rules, send anything or change the state:
// score.js owns the state and the actions and hands this module its context (createViews).

export function createViews(ctx) {
  const {
    config, state, escapeHtml, names, sideOf, sideLabel, suit, SUITS, WORDS, isBidding,
    hasBestTrump, auctionTurn, highestBid, bidder, recordOf, nextNumber, $,
  } = ctx;

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
    $("#seats").innerHTML = ctx.game.seats.map((seat) => {
      const dealer = seat.seat === (state.draft ? state.draft.dealer : ctx.game.next_dealer);
      return `<li class="seat side-${seat.side}${dealer ? " is-dealer" : ""}">${escapeHtml(seat.player.name)}${dealer ? ' <span class="dealer-mark">deals</span>' : ""}</li>`;
    }).join("");
    const totals = Object.keys(ctx.game.totals).sort((a, b) => a - b);
    $("#totals").innerHTML = totals.map((side) => `<li class="total side-${side}"><span class="side-name">${escapeHtml(sideLabel(Number(side)))}</span> <strong>${ctx.game.totals[side]}</strong></li>`).join("");
    const dealer = state.draft ? state.draft.dealer : ctx.game.next_dealer;
    const number = state.draft && state.draft.correcting ? state.draft.correcting : nextNumber();
    $("#dealer").textContent = ctx.game.status === "finished" && !state.draft?.correcting
      ? `Game over after ${ctx.game.hands_played} hands`
      : `Hand ${number}: ${names()[dealer]} deals`;
    const badge = $("#waiting-badge");
    const count = state.waiting.length;
    badge.hidden = count === 0;
    badge.textContent = count === 1 ? "1 hand waiting" : `${count} hands waiting`;
  }

  function renderBanner() {
    const banner = $("#banner");
    if (ctx.game.status !== "finished") { banner.hidden = true; banner.innerHTML = ""; return; }
    const winner = sideLabel(ctx.game.winner);
    const score = totalsInWords(ctx.game.totals);
    const parts = [`<h2>${escapeHtml(winner)} win${winner.includes("&") ? "" : "s"}, ${score}</h2>`];
    if (ctx.game.double_stake) parts.push('<p class="double">Double stake: won from zero with every trick.</p>');
    if (ctx.table && ctx.table.match) {
      const match = ctx.table.match;
      parts.push(`<p>Match score: ${match.score.map((entry) => `${escapeHtml(entry.name)} ${entry.games_won}`).join(" · ")}</p>`);
      if (ctx.table.current_game && ctx.table.current_game !== ctx.game.id) {
        parts.push(`<p><a class="button big" href="${config.tableUrl}?game=${ctx.table.current_game}">Start the next game</a></p>`);
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
    const rows = ctx.hands.map((hand) => {
      const last = hand.number === ctx.game.hands_played;
      const trump = hand.trump ? `${suit(hand.trump).symbol} ${suit(hand.trump).name}` : "—";
      const kind = hand.kind === "misdeal" ? "Misdeal" : hand.kind === "redeal" ? "All passed" : describeTricks(hand.trick_winners || []);
      const cells = Object.keys(ctx.game.totals).sort((a, b) => a - b).map((side) => `<td>${hand.totals[side] ?? ""}${hand.points && hand.points[side] !== undefined ? ` <small>(${hand.points[side] >= 0 ? "+" : ""}${hand.points[side]})</small>` : ""}</td>`).join("");
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
      return `<tr class="waiting" data-number="${entry.number}"><th scope="row">${entry.number}</th><td>${escapeHtml(names()[record.dealer])}</td><td>${trump}</td><td>${tricks}</td><td colspan="${Object.keys(ctx.game.totals).length + 1}">${status}</td></tr>`;
    });
    $("#hands-body").innerHTML = rows.concat(waiting).reverse().join("") || `<tr><td colspan="${5 + Object.keys(ctx.game.totals).length}">No hands yet.</td></tr>`;
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
    if (!draft.correcting) {
      buttons.push(`<button type="button" class="secondary" data-action="card-mode" aria-pressed="${draft.cards ? "true" : "false"}">${draft.cards ? "Enter by taps" : "Card by card"}</button>`);
    } else if (draft.correcting) {
      buttons.push('<button type="button" class="secondary" data-action="cancel-correction">Cancel the correction</button>');
    }
    return `<div class="toolbar">${buttons.join(" ")}</div>`;
  }

  function renderAuction(draft) {
    const seat = auctionTurn(draft);
    const high = highestBid(draft);
    const bids = ctx.game.house_rules.bids.map((amount) => `<button type="button" class="bid-button" data-action="call" data-call="${amount}" ${high !== null && amount <= high ? "disabled" : ""}>${amount}</button>`).join("");
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
        <select id="rob" data-action="rob"><option value="">Nobody</option>${ctx.game.seats.map((seat) => `<option value="${seat.seat}" ${draft.rob === seat.seat ? "selected" : ""}>${escapeHtml(seat.player.name)}</option>`).join("")}</select></label>`;
    return `${heading(who)}<div class="suits" role="group" aria-label="Trumps">${SUITS.map((entry) => `<button type="button" class="suit-button${entry.red ? " red" : ""}" data-action="trump" data-suit="${entry.code}"><span aria-hidden="true">${entry.symbol}</span> ${entry.name}</button>`).join("")}</div>${rob}`;
  }

  function renderTricks(draft) {
    const number = draft.tricks.length + 1;
    return `${heading(`Trick ${number}: who took it?`)}
      <p class="trump-line">Trumps ${suit(draft.trump).symbol} ${suit(draft.trump).name}${draft.renege ? ` · renege by ${escapeHtml(names()[draft.renege.seat])} in trick ${draft.renege.trick + 1}` : ""}</p>
      <div class="seat-buttons" role="group" aria-label="Who took trick ${number}">${ctx.game.seats.map((seat) => seatButton(seat.seat, "trick", state.busy ? "disabled" : "")).join("")}</div>
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
      return `${heading("Who reneged?")}<div class="seat-buttons" role="group" aria-label="Who reneged">${ctx.game.seats.map((seat) => seatButton(seat.seat, "renege-seat")).join("")}</div>
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
    const mine = new Set(ctx.game.seats.filter((seat) => config.userPlayerIds.includes(seat.player.id)).map((seat) => seat.side));
    const others = ctx.game.seats.filter((seat) => !mine.has(seat.side));
    return `<p>A player of another side accepts the hand:</p><div class="seat-buttons">${others.map((seat) => `<button type="button" class="seat-button side-${seat.side}" data-action="confirm" data-player="${seat.player.id}">${escapeHtml(seat.player.name)} accepts hand ${number}</button>`).join("")}</div>`;
  }

  function renderSummary(draft) {
    const record = recordOf(draft);
    const problem = state.preview && state.preview.problem;
    const preview = state.preview && state.preview.result;
    const lines = [summaryLine("dealer", "Dealer", escapeHtml(names()[record.dealer]), null, problem)];
    if (draft.cards) {
      if (record.bidding) lines.push(summaryLine("bidding", "Auction", record.bidding.map((call) => `${escapeHtml(names()[call.seat])} ${escapeHtml(call.call)}`).join(", "), null, problem));
      if (record.trump) lines.push(summaryLine("trump", "Trumps", `${suit(record.trump).symbol} ${suit(record.trump).name}`, null, problem));
      if (record.kitty) lines.push(summaryLine("kitty", "Kitty", `${record.kitty.join(" ")}; discarded ${record.discard.join(" ")}`, null, problem));
      if (record.rob) lines.push(summaryLine("rob", "Rob", `${escapeHtml(names()[record.rob.seat])} robbed ${record.turn_up}, discarding ${record.rob.discard}`, null, problem));
      if (record.tricks) lines.push(summaryLine("tricks", "Cards played", draft.cards.renderPlayed(problem), null, problem));
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


  return { seatButton, describeTricks, describeRecord, pointsInWords, totalsInWords, problemWords, pointerOf, renderScoreboard, renderBanner, renderConflict, renderHands, heading, toolbar, renderAuction, renderTrump, renderTricks, renderBestSeat, renderBestTrick, renderRenege, summaryLine, confirmButtons, renderSummary };
}
