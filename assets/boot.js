// Boot glue (the only page JS besides taps.js and the service worker): the game's worker's
// start (the snapshot's boot when asked for, a failure said in plain words with a way to try
// again), progress text, storage for page.py, in-place updates, the board's pinch, and the
// service worker for offline play (top-level page only, registered once the game is up) with
// the snapshot fetched for a returning player's next visits.
const body = document.body;

// Embedded in someone else's page (?embed, or simply framed): the compact layout
// (game.css, html.nova-embed), also for the first screen shown while Python starts.
try {
  if (new URLSearchParams(location.search).has("embed") || window.top !== window.self) {
    document.documentElement.classList.add("nova-embed");
  }
} catch (e) {
  document.documentElement.classList.add("nova-embed"); // a cross-origin top throws: framed
}

// PyScript 0.7.31 opens IndexedDB (its package cache) unconditionally and cannot start when the
// browser refuses storage: a third-party iframe with third-party storage blocked, as on the
// publisher's page for many visitors. This page loads no packages, so PyScript always gets a
// small in-memory stand-in: nothing to wait for, nothing to refuse. (A probe of the real
// database used to decide, but PyScript now reads its config inline and opens the database
// before any probe can answer.) The game's and the workbench's workers get the same stand-in
// from the interpreter shim (tools/build_site.py copies the lines between the markers there).
// memory-idb: begin
const memoryIDB = (() => {
  const later = (req, compute) => setTimeout(() => {
    try {
      req.result = compute();
      req.readyState = "done";
      if (req.onsuccess) req.onsuccess({ type: "success", target: req });
    } catch (error) {
      req.error = error;
      if (req.onerror) req.onerror({ type: "error", target: req });
    }
  }, 0);
  const request = (compute) => {
    const req = { result: undefined, error: null, readyState: "pending", onsuccess: null, onerror: null };
    later(req, compute);
    return req;
  };
  const stores = new Map();
  const objectStore = (map) => ({
    count: () => request(() => map.size),
    clear: () => request(() => map.clear()),
    delete: (k) => request(() => void map.delete(k)),
    get: (k) => request(() => map.get(k)),
    getKey: (k) => request(() => (map.has(k) ? k : undefined)),
    getAll: () => request(() => [...map.values()]),
    getAllKeys: () => request(() => [...map.keys()]),
    put: (v, k) => request(() => (map.set(k, v), k)),
    add: (v, k) => request(() => (map.set(k, v), k)),
  });
  const database = (name) => {
    const db = stores.get(name) || { names: new Map() };
    stores.set(name, db);
    const store = (s) => db.names.get(s) || db.names.set(s, new Map()).get(s);
    return {
      name,
      get objectStoreNames() {
        return Object.assign([...db.names.keys()], { contains: (s) => db.names.has(s) });
      },
      createObjectStore: (s) => objectStore(store(s)),
      transaction: () => {
        const tx = { objectStore: (s) => objectStore(store(s)), oncomplete: null, onerror: null };
        setTimeout(() => tx.oncomplete && tx.oncomplete({ type: "complete", target: tx }), 0);
        return tx;
      },
      close() {},
    };
  };
  return {
    open(name) {
      const fresh = !stores.has(name);
      const db = database(name);
      const req = { result: db, error: null, readyState: "pending", onsuccess: null,
        onerror: null, onupgradeneeded: null, onblocked: null, transaction: null };
      setTimeout(() => {
        if (fresh && req.onupgradeneeded) {
          const tx = { oncomplete: null };
          req.transaction = tx;
          req.onupgradeneeded({ type: "upgradeneeded", target: req });
          if (tx.oncomplete) tx.oncomplete({ type: "complete", target: tx });
        }
        req.readyState = "done";
        if (req.onsuccess) req.onsuccess({ type: "success", target: req });
      }, 0);
      return req;
    },
    deleteDatabase(name) {
      return request(() => void stores.delete(name));
    },
  };
})();
// memory-idb: end

try {
  Object.defineProperty(window, "indexedDB", { value: memoryIDB, configurable: true });
} catch (e) {
  try { window.indexedDB.open = memoryIDB.open; } catch (e2) { /* nothing more to try */ }
}

const box = document.getElementById("nova-boot");
const text = box && box.querySelector(".nova-boot-text");
const t0 = performance.now();

