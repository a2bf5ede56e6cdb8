// Service worker: offline play after the first visit (top-level page only; the embedded game
// never registers it). tools/build_site.py fills in the double-brace placeholders.
//
// Two caches: the runtime, named by its pinned versions (13 MB, kept across releases of the
// game), and the app, named by a hash of this release's files. Activating a new release deletes
// every other "nova-" cache and the runtime cache's files this release no longer lists (the
// trimmed standard library's name carries its hash). Runtime files and the memory snapshot
// (snapshot/nova-<hash>.bin.gz, in the app cache): cache first, their names change with their
// bytes. Everything else: network first, the cache when offline.
const RUNTIME_CACHE = "nova-runtime-{{RUNTIME_ID}}";
const APP_CACHE = "nova-app-{{BUILD_ID}}";
const RUNTIME_FILES = {{RUNTIME_FILES}};
const APP_FILES = {{APP_FILES}};

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const runtime = await caches.open(RUNTIME_CACHE);
      const have = new Set((await runtime.keys()).map((r) => new URL(r.url).pathname));
      const scope = new URL(self.registration.scope).pathname;
      await runtime.addAll(RUNTIME_FILES.filter((f) => !have.has(scope + f)));
      const app = await caches.open(APP_CACHE);
      await app.addAll(APP_FILES.map((f) => new Request(f, { cache: "no-cache" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("nova-") && name !== RUNTIME_CACHE && name !== APP_CACHE) {
          await caches.delete(name);
        }
      }
      const scope = new URL(self.registration.scope).pathname;
      const wanted = new Set(RUNTIME_FILES.map((f) => scope + f));
      const runtime = await caches.open(RUNTIME_CACHE);
      for (const request of await runtime.keys()) {
        if (!wanted.has(new URL(request.url).pathname)) await runtime.delete(request);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.includes("/runtime/")) {
    event.respondWith(
      caches.match(request, { cacheName: RUNTIME_CACHE }).then((hit) => hit || fetch(request)),
    );
    return;
  }
  if (url.pathname.includes("/snapshot/nova-")) {
    event.respondWith(
      caches.match(request, { cacheName: APP_CACHE }).then((hit) => hit || fetch(request)),
    );
    return;
  }
  event.respondWith(
    (async () => {
      try {
        const response = await fetch(request);
        if (response.ok && url.search === "") {
          const app = await caches.open(APP_CACHE);
          if (await app.match(request)) await app.put(request, response.clone());
        }
        return response;
      } catch (err) {
        const hit = await caches.match(request, { ignoreSearch: true, cacheName: APP_CACHE });
        if (hit) return hit;
        if (request.mode === "navigate") {
          const page = await caches.match("./", { cacheName: APP_CACHE });
          if (page) return page;
        }
        throw err;
      }
    })(),
  );
});
