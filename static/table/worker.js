// The table app's service worker: keeps the page shell so the score page opens with no network.
//
// Served by Django at /table-worker.js (scope "/"), which puts the shell's static URLs in
// SHELL above this line. It answers only the score pages (/clubs/<slug>/games/<id>/score/,
// /t/<credential>/) and the static files, network first and from the cache when the network
// fails; the API is never cached (the page keeps hands in its own outbox instead).

const CACHE = "jink-table-v1";
const SCORE_PAGE = /^\/(clubs\/[^/]+\/games\/\d+\/score\/|t\/[^/]+\/)$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const isPage = request.mode === "navigate" && SCORE_PAGE.test(url.pathname);
  const isStatic = url.pathname.startsWith("/static/");
  if (!isPage && !isStatic) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      if (response.ok) await cache.put(request, response.clone());
      return response;
    } catch (error) {
      const cached = await cache.match(request, { ignoreSearch: isPage && !url.search });
      if (cached) return cached;
      throw error;
    }
  })());
});