// The game could not start (or its worker could not start again): what went wrong is for the
// developer (the attribute, the console); the person reads words and can try again (a reload:
// every save is in storage, nothing is lost). `during`: the game was on (its box shows again).
// `own`: the worker's own error, which replaces a message that only said it did not start.
function failed(message, during, own) {
  const msg = String(message || "Python failed to start").slice(0, 2000);
  if (own && body.hasAttribute("data-nova-error")) body.setAttribute("data-nova-error", msg);
  if (body.hasAttribute("data-nova-error") || (body.hasAttribute("data-nova-ready") && !during)) return;
  body.setAttribute("data-nova-error", msg);
  if (text) {
    text.textContent = during
      ? "The game stopped and could not start again. Your saved games are kept: try again."
      : "The game could not start in this browser. Your saved games are kept: try again, or reload the page later.";
    const again = document.createElement("button");
    again.type = "button";
    again.className = "primary nova-retry";
    again.setAttribute("data-nova-retry", "");
    again.textContent = "Try again";
    again.addEventListener("click", () => location.reload());
    text.after(again);
  }
  console.warn("nova: the game could not start:", msg);
}
window.novaFailed = failed; // page.py: the worker not up in time, or not up again
// A Content-Security-Policy without 'unsafe-eval' (PyScript 0.7.31 builds its hooks with
// Function()): the browser's violation report names it for certain, where PyScript may catch
// the EvalError and fail later on something else (its CDN fallback, refused too)
addEventListener("securitypolicyviolation", (e) => {
  if (e.blockedURI === "eval") {
    failed("the Content-Security-Policy refused 'unsafe-eval' (" + e.violatedDirective + ")", false, true);
  }
});

// The game's worker (index.html's <script type="py" worker name="nova-game">, its config
// inline). Every visit boots lean, without the memory snapshot unless it is cached, but an
// address with ?snapshot downloads it: the worker cannot read the page's address, so the
// interpreter shim's own URL says it (tools/nova-shim.mjs reads ?snapshot there).
// And PyScript waits for ever for a worker whose Python fails: the worker's `ready` rejects
// with the error, which is said here.
const gameWorker = document.querySelector('script[worker][name="nova-game"]');
try {
  if (new URLSearchParams(location.search).has("snapshot") && gameWorker) {
    const config = JSON.parse(gameWorker.getAttribute("config"));
    // (absolute: PyScript resolves only a path that ends in .mjs against the page)
    config.interpreter = new URL(config.interpreter, location.href).href + "?snapshot";
    gameWorker.setAttribute("config", JSON.stringify(config));
  }
} catch (e) { /* lean */ }
(function watchWorker(tries) {
  const xworker = gameWorker && gameWorker.xworker;
  if (xworker && xworker.ready) {
    xworker.ready.catch((e) => failed((e && (e.message || String(e))) || "the game's worker failed", false, true));
  } else if (gameWorker && tries > 0) {
    setTimeout(() => watchWorker(tries - 1), 50); // PyScript has not made it yet
  }
})(1200);

// PyScript reports its start-up stages ("Loading Pyodide", "Loaded Pyodide", ...).
addEventListener("py:progress", (e) => {
  if (text && typeof e.detail === "string") {
    text.textContent = e.detail + "… (" + ((performance.now() - t0) / 1000).toFixed(1) + " s)";
  }
});
// Offline play: the service worker caches what this boot loaded. Not inside an iframe (the
// publisher embeds the game; browsers refuse or partition it there), and a refused
// registration must never break the page. So that its first install downloads nothing twice,
// the page first hands over (sw.js's HANDOFF cache) which boot it took, and the game's worker
// the two big files it holds in memory (the wasm and the snapshot: an HTTP cache may not keep
// files that big), before its first frame (page.py asks it to with `start` when
// novaFirstInstall says so); the install takes every other file from the HTTP cache.
const offline = () => {
  try {
    return window.top === window.self && "serviceWorker" in navigator && Boolean(window.caches) &&
      !new URLSearchParams(location.search).has("embed");
  } catch (e) {
    return false;
  }
};
// will this visit install the service worker for the first time? (page.py reads it)
window.novaFirstInstall = offline()
  ? navigator.serviceWorker.getRegistration().then((r) => !r).catch(() => false)
  : Promise.resolve(false);
