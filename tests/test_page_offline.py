"""Offline play (service worker) and the embedded game (a third-party iframe under the CSP)."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from tests.conftest import bots_play, serve_site, wait_ready
from tests.phone_helpers import other_origin
from tests.release_helpers import ACTIVATED, NEW_APP, installed_waiting, release

# the page's service worker runs here (page_factory blocks it elsewhere)
pytestmark = [pytest.mark.browser, pytest.mark.service_worker]


def test_manifest_and_service_worker_are_built(site_dir: Path):
    import json

    manifest = json.loads((site_dir / "manifest.webmanifest").read_text())
    sizes = {i["sizes"] for i in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert (site_dir / icon["src"]).is_file(), icon["src"]
    sw = (site_dir / "sw.js").read_text()
    assert "{{" not in sw
    assert "nova-runtime-pyodide-" in sw and "nova-app-" in sw


def test_second_visit_works_offline(server_url: str, page):
    page.goto(server_url)
    wait_ready(page)
    # registered once the game is up; installed = everything precached
    active = page.evaluate(
        """() => navigator.serviceWorker.ready.then((r) => r.active && r.active.state)""",
    )
    assert active in ("activated", "activating")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
    page.context.set_offline(True)
    try:
        page.reload()
        wait_ready(page)
        assert page.evaluate("navigator.onLine") is False
        # the ordinary boot, the trimmed stdlib and nova.zip read by the game's worker from
        # the cache (the snapshot was never downloaded: it is not asked for)
        assert (
            page.get_attribute("html", "data-nova-snapshot") == "none: lean visit, not cached yet"
        )
        # and a game plays offline: new game, a Launch, end the turn, the next player's turn
        page.click('[data-ui="new-game"]')
        page.click('[data-ui="ready"]')
        page.locator('[data-move^="L"]').first.click()
        page.click('[data-move="E"]')
        page.click('[data-ui="ready"]')
        page.locator('[data-move^="L"]').first.click()
        assert page.evaluate("+document.body.dataset.novaMoves") == 3
        # and bots think in their worker offline too (its script and files are cached)
        page.click('[data-ui="menu"]')
        bots_play(page)
        page.wait_for_function("+document.body.dataset.novaMoves >= 3", timeout=120_000)
        assert page.get_attribute("body", "data-nova-bot-where") == "worker"
        assert page.nova.page_errors == []
    finally:
        page.context.set_offline(False)
    assert page.nova.external == []


def served(log: Path, quiet_s: float = 2.0, limit_s: float = 60.0) -> list[dict]:
    """The requests the server logged, once none has come for ``quiet_s`` seconds."""
    rows, still, deadline = -1, time.monotonic(), time.monotonic() + limit_s
    while time.monotonic() < deadline:
        n = len(log.read_text().splitlines()) if log.exists() else 0
        if n != rows:
            rows, still = n, time.monotonic()
        elif time.monotonic() - still >= quiet_s:
            break
        time.sleep(0.2)
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


@pytest.mark.parametrize("query", ["?snapshot", ""], ids=["snapshot", "lean"])
def test_a_first_visit_downloads_each_file_once_and_plays_offline_after(
    site_dir: Path, page_factory, tmp_path: Path, query: str
):
    """Counted at the server, where the page's, its workers' and the service worker's requests
    all arrive: the first visit (and its service worker's install, for offline play) downloads
    no URL twice, no editor or terminal bundle of PyScript and no file of the boot it did not
    take; the next visit, offline, boots the same way from the cache and plays."""
    log = tmp_path / "requests.jsonl"
    page = page_factory()
    context = page.context
    with serve_site(site_dir, log_requests=log) as url:
        page.goto(url + query)
        wait_ready(page)
        booted = page.get_attribute("html", "data-nova-snapshot")
        assert booted == ("used" if query else "none: lean visit, not cached yet")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
        downloads = [r["path"] for r in served(log) if r["bytes"] > 0]
        twice = sorted({p for p in downloads if downloads.count(p) > 1})
        assert twice == [], twice
        assert [p for p in downloads if "codemirror" in p or "xterm" in p] == []
        assert sum(p.endswith("/pyodide.asm.wasm") for p in downloads) == 1
        assert not [p for p in downloads if p.endswith(("/pyodide-lock.json", ".png"))]
        snapshot = [p for p in downloads if "/snapshot/nova-" in p]
        lean_files = [p for p in downloads if p == "/nova.zip" or "python_stdlib-trim" in p]
        if not query:  # a visit never downloads the snapshot unless its address asks for it
            assert snapshot == [] and len(lean_files) == 2, downloads
        else:  # the snapshot's boot needs neither the whole stdlib nor the package
            assert len(snapshot) == 1 and lean_files == [], downloads

        context.set_offline(True)
        page.reload()
        wait_ready(page)
        assert page.get_attribute("html", "data-nova-snapshot") == booted
        page.click('[data-ui="new-game"]')
        page.click('[data-ui="ready"]')
        page.locator('[data-move^="L"]').first.click()
        assert page.evaluate("+document.body.dataset.novaMoves") == 1
    assert page.nova.external == [] and page.nova.page_errors == []


@pytest.fixture
def parent_origin(tmp_path):
    """A plain server on another loopback origin (127.0.0.2), for the embedding page."""
    try:
        with other_origin(tmp_path) as url:
            yield tmp_path, url
    except OSError as exc:  # pragma: no cover - loopback alias missing
        pytest.skip(f"no 127.0.0.2 loopback: {exc}")


def _embed(
    page, parent_dir: Path, parent: str, site_url: str, size=(1000, 700), query="?embed", attrs=""
):
    w, h = size
    (parent_dir / "index.html").write_text(
        "<!doctype html><title>publisher</title><link rel='icon' href='data:,'>"
        "<h1>Support page</h1>"
        f'<iframe id="game" src="{site_url}{query}" width="{w}" height="{h}" {attrs}></iframe>'
    )
    page.goto(parent + "/index.html")
    page.wait_for_load_state("load")
    return page.frame_locator("#game"), next(f for f in page.frames if f != page.main_frame)


def _in_frame(frame, selector: str) -> bool:
    """Is the first element matching ``selector`` wholly inside the frame's viewport?"""
    return frame.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
             return r.width > 0 && r.top >= 0 && r.left >= 0 &&
                    r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1; }""",
        selector,
    )


@pytest.mark.parametrize("size", [(800, 600), (390, 700)])
def test_embedded_in_third_party_iframe(site_dir: Path, parent_origin, page_factory, size):
    """The publisher's iframe: compact layout, plays, no service worker, storage optional."""
    parent_dir, parent = parent_origin
    page = page_factory(viewport={"width": size[0] + 100, "height": size[1] + 150})
    with serve_site(site_dir, extra_ancestors=[parent]) as site_url:
        game, frame = _embed(page, parent_dir, parent, site_url, size)
        wait_ready(frame)
        assert frame.evaluate("window.top !== window.self")
        assert frame.evaluate("document.documentElement.classList.contains('nova-embed')")
        # no service worker inside the iframe
        assert frame.evaluate(
            "navigator.serviceWorker ? navigator.serviceWorker.getRegistration()"
            ".then((r) => r === undefined).catch(() => true) : true"
        )
        game.locator("#nova-bot-1").select_option("")  # the frame seats the Cadet: two people
        game.locator('[data-ui="new-game"]').click()
        game.locator('[data-ui="ready"]').click()
        launch = game.locator('[data-move^="L"]').first
        launch.click()
        game.locator('[data-move="E"]').click()
        assert frame.evaluate("+document.body.dataset.novaMoves") == 2
        game.locator('[data-ui="ready"]').click()
        # the whole game is in the frame: board, prompt, End turn without scrolling it
        for sel in (".board-wrap svg", ".prompt", '[data-move="E"]'):
            if size[0] >= 640:
                assert _in_frame(frame, sel), f"{sel} is outside the {size} frame"
        assert _in_frame(frame, '[data-ui="full-page"]')
        # the way out: the full page, in a tab of its own, with this game in its link
        with page.context.expect_page() as popup_info:
            game.locator('[data-ui="full-page"]').click()
        full = popup_info.value
        full.wait_for_load_state("commit")
        assert "embed" not in full.url and "#n2." in full.url
        wait_ready(full)
        assert full.evaluate("+document.body.dataset.novaMoves") == 2
        assert not full.evaluate("document.documentElement.classList.contains('nova-embed')")
    assert page.nova.external == []
    assert page.nova.page_errors == [] and page.nova.console_errors == []


