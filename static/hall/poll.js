// The hall screen's one request: GET /api/hall/<code>/, conditional.
//
// What it does: ``createPoller({ url, fetch })`` gives ``poll(etag)``, which asks the screen's
// JSON with If-None-Match and answers ``{ status, etag, serverTime, receivedAt, data }``: 200
// with the new screen, 304 when nothing changed (the server's time still comes, in
// X-Jink-Server-Time, so the clock stays corrected), 404 when the link has ended, 0 when the
// request got no answer (a dropped connection: the next poll tries again).
//
// What it does not do: decide what to show (screen.js) or time the polls.
// Nothing runs at import: a test loads it alone with its own fetch.

export function createPoller({ url, fetch = (...args) => globalThis.fetch(...args), now = () => Date.now() }) {
  async function poll(etag) {
    const headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    let response;
    try {
      // no-store: the browser's cache never answers in the server's place.
      response = await fetch(url, { headers, cache: "no-store", credentials: "omit" });
    } catch (error) {
      if (error instanceof TypeError) return { status: 0 };
      throw error;
    }
    const answer = {
      status: response.status,
      etag: response.headers.get("ETag") || etag,
      serverTime: response.headers.get("X-Jink-Server-Time"),
      receivedAt: now(),
      data: null,
    };
    if (response.status === 200) answer.data = await response.json();
    return answer;
  }
  return { poll };
}
