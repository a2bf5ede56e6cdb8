// Template for runtime/pyodide-<v>/nova-shim-<hash>.mjs (tools/build_site.py fills the
// double-brace names). PyScript's `interpreter` points at the generated file, on the page and
// in the bots' worker. PyScript calls loadPyodide() with a few options of its own; we add:
//   indexURL   this versioned directory;
//   lockFileContents  the lock file without its package list (the page loads no packages);
//   stdLibURL  the standard library trimmed to what the game loads, precompiled to .pyc;
//              with a snapshot, only the part of it the snapshot has not imported yet;
//   _loadSnapshot  a Pyodide memory snapshot with the game already imported (private API of
//              the pinned Pyodide), when snapshot/manifest.json says it was made by this
//              Pyodide with this very stdlib zip and its bytes hash right, and only when
//              the page asks for it (?snapshot) or it is cached already. Otherwise, or if
//              restoring it fails, the ordinary boot: the player sees no difference but time.
// The snapshot ships as a delta against the wasm module's own initial memory (its data
// segments, tools/snapshot_delta.py): undone here with the same pyodide.asm.wasm that Pyodide
// instantiates (one download, the second fetch is answered by the HTTP cache).
import { loadPyodide as load, version } from "./pyodide.mjs";

// No WebAssembly stack switching (JSPI): Pyodide uses it where the browser has it
// (WebAssembly.Suspending, in Chromium 156), and its Python calls then run on stacks of their own.
// Chromium's heap profiler (on by itself in 1% of browser sessions, 50% outside the stable
// channel, and then in one renderer in ten) samples allocations and walks the stack by
// frame pointers up to the thread's own stack's end: from a JSPI stack it reads past that
// stack's last page and the tab crashes (SIGSEGV, "Target crashed": issue 32,
// docs/PERFORMANCE.md). The game uses nothing JSPI adds (a synchronous wait on a JS promise).
// Pyodide reads these when pyodide.asm.mjs loads, inside load() below.
for (const name of ["Suspending", "Suspender", "promising"]) {
  try {
    delete WebAssembly[name];
  } catch (e) { /* not there */ }
}

// PyScript 0.7.31's worker opens IndexedDB (its package cache) unconditionally, just after
// importing this module and before calling loadPyodide(), and cannot start where the browser
// refuses storage: a third-party iframe with third-party storage blocked, as on the
// publisher's page for many visitors (the bots' worker used to fail there). The game loads no
// packages, so a worker gets the same small in-memory stand-in as the page (assets/boot.js's,
// copied here by tools/build_site.py; the page's own is installed by boot.js, earlier than
// this module runs there): nothing to wait for, nothing to refuse. Nothing of the game uses
// IndexedDB.
{{MEMORY_IDB}}
if (typeof document === "undefined") {
  try {
    Object.defineProperty(globalThis, "indexedDB", { value: memoryIDB, configurable: true });
  } catch (e) {
    try { globalThis.indexedDB.open = memoryIDB.open; } catch (e2) { /* nothing more to try */ }
  }
}

// PyScript 0.7.31 prints a worker's failing script (console.error in the worker) and then
// says the worker is ready, so the page would wait for ever: until the game starts, a Python
// error printed here goes to the page as an Error, which rejects the worker's `ready`
// (assets/boot.js says it in plain words). novaHandOver, called at the start, ends this.
let booting = typeof document === "undefined" && typeof postMessage === "function";
if (booting) {
  const print = console.error;
  console.error = function (...args) {
    const text = args.map((a) => (a && a.message) || String(a)).join(" ");
    if (booting && /PythonError|Traceback/.test(text)) {
      booting = false;
      try {
        postMessage(new Error(text));
      } catch (e) { /* the page waits for its bound */ }
    }
    return print.apply(this, args);
  };
}

const base = new URL("./", import.meta.url).href;
const root = new URL("../../", import.meta.url).href;
export { version };
export const stdLibURL = base + "{{STDLIB}}";
// the trimmed stdlib minus what the snapshot holds (tools/build_site.py stdlib_rest)
const restURL = base + "{{STDLIB_REST}}";
const wasmURL = base + "pyodide.asm.wasm";
const LOCK_JSON = {{LOCK_JSON}};
const STDLIB_SHA256 = "{{STDLIB_SHA256}}";
const NOVA_ZIP_SHA256 = "{{NOVA_ZIP_SHA256}}";