def test_a_sandboxed_frame_that_refuses_new_tabs_offers_the_link(
    site_dir: Path, parent_origin, page
):
    """A publisher's iframe with ``sandbox`` but no ``allow-popups``: "Full page" cannot open
    a tab, so the share panel shows the same full-page link instead."""
    parent_dir, parent = parent_origin
    with serve_site(site_dir, extra_ancestors=[parent]) as site_url:
        game, frame = _embed(
            page, parent_dir, parent, site_url, (800, 600),
            attrs='sandbox="allow-scripts allow-same-origin"',
        )  # fmt: skip
        wait_ready(frame)
        game.locator("#nova-bot-1").select_option("")  # the frame seats the Cadet: two people
        game.locator('[data-ui="new-game"]').click()
        game.locator('[data-ui="ready"]').click()
        game.locator('[data-move="E"]').click()
        game.locator('[data-ui="ready"]').click()
        game.locator('[data-ui="full-page"]').click()
        link = game.locator("input[data-nova-share-link]")
        link.wait_for(state="visible", timeout=10_000)
        url = link.input_value()
        assert "#n2." in url and "embed" not in url
        assert len(page.context.pages) == 1
    assert page.nova.page_errors == []


def test_frame_ancestors_refuses_other_origins(site_dir: Path, parent_origin, page):
    parent_dir, parent = parent_origin
    with serve_site(site_dir) as site_url:  # the hosted CSP: 127.0.0.2 is not allowed
        _, frame = _embed(page, parent_dir, parent, site_url)
        page.wait_for_timeout(1500)
        assert frame.url.startswith("chrome-error://") or not frame.evaluate(
            "document.body && document.body.hasAttribute('data-nova-ready')"
        )


