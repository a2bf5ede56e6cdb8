// The boot's big downloads, started first thing in <head> (a small classic script, fetched at
// high priority), seconds before PyScript and Pyodide ask for them. The interpreter shim
// (tools/nova-shim.mjs) takes them from window.novaSnapshotDownload and checks everything that
// arrives; a failure here is null, never an error: the shim then fetches for itself.
//   wasm       pyodide.asm.wasm as a response for Pyodide's own fetch (nothing reads it)
//   wasmBytes  its bytes (undoing the snapshot's delta reads them; boot.js hands them over to the
//              service worker's precache), from wasmURL
//   module     that wasm compiled as it streamed in (Pyodide would compile it again, later)
//   manifest   snapshot/manifest.json: which memory snapshot belongs to this build
//   bytes      the snapshot file the manifest names (gzipped pages of a delta), or null
//   heap       those bytes inflated (unchecked: the shim hashes `bytes` and places the pages)
// The URLs are on this <script>: the wasm, and the snapshot the page was built with (one round
// trip sooner than the manifest, the authority: when it names another file, that one is used).
// Compiling the wasm and inflating the snapshot would keep the main thread busy for a quarter
// of a second on a slow machine (issue 13) while PyScript starts there: each download, and the
// work on it, runs in a worker of its own (another core), or here if no worker can start.
// A lean visit (a slow or metered connection as the browser reports it, or ?lean) uses the
// snapshot only if it is cached already, and never downloads it: the ordinary boot transfers
// 2 MB less (docs/PERFORMANCE.md). A later visit that is not lean fetches it.
(() => {
  // the jobs run in a worker, so they name nothing outside themselves
  const wasmJob = async (url) => {
    const r = await fetch(url);
    if (!r.ok) return null;
    const [module, bytes] = await Promise.all([WebAssembly.compileStreaming(r.clone()), r.arrayBuffer()]);
    return { module, bytes };
  };
  const snapshotJob = async (url, lean) => {
    const r = await fetch(url, lean ? { cache: "only-if-cached", mode: "same-origin" } : {});
    if (!r.ok) return null;
    const gz = await r.arrayBuffer();
    const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"));
    return { gz, heap: await new Response(stream).arrayBuffer().catch(() => null) };
  };
  const offThread = (job, ...args) => {
    const here = () => job(...args).catch(() => null);
    try {
      const code = "const job = " + job + ";\nonmessage = async (e) => { try { const out = await job(...e.data);" +
        " postMessage(out, out ? [out.bytes || out.gz, out.heap].filter(Boolean) : []); }" +
        " catch (err) { postMessage(null); } };";
      const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
      const worker = new Worker(url);
      return new Promise((resolve) => {
        worker.onmessage = (e) => resolve(e.data);
        worker.onerror = () => resolve(here());
        worker.postMessage(args);
      }).finally(() => {
        worker.terminate();
        URL.revokeObjectURL(url);
      });
    } catch (e) {
      return here();
    }
  };
  try {
    const script = document.currentScript;
    const data = (script && script.dataset) || {};
    const named = (name) => typeof name === "string" && /^[\w.-]+$/.test(name);
    const absolute = (path) => new URL(path, location.href).href;
    let lean = false;
    try {
      const c = navigator.connection;
      lean = new URLSearchParams(location.search).has("lean") ||
        Boolean(c && (c.saveData || ["slow-2g", "2g", "3g"].includes(c.effectiveType)));
    } catch (e) { /* not lean */ }

    const wasmOK = typeof data.wasm === "string" && /^[\w./-]+\.wasm$/.test(data.wasm) &&
      !data.wasm.includes("..") && WebAssembly.compileStreaming;
    const compiled = (wasmOK ? offThread(wasmJob, absolute(data.wasm)) : Promise.resolve(null)).catch(() => null);
    const module = compiled.then((c) => (c && c.module) || null);
    const wasmBytes = compiled.then((c) => (c && c.bytes) || null);
    const wasm = wasmBytes.then((b) => b && new Response(b, { headers: { "Content-Type": "application/wasm" } }));

    const manifest = fetch("snapshot/manifest.json", { cache: "no-cache" })
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null);
    const first = named(data.snapshot) && typeof DecompressionStream !== "undefined"
      ? offThread(snapshotJob, absolute("snapshot/" + data.snapshot), lean).catch(() => null)
      : null;
    const got = manifest
      .then((m) => {
        if (!m || !named(m.snapshot)) return null;
        if (first && m.snapshot === data.snapshot && m.encoding === "gzip") return first;
        return fetch("snapshot/" + m.snapshot, lean ? { cache: "only-if-cached", mode: "same-origin" } : {})
          .then((r) => (r.ok ? r.arrayBuffer() : null))
          .then((gz) => gz && { gz, heap: null });
      })
      .catch(() => null);
    const bytes = got.then((g) => (g && g.gz) || null);
    const heap = got.then((g) => (g && g.heap) || null);
    const wasmURL = wasmOK ? absolute(data.wasm) : null;
    window.novaSnapshotDownload = { manifest, bytes, heap, wasm, wasmBytes, wasmURL, module, lean };
  } catch (e) { /* the shim fetches for itself */ }
})();
