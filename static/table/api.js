// The score pad's one way to call the API: every request of the page goes through ``createApi``.
//
// What it does: sends a request to /api<path> with the page's credentials (``Authorization:
// Table <credential>`` on a table link's page, the session and its ``X-CSRFToken`` on a
// logged-in page's writes), JSON in and out, and the headers a call adds (``If-Match``,
// ``Idempotency-Key``); ``poll`` is the conditional GET (``If-None-Match``, never from the
// browser's cache) a page that follows its table makes. The answer is ``{status, ok, data,
// etag, problem}``: ``data`` the JSON body (null without one), ``problem`` what a refusal says
// (``problemOf``). Three outcomes are kept apart: the server answered (any status, a refusal
// too: the answer); the network failed (``OfflineError``: the page keeps hands on the tablet
// and says it is offline); anything else is a bug of the page and is thrown as it is, never
// taken for a dropped connection.
//
// What it does not do: retry, keep anything, or decide what a refusal means to the scorekeeper
// (views.js says it in words; the outbox's sending is sync.js).
//
// Terms: a problem is the API's ``application/problem+json`` body (docs/api.md): ``type``,
// ``title``, ``status``, ``detail`` and ``errors`` (each with a stable ``code``, a ``detail`` and
// a JSON ``pointer`` into the request body); a refused hand's body also carries the stored
// ``hand``.
//
// No imports and nothing runs at import: tests/tables/test_modules_browser.py loads it alone.

// The network failed: no answer from the server at all (fetch rejected).
export class OfflineError extends Error {
  constructor(cause) {
    super("The network is unreachable", { cause });
    this.name = "OfflineError";
  }
}

export function isOffline(error) {
  return error instanceof OfflineError;
}

// What a refusal says, from its problem body (null when there is no body): the first error's
// code, detail and pointer, else the problem's own code and detail.
export function problemOf(data) {
  if (data === null || data === undefined) return null;
  const body = typeof data === "object" ? data : {};
  const first = (Array.isArray(body.errors) && body.errors[0]) || {};
  return {
    code: first.code || body.code || null,
    title: body.title || null,
    detail: first.detail || body.detail || "",
    pointer: first.pointer || "",
  };
}

// ``fetch`` is the browser's unless a test gives another.
export function createApi({ credential = null, csrf = null, fetch = (...args) => globalThis.fetch(...args) } = {}) {
  async function send(method, path, init) {
    // A request the browser cannot even build (a header it refuses) is a bug, thrown as it is;
    // only a request that was built and then got no answer means the network is down.
    const request = new Request(`/api${path}`, { method, ...init });
    let response;
    try {
      response = await fetch(request);
    } catch (error) {
      throw new OfflineError(error);
    }
    if (response.status === 304) return { status: 304, ok: false, data: null, etag: response.headers.get("ETag"), problem: null };
    let data = null;
    try { data = await response.json(); } catch { data = null; }
    return {
      status: response.status,
      ok: response.ok,
      data,
      etag: response.headers.get("ETag"),
      problem: response.ok ? null : problemOf(data),
    };
  }

  // ``request("PUT", "/games/4/hands/2/", {body, headers: {"If-Match": etag}})``.
  function request(method, path, { body, headers = {} } = {}) {
    const all = { Accept: "application/json", ...headers };
    if (credential) all.Authorization = `Table ${credential}`;
    if (method !== "GET" && csrf) all["X-CSRFToken"] = csrf;
    const init = { credentials: "same-origin", headers: all };
    if (body !== undefined) {
      all["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return send(method, path, init);
  }

  // A conditional GET: a 304 when nothing changed since ``etagSeen``.
  function poll(path, etagSeen) {
    const headers = { Accept: "application/json" };
    if (etagSeen) headers["If-None-Match"] = etagSeen;
    if (credential) headers.Authorization = `Table ${credential}`;
    return send("GET", path, { headers, cache: "no-store", credentials: credential ? "omit" : "same-origin" });
  }

  return { request, poll, isOffline };
}
