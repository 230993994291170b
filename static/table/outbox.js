// The outbox: hands confirmed on this tablet and not yet stored by the server, kept in
// IndexedDB so that a reload, a closed tab or a dropped connection loses nothing.
//
// Each entry: {id: "<game>:<number>", game, number, key (the Idempotency-Key), body (the hand
// record with its number), words (what the scorekeeper confirmed, for the waiting list),
// state: "waiting" | "refused", problem (the server's refusal), server (the stored hand that
// took the number, for a conflict)}. Entries are replayed in number order, one at a time.
// This module knows nothing of the rules: it stores and lists what the page gives it.

const DATABASE = "jink-table";
const STORE = "outbox";

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: "id" });
      store.createIndex("game", "game");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run(mode, work) {
  const database = await open();
  return new Promise((resolve, reject) => {
    const transaction = database.transaction(STORE, mode);
    const store = transaction.objectStore(STORE);
    let result;
    Promise.resolve(work(store, (value) => { result = value; })).catch(reject);
    transaction.oncomplete = () => { database.close(); resolve(result); };
    transaction.onerror = () => { database.close(); reject(transaction.error); };
  });
}

export function entryId(game, number) {
  return `${game}:${number}`;
}

export async function list(game) {
  return run("readonly", (store, done) => {
    const request = store.index("game").getAll(game);
    request.onsuccess = () => done(request.result.sort((a, b) => a.number - b.number));
  });
}

export async function put(entry) {
  return run("readwrite", (store) => { store.put(entry); });
}

export async function remove(id) {
  return run("readwrite", (store) => { store.delete(id); });
}

// Give the entries of ``game`` from ``fromNumber`` on new numbers (shifted by ``shift``),
// keeping their keys: a renumbered hand is a new request, so it gets a new Idempotency-Key.
export async function renumber(game, fromNumber, shift, newKey) {
  const entries = (await list(game)).filter((entry) => entry.number >= fromNumber);
  return run("readwrite", (store) => {
    for (const entry of entries) store.delete(entry.id);
    for (const entry of entries) {
      const number = entry.number + shift;
      store.put({
        ...entry,
        id: entryId(game, number),
        number,
        key: newKey(),
        body: { ...entry.body, number },
        state: "waiting",
        problem: null,
        server: null,
      });
    }
  });
}
