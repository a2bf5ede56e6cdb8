// Template for runtime/pyodide-<v>/nova-shim-<hash>.mjs (tools/build_site.py fills the
// double-brace names). PyScript's `interpreter` points at the generated file, on the page and
// in the bots' worker. PyScript calls loadPyodide() with a few options of its own; we add:
//   indexURL   this versioned directory;
//   stdLibURL  the standard library trimmed to what the game loads, precompiled to .pyc;
//   _loadSnapshot  a Pyodide memory snapshot with the game already imported (private API of
//              the pinned Pyodide), when snapshot/manifest.json says it was made by this
//              Pyodide with this very stdlib zip and its bytes hash right. Otherwise, or if
//              restoring it fails, the ordinary boot: the player sees no difference but time.
import { loadPyodide as load, version } from "./pyodide.mjs";

const base = new URL("./", import.meta.url).href;
const root = new URL("../../", import.meta.url).href;
export { version };
export const stdLibURL = base + "{{STDLIB}}";
const STDLIB_SHA256 = "{{STDLIB_SHA256}}";
const NOVA_ZIP_SHA256 = "{{NOVA_ZIP_SHA256}}";

// What happened, for tests and bench-page: <html data-nova-snapshot="used|none: reason">
// on the page; the worker logs it.
function report(state) {
  try {
    if (typeof document !== "undefined") document.documentElement.dataset.novaSnapshot = state;
  } catch (e) { /* nothing to mark */ }
  console.info("nova: snapshot " + state);
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

// boot.js starts both downloads on the page before PyScript starts (the same code, so that a
// page without boot.js still works); the worker fetches here. A failed download is null,
// never a rejected promise: nothing may reach the page's unhandledrejection handler.
function download() {
  const manifest = fetch(root + "snapshot/manifest.json", { cache: "no-cache" })
    .then((r) => (r.ok ? r.json() : null))
    .catch(() => null);
  const bytes = manifest
    .then((m) =>
      m && typeof m.snapshot === "string" && /^[\w.-]+$/.test(m.snapshot)
        ? fetch(root + "snapshot/" + m.snapshot).then((r) => (r.ok ? r.arrayBuffer() : null))
        : null,
    )
    .catch(() => null);
  return { manifest, bytes };
}

// The snapshot's heap, or null (with the reason reported) when it must not be used.
async function snapshot() {
  try {
    const pending = globalThis.novaSnapshotDownload || download();
    const m = await pending.manifest;
    if (!m) return report("none: no manifest"), null;
    if (m.format !== 1 || m.pyodide !== version) return report("none: other Pyodide"), null;
    if (m.stdlib_sha256 !== STDLIB_SHA256 || m.stdlib !== "{{STDLIB}}") {
      return report("none: made with another standard library"), null;
    }
    if (m.nova_zip_sha256 !== NOVA_ZIP_SHA256) return report("none: made with another game"), null;
    const gz = await pending.bytes;
    if (!gz) return report("none: no snapshot file"), null;
    if (!globalThis.crypto || !crypto.subtle || typeof DecompressionStream === "undefined") {
      return report("none: cannot check it here"), null;
    }
    if (hex(await crypto.subtle.digest("SHA-256", gz)) !== m.snapshot_sha256) {
      return report("none: corrupt (hash)"), null;
    }
    const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream(m.encoding));
    const heap = new Uint8Array(await new Response(stream).arrayBuffer());
    if (heap.length !== m.bytes) return report("none: corrupt (size)"), null;
    return heap;
  } catch (e) {
    report("none: " + ((e && e.message) || e));
    return null;
  }
}

export const loadPyodide = async (options = {}) => {
  const plain = { ...options, indexURL: base, stdLibURL };
  const t0 = performance.now();
  const heap = await snapshot();
  const t1 = performance.now();
  if (heap) {
    try {
      const py = await load({ ...plain, _loadSnapshot: heap });
      // A snapshot restores `random` (and every other state) exactly as it was saved: the
      // same shuffles on every load unless reseeded from the browser's entropy now. Directory
      // listings cached at build time must not hide the files PyScript writes next.
      // (importlib.invalidate_caches() would import importlib.metadata: not in the trimmed
      // stdlib; the directory finders are all that cache listings.)
      py.runPython(
        '__import__("random").seed()\n' +
          "for _f in list(__import__('sys').path_importer_cache.values()):\n" +
          "    if type(_f).__name__ == 'FileFinder': _f.invalidate_caches()\n" +
          "del _f",
      );
      report("used");
      console.info(`nova: snapshot ready ${(t1 - t0).toFixed(0)} ms, restored ${(performance.now() - t1).toFixed(0)} ms, at ${performance.now().toFixed(0)}`);
      return py;
    } catch (e) {
      report("none: restore failed: " + ((e && e.message) || e));
    }
  }
  return load(plain);
};