// What happened, for tests and bench-page: <html data-nova-snapshot="used|none: reason">
// on the page; the worker logs it.
function report(state) {
  globalThis.novaSnapshot = state; // a worker's (threads.html: the game's worker tells its page)
  try {
    if (typeof document !== "undefined") document.documentElement.dataset.novaSnapshot = state;
  } catch (e) { /* nothing to mark */ }
  console.info("nova: snapshot " + state);
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The downloads, made here in the game's worker (and in a workbench's). A failed download is
// null, never a rejected promise. A worker that starts after the page is up (the workbench's,
// the game's started again) takes the wasm and the snapshot from Cache Storage when the service
// worker cached them, so that they are not downloaded again (the HTTP cache of an incognito
// window keeps neither). Every visit is lean (the snapshot is 3.5 MB, two fifths of a first
// visit with it: issue 52 chose the boot by bytes) and uses the snapshot only from a cache,
// unless the page's address asks for it (?snapshot: boot.js puts it on this module's URL).
function download() {
  const lean = !new URL(import.meta.url).searchParams.has("snapshot");
  const cached = (url) =>
    Promise.resolve()
      .then(() => (globalThis.caches ? caches.match(url) : null))
      .then((r) => (r && r.ok ? r : null))
      .catch(() => null);
  const manifest = fetch(root + "snapshot/manifest.json", { cache: "no-cache" })
    .then((r) => (r.ok ? r.json() : null))
    .catch(() => null);
  const bytes = manifest
    .then(async (m) => {
      if (!m || typeof m.snapshot !== "string" || !/^[\w.-]+$/.test(m.snapshot)) return null;
      const url = root + "snapshot/" + m.snapshot;
      const r = (await cached(url)) ||
        (await fetch(url, lean ? { cache: "only-if-cached", mode: "same-origin" } : {}));
      return r.ok ? r.arrayBuffer() : null;
    })
    .catch(() => null);
  const wasm = cached(wasmURL);
  return { manifest, bytes, wasm, lean };
}

// What this worker downloaded, for the service worker's first install (assets/boot.js,
// sw.js's HANDOFF cache): the wasm, and the snapshot if this boot used it. The game's worker
// puts them there before its first frame when the page asks (nova/web/game_worker.py), and
// lets them go otherwise.
let kept = null;
globalThis.novaHandOver = async (wanted) => {
  booting = false; // the game started: its errors are its own (the page hears of them)
  const files = kept;
  kept = null;
  if (!wanted || !files || !globalThis.caches) return false;
  try {
    const cache = await caches.open("nova-handoff");
    const [wasm, gz] = await Promise.all([files.wasm(), files.snapshot && files.snapshot.bytes]);
    const puts = [];
    if (wasm) puts.push(cache.put(wasmURL, new Response(wasm, { headers: { "Content-Type": "application/wasm" } })));
    if (gz) puts.push(cache.put(files.snapshot.url, new Response(gz, { headers: { "Content-Type": "application/gzip" } })));
    await Promise.all(puts);
    return true;
  } catch (e) {
    return false; // the install downloads them again
  }
};

// Pyodide instantiates pyodide.asm.wasm with WebAssembly.instantiateStreaming: with a
// snapshot, `ready` holds that back until the snapshot's bytes are in place (Pyodide reads
// them just after). The wrapper removes itself at once.
function holdInstantiation(ready) {
  const real = WebAssembly.instantiateStreaming;
  const hold = { restore: () => (WebAssembly.instantiateStreaming = real) };
  WebAssembly.instantiateStreaming = async function (source, imports) {
    hold.restore();
    const [response] = await Promise.all([source, ready]);
    return real.call(WebAssembly, response, imports);
  };
  return hold;
}

// pyodide.asm.wasm as downloaded (or as bytes read from such a download: no URL)
const ours = (response) => response.url === wasmURL || response.url === "";

// Pyodide fetches pyodide.asm.wasm itself, at the start of loadPyodide, and compiles it while
// it streams; undoing the snapshot's delta needs the same bytes. So that a first visit
// downloads them once, Pyodide's fetch of that one URL gets the response `early` (the copy in
// Cache Storage, or bytes already read) or its own, and we can read a clone of it. The
// wrapper removes itself at once.
function shareWasm(early) {
  const realFetch = globalThis.fetch;
  const tee = { called: false, bytes: null, restore: () => (globalThis.fetch = realFetch) };
  globalThis.fetch = function (input, init) {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input && input.url;
    if (url !== wasmURL) return realFetch.call(this, input, init);
    tee.restore();
    tee.called = true;
    const response = Promise.resolve(early)
      .catch(() => null)
      .then((r) => (r && r.ok && !r.bodyUsed && ours(r) ? r : realFetch.call(globalThis, input, init)));
    // registered before Pyodide awaits the response, so the clone is taken before it reads;
    // read only if asked for (the snapshot's delta, the hand-over to the service worker)
    const copy = response.then((r) => (r.ok ? r.clone() : null)).catch(() => null);
    let bytes = null;
    Object.defineProperty(tee, "bytes", {
      get: () => (bytes ??= copy.then((c) => c && c.arrayBuffer()).catch(() => null)),
    });
    return response;
  };
  return tee;
}

