"""Shared fixtures. Browser tests (``@pytest.mark.browser``) get:

* ``site_dir``: ``_site/`` built once (tools/build_site.py, fast when up to date; not at all
  when ``make`` has just built it and says so with ``NOVA_SITE_BUILT=1``);
* ``server_url``: tools/serve.py on a free port, netlify.toml's headers, e.g. ``http://127.0.0.1:PORT/``;
* ``browser``: one Chromium for the session (for each pytest-xdist process) through
  Playwright's sync API (Debian's /usr/bin/chromium when present), its own log written to a
  file (tests/browser_watch.py);
* ``page``: a fresh context + page; ``page.nova`` is a ``PageLog`` recording every request
  of the page and its workers not to the local machine (``.external``: Chromium resolves no
  other host, so they fail), every console error of the page and its workers
  (``.console_errors``), uncaught errors (``.page_errors``), crashes and workers;
* ``new_page()`` (fixture ``page_factory``) for more pages/contexts with the same recording;
* ``wait_ready(page, timeout=60_000)``: waits for ``body[data-nova-ready]``; fails with the
  body's ``data-nova-error`` if the page reports one.

A page that crashes fails its test. A failing browser test's report has a "nova browser"
section: each page's crashes, errors and workers, Chromium's memory and its log lines.

``serve_site(root, extra_ancestors=..., log_requests=...)`` (a context manager) starts another
server, e.g. on another loopback origin for the embed test, or one that logs every request it
serves (what a visit downloaded, counted at the server).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

import tests.settle  # noqa: F401  (each Playwright action waits for the frames it causes)
from nova_tools.benchmarks.chromium import (
    chromium_processes,
    describe_memory,
    launch_chromium,
    memory_figures,
)
from tests.browser_watch import (
    PageLog,
    append_jsonl,
    log_args,
    log_size,
    report,
    watch_page,
)
from tests.cpu_log import pytest_runtest_protocol  # noqa: F401  (NOVA_CPU_LOG=FILE: CPU per test)

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_site"
LOCAL_HOSTS = {"127.0.0.1", "127.0.0.2", "localhost"}


def build_site() -> Path:
    """Build ``_site/`` (one build at a time: pytest-xdist's workers share it)."""
    with open(ROOT / ".site-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run(
            [sys.executable, str(ROOT / "tools" / "build_site.py")], check=True, cwd=ROOT
        )
    return SITE


@contextlib.contextmanager
def serve_site(
    root: Path = SITE, host: str = "127.0.0.1", extra_ancestors=(), log_requests: Path | None = None
):
    """Run tools/serve.py in a subprocess on a free port; yields its base URL. With
    ``log_requests``, the server appends a JSON line per request to that file."""
    cmd = [sys.executable, str(ROOT / "tools" / "serve.py"), "--host", host, "--port", "0"]
    cmd += ["--root", str(root)]
    if log_requests is not None:
        cmd += ["--log-requests", str(log_requests)]
    for origin in extra_ancestors:
        cmd += ["--frame-ancestor", origin]
    env = {k: v for k, v in os.environ.items() if k != "NOVA_FRAME_ANCESTORS"}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        line = proc.stdout.readline().strip()
        if not line.startswith("serving "):
            raise RuntimeError(f"tools/serve.py did not start: {line!r}")
        yield line.split(" ", 1)[1]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        proc.stdout.close()


# Chromium resolves no host but the local machine's: a request leaving it fails at once (the
# tests' browser fixture). Recording requests by their events, not a Playwright route: a route
# holds every request until Python answers it and turns the browser's HTTP cache off.
LOCAL_ONLY = "--host-resolver-rules=MAP * ~NOTFOUND, " + ", ".join(
    f"EXCLUDE {host}" for host in sorted(LOCAL_HOSTS)
)
# The tests' Chromium runs WebAssembly in V8's baseline tier only: its optimising tier
# recompiles Pyodide's hot functions (CPython's interpreter loop first) in every new context,
# which costs a test's short page more CPU than the faster code saves it (a page's boot 2.1
# CPU-s with it, 1.6 without; a whole game in the page 1 CPU-s less). The tiers run the same
# program; the benchmarks (bench-page, lighthouse) launch Chromium as a player's runs.
BASELINE_WASM = "--js-flags=--liftoff-only"


def record(context, page, log: PageLog | None = None) -> PageLog:
    """Record requests leaving the local machine (its pages' and their workers'), console and
    page errors, crashes and workers (tests/browser_watch.py)."""
    log = log or PageLog()

    def request(r) -> None:
        url = urlsplit(r.url)
        if url.scheme in ("http", "https", "ws", "wss") and url.hostname not in LOCAL_HOSTS:
            log.external.append(r.url)

    context.on("request", request)
    return watch_page(page, log)


def bots_play(page, bot: str = "greedy", think_ms: str | None = None) -> None:
    """A new game of two bots (``bot``) at the quick pace, from the new-game screen."""
    page.select_option("#nova-bot-0", bot)
    page.select_option("#nova-bot-1", bot)
    page.select_option("#nova-bot-pace", "quick")
    if think_ms is not None:
        page.click("details.more summary")  # the search's thinking time is under "More"
        page.select_option("#nova-bot-think", think_ms)
    page.click('[data-ui="new-game"]')


def wait_ready(page, timeout: float = 60_000) -> None:
    """Wait for ``body[data-nova-ready]``; fail with ``data-nova-error`` if the page sets it."""
    try:
        page.wait_for_selector(
            "body[data-nova-ready], body[data-nova-error]", state="attached", timeout=timeout
        )
    except Exception as exc:  # playwright TimeoutError
        pytest.fail(f"page not ready after {timeout / 1000:.0f} s: {exc}")
    error = page.evaluate("document.body.getAttribute('data-nova-error')")
    if error is not None and page.evaluate("!document.body.hasAttribute('data-nova-ready')"):
        pytest.fail(f"page failed to start: data-nova-error={error!r}")


@contextlib.contextmanager
def publishers_frame(host, site_dir: Path, directory: Path, size: tuple[int, int], query=""):
    """The game in the publisher's frame: ``host`` (a page) opens the publisher's page on
    another origin (127.0.0.2, files in ``directory``) holding the site in a ``size`` iframe;
    yields (the game's frame, ready; the site's URL)."""
    from tests.phone_helpers import other_origin, parent_page

    try:
        publisher = other_origin(directory)
        parent = publisher.__enter__()
    except OSError as exc:  # pragma: no cover - no 127.0.0.2 loopback
        pytest.skip(f"no 127.0.0.2 loopback: {exc}")
    try:
        with serve_site(site_dir, extra_ancestors=[parent]) as site:
            parent_page(directory, site, size, query)
            host.goto(parent + "/index.html")
            frame = host.locator("#game").element_handle().content_frame()
            assert frame is not None
            wait_ready(frame)
            assert frame.evaluate("window.top !== window.self")
            yield frame, site
    finally:
        publisher.__exit__(None, None, None)


def pytest_collection_modifyitems(config, items):
    # The order is the schedule: pytest-xdist (`make test`: --dist load --maxschedchunk 1)
    # hands each free worker the next test, so the long tests go first and the many short
    # ones fill the gaps at the end. The browser tests come before the short pure ones: they
    # mostly wait on Chromium, and each worker has its own.
    def order(item) -> tuple[bool, bool]:
        return (item.get_closest_marker("slow") is None, item.get_closest_marker("browser") is None)

    items.sort(key=order)
    # A paced test waits on the page's own pace (long in wall time, light on the CPU): the first
    # goes first and the others after the slow tests, each beside busy ones, so that two never
    # wait side by side while a core idles.
    paced = [item for item in items if item.get_closest_marker("paced")]
    if paced:
        rest = [item for item in items if not item.get_closest_marker("paced")]
        slow = sum(1 for item in rest if item.get_closest_marker("slow"))
        items[:] = paced[:1] + rest[:slow] + paced[1:] + rest[slow:]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing browser test reports what its pages and Chromium did (browser_watch)."""
    outcome = yield
    rep = outcome.get_result()
    logs = getattr(item, "nova_pages", None)
    if rep.failed and logs is not None:
        watch = getattr(item, "nova_watch", None)
        log_file, offset, since = watch if watch is not None else (None, 0, None)
        rep.sections.append(("nova browser", report(logs, log_file, offset, since)))


@pytest.fixture(scope="session")
def site_dir() -> Path:
    if os.environ.get("NOVA_SITE_BUILT") == "1" and (SITE / "index.html").exists():
        return SITE  # `make test` built it a moment ago
    return build_site()


@pytest.fixture(scope="session")
def server_url(site_dir):
    with serve_site(site_dir) as url:
        yield url


@pytest.fixture(scope="session")
def playwright_sync():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser_log(tmp_path_factory) -> Path:
    """Chromium's own log for the session; ``NOVA_BROWSER_LOG=DIR`` keeps it (and the
    per-test ``browser-log.jsonl``) in DIR."""
    keep = os.environ.get("NOVA_BROWSER_LOG")
    where = Path(keep) if keep else tmp_path_factory.mktemp("chromium")
    # one Chromium per pytest-xdist worker: its log and its per-test lines apart
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker:
        where = where / worker
    where.mkdir(parents=True, exist_ok=True)
    return where / "chromium.log"


@pytest.fixture(scope="session")
def browser(playwright_sync, browser_log):
    args, env = log_args(browser_log)
    b = launch_chromium(playwright_sync, extra_args=[*args, LOCAL_ONLY, BASELINE_WASM], env=env)
    yield b
    b.close()


def _asking_for_the_snapshot(page):
    """``page.goto`` that asks the game's page (served at 127.0.0.1: not the publisher's page
    around a frame, at 127.0.0.2) for the snapshot's boot (?snapshot), when it loads the page:
    not to another link in the page on show (only its fragment changes; the page took the
    query out of its address once it read it)."""
    goto = page.goto

    def go(url, *a, **k):
        parts = urlsplit(url)
        ours = parts.hostname == "127.0.0.1" and parts.path.endswith(("/", "index.html"))
        same_page = urlsplit(page.url)._replace(fragment="") == parts._replace(fragment="")
        if ours and not same_page and "snapshot" not in parts.query:
            query = "&".join(q for q in (parts.query, "snapshot") if q)
            url = urlunsplit(parts._replace(query=query))
        return goto(url, *a, **k)

    return go


@pytest.fixture
def page_factory(browser, browser_log, request):
    """``new_page(**context_kwargs)`` -> a page (``page.nova`` is its PageLog) in a new context;
    ``new_page(context=page.context)``: another page in that one (its external requests are
    recorded in the context's first page's log).

    At the end of the test every context is closed (and with it its pages and workers); a
    page that crashed fails the test, and the test's line in ``browser-log.jsonl`` says
    how much memory Chromium's renderers held and how many workers were still running."""
    contexts = []
    logs: list[PageLog] = []
    request.node.nova_pages = logs
    request.node.nova_watch = (browser_log, log_size(browser_log), time.time())
    t0 = time.monotonic()

    # The service worker's first install caches the whole release (about 40 MB) in every new
    # context, 0.4 CPU-s a page: only the tests marked for it (offline play, releases,
    # caches) let the page register it; the others block it as Playwright can.
    sw = "allow" if request.node.get_closest_marker("service_worker") else "block"

    # A page boots as a returning player's does, from the memory snapshot (?snapshot): 0.3 to
    # 0.4 CPU-s a page less than a first visit's lean boot, the same game after it. The tests
    # of the boot itself, of first visits, of caches and offline play boot as they are marked.
    marked = request.node.get_closest_marker
    returning = not (marked("first_visit") or marked("service_worker"))

    def new_page(context=None, **context_kwargs):
        if context is None:
            context = browser.new_context(**{"service_workers": sw, **context_kwargs})
            contexts.append(context)
            page = context.new_page()
            page.nova = record(context, page)
        else:  # another tab, or a later visit, of the same browser profile
            page = context.new_page()
            page.nova = watch_page(page, PageLog())
        logs.append(page.nova)
        if returning:
            page.goto = _asking_for_the_snapshot(page)
        return page

    yield new_page
    before = memory_figures(chromium_processes())
    live = sum(len(log.live_workers()) for log in logs if not log.closed)
    for c in contexts:
        c.close()
    after = memory_figures(chromium_processes())
    append_jsonl(
        browser_log.with_name("browser-log.jsonl"),
        {
            "test": request.node.nodeid,
            "s": round(time.monotonic() - t0, 1),
            "pages": len(logs),
            "workers_started": sum(len(log.workers) for log in logs),
            "workers_live_at_end": live,
            "crashes": sum(len(log.crashes) for log in logs),
            "before_close": before,
            "after_close": after,
        },
    )
    crashes = [c for log in logs for c in log.crashes]
    if crashes:
        now = describe_memory(chromium_processes())
        pytest.fail(f"a page crashed: {'; '.join(crashes)} (now: {now})")


@pytest.fixture
def page(page_factory):
    return page_factory()