async function handOver() {
  const booted = (document.documentElement.dataset.novaSnapshot || "") === "used" ? "snapshot" : "ordinary";
  const cache = await caches.open("nova-handoff");
  const page = location.pathname + location.search; // "./" as the HTTP cache has it
  await cache.put("boot.json", new Response(JSON.stringify({ boot: booted, page })));
}
// A new release's worker, once installed, waits until no page uses the old one (sw.js says
// why): <body data-nova-release="waiting"> says that one is ready for the next visit.
function watchForRelease(registration) {
  const say = () => {
    if (registration.waiting && registration.active) body.setAttribute("data-nova-release", "waiting");
  };
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    if (worker) worker.addEventListener("statechange", say);
  });
  say();
}
// A returning player's later visits boot from the memory snapshot (about a second sooner on
// this machine, more on a phone's CPU): on a visit that the installed service worker
// controls, a while after the game is up, the snapshot its release lists (its own copy of the
// manifest) and the rest of the standard library are fetched in the background, and sw.js
// keeps them as they pass (a listed file whose bytes are its release's). Never on a first
// visit (issue 52 counts its bytes: the lean boot), in a frame (no service worker), offline,
// or where the browser asks to save data.
async function prefetchSnapshot() {
  const c = navigator.connection;
  if ((c && c.saveData) || !navigator.onLine || !navigator.serviceWorker.controller) return;
  const at = (rel) => new URL(rel, location.href).href;
  const listed = await caches.match(at("snapshot/manifest.json"));
  const m = listed && (await listed.json().catch(() => null));
  const name = /^[\w.-]+$/;
  if (!m || !name.test(m.snapshot || "") || !name.test(m.stdlib_rest || "") || typeof m.wasm !== "string") return;
  const dir = m.wasm.slice(0, m.wasm.lastIndexOf("/") + 1);
  for (const rel of ["snapshot/" + m.snapshot, dir + m.stdlib_rest]) {
    if (!(await caches.match(at(rel)))) await (await fetch(at(rel))).arrayBuffer();
  }
  console.info("nova: the snapshot is cached for the next visit");
}
const PREFETCH_AFTER_MS = 3000; // the game's first frames first
function registerServiceWorker() {
  try {
    if (!offline()) return;
    // only for a first install: an installed worker has the files (and would leave a hand-over
    // of 13 MB behind unread)
    let returning = false;
    navigator.serviceWorker
      .getRegistration()
      .then((installed) => {
        returning = Boolean(installed && installed.active);
        return installed || handOver();
      })
      .catch((e) => console.info("nothing handed over to the service worker:", e))
      .then(() => navigator.serviceWorker.register("./sw.js"))
      .then(watchForRelease)
      .then(() => {
        if (returning) {
          const later = () => prefetchSnapshot().catch((e) => console.info("no snapshot for later:", e));
          setTimeout(later, PREFETCH_AFTER_MS);
        }
      })
      .catch((e) => console.info("no offline mode:", e));
  } catch (e) {
    console.info("no offline mode:", e);
  }
}
// PyScript shows start-up and Python errors as <div class="py-error"> in the body.
let registered = false;
new MutationObserver((records) => {
  if (!registered && body.hasAttribute("data-nova-ready")) {
    registered = true;
    registerServiceWorker();
  }
  for (const r of records) {
    for (const n of r.addedNodes) {
      if (n.nodeType === 1 && n.classList.contains("py-error")) failed(n.textContent);
    }
  }
}).observe(body, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-nova-ready"] });
addEventListener("error", (e) => {
  if (e.message && /PythonError|pyodide|pyscript|wasm/i.test(e.message + (e.filename || ""))) {
    failed(e.message);
  }
});
addEventListener("unhandledrejection", (e) => {
  const r = e.reason;
  failed((r && (r.message || String(r))) || "unhandled error while starting");
});

// In-place page updates (page.py): the game's worker renders the screen as markup and Idiomorph
// (pinned, self-hosted) morphs the page to it, keeping every element that stays (ids key
// ships, spaces, cards and controls), so nothing under the pointer is swapped out between a
// press and its release. An element marked data-nova-keep="KEY" (the board's unchanging
// layer, the share panel) is left as it is while its key stays the same: a JS callback,
// because Idiomorph asks it about every node and a call into Python each time would cost more
// than the morph itself.
// novaMorph returns true when the morph went as planned; false when an elided part
// (data-nova-elided: "you already show this") found no shown element with its key, so the
// page must send the whole markup again (nova/render/keep.py, nova/web/host.py).
// keepActive (a frame comes a moment after the event, maybe while the person types in a
// field): the focused field's value is left as it is. Only a field's: Idiomorph leaves the
// active element's children alone too, so a focused button (the Cargo Bay just tapped, the
// next Shard's button now) kept its old words and points.
window.novaMorph = (root, html, keepActive) => {
  let ok = true;
  const a = document.activeElement;
  const typing = !!keepActive && !!a &&
    (a.tagName === "INPUT" || a.tagName === "TEXTAREA" || a.tagName === "SELECT" || a.isContentEditable);
  const kept = (old, next) =>
    old.nodeType === 1 && next.nodeType === 1 && old.hasAttribute("data-nova-keep") &&
    old.getAttribute("data-nova-keep") === next.getAttribute("data-nova-keep");
  window.Idiomorph.morph(root, html, {
    morphStyle: "innerHTML",
    ignoreActiveValue: typing,
    callbacks: {
      beforeNodeMorphed: (old, next) => {
        if (kept(old, next)) return false;
        if (next.nodeType === 1 && next.hasAttribute("data-nova-elided")) ok = false;
        return true;
      },
      beforeNodeAdded: (node) => {
        if (node.nodeType === 1 && (node.hasAttribute("data-nova-elided") ||
            (node.querySelector && node.querySelector("[data-nova-elided]")))) ok = false;
        return true;
      },
    },
  });
  return ok;
};

// A new screen (leaving the menu: Start, Learn to play, the workbench) keeps nothing of the
// old one but its keyed parts (the rules help's text): the markup is set at once and each
// elided part takes back the shown element with its key. Idiomorph matching two unrelated
// trees, and the layout it forced on removing the focused Start button, made this frame the
// one long task while the bots play (docs/PERFORMANCE.md). false, as novaMorph's: an elided
// part found no shown element with its key.
window.novaReplace = (root, html) => {
  const shown = new Map();
  for (const e of root.querySelectorAll("[data-nova-keep]")) shown.set(e.getAttribute("data-nova-keep"), e);
  root.innerHTML = html;
  let ok = true;
  for (const hole of root.querySelectorAll("[data-nova-elided]")) {
    const old = shown.get(hole.getAttribute("data-nova-keep"));
    if (old) hole.replaceWith(old);
    else ok = false;
  }
  return ok;
};

// The page (page.py, MicroPython) reads and writes storage through these: where
// the browser denies storage (a third-party frame), reading `localStorage` throws, and
// MicroPython's FFI does not hand that exception to Python's `try`.
window.novaStorage = {
  // the nova keys as JSON, or "null" where storage is off
  items() {
    try {
      // readable is on: a full storage still reads
      const ls = window.localStorage;
      if (!ls || typeof ls.getItem !== "function") return "null";
      const out = {};
      for (let i = 0; i < ls.length; i++) {
        const k = ls.key(i);
        if (k && k.startsWith("nova")) out[k] = ls.getItem(k);
      }
      return JSON.stringify(out);
    } catch (e) {
      return "null";
    }
  },
  // "" if a write goes through, else the error's name (full: QuotaExceededError)
  probe() {
    try {
      window.localStorage.setItem("nova:probe", "1");
      window.localStorage.removeItem("nova:probe");
      return "";
    } catch (e) {
      return String((e && e.name) || e);
    }
  },
  // "" once written (value null: removed), else the error's name
  write(key, value) {
    try {
      if (value === null || value === undefined) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, value);
      return "";
    } catch (e) {
      return String((e && e.name) || e);
    }
  },
};

