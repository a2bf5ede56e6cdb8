// Boot glue (the only page JS besides the service worker): progress text while PyScript and
// Pyodide start, and <body data-nova-error="..."> if Python cannot start.
const body = document.body;
const box = document.getElementById("nova-boot");
const text = box && box.querySelector(".nova-boot-text");
const t0 = performance.now();

function failed(message) {
  if (body.hasAttribute("data-nova-ready") || body.hasAttribute("data-nova-error")) return;
  const msg = String(message || "Python failed to start").slice(0, 2000);
  body.setAttribute("data-nova-error", msg);
  if (text) text.textContent = "The game could not start: " + msg.split("\n").filter(Boolean).pop();
}

// PyScript reports its start-up stages ("Loading Pyodide", "Loaded Pyodide", ...).
addEventListener("py:progress", (e) => {
  if (text && typeof e.detail === "string") {
    text.textContent = e.detail + "… (" + ((performance.now() - t0) / 1000).toFixed(1) + " s)";
  }
});
// PyScript shows start-up and Python errors as <div class="py-error"> in the body.
new MutationObserver((records) => {
  for (const r of records) {
    for (const n of r.addedNodes) {
      if (n.nodeType === 1 && n.classList.contains("py-error")) failed(n.textContent);
    }
  }
}).observe(body, { childList: true, subtree: true });
addEventListener("error", (e) => {
  if (e.message && /PythonError|pyodide|pyscript|wasm/i.test(e.message + (e.filename || ""))) {
    failed(e.message);
  }
});
addEventListener("unhandledrejection", (e) => {
  const r = e.reason;
  failed((r && (r.message || String(r))) || "unhandled error while starting");
});
