"""A new release of the site, written over a served copy of ``_site`` while a page is open
(tests/test_page_offline.py, tests/test_page_saves.py)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

NEW_APP = "nova-app-0123456789abcdef"
# a service worker's own word on its state (Playwright evaluates in the worker): resolves once
# it is activated
ACTIVATED = """() => new Promise((done) => {
  const me = self.serviceWorker;
  const check = () => me.state === "activated" && done(true);
  me.addEventListener("statechange", check);
  check();
})"""


def release(site: Path) -> str:
    """A new release on disk, as tools/build_site.py would make it: a page that says which it
    is (``<meta name="rel2">``), and its sw.js (a new app cache, the page's new SHA-256 in the
    precache list). Returns the old release's app cache."""
    index = site / "index.html"
    before = hashlib.sha256(index.read_bytes()).hexdigest()
    index.write_text(index.read_text().replace("<head>", '<head><meta name="rel2">', 1))
    after = hashlib.sha256(index.read_bytes()).hexdigest()
    sw = (site / "sw.js").read_text()
    old = re.search(r'"(nova-app-[0-9a-f]+)"', sw).group(1)
    assert f'"./": "{before}"' in sw, "sw.js lists the page by its SHA-256"
    (site / "sw.js").write_text(
        sw.replace(old, NEW_APP).replace(f'"./": "{before}"', f'"./": "{after}"')
    )
    return old


def installed_waiting(page) -> None:
    """Ask the browser to check sw.js now (as it does at a visit); return once the page says
    the new release's worker is installed and waits (``data-nova-release``)."""
    page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    page.wait_for_selector('body[data-nova-release="waiting"]', state="attached", timeout=30_000)
