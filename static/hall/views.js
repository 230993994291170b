// The hall screen's HTML: the panels as strings, from the screen's JSON and the page's words.
//
// What it does: ``panelHtml(state, t, page)`` renders the panel the server chose — waiting (with
// who has checked in so far),
// "find your seat" (one page of it: ``page`` from state.js's ``pageOf``), the tables still
// playing with the leaders (or a word that they are hidden), the winners and prizes; every name
// escaped. A club night's screen (``kind`` "night") has no round, its own welcome, and games
// played (and a settled night's nets) where an event shows points. ``roundText`` the round in
// words.
//
// What it does not do: choose the panel (the server does), page, or touch the page.
// Nothing runs at import.

import { escapeHtml } from "../table/words.js";

export function roundText(state, t) {
  if (state.panel === "winners") return t("Final results");
  if (state.round === null) return "";
  if (state.rounds_planned) {
    return t("Round %(number)s of %(total)s", { number: state.round, total: state.rounds_planned });
  }
  return t("Round %(number)s", { number: state.round });
}

function seatText(row, t) {
  if (row.table === null) return `<span class="where bye">${escapeHtml(t("Bye"))}</span>`;
  return `<span class="where">${escapeHtml(t("Table %(table)s", { table: row.table }))}`
    + ` <span class="seat">${escapeHtml(t("seat %(seat)s", { seat: row.seat }))}</span></span>`;
}

function seatsHtml(page, t) {
  const rows = page.rows.map((row) => `<li class="seat-row"><span class="name">${escapeHtml(row.name)}</span>${seatText(row, t)}</li>`).join("");
  const pager = page.count > 1
    ? `<span class="pager" id="pager">${escapeHtml(t("Page %(page)s of %(count)s", { page: page.index + 1, count: page.count }))}</span>`
    : "";
  return `<h2 class="with-pager">${escapeHtml(t("Find your seat"))}${pager}</h2><ol class="seats" id="seats">${rows}</ol>`;
}

function tablesHtml(tables, t, night) {
  if (!tables.length) {
    const done = night ? t("Every table has finished its game.") : t("Every table has finished this round.");
    return `<p class="quiet">${escapeHtml(done)}</p>`;
  }
  const items = tables.map((table) => {
    const sides = table.sides.map((side) => `<span class="side"><span class="names">${side.names.map(escapeHtml).join(" &amp; ")}</span> <b class="score">${side.score}</b></span>`).join("");
    return `<li class="playing-table"><span class="number">${escapeHtml(t("Table %(table)s", { table: table.table }))}</span>${sides}</li>`;
  }).join("");
  return `<ol class="tables" id="tables">${items}</ol>`;
}

// An event's rows end with the points; a night's with the games played (and, for the winners
// of a settled night, the net in the club's currency).
function leadersHtml(rows, t, title, state) {
  const night = state.kind === "night";
  const withNet = night && rows.some((row) => row.net !== null && row.net !== undefined);
  const language = document.documentElement.lang || "en";
  const net = (row) => (withNet ? `<td class="net">${row.net === null ? "" : escapeHtml(moneyText(row.net, state.currency, language))}</td>` : "");
  const items = rows.map((row) => `<tr><td class="place">${row.place}</td><td class="name">${escapeHtml(row.name)}</td><td class="wins">${row.wins}</td><td class="points">${night ? row.games : row.points}</td>${net(row)}</tr>`).join("");
  const last = night ? t("Games") : t("Points");
  const netHead = withNet ? `<th>${escapeHtml(t("Net"))}</th>` : "";
  return `<h2>${escapeHtml(title)}</h2><table class="leaders" id="leaders"><thead><tr><th>#</th><th>${escapeHtml(t("Name"))}</th><th>${escapeHtml(t("Wins"))}</th><th>${escapeHtml(last)}</th>${netHead}</tr></thead><tbody>${items}</tbody></table>`;
}

function placesText(group, t) {
  if (group.first === group.last) return t("Place %(place)s", { place: group.first });
  return t("Places %(first)s–%(last)s", { first: group.first, last: group.last });
}

// An amount as the API writes it ("2.50") in the club's currency, for the page's language.
export function moneyText(amount, currency, language) {
  try {
    return new Intl.NumberFormat(language, { style: "currency", currency }).format(Number(amount));
  } catch (error) {
    if (error instanceof RangeError) return `${amount} ${currency}`;
    throw error;
  }
}

function prizesHtml(prizes, currency, t) {
  if (!prizes.length) return "";
  const language = document.documentElement.lang || "en";
  const items = prizes.map((group) => `<li><span class="places">${escapeHtml(placesText(group, t))}</span> ${group.shares.map((share) => `<span class="share">${escapeHtml(share.name)} <b>${escapeHtml(moneyText(share.amount, currency, language))}</b></span>`).join(" ")}</li>`).join("");
  return `<h2>${escapeHtml(t("Prizes"))}</h2><ul class="prizes" id="prizes">${items}</ul>`;
}

export function panelHtml(state, t, page) {
  const night = state.kind === "night";
  if (state.panel === "waiting") {
    const words = night
      ? t("Welcome! The tables appear here as soon as the first game starts.")
      : t("Welcome! The draw appears here as soon as it is released.");
    const welcome = `<p class="welcome">${escapeHtml(words)}</p>`;
    const present = state.present || [];
    if (!present.length) return welcome;
    const names = present.map((name) => `<li>${escapeHtml(name)}</li>`).join("");
    return `${welcome}<h2>${escapeHtml(t("Checked in: %(count)s", { count: present.length }))}</h2><ul class="present" id="present">${names}</ul>`;
  }
  if (state.panel === "seats") return seatsHtml(page, t);
  if (state.panel === "play") {
    const later = night ? t("The leaders are shown later tonight.") : t("The leaders are shown at the end of the round.");
    const leaders = state.leaders_hidden
      ? `<p class="quiet" id="leaders-hidden">${escapeHtml(later)}</p>`
      : (state.leaders.length ? leadersHtml(state.leaders, t, t("Leaders"), state) : "");
    return `<div class="play"><section><h2>${escapeHtml(t("Still playing"))}</h2>${tablesHtml(state.tables, t, night)}</section><section>${leaders}</section></div>`;
  }
  return `<div class="play"><section>${leadersHtml(state.winners, t, t("Winners"), state)}</section><section>${prizesHtml(state.prizes, state.currency, t)}</section></div>`;
}