// A reason the snapshot is not used, as opposed to an error while restoring it.
class Refused extends Error {}

// XOR the heap's first bytes with the wasm's active data segments (what instantiating the
// module puts in memory): undoes the build's delta. Throws on anything it does not expect.
function undoDelta(heap, wasmBytes) {
  const w = new Uint8Array(wasmBytes);
  const start = new DataView(heap.buffer, heap.byteOffset, 8).getUint32(4, true);
  let i = 8;
  const leb = () => {
    let value = 0, scale = 1, b;
    do {
      b = w[i++];
      value += (b & 0x7f) * scale;
      scale *= 128;
    } while (b & 0x80);
    return value;
  };
  if (w[0] !== 0 || w[1] !== 0x61 || w[2] !== 0x73 || w[3] !== 0x6d) throw new Error("not wasm");
  let end = 0;
  while (i < w.length) {
    const id = w[i++];
    const size = leb();
    const next = i + size;
    if (id === 11) {
      for (let n = leb(); n > 0; n--) {
        if (leb() !== 0 || w[i++] !== 0x41) throw new Error("data segment kind");
        const off = leb();
        if (w[i++] !== 0x0b) throw new Error("data segment offset");
        const len = leb();
        const at = start + off;
        if (at + len > heap.length) throw new Error("data segment outside the heap");
        for (let j = 0; j < len; j++) heap[at + j] ^= w[i + j];
        i += len;
        end = Math.max(end, off + len);
      }
    }
    i = next;
  }
  return heap.subarray(start, start + end);
}

// The heap from the pages the file holds (tools/snapshot_delta.py pack_pages): each run of
// [offset, length] in place, in order; the pages between them are zeros (`heap` is new).
function unpackPages(packed, runs, size, heap = new Uint8Array(size)) {
  let at = 0, end = 0;
  for (const run of Array.isArray(runs) ? runs : []) {
    const [offset, length] = run;
    if (!(Number.isInteger(offset) && Number.isInteger(length) && offset >= end && length > 0 &&
        offset + length <= size && at + length <= packed.length)) {
      throw new Refused("corrupt (pages)");
    }
    heap.set(packed.subarray(at, at + length), offset);
    at += length;
    end = offset + length;
  }
  if (at !== packed.length) throw new Refused("corrupt (pages)");
  return heap;
}

// The manifest, if the snapshot it names may be used with this runtime, else null (reported).
function usable(m) {
  if (!m) return report("none: no manifest"), null;
  if (![1, 2, 3].includes(m.format) || m.pyodide !== version) return report("none: other Pyodide"), null;
  if (m.stdlib_sha256 !== STDLIB_SHA256 || m.stdlib !== "{{STDLIB}}") {
    return report("none: made with another standard library"), null;
  }
  if (m.nova_zip_sha256 !== NOVA_ZIP_SHA256) return report("none: made with another game"), null;
  if (m.delta && (m.delta !== "xor-wasm-data" || m.stdlib_rest !== "{{STDLIB_REST}}")) {
    return report("none: made with another build"), null;
  }
  if (!(Number.isInteger(m.bytes) && m.bytes > 0 && m.bytes <= 2 ** 32)) {
    return report("none: corrupt (size)"), null;
  }
  if (!globalThis.crypto || !crypto.subtle || typeof DecompressionStream === "undefined") {
    return report("none: cannot check it here"), null;
  }
  return m;
}

// The snapshot's heap, checked and with its delta undone, written into `heap` (new, m.bytes
// long, all zeros); throws Refused when it must not be used.
async function fill(heap, m, pending, tee) {
  const gz = await pending.bytes;
  if (!gz) throw new Refused("no snapshot file");
  if (hex(await crypto.subtle.digest("SHA-256", gz)) !== m.snapshot_sha256) {
    throw new Refused("corrupt (hash)");
  }
  const runs = m.format === 3 ? m.runs : null;
  const size = runs ? m.packed_bytes : m.bytes;
  const inflated = new Uint8Array(
    await new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream(m.encoding))).arrayBuffer(),
  );
  if (inflated.length !== size || heap.length !== m.bytes) throw new Refused("corrupt (size)");
  if (runs) unpackPages(inflated, runs, m.bytes, heap);
  else heap.set(inflated);
  if (m.delta) {
    // Pyodide asked for the wasm long before this (else: fetch it here, never wait forever)
    const wasm = await (tee && tee.called
      ? tee.bytes
      : fetch(wasmURL).then((r) => (r.ok ? r.arrayBuffer() : null)).catch(() => null));
    if (!wasm) throw new Refused("no wasm to undo the delta with");
    let restored;
    try {
      restored = undoDelta(heap, wasm);
    } catch (e) {
      throw new Refused("delta: " + e.message);
    }
    if (restored.length !== m.delta_bytes ||
        hex(await crypto.subtle.digest("SHA-256", restored)) !== m.static_sha256) {
      throw new Refused("corrupt (delta)");
    }
  }
}

