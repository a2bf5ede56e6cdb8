"""A game by links begun on the publisher's page (issue 40): on a 390x844 phone, the game in
a cross-origin frame whose storage the browser blocks (this Chromium's default for a
third-party frame) or keeps apart for the publisher's site (partitioned: Chromium with its
third-party-cookie blocking off). Either way the frame's storage is not the storage of the
tab a link opens, so "Play by links" in the frame begins the game in a tab of the game's own
page: the joiner's reply, opened in a new tab, finds seat A there and starts the game, and
the game goes on by links on both devices (docs/PAGE.md, "Embed mode")."""

from __future__ import annotations

import time

import pytest

from nova_tools.benchmarks.chromium import DISABLED_FEATURES, launch_chromium
from tests.browser_watch import PageLog, log_args, log_size, watch_page
from tests.conftest import BASELINE_WASM, LOCAL_ONLY, publishers_frame, record, wait_ready
from tests.test_page_by_links import body, join_and_start, play_turns

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TOUCH = {"viewport": PHONE, "has_touch": True, "is_mobile": True}
FRAME = (390, 600)  # the publisher's frame on a phone
# Chromium reads only the last --disable-features: the usual list, less Playwright's
# ThirdPartyStoragePartitioning (storage kept apart for each top-level site, as browsers do
# now), plus the blocking of third-party cookies and storage (the frame then has storage)
PARTITIONED = "--disable-features=" + ",".join(
    (
        *(f for f in DISABLED_FEATURES if f != "ThirdPartyStoragePartitioning"),
        "TrackingProtection3pcd",
    )
)
STORES = "(() => { try { localStorage.setItem('frame-probe', '1'); return true }" \
    " catch (e) { return false } })()"  # fmt: skip


@pytest.fixture(params=["blocked", "partitioned"])
def devices(request, page_factory, playwright_sync, browser_log):
    """(how the browser treats the frame's storage, new_page(**context) for a device)."""
    if request.param == "blocked":
        yield request.param, page_factory
        return
    log_file = browser_log.with_name("chromium-partitioned.log")
    args, env = log_args(log_file)
    request.node.nova_watch = (log_file, log_size(log_file), time.time())
    browser = launch_chromium(
        playwright_sync, extra_args=[*args, LOCAL_ONLY, BASELINE_WASM, PARTITIONED], env=env
    )
    logs: list[PageLog] = []
    request.node.nova_pages = logs

    def new_page(context=None, **kwargs):
        if context is None:
            context = browser.new_context(service_workers="block", **kwargs)
            page = context.new_page()
            page.nova = record(context, page)
        else:
            page = context.new_page()
            page.nova = watch_page(page, PageLog())
        logs.append(page.nova)
        return page

    try:
        yield request.param, new_page
        assert [c for log in logs for c in log.crashes] == []
    finally:
        browser.close()


def test_a_game_by_links_begun_in_the_publishers_frame(devices, site_dir, tmp_path):
    storage, new_page = devices
    host = new_page(**TOUCH)
    with publishers_frame(host, site_dir, tmp_path, FRAME) as (frame, site):
        assert frame.evaluate(STORES) == (storage == "partitioned")
        if storage == "blocked":  # said before a game is begun: how to keep one
            said = frame.inner_text(".start")
            assert "Saving is off" in said and "Full page" in said
        # "Play by links" in the frame: the set-up opens in a tab of the game's own
        with host.context.expect_page() as opened:
            frame.locator('[data-ui="by-links"]').tap()
        tab = opened.value
        wait_ready(tab)
        assert "embed" not in tab.url and tab.url.startswith(site)
        assert not tab.evaluate("document.documentElement.classList.contains('nova-embed')")
        # the frame says where the game went, and holds no seat
        frame.wait_for_selector('[role="alert"]:has-text("new tab")')
        assert frame.evaluate("document.body.dataset.novaSeat") is None
        # the tab's storage is not the frame's (partitioned: each kept apart)
        assert tab.evaluate("localStorage.getItem('frame-probe')") is None
        assert tab.locator('[data-ui="by-links"][aria-pressed="true"]').count() == 1
        tab.tap('[data-ui="players:2"]')
        tab.tap('[data-ui="new-game"]')
        joiner = new_page(**TOUCH)
        reply = new_page(context=host.context)  # the joiner's reply, opened from a chat
        a, b = join_and_start(tab, joiner, reply, site)
        assert body(a, "data-nova-seat") == "A" and body(b, "data-nova-seat") == "B"
        play_turns({"A": a, "B": b}, site, 4)  # the game goes on by links
    for page in (host, joiner, a):
        assert page.nova.page_errors == [] and page.nova.external == []
