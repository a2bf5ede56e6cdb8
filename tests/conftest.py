"""Shared fixtures. Browser tests (``@pytest.mark.browser``) get:

* ``site_dir``: ``_site/`` built (tools/build_site.py, fast when up to date);
* ``server_url``: tools/serve.py on a free port, netlify.toml's headers, e.g. ``http://127.0.0.1:PORT/``;
* ``browser``: Chromium through Playwright's sync API (Debian's /usr/bin/chromium when present);
* ``page``: a fresh context + page; ``page.nova`` is a ``PageLog`` recording every request
  not to 127.0.0.1 (``.external``, aborted) and every console error (``.console_errors``);
* ``new_page()`` (fixture ``page_factory``) for more pages/contexts with the same recording;
* ``wait_ready(page, timeout=60_000)``: waits for ``body[data-nova-ready]``; fails with the
  body's ``data-nova-error`` if the page reports one.

``serve_site(root, extra_ancestors=..., log_requests=...)`` (a context manager) starts another
server, e.g. on another loopback origin for the embed test, or one that logs every request it
serves (what a visit downloaded, counted at the server).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from nova.benchmarks.chromium import launch_chromium

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_site"
LOCAL_HOSTS = {"127.0.0.1", "127.0.0.2", "localhost"}


def build_site() -> Path:
    subprocess.run([sys.executable, str(ROOT / "tools" / "build_site.py")], check=True, cwd=ROOT)
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


@dataclass
class PageLog:
    external: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)


def record(context, page, log: PageLog | None = None) -> PageLog:
    """Abort and record requests leaving the local machine; record console/page errors."""
    log = log or PageLog()

    def route(r):
        url = r.request.url
        if urlsplit(url).scheme in ("http", "https", "ws", "wss"):
            if urlsplit(url).hostname not in LOCAL_HOSTS:
                log.external.append(url)
                return r.abort()
        return r.continue_()

    context.route("**/*", route)
    page.on("console", lambda m: log.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: log.page_errors.append(str(e)))
    return log


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


def pytest_collection_modifyitems(config, items):
    # Browser tests last: the pure tests report fast.
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
    # A browser test that fails is run once more (pytest-rerunfailures; the run reports it
    # with an R): on this 2-core machine a Chromium tab or worker now and then crashes or
    # stalls ("Target crashed", a worker that never answers), each time in another test and
    # never when that test runs again. A test that fails twice fails the run.
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.flaky(reruns=1))


@pytest.fixture(scope="session")
def site_dir() -> Path:
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
def browser(playwright_sync):
    b = launch_chromium(playwright_sync)
    yield b
    b.close()


@pytest.fixture
def page_factory(browser):
    """``new_page(**context_kwargs)`` -> a page (``page.nova`` is its PageLog) in a new context."""
    contexts = []

    def new_page(**context_kwargs):
        context = browser.new_context(**context_kwargs)
        contexts.append(context)
        page = context.new_page()
        page.nova = record(context, page)
        return page

    yield new_page
    for c in contexts:
        c.close()


@pytest.fixture
def page(page_factory):
    return page_factory()
