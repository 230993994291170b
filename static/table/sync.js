// The score pad's sync: sending the outbox to the server, settling a refused hand, and following
// the table while the page is open.
//
// What it does: ``sendOutbox`` sends the game's waiting hands (outbox.js) in number order, one
// at a time, each with its ``Idempotency-Key``: a stored hand (201) leaves the outbox; a refusal
// (a 4xx: another tablet stored that hand, …) marks the hand "refused", keeps the server's
// answer and stops the queue there, so nothing after it is sent until the scorekeeper chooses
// (``resolveRefused``: keep the stored hand, keep theirs with If-Match, drop it or send it
// again); a 5xx, a request still running elsewhere or a dropped connection stops the round, to
// be tried again. ``createSync(page)`` adds what the page does around it: ``flush`` applies the
// stored hands and refreshes the page, ``poll`` asks ONE endpoint, conditionally, at most every
// POLL_MS — a table link's page GET /api/table/ (its ETag changes when a hand is stored or
// corrected anywhere, a game starts, a round is released or the event closes), a logged-in page
// GET /api/games/{id}/ — so an idle table costs a 304. A finished game whose table brings no next
// game is not asked about at all. A page opened on its table's current game follows the table
// (``followCurrentGame``): when the table's current game changes it opens it in place, once a
// finished game's result has been shown for RESULT_SHOWN_MS.
//
// What it does not do: store anything itself (outbox.js does), decide what the page shows
// (views.js) or know the rules: the server checks every hand it is sent.
//
// Terms: ``page`` (createSync) is what score.js shares: ``live`` (the game, its hands, the table
// and their ETags, replaced as the server answers), ``state``, ``config``, ``api`` (api.js),
// ``outbox``, ``t`` and the page's actions (render, refresh, setOnline, showGame, …).
//
// No imports and nothing runs at import: the outbox and the API are given, so a test loads this
// module alone with stand-ins for both (tests/tables/test_modules_browser.py).

export const POLL_MS = 10000;
export const RESULT_SHOWN_MS = 8000;

// Send the waiting hands of ``gameId``. ``onAnswer(reached)`` hears whether each request reached
// the server; ``onStored(entry, response)`` each stored hand, in order. Returns how many were
// stored and whether the round stopped on a dropped connection.
export async function sendOutbox({ outbox, api, gameId, onAnswer = () => {}, onStored = () => {} }) {
  let stored = 0;
  for (;;) {
    const next = (await outbox.list(gameId))[0];
    if (!next || next.state === "refused") break;
    let response;
    try {
      response = await api.request("POST", `/games/${gameId}/hands/`, {
        body: next.body, headers: { "Idempotency-Key": next.key },
      });
    } catch (error) {
      if (!api.isOffline(error)) throw error;
      onAnswer(false);
      return { stored, offline: true };
    }
    onAnswer(true);
    if (response.status === 201) {
      await outbox.remove(next.id);
      stored += 1;
      await onStored(next, response);
      continue;
    }
    const code = response.problem && response.problem.code;
    if (response.status >= 500 || code === "idempotency_in_progress") break;
    await outbox.put({
      ...next, state: "refused", problem: response.data, server: (response.data && response.data.hand) || null,
    });
    break;
  }
  return { stored, offline: false };
}

// Each side's name as the server gives it (web.scorepad.views._side_labels): the team's name, or
// its players' names.
export function sideLabelsOf(game) {
  const nameOf = new Map(game.seats.map((seat) => [seat.player.id, seat.player.name]));
  return game.sides.map((side) => (side.team ? side.team.name : side.players.map((id) => nameOf.get(id)).join(" & ")));
}

