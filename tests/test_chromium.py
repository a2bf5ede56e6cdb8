"""Chromium as the tests and the benchmarks start it (nova_tools/benchmarks/chromium.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from nova_tools.benchmarks.chromium import (
    CHROMIUM,
    DISABLED_FEATURES,
    OMNIBOX_FEATURES,
    chromium_processes,
    launch_chromium,
)

pytestmark = pytest.mark.browser


def started(launch) -> tuple[set[str], list[str]]:
    """The features a browser from ``launch()`` runs with disabled (as its renderers are told)
    and the browser's own WebUI pages (``browser_ui`` targets) once a context has a page."""
    before = {p.pid for p in chromium_processes()}
    browser = launch()
    try:
        context = browser.new_context()
        context.new_page().goto("about:blank")
        cdp = browser.new_browser_cdp_session()
        targets = cdp.send("Target.getTargets")["targetInfos"]
        ui = [t["url"] for t in targets if t["type"] == "browser_ui"]
        disabled: set[str] = set()
        for p in chromium_processes():
            if p.pid in before or p.kind != "renderer":
                continue
            # a process forked by the zygote has its command line as one string
            for arg in Path(f"/proc/{p.pid}/cmdline").read_bytes().replace(b"\0", b" ").split():
                if arg.startswith(b"--disable-features="):
                    disabled = set(arg.decode().partition("=")[2].split(","))
            break
    finally:
        browser.close()
    return disabled, ui


@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Playwright's own Chromium has no UI")
def test_our_flags_keep_playwrights_disabled_features_and_build_no_omnibox(playwright_sync):
    """Chromium reads only the last --disable-features: ours must repeat every feature
    Playwright turns off (they keep Chromium from calling home, among others), and a new
    context must build no omnibox popup (a renderer and 0.5 CPU-s each)."""
    theirs, their_ui = started(lambda: playwright_sync.chromium.launch(executable_path=CHROMIUM))
    ours, our_ui = started(lambda: launch_chromium(playwright_sync))
    assert theirs, "no renderer's command line read"
    assert theirs <= set(DISABLED_FEATURES), (
        f"add to PLAYWRIGHT_DISABLED_FEATURES: {theirs - set(DISABLED_FEATURES)}"
    )
    assert theirs <= ours and set(OMNIBOX_FEATURES) <= ours
    assert our_ui == [], our_ui
    print(f"without our flags, each context builds {their_ui}")
