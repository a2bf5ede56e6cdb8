"""axe-core 4.14.1 (WCAG 2.2 A and AA rules) finds nothing on any screen: the start
screen, every kind of decision, the pass screen, the rules help, the share panel, the
replay and the score screen, at desktop width and on a phone."""

from __future__ import annotations

import pytest
from axe_helpers import AXE, WIDTHS, records_by_decision
from axe_helpers import clean_at_both_widths as clean
from conftest import wait_ready
from test_page_clarity import finished_record

from nova.links import encode

pytestmark = pytest.mark.browser

KINDS = ["turn", "ship", "destination", "leave-or-push", "target", "upgrade", "unload_bays",
         "spawn", "skip"]  # fmt: skip


@pytest.fixture(scope="module")
def records():
    found = records_by_decision()
    missing = set(KINDS) - set(found)
    assert not missing, f"no seeded game reached {missing}"
    return found


def test_axe_finds_nothing_on_any_screen(page_factory, server_url, records):
    assert AXE.exists(), "node_modules/axe-core missing: run `make node` (npm ci)"
    page = page_factory(bypass_csp=True, viewport=WIDTHS[0])  # axe is injected inline
    page.goto(server_url + "index.html")
    wait_ready(page)
    clean(page, "start")
    page.click('[data-ui="help"]')
    clean(page, "rules help")
    page.keyboard.press("Escape")
    for kind in KINDS:
        page.goto(server_url + "index.html#" + encode(records[kind]))
        wait_ready(page)
        if kind == "turn":
            assert page.locator('[data-ui="ready"]').count()
            clean(page, "pass screen")
        if page.locator('[data-ui="ready"]').count():
            page.click('[data-ui="ready"]')
        page.wait_for_selector("[data-move]")
        clean(page, f"decision: {kind}")
    page.goto(server_url + "index.html#" + encode(finished_record()))
    wait_ready(page)
    clean(page, "score screen")
    page.click('.scores [data-ui="share"]')
    page.wait_for_selector("[data-nova-share-panel]:not([hidden]) button")
    clean(page, "share panel")
    page.keyboard.press("Escape")
    page.click('.scores [data-ui="replay"]')
    page.wait_for_selector('[data-ui="replay-prev"]')
    clean(page, "replay")
    assert page.nova.console_errors == [] and page.nova.page_errors == []
