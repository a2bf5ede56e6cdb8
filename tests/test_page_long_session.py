"""A long session in one tab (issue 32): games against a bot with the workbench in between,
as a player who stays for an hour does (each game opened by its link near its end, so that
the worker makes all of a whole game's states and the page draws its last turns). The tab
must not grow without bound, and the workbench's workers (a Pyodide each) must end once the
player leaves the workbench.

Memory is what Chromium's renderer processes hold (their resident size, read from /proc
by nova_tools/benchmarks/chromium.py: the page's Pyodide and its workers' live there) and the
page's own JavaScript heap (the DevTools protocol's ``JSHeapUsedSize``). The bound is generous: the
collector's moods stay within it, a tab that keeps what a cycle made does not; a Pyodide left
running (about 150 MB) is caught at once, by the count of live workers at each cycle's end.
"""

from __future__ import annotations

import random

import pytest
from conftest import wait_ready
from test_page_game import CLICK_JS, DESKTOP, moves

from nova.links import encode
from nova_tools.benchmarks.chromium import chromium_processes, memory_figures
from nova_tools.links import random_record

pytestmark = pytest.mark.browser

LAB = "?lab&players=2&games=4&bots=random,random&seed=3"
# two: the second cycle is where anything the first left behind shows (a workbench worker still
# live, renderers grown by a game kept); each cycle costs the suite about 20 CPU-s
CYCLES = 2
GROWTH_MB = 150  # renderers' growth allowed from the first cycle's end to the last's


def workbench_run(page) -> None:
    """A run of the workbench in its workers, then back to the menu."""
    page.wait_for_selector('body[data-nova-screen="lab"]')
    page.click('[data-ui="lab-run"]')
    page.wait_for_selector('body[data-nova-lab-done="done"]', timeout=300_000)
    assert int(page.get_attribute("body", "data-nova-lab-workers")) >= 1
    page.click('[data-ui="menu"]')
    page.wait_for_selector('body[data-nova-screen="new"]')


# each cycle's game: a greedy game of two players opened by its link LEFT decisions before
# its end, the person in the first seat and the greedy bot in the second: the worker makes
# every state of a whole game again, and the person plays its end against the bot (a game
# clicked from its start, 400 to 480 decisions, took 25 to 30 s a cycle; a whole game by
# clicking is test_page_game's)
LEFT = 90


def game_against_greedy(page, seed: int) -> None:
    """A game against the greedy bot in the worker, opened by its link pasted into the tab
    at the quick pace, played to the score screen (the person's clicks seeded)."""
    page.select_option("#nova-bot-pace", "quick")
    page.click('[data-ui="level:cadet"]')  # a press on the form: the page reads the pace
    whole = random_record(2, 20 + seed, bot="greedy")
    whole.moves[:] = whole.moves[:-LEFT]
    whole.bots = ["", "greedy"]
    page.evaluate("(h) => { location.hash = h; }", encode(whole))
    page.wait_for_function(f"+document.body.dataset.novaMoves >= {len(whole.moves)}")
    rng = random.Random(seed)
    for _ in range(4000):
        page.wait_for_function(
            "document.body.hasAttribute('data-nova-over') || "
            "!document.body.hasAttribute('data-nova-bot-turn')",
            timeout=60_000,
        )
        if page.evaluate("document.body.hasAttribute('data-nova-over')"):
            break
        before = moves(page)
        # mostly End turn: the greedy bot's Unloads bring Super-Nova
        r = page.evaluate(CLICK_JS, [None, rng.random(), 0.7])
        assert not r.get("none"), "the person has no decision on their turn"
        assert moves(page) >= before + 1
    page.wait_for_selector("body[data-nova-over]", state="attached")
    assert moves(page) > len(whole.moves)
    assert page.get_attribute("body", "data-nova-bot-where") == "worker"
    page.click('.scores [data-ui="menu"]')  # the score screen's "New game"
    page.wait_for_selector('body[data-nova-screen="new"]')


def memory(page, cdp) -> dict[str, int]:
    figures = memory_figures(chromium_processes())
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    figures["js_heap_mb"] = int(metrics["JSHeapUsedSize"]) // 2**20
    return figures


@pytest.mark.slow
def test_games_and_the_workbench_in_one_tab_keep_its_memory_and_end_its_workers(
    page_factory, server_url
):
    page = page_factory(viewport=DESKTOP)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(server_url + "index.html" + LAB)
    wait_ready(page)
    read = []
    for cycle in range(CYCLES):
        if cycle:
            page.click('[data-ui="lab"]')
        workbench_run(page)
        game_against_greedy(page, seed=cycle)
        # back on the menu: the bots' worker stays for the next game, the workbench's ended
        live = page.nova.live_workers()
        assert len(live) == 1, [w.url for w in live]
        read.append(memory(page, cdp))
    print("memory after each cycle:", read)
    first, last = read[0], read[-1]
    assert last["renderers_mb"] - first["renderers_mb"] < GROWTH_MB, read
    assert last["js_heap_mb"] - first["js_heap_mb"] < GROWTH_MB, read
    assert page.nova.crashes == [] and page.nova.page_errors == []
