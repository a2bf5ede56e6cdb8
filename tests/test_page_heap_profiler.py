"""The game's tab survives Chromium's heap profiler (issue 32's "Target crashed").

Chromium turns its heap profiler on by itself in a random few browser sessions (half of them
outside its stable channel, as Debian's build is) and then in one renderer in ten: each
sampled allocation walks the stack by frame pointers up to the thread's own stack's end. When
Python ran on a WebAssembly stack of its own (JSPI, which Pyodide uses where the browser has
it), that walk read past that stack's last page and the renderer died of SIGSEGV (every crash
the suite saw, by its minidump: docs/PERFORMANCE.md). tools/nova-shim.mjs hides JSPI from
Pyodide. Here a Chromium of its own profiles every renderer, a sample every ~4 kB allocated:
with JSPI, about half of the boots crashed so.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from nova_tools.benchmarks.chromium import chromium_processes, launch_chromium
from tests.browser_watch import log_args, log_size
from tests.conftest import LOCAL_ONLY, bots_play, record, wait_ready

pytestmark = pytest.mark.browser

# Chromium reads only the last --enable-features: Playwright's own two come first.
PROFILE_EVERY_RENDERER = (
    "--enable-features=CDPScreenshotNewSurface,SkipListAccountsWithoutGaiaCookies,"
    "HeapProfilerReporting:stable-probability/1.0/nonstable-probability/1.0/"
    "renderer-prob-pct/100/renderer-sampling-rate-bytes/4000"
)


def profiled_renderers() -> int:
    count = 0
    for proc in chromium_processes():
        try:
            cmd = Path(f"/proc/{proc.pid}/cmdline").read_bytes()
        except OSError:
            continue
        count += proc.kind == "renderer" and b"--subproc-heap-profiling" in cmd
    return count


def test_the_game_survives_chromiums_heap_profiler(
    playwright_sync, server_url, browser_log, request
):
    log_file = browser_log.with_name("chromium-heap-profiled.log")
    args, env = log_args(log_file)
    # a failure's "nova browser" section (tests/conftest.py): this page, this Chromium's log
    # and the minidumps written meanwhile
    request.node.nova_watch = (log_file, log_size(log_file), time.time())
    browser = launch_chromium(
        playwright_sync, extra_args=[*args, LOCAL_ONLY, PROFILE_EVERY_RENDERER], env=env
    )
    try:
        context = browser.new_context()
        page = context.new_page()
        log = record(context, page)
        request.node.nova_pages = [log]
        page.goto(server_url)
        wait_ready(page)
        assert profiled_renderers() >= 1  # the profiler is on: this test can fail
        # two bots in their worker (a second Pyodide) play, then a reload boots again
        bots_play(page)
        page.wait_for_function("+document.body.dataset.novaMoves >= 6", timeout=120_000)
        assert page.get_attribute("body", "data-nova-bot-where") == "worker"
        page.reload()
        wait_ready(page)
        assert log.crashes == [] and log.page_errors == []
        assert log.external == []
    finally:
        browser.close()