def test_a_new_release_waits_for_the_old_ones_pages_then_takes_over(
    site_dir: Path, tmp_path, page_factory
):
    """A new release's worker installs, and waits while a page of the old release is open:
    meanwhile the old worker serves its own release whole offline (not the newer page that
    passed it online); once no page uses it, the new worker takes over, with its own cache
    only, and serves the new release offline."""
    site = tmp_path / "site"
    shutil.copytree(site_dir, site)
    page = page_factory()
    context = page.context
    with serve_site(site) as url:
        page.goto(url)
        wait_ready(page)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
        before = page.evaluate("caches.keys()")
        old = release(site)
        assert [k for k in before if k.startswith("nova-app-")] == [old]
        installed_waiting(page)
        assert old in page.evaluate("caches.keys()")  # the open page's release stays whole
        page.reload()  # online: the new release, through the old worker (network first)
        wait_ready(page)
        assert page.locator('meta[name="rel2"]').count() == 1
        context.set_offline(True)
        try:
            page.reload()  # offline: the old release, whole, from its own cache
            wait_ready(page)
            assert page.locator('meta[name="rel2"]').count() == 0
        finally:
            context.set_offline(False)
        new = [w for w in context.service_workers if w.evaluate("APP_CACHE") == NEW_APP]
        assert len(new) == 1
        page.close()  # the old release's last page
        assert new[0].evaluate(ACTIVATED)
        later = page_factory(context=context)
        later.goto(url)
        wait_ready(later)
        assert later.locator('meta[name="rel2"]').count() == 1
        keys = later.evaluate("caches.keys()")
        assert NEW_APP in keys and old not in keys
        assert sorted(keys) == sorted([k for k in before if k != old] + [NEW_APP])
        context.set_offline(True)
        try:
            later.reload()  # offline: the new release, from the new worker's cache
            wait_ready(later)
            assert later.locator('meta[name="rel2"]').count() == 1
            later.click('[data-ui="new-game"]')
            later.click('[data-ui="ready"]')
            later.locator('[data-move^="L"]').first.click()
            assert later.evaluate("+document.body.dataset.novaMoves") == 1
        finally:
            context.set_offline(False)
    assert page.nova.page_errors == [] and later.nova.page_errors == []
    assert page.nova.external == []


def test_bots_play_inside_a_third_party_iframe(site_dir: Path, parent_origin, page_factory):
    """No SharedArrayBuffer, no COOP/COEP: the bots play inside the publisher's frame, in
    their worker, even where the browser blocks storage in the frame (as here: PyScript's
    worker gets the shim's in-memory IndexedDB instead of its package cache)."""
    parent_dir, parent = parent_origin
    page = page_factory(viewport={"width": 900, "height": 750})
    with serve_site(site_dir, extra_ancestors=[parent]) as site_url:
        game, frame = _embed(page, parent_dir, parent, site_url, (800, 600))
        wait_ready(frame)
        assert not frame.evaluate("self.crossOriginIsolated")
        game.locator("#nova-bot-0").select_option("greedy")
        game.locator("#nova-bot-1").select_option("greedy")
        game.locator("#nova-bot-pace").select_option("quick")
        game.locator('[data-ui="new-game"]').click()
        frame.wait_for_function("+document.body.dataset.novaMoves >= 3", timeout=120_000)
        status = frame.evaluate("(document.querySelector('.status') || {}).textContent || ''")
        assert "Saving is off" in status  # the browser does block storage in this frame
        assert "could not start" not in status, status
        assert frame.evaluate("document.body.dataset.novaBotWhere") == "worker"
        assert page.nova.page_errors == []
    assert page.nova.external == []