export function createSync(page) {
  const { live, state, config, api, outbox, t } = page;
  let flushing = false;
  let polling = false;
  let finishedSince = null;
  let linkEnded = false;
  let switchTimer = null;

  // Nothing stored yet to take the dealer from: the next hand's dealer follows the stored ones.
  function untouched(draft) {
    return !draft.correcting && !draft.trump && !draft.bidding.length && !draft.misdeal;
  }

  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      const { stored } = await sendOutbox({
        outbox,
        api,
        gameId: live.game.id,
        onAnswer: page.setOnline,
        onStored: (entry, response) => {
          // "Kept on this tablet" is no longer true once the hand is stored.
          if (state.keptNumber !== null && entry.number >= state.keptNumber) {
            state.message = t("Hand %(number)s sent.", { number: entry.number });
            state.keptNumber = null;
          }
          applyStored(response);
        },
      });
      if (stored) await page.refresh();
    } finally {
      flushing = false;
      state.waiting = await outbox.list(live.game.id);
      if (untouched(state.draft)) state.draft = { ...state.draft, dealer: page.storedDealerAfter() };
      page.render();
    }
  }

  // The stored hand and the game after it, from the 201 itself: the page stays right even
  // when the connection drops before the next refresh.
  function applyStored(response) {
    const hand = response.data;
    const summary = hand.game;
    live.hands = live.hands.filter((item) => item.number !== hand.number).concat([hand]).sort((a, b) => a.number - b.number);
    live.game = {
      ...live.game,
      totals: hand.totals,
      status: summary.status,
      winner: summary.winner,
      next_dealer: summary.next_dealer,
      double_stake: summary.double_stake,
      hands_played: summary.hands_played,
    };
    if (response.etag) {
      live.etag = response.etag;
      live.game.version = Number(response.etag.replace(/"/g, "").split("-")[1]);
    }
    page.saveCache();
  }

  async function resolveRefused(choice) {
    const refused = state.waiting.find((entry) => entry.state === "refused");
    if (!refused) return;
    if (choice === "keep-server" || choice === "drop-refused") {
      await outbox.remove(refused.id);
    } else if (choice === "retry-refused") {
      await outbox.put({ ...refused, state: "waiting", problem: null, server: null, key: page.newKey() });
    } else if (choice === "keep-mine") {
      await page.refresh();
      // The stored hand becomes this tablet's version, with the acceptance it was entered with.
      const { number, ...record } = refused.body;
      try {
        const response = await api.request("PUT", `/games/${live.game.id}/hands/${number}/`, {
          body: record, headers: { "If-Match": live.etag },
        });
        if (!response.ok) {
          state.message = page.problemWords(response.data);
          page.render();
          return;
        }
        await outbox.remove(refused.id);
      } catch (error) {
        if (!api.isOffline(error)) throw error;
        page.setOnline(false);
        return;
      }
    }
    state.waiting = await outbox.list(live.game.id);
    await page.refresh();
    page.render();
    await flush();
  }

  function followsTable() {
    return Boolean(config.credential) && config.followsTable;
  }

  function pollWanted() {
    if (linkEnded || document.hidden) return false;
    if (live.game.status !== "finished") return true;
    return followsTable() && Boolean(live.table && live.table.follows);
  }

  async function poll() {
    if (polling) return;
    if (state.waiting.some((entry) => entry.state === "waiting")) { await flush(); return; }
    if (!pollWanted()) return;
    polling = true;
    try {
      if (config.credential) await pollTable();
      else await pollGame();
      page.setOnline(true);
    } catch (error) {
      if (!api.isOffline(error)) throw error;
      page.setOnline(false);
    } finally {
      polling = false;
    }
  }

  async function pollGame() {
    const response = await api.poll(`/games/${live.game.id}/`, live.etag);
    if (!response.ok) return;
    await page.refresh();
    page.render();
  }

  async function pollTable() {
    const response = await api.poll("/table/", live.tableEtag);
    if (response.status === 304) return;
    if (response.status === 404) {
      linkEnded = true;
      state.message = t("This table link has ended. Ask the organiser for a new one.");
      page.render();
      return;
    }
    if (!response.ok) return;
    live.table = response.data;
    live.tableEtag = response.etag;
    const mine = live.table.games.find((entry) => entry.id === live.game.id);
    if (mine && mine.version !== live.game.version) await page.refresh();
    followCurrentGame();
    page.saveCache();
    page.render();
  }

  // The table's current game is another one: open it (not during a correction), once a finished
  // game's result has been on the screen for a while.
  function followCurrentGame() {
    const { game, table } = live;
    if (game.status === "finished") finishedSince = finishedSince || Date.now();
    if (!followsTable() || !table || !table.current_game || table.current_game === game.id) return;
    if (state.draft && state.draft.correcting) return;
    const wait = game.status === "finished" ? Math.max(0, finishedSince + RESULT_SHOWN_MS - Date.now()) : 0;
    window.clearTimeout(switchTimer);
    switchTimer = window.setTimeout(() => switchGame(table.current_game), wait);
  }

  // Open the table's game ``id`` in place: fetch it and its hands, then the page shows it.
  async function switchGame(id) {
    if (id === live.game.id || (state.draft && state.draft.correcting)) return;
    let gameResponse;
    let handsResponse;
    try {
      [gameResponse, handsResponse] = await Promise.all([
        api.request("GET", `/games/${id}/`),
        api.request("GET", `/games/${id}/hands/?page_size=200`),
      ]);
    } catch (error) {
      if (!api.isOffline(error)) throw error;
      page.setOnline(false);
      return;
    }
    if (!gameResponse.ok || !handsResponse.ok) return;
    const previous = live.game.id;
    live.game = gameResponse.data;
    live.etag = gameResponse.etag;
    live.hands = handsResponse.data.results;
    config.gameId = live.game.id;
    config.sideLabels = sideLabelsOf(live.game);
    config.gamePageUrl = config.gamePageUrl.replace(`/games/${previous}/`, `/games/${live.game.id}/`);
    finishedSince = null;
    state.waiting = await outbox.list(live.game.id);
    page.showGame();
    await flush();
  }

  // Follow the table: one conditional request every POLL_MS while the page is shown, and one as
  // soon as it is shown again (visibilitychange).
  function follow() {
    window.setInterval(poll, POLL_MS);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
  }

  return { flush, resolveRefused, poll, follow, followCurrentGame };
}
