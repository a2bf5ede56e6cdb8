"""Nothing lost, in a real browser: a game open in two tabs, storage that is full, a new
release while a game is open, a reload while a bot thinks. The rules of which save wins are
tests/test_controller.py's; these check that the page wires them to the browser's events.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from conftest import serve_site, wait_ready
from release_helpers import installed_waiting, release

# the page's service worker runs here (page_factory blocks it elsewhere)
pytestmark = [pytest.mark.browser, pytest.mark.service_worker]

DESKTOP = {"width": 1280, "height": 800}

# one decision by a page's test contract: "ready" if asked, else the [data-move] the test
# names, else one the seeded pick chooses (End turn only when nothing else is offered)
STEP_JS = """([token, pick]) => {
  const ready = document.querySelector('[data-ui="ready"]');
  if (ready) { ready.click(); return 'ready'; }
  const els = [...document.querySelectorAll('[data-move]')];
  if (!els.length) return null;
  let el = token ? els.find(e => e.dataset.move === token) : null;
  if (!el) {
    const rest = els.filter(e => e.dataset.move !== 'E');
    el = rest.length ? rest[Math.floor(pick * 7919) % rest.length] : els[0];
  }
  el.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
  return el.dataset.move;
}"""

SAVES_JS = """() => Object.fromEntries(Object.keys(localStorage)
  .filter(k => k.startsWith('nova:save:'))
  .map(k => [k.slice(10), JSON.parse(localStorage.getItem(k)).record.moves]))"""


def moves(page) -> int:
    return int(page.get_attribute("body", "data-nova-moves"))


def play_to(page, n: int, rng: random.Random) -> None:
    for _ in range(400):
        if moves(page) >= n:
            return
        assert page.evaluate(STEP_JS, [None, rng.random()]) is not None
    pytest.fail(f"the game did not reach {n} decisions")


def saves(page) -> dict[str, list[str]]:
    return page.evaluate(SAVES_JS)


def test_an_old_tab_loses_no_move_both_lines_survive_and_the_newest_opens(page_factory, server_url):
    """Tab A plays to move 12; tab B, opened at move 7, makes one move; on reload both
    lines of play are saved and the newest (A's) opens."""
    a = page_factory(viewport=DESKTOP)
    a.goto(server_url + "index.html")
    wait_ready(a)
    a.click('[data-ui="new-game"]')
    rng = random.Random(5)
    play_to(a, 7, rng)
    b = a.context.new_page()  # same origin, same storage: another tab
    b_errors: list[str] = []
    b.on("pageerror", lambda e: b_errors.append(str(e)))
    b.goto(server_url + "index.html")
    wait_ready(b)
    at_b = moves(b)
    assert at_b == moves(a) >= 7
    play_to(a, at_b + 5, rng)
    a_line = list(saves(a).values())[0]
    # tab B hears of it (the storage event) and says so, offering the newest
    b.wait_for_selector(".nova-elsewhere", timeout=10_000)
    assert "went on in another tab" in b.inner_text(".nova-elsewhere")
    assert b.locator('[data-ui="open-newest"]').is_visible()
    # B makes one move anyway, not the one A made there
    if b.locator('[data-ui="ready"]').count():
        b.click('[data-ui="ready"]')
    legal = b.eval_on_selector_all("[data-move]", "els => els.map(e => e.dataset.move)")
    mine = next(m for m in legal if m != a_line[at_b] and m != "E")
    b.evaluate(STEP_JS, [mine, 0])
    b.wait_for_function(f"+document.body.dataset.novaMoves > {at_b}")
    assert "kept as a saved game of their own" in b.inner_text(".nova-elsewhere")
    lines = sorted(saves(b).values(), key=len)
    assert len(lines) == 2 and lines[1] == a_line and lines[0][:at_b] == a_line[:at_b]
    assert lines[0][at_b] == mine
    b.reload()
    wait_ready(b)
    assert moves(b) == len(a_line)  # the newest opens
    b.click('[data-ui="menu"]')
    assert b.locator('.save-list [data-ui^="resume:"]').count() == 2
    assert a.nova.page_errors == [] and b_errors == []


FULL_JS = """() => {
  const real = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (localStorage.getItem('test:full') === '1' && key !== 'test:full') {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    }
    return real.call(this, key, value);
  };
}"""


def test_storage_full_is_said_the_game_plays_on_and_nothing_is_deleted(page_factory, server_url):
    page = page_factory(viewport=DESKTOP)
    page.add_init_script(f"({FULL_JS})()")
    page.goto(server_url + "index.html")
    wait_ready(page)
    page.click('[data-ui="new-game"]')
    rng = random.Random(8)
    play_to(page, 4, rng)
    before = saves(page)
    page.evaluate("localStorage.setItem('test:full', '1')")
    page.reload()
    wait_ready(page)
    shown = moves(page)
    assert shown == len(next(iter(before.values())))  # the saved game opens (reads work)
    assert "storage is full" in page.inner_text("body")
    assert "Saving is off" not in page.inner_text("body")
    play_to(page, shown + 3, rng)  # plays on
    assert "storage is full" in page.inner_text("body")
    page.click('[data-ui="menu"]')
    page.click('[data-ui="new-game"]')  # a new game plays too, unsaved
    play_to(page, 2, rng)
    assert saves(page) == before  # nothing deleted, nothing half-written
    assert page.nova.page_errors == []


def test_a_release_replaced_while_a_game_is_open(site_dir: Path, tmp_path, page):
    """A new release lands while a game is open: the open page plays on (its moves are
    saved), and the next load is the new release and opens the game."""
    site = tmp_path / "site"
    shutil.copytree(site_dir, site)
    with serve_site(site) as url:
        page.goto(url)
        wait_ready(page)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
        page.click('[data-ui="new-game"]')
        rng = random.Random(3)
        play_to(page, 4, rng)
        release(site)
        installed_waiting(page)  # the new release's worker waits for this page to close
        play_to(page, moves(page) + 4, rng)  # the open page plays on
        line = next(iter(saves(page).values()))
        assert len(line) == moves(page)
        page.reload()
        wait_ready(page)
        assert page.locator('meta[name="rel2"]').count() == 1  # the new release
        assert moves(page) == len(line)
        assert next(iter(saves(page).values())) == line
        assert page.nova.page_errors == []


def test_a_reload_while_a_bot_thinks_loses_nothing_and_the_bot_goes_on(page_factory, server_url):
    page = page_factory(viewport=DESKTOP)
    page.goto(server_url + "index.html")
    wait_ready(page)
    page.select_option("#nova-bot-1", "search")
    page.click("details.more summary")  # the search's thinking time is under "More"
    page.select_option("#nova-bot-think", "3000")
    page.select_option("#nova-bot-pace", "quick")
    page.click('[data-ui="new-game"]')
    rng = random.Random(2)
    # the person plays until it is the bot's turn and the bot is thinking
    for _ in range(200):
        page.wait_for_function(
            "!document.body.hasAttribute('data-nova-bot-turn') || "
            "document.body.dataset.novaWorker === 'ready'",
            timeout=120_000,
        )
        if page.evaluate("document.body.hasAttribute('data-nova-bot-turn')"):
            break
        page.evaluate(STEP_JS, [None, rng.random()])
    assert page.get_attribute("body", "data-nova-bot-turn") is not None
    line = next(iter(saves(page).values()))
    page.reload()
    wait_ready(page)
    assert moves(page) >= len(line)
    assert next(iter(saves(page).values()))[: len(line)] == line  # nothing lost
    # the bot goes on, with the thinking time the game was started with
    page.wait_for_function(f"+document.body.dataset.novaMoves > {len(line)}", timeout=120_000)
    assert page.get_attribute("body", "data-nova-worker") == "ready"
    assert next(iter(saves(page).values()))[: len(line)] == line
    assert page.nova.console_errors == [] and page.nova.page_errors == []
