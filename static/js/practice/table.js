// The practice table's clicks: post the form the person used (a card, a rob, a call, the
// kitty), swap in the table the server sends back, and let the computer players move one by one
// after a short, visible delay — longer when a trick has just been taken, so it can be seen. A
// tap on a card marked as not playable says why (the server's words, in the page) instead of
// posting it. No rule of the game lives here: the server (the rules engine) decides what is
// legal and why. Without this script every form still works as a plain post (and a card that
// may not be played is refused with the same reason).

const DELAY_MS = 700;
const TRICK_TAKEN_DELAY_MS = 1800;
const FRAGMENT_HEADER = "X-Practice-Fragment";
let timer = null;

function table() {
  return document.getElementById("practice-table");
}

async function send(form, submitter) {
  const body = new FormData(form);
  if (submitter && submitter.name) {
    body.set(submitter.name, submitter.value);
  }
  for (const button of form.querySelectorAll("button")) {
    button.disabled = true;
  }
  const response = await fetch(form.action, {
    method: "POST",
    body,
    headers: { [FRAGMENT_HEADER]: "1" },
    credentials: "same-origin",
  });
  swap(await response.text());
}

async function follow(link) {
  const response = await fetch(link.href, {
    headers: { [FRAGMENT_HEADER]: "1" },
    credentials: "same-origin",
  });
  swap(await response.text());
}

function swap(html) {
  const current = table();
  const holder = document.createElement("div");
  holder.innerHTML = html;
  const next = holder.querySelector("#practice-table");
  if (!current || !next) {
    window.location.reload();
    return;
  }
  current.replaceWith(next);
  schedule();
}

function schedule() {
  clearTimeout(timer);
  const current = table();
  if (!current || current.dataset.computerTurn !== "true") {
    return;
  }
  const advance = current.querySelector("form[data-advance]");
  if (advance) {
    const delay = current.dataset.trickTaken === "true" ? TRICK_TAKEN_DELAY_MS : DELAY_MS;
    timer = setTimeout(() => send(advance, null), delay);
  }
}

// A card that may not be played: say why, where the page keeps the words for it.
function explain(button) {
  const reason = document.getElementById(button.dataset.why);
  const shown = document.getElementById("practice-why");
  if (!reason || !shown) return false;
  shown.textContent = reason.textContent;
  return true;
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-practice-form")) {
    return;
  }
  if (event.submitter && event.submitter.dataset.why && explain(event.submitter)) {
    event.preventDefault();
    return;
  }
  event.preventDefault();
  send(form, event.submitter);
});

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-practice-link]");
  if (!link) {
    return;
  }
  event.preventDefault();
  follow(link);
});

schedule();
