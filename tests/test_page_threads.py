"""The two threads (docs/PAGE.md): the game's Python in a worker, the page's main thread in
MicroPython only drawing and forwarding."""

from __future__ import annotations

import pytest

from tests.conftest import wait_ready
from tests.settle import unsettled

pytestmark = [pytest.mark.browser, pytest.mark.first_visit]  # the first screen, before the worker
PHONE = {"width": 390, "height": 844}


def test_the_first_screen_takes_a_level_and_start_before_the_worker_and_the_game_begins(
    page_factory, server_url
):
    page = page_factory(viewport=PHONE)
    with unsettled():  # the taps go before the game's worker is up, and do not wait for it
        page.goto(server_url, wait_until="commit")
        page.click('[data-ui="level:admiral"]')
        page.click('[data-ui="new-game"]')
        # tapped before the game's worker was up: the wait is said, no button was dead
        assert page.evaluate("!document.body.hasAttribute('data-nova-ready')")
        assert "begins as soon as it is ready" in page.inner_text("#nova-boot")
    wait_ready(page)
    page.wait_for_function("document.body.dataset.novaScreen === 'game'", timeout=60_000)
    assert page.evaluate("document.body.dataset.novaPage") == "mpy"
    # the game's Python runs in the worker: the page's own thread never loaded Pyodide
    loaded = page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")
    assert any(u.endswith("/micropython.wasm") for u in loaded)
    assert not [u for u in loaded if "pyodide.asm" in u]
    # and the person plays against the Admiral, who answers from the worker
    page.wait_for_selector("[data-move]", timeout=60_000)
    page.locator("[data-move]").first.click()
    page.wait_for_function(
        "+document.body.dataset.novaMoves >= 1 && !document.body.dataset.novaPending"
    )
    if page.locator('[data-move="E"]').count():  # the person's turn goes on: end it
        page.locator('[data-move="E"]').click()
    page.wait_for_selector("body[data-nova-bot-move]", state="attached", timeout=60_000)
    assert page.nova.page_errors == []


def decide(page) -> None:
    """Tap the person's first choice once it is their decision."""
    page.wait_for_selector("body:not([data-nova-bot-turn]) [data-move]")
    moves = page.evaluate("+document.body.dataset.novaMoves")
    page.locator("[data-move]").first.click()
    page.wait_for_function(f"+document.body.dataset.novaMoves > {moves}")


def test_a_worker_that_dies_mid_game_is_started_again_from_the_last_save(page_factory, server_url):
    """A game against the Cadet: the worker ends mid-game, the page starts another from the
    last save, says so, and the decision tapped meanwhile is played, not lost."""
    page = page_factory(viewport=PHONE)
    page.goto(server_url)
    wait_ready(page)
    page.evaluate("window.novaAnswerS = 3")
    page.click('[data-ui="level:cadet"]')
    page.click('[data-ui="new-game"]')
    for _ in range(2):
        decide(page)
    page.wait_for_selector("body:not([data-nova-bot-turn]) [data-move]")
    # the worker ends (as a phone out of memory ends it): its calls never settle
    page.evaluate(
        """document.querySelector('script[worker][name="nova-game"]').xworker.terminate()"""
    )
    at = page.evaluate("+document.body.dataset.novaMoves")
    tapped = page.locator("[data-move]").first
    token = tapped.get_attribute("data-move")
    tapped.click()
    page.wait_for_function("document.body.dataset.novaWorkerStarts === '2'", timeout=30_000)
    page.wait_for_function(f"+document.body.dataset.novaMoves > {at}", timeout=90_000)
    saved = page.evaluate(
        """() => JSON.parse(localStorage.getItem('nova:save:' +
             localStorage.getItem('nova:current'))).record.moves"""
    )
    assert saved[at] == token, (saved[at - 1 : at + 2], token)
    assert "nothing you played is lost" in page.inner_text("body")
    assert page.nova.page_errors == []
