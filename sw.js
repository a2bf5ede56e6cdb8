// Service worker: offline play after the first visit (top-level page only; the embedded game
// never registers it). tools/build_site.py fills in the double-brace placeholders.
//
// What it caches is what the game loads, by the path the browser's boot took (PRECACHE, with
// each file's SHA-256): the files every boot loads ("common"), and either the memory snapshot's
// boot ("snapshot": the snapshot and the rest of the standard library) or the ordinary boot's
// ("ordinary": a lean visit or a refused snapshot: the whole trimmed standard library and the
// game's package). Never the editor's, the terminal's or the other boot's files.
//
// Each byte once: the page has downloaded all of these already when it registers this worker.
// Its install takes each file from the page's hand-over (HANDOFF, written on a visit with no
// service worker yet: the wasm and the snapshot, which are bigger than an incognito HTTP cache
// keeps, which boot it took and the URL it was opened at; deleted once read), else from the
// HTTP cache (only-if-cached), and checks its SHA-256; only a file missing or different there
// comes from the network. Which boot it took stays in the app cache (boot.json), for the next
// release's install.
//
// Two caches: the runtime, named by its pinned versions (kept across releases of the game), and
// the app, named by a hash of this release's files. Activating a new release deletes every
// other "nova-" cache and the runtime cache's files this release no longer lists (the trimmed
// standard library's name carries its hash). Runtime files and the memory snapshot
// (snapshot/nova-<hash>.bin.gz): cache first, their names change with their bytes. Everything
// else: network first, the cache when offline. A listed file not cached yet (the other boot's,
// on a later visit) is cached as it passes if its bytes are this release's: never a newer
// release's page in this release's cache, which would then ask offline for files it lacks.
//
// A new release waits: its worker installs (when the browser checks sw.js, at a visit or
// boot.js's register) and takes over only once no page of the game uses the old one (every
// tab closed), the browser's own order; never self.skipWaiting(). Taking over a page that is
// loading hung that load in Chromium (issue 32: a reload racing the new worker's install and
// activation; docs/PERFORMANCE.md), and a player's first visit after a release is exactly
// that race, since the browser checks for the new worker while the page boots. Until then the
// old worker serves the old release offline, and network first gives the new one online. The
// first install has no page to take over from: clients.claim() makes the open page
// offline-ready at once.
const RUNTIME_CACHE = "nova-runtime-{{RUNTIME_ID}}";
const APP_CACHE = "nova-app-{{BUILD_ID}}";
const HANDOFF = "nova-handoff"; // written by assets/boot.js
const PRECACHE = {{PRECACHE}};

const scope = new URL(self.registration.scope).pathname;
const relative = (url) => {
  const path = new URL(url, self.registration.scope).pathname;
  return path === scope ? "./" : path.startsWith(scope) ? path.slice(scope.length) : null;
};
const cacheFor = (rel) => (rel.startsWith("runtime/") ? RUNTIME_CACHE : APP_CACHE);
const LISTED = new Map(Object.values(PRECACHE).flatMap((group) => Object.entries(group)));

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The response's bytes if they hash to `sha256`, as a response to store; else null.
async function checked(response, sha256) {
  if (!response || !response.ok) return null;
  const bytes = await response.arrayBuffer();
  if (hex(await crypto.subtle.digest("SHA-256", bytes)) !== sha256) return null;
  return new Response(bytes, { status: 200, headers: response.headers });
}

// `page`: the URL the page was opened at (its query string too), the page's own copy of "./".
async function precache(rel, sha256, handoff, page) {
  const cache = await caches.open(cacheFor(rel));
  if (await cache.match(rel)) return; // the runtime of an earlier release
  let response = handoff && (await checked(await handoff.match(rel), sha256));
  for (const url of rel === "./" && page ? [page, rel] : [rel]) {
    if (response) break;
    const cached = await fetch(url, { cache: "only-if-cached", mode: "same-origin" }).catch(() => null);
    response = await checked(cached, sha256);
  }
  if (!response) {
    response = await fetch(new Request(rel, { cache: "no-cache" }));
    if (!response.ok) throw new Error(`${rel}: HTTP ${response.status}`);
  }
  await cache.put(rel, response);
}

const json = (response) => (response ? response.json().catch(() => null) : null);

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const handoff = (await caches.has(HANDOFF)) ? await caches.open(HANDOFF) : null;
      // which boot: the page's word, else the one an earlier release's install kept
      const said = (handoff && (await json(await handoff.match("boot.json")))) ||
        (await json(await caches.match("boot.json")));
      const boot = said && said.boot === "ordinary" ? "ordinary" : "snapshot";
      const page = said && typeof said.page === "string" && relative(said.page) === "./" ? said.page : null;
      const files = { ...PRECACHE.common, ...PRECACHE[boot] };
      await Promise.all(Object.entries(files).map(([rel, sha]) => precache(rel, sha, handoff, page)));
      const app = await caches.open(APP_CACHE);
      await app.put("boot.json", new Response(JSON.stringify({ boot })));
      await caches.delete(HANDOFF); // the page's copies are not kept twice
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
      const runtime = await caches.open(RUNTIME_CACHE);
      for (const request of await runtime.keys()) {
        if (!LISTED.has(relative(request.url))) await runtime.delete(request);
      }
      await self.clients.claim();
    })(),
  );
});

// A listed file not cached yet, cached as it passes if its bytes are this release's.
async function keep(rel, response) {
  const cache = await caches.open(cacheFor(rel));
  if (await cache.match(rel)) return response.body && response.body.cancel();
  const mine = await checked(response, LISTED.get(rel));
  if (mine) await cache.put(rel, mine);
}

// A runtime file or the snapshot, from the network. (A lean boot's look for the snapshot asks
// only for the HTTP cache's copy: that request's `cache` is not read here, since reading it
// crashed Chromium's page under DevTools request interception.)
async function passing(event, request, rel) {
  const response = await fetch(request);
  if (response.ok && LISTED.has(rel)) event.waitUntil(keep(rel, response.clone()).catch(() => null));
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  const rel = relative(url.href);
  if (rel === null) return;
  if (rel.startsWith("runtime/") || rel.startsWith("snapshot/nova-")) {
    event.respondWith(
      caches
        .match(rel, { cacheName: cacheFor(rel) })
        // a hit for a URL with a query (the shim asked for the snapshot, "?snapshot") is answered as that URL:
        // a module reads its query from its own URL, which a cached response would replace
        .then((hit) => (hit ? (url.search ? new Response(hit.body, hit) : hit) : passing(event, request, rel))),
    );
    return;
  }
  event.respondWith(
    (async () => {
      try {
        const response = await fetch(request);
        if (response.ok && url.search === "" && LISTED.has(rel)) {
          event.waitUntil(keep(rel, response.clone()).catch(() => null));
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
