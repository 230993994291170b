// The waiting page of a tournament table whose match has no game yet (before its first game,
// or between two games): every few seconds it asks the server (GET /api/table/, with the
// table link) whether the match's next game exists, and opens it by itself when it does.
//
// What it does not do: start a game (the tournament does, when the match needs one).

const box = document.getElementById("waiting");
const credential = box.dataset.credential;
const seconds = Number(box.dataset.pollSeconds) || 4;
const status = document.getElementById("waiting-status");

async function check() {
  try {
    const response = await fetch("/api/table/", {
      credentials: "omit",
      headers: { Accept: "application/json", Authorization: `Table ${credential}` },
    });
    if (response.status === 404) {
      status.textContent = box.dataset.endedText;
      return;
    }
    if (response.ok) {
      const table = await response.json();
      if (table.current_game !== null) {
        window.location.assign(`${box.dataset.tableUrl}?game=${table.current_game}`);
        return;
      }
    }
  } catch { /* offline: try again later */ }
  window.setTimeout(check, seconds * 1000);
}

window.setTimeout(check, seconds * 1000);
document.body.dataset.ready = "true";
