"""Counts the stall of issue 32: a reload that never finishes, or finishes with Python never
started, when the page loads while a new release's service worker installs and takes over
(docs/PERFORMANCE.md, "Stalls and crashes").

Each probe, in one Chromium: a fresh copy of ``_site/`` (with a ``console.log`` at each of its
service worker's fetch events, at ``install`` and at ``activate``, with the worker's state and
``Date.now() % 100000``), its own ``tools/serve.py`` (``NOVA_SERVE_LOG``: each request as it
arrives and is answered, on the same clock), a new context; boot; wait for the service worker
to control the page; write a release (``sw.js``'s app cache id and a ``<meta name=rel2>`` in
``index.html``); then reload, with 20 s for "load" and 20 s more for ``data-nova-ready``:

- ``--when installing`` (the race): at once after ``registration.update()`` resolves, while
  the new worker installs;
- ``--when installed``: once the new worker is installed (the page says
  ``data-nova-release="waiting"``), or, with ``--skip-waiting``, once it took over (the old
  release's cache gone);
- ``--when navigate``: without ``update()``; the browser checks ``sw.js`` at the reload.

``--skip-waiting`` puts back what sw.js did before issue 32's fix (``self.skipWaiting()`` at
the end of the install: the new worker takes over at once, loading pages or not).
``--no-release`` reloads without a release (the control). A stall prints the logs.

    .venv/bin/python tools/probe_release_reload.py --probes 100 --when installing   # 2-3 at once

Build the site first (``make site``). A diagnostic, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nova_tools.benchmarks.chromium import launch_chromium  # noqa: E402

FETCH = """self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);"""
LOGGED_FETCH = """let probeSeq = 0;
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  const seq = ++probeSeq;
  const st = () => `${Date.now() % 100000} ${self.serviceWorker && self.serviceWorker.state}`;
  console.log("PROBE start", st(), APP_CACHE.slice(9, 13), seq, request.mode, url.pathname);
  const respond = event.respondWith.bind(event);
  event.respondWith = (p) => respond(Promise.resolve(p).then(
    (r) => { console.log("PROBE done", st(), seq, url.pathname, r && r.status); return r; },
    (e) => { console.log("PROBE fail", st(), seq, url.pathname, String(e)); throw e; }));"""
ACTIVATE = 'self.addEventListener("activate", (event) => {'
LOGGED_ACTIVATE = (
    ACTIVATE + '\n  console.log("PROBE activate", Date.now() % 100000, APP_CACHE.slice(9, 13));'
)
INSTALL = 'self.addEventListener("install", (event) => {'
LOGGED_INSTALL = (
    INSTALL + '\n  console.log("PROBE install", Date.now() % 100000, APP_CACHE.slice(9, 13));'
)
NEW_APP_ID = "0123456789abcdef"
DELETE_HANDOFF = "await caches.delete(HANDOFF); // the page's copies are not kept twice"


def logged_site(source: Path, where: Path, skip_waiting: bool) -> Path:
    site = where / "site"
    shutil.copytree(source, site)
    sw = (site / "sw.js").read_text()
    if FETCH not in sw or ACTIVATE not in sw or DELETE_HANDOFF not in sw:
        sys.exit("probe: sw.js no longer has the handlers this probe logs")
    sw = sw.replace(FETCH, LOGGED_FETCH).replace(ACTIVATE, LOGGED_ACTIVATE)
    sw = sw.replace(INSTALL, LOGGED_INSTALL)
    if skip_waiting:
        sw = sw.replace(DELETE_HANDOFF, DELETE_HANDOFF + "\n      await self.skipWaiting();")
    (site / "sw.js").write_text(sw)
    return site


def release(site: Path) -> str:
    """A new release on disk, as tools/build_site.py would make it: a page that says which it
    is (``<meta name=rel2>``), and its sw.js (a new app cache id, the page's new SHA-256 in the
    precache list). Returns the old id."""
    index = site / "index.html"
    before = hashlib.sha256(index.read_bytes()).hexdigest()
    index.write_text(index.read_text().replace("<head>", '<head><meta name="rel2">', 1))
    after = hashlib.sha256(index.read_bytes()).hexdigest()
    sw = (site / "sw.js").read_text()
    found = re.search(r'"nova-app-([0-9a-f]+)"', sw)
    if found is None or f'"./": "{before}"' not in sw:
        sys.exit("probe: sw.js has no app cache id, or does not list the page's SHA-256")
    sw = sw.replace(found.group(1), NEW_APP_ID).replace(f'"./": "{before}"', f'"./": "{after}"')
    (site / "sw.js").write_text(sw)
    return found.group(1)


def server_tail(path: Path) -> list[str]:
    return ["server: " + line for line in path.read_text().splitlines()[-30:]]


# the new worker installed and waiting (the page says so), or (--skip-waiting) active
INSTALLED = """async ([mine, old]) => {
  for (;;) {
    if (document.body.getAttribute("data-nova-release") === "waiting") return;
    const k = await caches.keys();
    if (k.includes(mine) && !k.includes(old)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}"""


def probe(browser, source: Path, args) -> tuple[str, list[str]]:
    """One probe: "ready", "HANG" (no "load" in 20 s), "NOT READY" or "NO FIRST BOOT"."""
    with tempfile.TemporaryDirectory() as tmp:
        site = logged_site(source, Path(tmp), args.skip_waiting)
        cmd = [sys.executable, str(ROOT / "tools" / "serve.py"), "--port", "0", "--root", str(site)]
        cmd += ["--latency-ms", str(args.latency_ms)]
        serverlog = open(Path(tmp) / "server.log", "w")
        server = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=serverlog,
            text=True,
            env={**os.environ, "NOVA_SERVE_LOG": "1"},
        )
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
            if not args.no_release:
                old = release(site)
                if args.when != "navigate":
                    page.evaluate(
                        "navigator.serviceWorker.getRegistration().then((r) => r.update())"
                    )
                if args.when == "installed":
                    page.evaluate(INSTALLED, [f"nova-app-{NEW_APP_ID}", f"nova-app-{old}"])
            now = page.evaluate("Date.now() % 100000")
            log.append(f"{time.monotonic() - t0:6.2f} RELOAD at {now}")
            try:
                if args.by == "page":
                    with page.expect_event("load", timeout=20_000):
                        page.evaluate("setTimeout(() => location.reload(), 0)")
                else:
                    page.reload(timeout=20_000)
            except Exception:
                return "HANG", log + server_tail(Path(tmp) / "server.log")
            try:
                page.wait_for_selector("body[data-nova-ready]", state="attached", timeout=20_000)
            except Exception:
                return "NOT READY", log + server_tail(Path(tmp) / "server.log")
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
    parser.add_argument(
        "--when",
        choices=["installing", "installed", "navigate"],
        default="installing",
        help="reload at once after update() (while the new worker installs), once it is"
        " installed, or with no update() (the browser checks at the reload)",
    )
    parser.add_argument("--latency-ms", type=int, default=0, help="the server's, per request")
    parser.add_argument("--by", choices=["playwright", "page"], default="playwright")
    parser.add_argument(
        "--skip-waiting", action="store_true", help="sw.js as before the fix: skipWaiting()"
    )
    args = parser.parse_args()
    source = ROOT / "_site"
    if not (source / "sw.js").exists():
        sys.exit("probe: build the site first (make site)")
    from playwright.sync_api import sync_playwright

    counts: dict[str, int] = {}
    with sync_playwright() as p:
        browser = launch_chromium(p)
        for i in range(args.probes):
            outcome, log = probe(browser, source, args)
            counts[outcome] = counts.get(outcome, 0) + 1
            print(f"probe {i}: {outcome}", flush=True)
            if outcome != "ready":
                print("\n".join("    " + line for line in log), flush=True)
        browser.close()
    print("outcomes:", counts)


if __name__ == "__main__":
    main()