// The ordinary boot: Pyodide with the whole trimmed stdlib, and the game's package unpacked
// where PyScript unpacks its [files] (which hold only the data files: a snapshot has the
// modules in its heap already), with the same call PyScript makes.
async function ordinary(plain) {
  const [py, zip] = await Promise.all([
    load(plain),
    fetch(root + "nova.zip").then((r) => {
      if (!r.ok) throw new Error(`nova.zip: HTTP ${r.status}`);
      return r.arrayBuffer();
    }),
  ]);
  py.unpackArchive(new Uint8Array(zip), "zip", { extractDir: "./" });
  return py;
}

export const loadPyodide = async (options = {}) => {
  const plain = { ...options, indexURL: base, stdLibURL };
  // no packages are loaded: the lock file's "info" without its 357 packages (build_site.py)
  if (!options.lockFileURL && !options.lockFileContents) plain.lockFileContents = LOCK_JSON;
  const t0 = performance.now();
  let m = null, pending = null;
  try {
    pending = download();
    m = usable(await pending.manifest);
  } catch (e) {
    report("none: " + ((e && e.message) || e));
  }
  if (m && pending.lean && !(await pending.bytes)) {
    report("none: lean visit, not cached yet");
    m = null;
  }
  if (m) {
    const tee = shareWasm(pending.wasm);
    let held = null;
    try {
      // Pyodide sizes the module's memory by the snapshot's length and reads its bytes only
      // once the module is instantiated: it gets the right length at once (zeros), so that it
      // sets the module up while the snapshot is still arriving and being unpacked, and the
      // instantiation waits for the bytes. If they are refused, that load never goes on (it
      // is dropped) and the race below ends it. (A heap that cannot be allocated: the
      // ordinary boot, below.)
      const heap = new Uint8Array(m.bytes);
      const filled = fill(heap, m, pending, tee);
      filled.catch(() => null); // handled through the race; never an unhandled rejection
      const never = () => new Promise(() => {});
      held = holdInstantiation(filled.then(() => true, never));
      const py = await Promise.race([
        load({
          ...plain,
          // what the snapshot has not imported yet (format 1 manifests: the whole trimmed stdlib)
          stdLibURL: m.delta ? restURL : stdLibURL,
          _loadSnapshot: heap,
        }),
        filled.then(never),
      ]);
      // A snapshot restores `random` (and every other state) exactly as it was saved: the
      // same shuffles on every load unless reseeded from the browser's entropy now. Directory
      // listings cached at build time must not hide the files PyScript writes next.
      // (importlib.invalidate_caches() would import importlib.metadata: not in the trimmed
      // stdlib; the directory finders are all that cache listings.) The stdlib zip's importer
      // read the table of contents of the zip the snapshot was made with: this page mounted
      // the smaller rest of it at the same path, so it must read the table again.
      py.runPython(
        '__import__("random").seed()\n' +
          "for _f in list(__import__('sys').path_importer_cache.values()):\n" +
          "    if type(_f).__name__ in ('FileFinder', 'zipimporter'): _f.invalidate_caches()\n" +
          "del _f",
      );
      report("used");
      kept = { wasm: () => tee.bytes, snapshot: { url: root + "snapshot/" + m.snapshot, bytes: pending.bytes } };
      console.info(`nova: snapshot restored in ${(performance.now() - t0).toFixed(0)} ms of loadPyodide, at ${performance.now().toFixed(0)}`);
      return py;
    } catch (e) {
      const why = (e && e.message) || String(e);
      report("none: " + (e instanceof Refused ? why : "restore failed: " + why));
    } finally {
      tee.restore();
      if (held) held.restore();
    }
    if (tee.called) {
      // the ordinary boot with the wasm already downloaded (a second fetch may not hit the cache)
      const bytes = tee.bytes.then((b) => b && new Response(b, { headers: { "Content-Type": "application/wasm" } }));
      return shared(plain, bytes);
    }
  }
  // the ordinary boot, with the wasm from Cache Storage if it is there
  return shared(plain, pending && pending.wasm);
};

async function shared(plain, wasm) {
  const tee = shareWasm(wasm);
  try {
    const py = await ordinary(plain);
    if (tee.called) kept = { wasm: () => tee.bytes, snapshot: null };
    return py;
  } finally {
    tee.restore();
  }
}
