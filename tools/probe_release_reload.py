"""Counts the stall of issue 32: a reload made just after a new release's service worker took
over that never finishes, or finishes with Python never started (docs/PERFORMANCE.md, "Stalls
and crashes").

Each probe, in one Chromium: a fresh copy of ``_site/`` (with a ``console.log`` at each of its
service worker's fetch events and at ``activate``), its own ``tools/serve.py``, a new context;
boot; wait for the service worker to control the page; write a release (``sw.js``'s app cache
id and a ``<meta name=rel2>`` in ``index.html``); ``registration.update()``; wait until the
new release's app cache is there and the old one gone (what the test waits for); reload, with
20 s for "load" and 20 s more for ``data-nova-ready``. A stall prints the service worker's log
since the page opened. ``--no-release`` reloads without the release (the control).

    .venv/bin/python tools/probe_release_reload.py --probes 50   # run 2 or 3 side by side

Build the site first (``make site``). A diagnostic, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nova.benchmarks.chromium import launch_chromium  # noqa: E402

FETCH = """self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);"""
LOGGED_FETCH = """let probeSeq = 0;
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  const seq = ++probeSeq;
  console.log("PROBE start", seq, request.mode, url.pathname);
  const respond = event.respondWith.bind(event);
  event.respondWith = (p) => respond(Promise.resolve(p).then(
    (r) => { console.log("PROBE done", seq, url.pathname, r && r.status); return r; },
    (e) => { console.log("PROBE fail", seq, url.pathname, String(e)); throw e; }));"""
ACTIVATE = 'self.addEventListener("activate", (event) => {'
LOGGED_ACTIVATE = ACTIVATE + '\n  console.log("PROBE activate", APP_CACHE);'
NEW_APP_ID = "0123456789abcdef"
CACHES_SWAPPED = (
    "async ([mine, old]) => { const k = await caches.keys();"
    " return k.includes(mine) && !k.includes(old); }"
)


def logged_site(source: Path, where: Path) -> Path:
    site = where / "site"
    shutil.copytree(source, site)
    sw = (site / "sw.js").read_text()
    if FETCH not in sw or ACTIVATE not in sw:
        sys.exit("probe: sw.js no longer has the handlers this probe logs")
    sw = sw.replace(FETCH, LOGGED_FETCH).replace(ACTIVATE, LOGGED_ACTIVATE)
    (site / "sw.js").write_text(sw)
    return site


def release(site: Path) -> str:
    """A new release on disk: a new app cache id, a page that says which it is. The old id."""
    sw = (site / "sw.js").read_text()
    found = re.search(r'"nova-app-([0-9a-f]+)"', sw)
    if found is None:
        sys.exit("probe: no app cache id in sw.js")
    (site / "sw.js").write_text(sw.replace(found.group(1), NEW_APP_ID))
    index = (site / "index.html").read_text()
    (site / "index.html").write_text(index.replace("<head>", '<head><meta name="rel2">', 1))
    return found.group(1)


def probe(browser, source: Path, with_release: bool) -> tuple[str, list[str]]:
    """One probe: "ready", "HANG" (no "load" in 20 s), "NOT READY" or "NO FIRST BOOT"."""
    with tempfile.TemporaryDirectory() as tmp:
        site = logged_site(source, Path(tmp))
        cmd = [sys.executable, str(ROOT / "tools" / "serve.py"), "--port", "0", "--root", str(site)]
        server = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        context = None
        try:
            assert server.stdout is not None
            url = server.stdout.readline().split(" ", 1)[1].strip()
            context = browser.new_context()
            t0 = time.monotonic()
            log: list[str] = []
            context.on(
                "console",
                lambda m: (
                    log.append(f"{time.monotonic() - t0:6.2f} {m.text[:150]}")
                    if "PROBE" in m.text
                    else None
                ),
            )
            page = context.new_page()
            try:
                page.goto(url)
                page.wait_for_selector("body[data-nova-ready]", state="attached")
                page.wait_for_function("() => navigator.serviceWorker.controller !== null")
            except Exception as exc:  # playwright's errors: "Target crashed" among them
                return "NO FIRST BOOT: " + str(exc).splitlines()[0], log
            if with_release:
                old = release(site)
                page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
                page.wait_for_function(
                    CACHES_SWAPPED, arg=[f"nova-app-{NEW_APP_ID}", f"nova-app-{old}"]
                )
            log.append(f"{time.monotonic() - t0:6.2f} RELOAD")
            try:
                page.reload(timeout=20_000)
            except Exception:
                return "HANG", log
            try:
                page.wait_for_selector("body[data-nova-ready]", state="attached", timeout=20_000)
            except Exception:
                return "NOT READY", log
            return "ready", log
        finally:
            if context is not None:
                context.close()
            server.terminate()
            server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--probes", type=int, default=30)
    parser.add_argument("--no-release", action="store_true", help="reload without a release")
    args = parser.parse_args()
    source = ROOT / "_site"
    if not (source / "sw.js").exists():
        sys.exit("probe: build the site first (make site)")
    from playwright.sync_api import sync_playwright

    counts: dict[str, int] = {}
    with sync_playwright() as p:
        browser = launch_chromium(p)
        for i in range(args.probes):
            outcome, log = probe(browser, source, not args.no_release)
            counts[outcome] = counts.get(outcome, 0) + 1
            print(f"probe {i}: {outcome}", flush=True)
            if outcome != "ready":
                print("\n".join("    " + line for line in log), flush=True)
        browser.close()
    print("outcomes:", counts)


if __name__ == "__main__":
    main()