// The board's own pinch and double tap on a phone (the page itself is one screen that never
// zooms): two fingers scale the board around their midpoint; a double tap on the board (not
// on a choice) zooms in there, or back out to the whole board. The player's zoom stays
// through redraws (a bot's move, a message) until the board asks for something else, whose
// choices the page then frames again (nova/render/zoom.py, whose MAX_SCALE is MAX_ZOOM here):
// page.py asks novaUserZoom(stage) first.
(() => {
  const MAX_ZOOM = 4;
  const PHONE_PX = 700; // page.py's PHONE_MAX_PX
  let pinch = null;
  let lastTap = null;
  let mine = null; // the player's zoom: {spec (what the board asked), scale, left, top}
  const specOf = (stage) => stage.getAttribute("data-zoom") || "";
  const remember = (wrap) => {
    mine = { spec: specOf(stageOf(wrap)), scale: scaleOf(wrap),
      left: wrap.scrollLeft, top: wrap.scrollTop };
  };
  window.novaUserZoom = (stage) => {
    if (!mine || !stage || mine.spec !== specOf(stage) || innerWidth > PHONE_PX) {
      mine = null;
      return false;
    }
    const wrap = stage.parentElement;
    wrap.classList.add("zoomed");
    stage.style.setProperty("--zs", mine.scale.toFixed(3));
    wrap.scrollLeft = mine.left;
    wrap.scrollTop = mine.top;
    return true;
  };
  const wrapOf = (e) => (e.target.closest ? e.target.closest(".board-wrap") : null);
  const stageOf = (wrap) => wrap.querySelector(".board-stage");
  const scaleOf = (wrap) => (wrap.classList.contains("zoomed")
    ? parseFloat(stageOf(wrap).style.getPropertyValue("--zs")) || 1 : 1);
  // the board's square on screen (unzoomed, the SVG letterboxes it in its window)
  const square = (wrap) => {
    const r = wrap.querySelector("svg.board").getBoundingClientRect();
    const side = Math.min(r.width, r.height);
    return { left: r.left + (r.width - side) / 2, top: r.top + (r.height - side) / 2, side };
  };
  // scale the board, keeping the board's point under (x, y) where it is
  const zoomTo = (wrap, scale, x, y) => {
    const stage = stageOf(wrap);
    if (!stage || !wrap.querySelector("svg.board")) return;
    const before = square(wrap);
    const fx = (x - before.left) / before.side;
    const fy = (y - before.top) / before.side;
    wrap.classList.add("zoomed");
    stage.style.setProperty("--zs", Math.min(MAX_ZOOM, Math.max(1, scale)).toFixed(3));
    const after = square(wrap);
    wrap.scrollLeft += after.left + fx * after.side - x;
    wrap.scrollTop += after.top + fy * after.side - y;
  };
  const apart = (a, b) => Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY);
  const onPhone = () => innerWidth <= PHONE_PX;
  document.addEventListener("touchstart", (e) => {
    const wrap = wrapOf(e);
    if (!wrap || !onPhone() || e.touches.length !== 2) return;
    pinch = { wrap, apart: Math.max(apart(e.touches[0], e.touches[1]), 1), scale: scaleOf(wrap) };
    lastTap = null;
    e.preventDefault();
  }, { passive: false });
  document.addEventListener("touchmove", (e) => {
    if (!pinch || e.touches.length !== 2) return;
    const [a, b] = [e.touches[0], e.touches[1]];
    zoomTo(pinch.wrap, pinch.scale * apart(a, b) / pinch.apart,
      (a.clientX + b.clientX) / 2, (a.clientY + b.clientY) / 2);
    e.preventDefault();
  }, { passive: false });
  document.addEventListener("touchend", (e) => {
    if (pinch) {
      if (e.touches.length < 2) {
        remember(pinch.wrap);
        pinch = null;
      }
      return;
    }
    const wrap = wrapOf(e);
    if (!wrap || !onPhone() || e.touches.length || e.changedTouches.length !== 1) return;
    if (e.target.closest("[data-move],[data-alt-move]")) {
      lastTap = null;
      return;
    }
    const t = e.changedTouches[0];
    const now = performance.now();
    if (lastTap && now - lastTap.at < 400 && apart(t, lastTap.touch) < 30) {
      zoomTo(wrap, scaleOf(wrap) > 1.2 ? 1 : 2.5, t.clientX, t.clientY);
      remember(wrap);
      lastTap = null;
      e.preventDefault(); // no click: the second tap only zooms
    } else {
      lastTap = { at: now, touch: { clientX: t.clientX, clientY: t.clientY } };
    }
  }, { passive: false });
  // a long press on a card (a touch screen's context menu) shows its rulebook text until
  // the next touch; a tap plays or picks and leaves no text over the screen (game.css)
  document.addEventListener("contextmenu", (e) => {
    const card = e.target.closest ? e.target.closest(".card, .academy-pick") : null;
    if (card) card.setAttribute("data-nova-tip", "");
  });
  document.addEventListener("pointerdown", () => {
    for (const el of document.querySelectorAll("[data-nova-tip]")) el.removeAttribute("data-nova-tip");
  }, { capture: true });
})();
