// The waiting page of a table with no game to show: a tournament match with no game yet (before
// its first game, or between two), an event's table before its first round is released, or
// nobody playing at it this round. Every few seconds, and as soon as the page is shown again, it
// asks the server (GET /api/table/, with the table link and If-None-Match: an unchanged table is
// a 304) whether the table has a game, and opens it when it does. Once the event is over, or the
// link has ended, it says so and stops asking.
//
// What it does not do: start a game (the tournament does, when the match needs one), or call
// fetch itself: the poll is api.js's, as the score pad's (a dropped connection is tried again
// later; any other exception is a bug, left to surface).

import { createApi } from "./api.js";

const box = document.getElementById("waiting");
const credential = box.dataset.credential;
const seconds = Math.max(Number(box.dataset.pollSeconds) || 10, 10);
const status = document.getElementById("waiting-status");
const reason = document.getElementById("waiting-reason");
const api = createApi({ credential });
let etag = null;
let stopped = false;
let asking = false;

function stop(text) {
  if (status) status.textContent = text;
  else reason.textContent = text;
  stopped = true;
}

async function check() {
  if (stopped || asking || document.hidden) return;
  asking = true;
  try {
    const answer = await api.poll("/table/", etag);
    if (answer.status === 404) stop(box.dataset.endedText);
    if (answer.ok) {
      etag = answer.etag;
      const table = answer.data;
      if (table.current_game !== null) {
        window.location.assign(`${box.dataset.tableUrl}?game=${table.current_game}`);
        return;
      }
      if (table.status === "event_over") stop(box.dataset.overText);
      else if (table.status === "empty") reason.textContent = box.dataset.emptyText;
      else if (table.status === "waiting") reason.textContent = box.dataset.waitingText;
    }
  } catch (error) {
    if (!api.isOffline(error)) throw error; // offline: try again at the next poll
  } finally {
    asking = false;
  }
}

if (status) {
  window.setInterval(check, seconds * 1000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) check(); });
} else {
  stopped = true;
}
document.body.dataset.ready = "true";
