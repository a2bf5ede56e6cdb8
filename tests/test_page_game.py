"""The game in a real browser: whole games by clicking, reload/resume, damaged saves,
screenshots. Uses the infra fixtures of tests/conftest.py (built _site, served, Chromium).

A script plays only through the page's test contract: ``data-ui="new-game"``,
``data-ui="ready"`` and ``[data-move]`` elements; ``data-nova-moves`` counts decisions.
"""

from __future__ import annotations

import json
import random
import statistics

import pytest
from conftest import bots_play, wait_ready

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# Click one [data-move] (or "ready") chosen by the test and report how long the page took to
# answer (the click handler renders synchronously: the DOM is repainted when click() returns).
CLICK_JS = """([token, pick, endBias]) => {
  const ready = document.querySelector('[data-ui="ready"]');
  const t0 = performance.now();
  if (ready) { ready.click(); return {ready: true, ms: performance.now() - t0}; }
  const els = [...document.querySelectorAll('[data-move]')];
  if (!els.length) return {none: true};
  let el = els.find(e => e.dataset.move === token);
  if (!el) {
    const end = els.find(e => e.dataset.move === 'E');
    const rest = els.filter(e => e.dataset.move !== 'E');
    const other = rest[Math.floor(pick * 7919) % rest.length];
    el = (end && (pick < endBias || !rest.length)) ? end : other;
  }
  const move = el.dataset.move;
  // SVG targets have no .click(): dispatch the same bubbling click a tap makes
  el.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
  return {move, ms: performance.now() - t0,
          moves: +document.body.dataset.novaMoves};
}"""


def open_page(page_factory, server_url, viewport=DESKTOP):
    page = page_factory(viewport=viewport)
    page.goto(server_url + "index.html")
    wait_ready(page)
    return page


def start_game(page, players: int = 2) -> None:
    if players != 2:
        page.click(f'[data-ui="players:{players}"]')
    page.click('[data-ui="new-game"]')
    page.wait_for_selector('[data-ui="ready"]')


def moves(page) -> int:
    return int(page.get_attribute("body", "data-nova-moves"))


def legal_now(page) -> list[str]:
    return sorted(page.eval_on_selector_all("[data-move]", "els => els.map(e => e.dataset.move)"))


def play(page, rng: random.Random, steps: int, end_bias: float = 0.35) -> list[float]:
    """Up to ``steps`` clicks (ready or a seeded-random [data-move]); click-to-repaint ms."""
    times = []
    for _ in range(steps):
        if page.evaluate("document.body.hasAttribute('data-nova-over')"):
            break
        r = page.evaluate(CLICK_JS, [None, rng.random(), end_bias])
        assert not r.get("none"), "no clickable decision while the game is on"
        times.append(r["ms"])
    return times


def play_to_the_end(page, seed: int, limit: int = 5000) -> list[float]:
    rng = random.Random(seed)
    times = []
    # a few real mouse clicks first (what a player does), then the fast DOM clicks
    for _ in range(6):
        ready = page.locator('[data-ui="ready"]')
        if ready.count():
            ready.click()
        else:
            opts = [m for m in legal_now(page) if m != "E"] or ["E"]
            page.locator(f'[data-move="{rng.choice(opts)}"]').first.click()
    # mostly End turn from here: the round limit comes in half the decisions that an even
    # mix takes (about 250 instead of 450 at 4 players), the actions were played before
    times += play(page, rng, limit, end_bias=0.8)
    page.wait_for_selector("body[data-nova-over]", state="attached", timeout=5000)
    return times


def test_a_four_player_games_end_by_clicking_from_a_link(page_factory, server_url):
    """Four players on a desktop, pass-and-play: a greedy game opened by its link some
    decisions before its end, then clicked to the score screen (the whole game by clicking
    is the phone's two players', below: at four, 63 CPU-s of the suite's with the two
    threads, where the board and the score screen are what four players change)."""
    from nova.links import encode
    from nova_tools.links import random_record

    whole = random_record(4, 7, bot="greedy")
    whole.moves[:] = whole.moves[:-60]
    page = page_factory(viewport=DESKTOP)
    page.goto(server_url + "index.html#" + encode(whole))
    wait_ready(page)
    n = moves(page)
    assert n == len(whole.moves)
    from test_page_levels import SAVED_JS, Replay

    from nova.bots import make_bot
    from nova.record import GameRecord

    greedy, replay = make_bot("greedy"), Replay()  # each seat's decision greedy's, as before
    for _ in range(300):
        if page.evaluate("document.body.hasAttribute('data-nova-over')"):
            break
        record = GameRecord.from_dict(json.loads(page.evaluate(SAVED_JS))["record"])
        state, before = replay.follow(record), moves(page)
        token = str(greedy.choose(state.view(state.current_player), before))
        r = page.evaluate(CLICK_JS, [token, 0.5, 0.0])
        if not r.get("ready"):
            page.wait_for_function(
                f"+document.body.dataset.novaMoves > {before}"
                " || document.body.hasAttribute('data-nova-over')"
            )
    scores = page.locator('[role="dialog"][aria-label="Final scores"]')
    assert scores.is_visible() and scores.locator(".score-card").count() == 4
    assert "win" in scores.locator("h2").inner_text() and moves(page) > n
    assert page.nova.console_errors == [] and page.nova.page_errors == []
    assert page.nova.external == []


@pytest.mark.slow
@pytest.mark.parametrize("players, screen", [(2, "phone")])
def test_whole_game_by_clicking_to_the_score_screen(page_factory, server_url, players, screen):
    """New game, pass-and-play, decisions until the game ends; no console error at all
    (four players: from a link near the end, above).

    (The README's screenshots come from bot-played games: tests/test_page_screenshots.py.)
    """
    page = open_page(page_factory, server_url, DESKTOP if screen == "desktop" else PHONE)
    start_game(page, players)
    rng = random.Random(players)
    times = play(page, rng, 160, end_bias=0.2)
    if page.locator('[data-ui="ready"]').count():
        page.click('[data-ui="ready"]')
    times += play_to_the_end(page, seed=players)
    scores = page.locator('[role="dialog"][aria-label="Final scores"]')
    assert scores.is_visible()
    assert scores.locator(".score-card").count() == players
    assert "win" in scores.locator("h2").inner_text()
    assert moves(page) > 50
    assert page.nova.console_errors == [] and page.nova.page_errors == []
    assert page.nova.external == []
    p95 = statistics.quantiles(times, n=20)[-1]
    print(
        f"{players}p {screen}: {moves(page)} decisions, click->repaint median "
        f"{statistics.median(times):.1f} ms, p95 {p95:.1f} ms, max {max(times):.1f} ms"
    )


def test_reload_resumes_at_the_same_decision(page_factory, server_url):
    """Autosave after every decision: a reload comes back to the same decision and choices."""
    page = open_page(page_factory, server_url)
    start_game(page, 3)
    play(page, random.Random(5), 45)
    if page.locator('[data-ui="ready"]').count():
        page.click('[data-ui="ready"]')
    n, legal = moves(page), legal_now(page)
    assert n > 20 and legal
    page.reload()
    wait_ready(page)
    assert moves(page) == n
    if page.locator('[data-ui="ready"]').count():  # the device may be in anyone's hands
        page.click('[data-ui="ready"]')
    assert legal_now(page) == legal


def test_undo_button_and_keyboard(page_factory, server_url):
    page = open_page(page_factory, server_url)
    start_game(page)
    page.click('[data-ui="ready"]')
    launch = next(m for m in legal_now(page) if m.startswith("L"))
    page.click(f'[data-move="{launch}"]')
    assert moves(page) == 1
    page.keyboard.press("u")
    assert moves(page) == 0
    page.keyboard.press("a")  # the first highlighted choice (digits are the hand's cards)
    assert moves(page) == 1
    page.click('[data-ui="undo"]')
    assert moves(page) == 0
    # the player sees Undo grey out (nothing left to undo); focus moves to the next choice
    page.wait_for_selector('[data-ui="undo"][aria-disabled="true"]', state="attached")
    page.keyboard.press("e")  # end the turn
    assert moves(page) == 1
    assert page.locator('[data-ui="ready"]').is_visible()  # pass to the other player


def test_a_damaged_save_gives_a_message_and_the_game_list_still_works(page_factory, server_url):
    page = open_page(page_factory, server_url)
    start_game(page)
    page.click('[data-ui="ready"]')
    page.click('[data-move="E"]')
    page.evaluate(
        """() => {
      localStorage.setItem('nova:save:zzz1', '{"format":"nova-save","v":1,"record":'
        + '{"format":"nova-game","v":1,"players":2,"seed":1,'
        + '"moves":["<img src=x onerror=alert(1)>"]}}');
      localStorage.setItem('nova:save:zzz2', 'garbage{');
      localStorage.setItem('nova:current', 'zzz1');
    }"""
    )
    page.reload()
    wait_ready(page)
    alert = page.locator('[role="alert"]')
    assert alert.is_visible() and "could not be opened" in alert.inner_text()
    assert page.locator("img[src=x]").count() == 0
    saves = page.locator(".save-list li")
    assert saves.count() == 3
    assert page.locator(".save-bad").count() == 1  # 'garbage{'; zzz1 only fails on replay
    page.locator('.save-bad [data-ui^="delete:"]').click()
    assert page.locator(".save-list li").count() == 2
    good = page.locator('[data-ui^="resume:"]').first
    good.click()
    assert page.get_attribute("body", "data-nova-screen") in ("pass", "game")
    page.click('[data-ui="menu"]')
    page.click('[data-ui="new-game"]')
    assert moves(page) == 0


def test_blocked_storage_still_plays_and_says_saving_is_off(page_factory, server_url):
    page = page_factory(viewport=DESKTOP)
    page.add_init_script(
        "Object.defineProperty(window, 'localStorage', {get() { throw new DOMException('no', "
        "'SecurityError'); }});"
    )
    page.goto(server_url + "index.html")
    wait_ready(page)
    assert "Saving is off" in page.inner_text("body")
    start_game(page)
    page.click('[data-ui="ready"]')
    page.click('[data-move="E"]')
    assert moves(page) == 1


LONG_TASKS_JS = """() => {
  window.__novaLong = [];
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) window.__novaLong.push(Math.round(e.duration));
  }).observe({type: 'longtask'});
}"""


def test_the_search_bot_at_a_chosen_think_time_plays_in_the_worker(page_factory, server_url):
    """Solo play against a bot by algorithm (under "More", with its think time): a person
    (seat 1, clicking) against search (seat 2) for a few of its searches.

    The bot thinks in the page's worker, and the person can never move for it. (Whole games
    against each level are tests/test_page_levels.py's; how long the main thread's tasks
    are is bench-page's figure, not an assertion here.)
    """
    page = open_page(page_factory, server_url)
    page.select_option("#nova-bot-1", "search")
    page.select_option("#nova-bot-pace", "quick")
    page.click("details.more summary")  # the search's thinking time is under "More"
    page.select_option("#nova-bot-think", "250")
    page.click('[data-ui="new-game"]')
    assert page.locator('[data-ui="ready"]').count() == 0  # one human: no pass screen
    page.evaluate(LONG_TASKS_JS)
    rng = random.Random(11)
    human = 0
    while int(page.get_attribute("body", "data-nova-bot-searches") or 0) < 3 and human < 400:
        page.wait_for_function("!document.body.hasAttribute('data-nova-bot-turn')",
                               timeout=30_000)  # fmt: skip
        before = moves(page)
        r = page.evaluate(CLICK_JS, [None, rng.random(), 0.3])
        assert not r.get("none"), "the person has no decision on their turn"
        # the person's one decision; a bot's (a Spawn placement, its turn) may follow at
        # once, so the count is settled by the tally at the end: human + bot
        assert moves(page) >= before + 1
        human += 1
    page.wait_for_function("!document.body.hasAttribute('data-nova-bot-turn')", timeout=30_000)
    bot = int(page.get_attribute("body", "data-nova-bot-decisions"))
    searches = int(page.get_attribute("body", "data-nova-bot-searches"))
    longest = page.evaluate("Math.max(0, ...window.__novaLong)")
    slice_ms = float(page.get_attribute("body", "data-nova-bot-longest-slice-ms"))
    print(
        f"human {human} decisions, bot {bot} ({searches} searches, "
        f"{page.get_attribute('body', 'data-nova-bot-positions')} positions in "
        f"{page.get_attribute('body', 'data-nova-bot-think-ms')} ms); "
        f"longest bot slice {slice_ms:.0f} ms, longest task {longest} ms"
    )
    # (decisions with one option are taken for the person: data-nova-taken counts them)
    taken = int(page.get_attribute("body", "data-nova-taken"))
    assert moves(page) == human + bot + taken and searches >= 3
    assert page.get_attribute("body", "data-nova-worker") == "ready"
    assert page.get_attribute("body", "data-nova-bot-where") == "worker"
    assert page.nova.console_errors == [] and page.nova.page_errors == []


def test_bots_pause_under_the_rules_and_the_replay(page_factory, server_url):
    """Two bots playing each other stop while the rules or a replay is open, then go on."""
    page = open_page(page_factory, server_url)
    bots_play(page)
    page.wait_for_function("+document.body.dataset.novaMoves >= 5", timeout=20_000)
    for opener, closer, screen in (
        ('[data-ui="help"]', "Escape", "help"),
        ('[data-ui="replay"]', None, "replay"),
    ):
        page.click(opener)
        # the screen comes with the worker's answer: a bot's move the worker made before the
        # press arrives before it, and is not one made under the screen
        page.wait_for_selector(f'body[data-nova-screen="{screen}"]', state="attached")
        frozen = moves(page)
        page.wait_for_timeout(800)  # at the quick pace, bots would make several moves
        assert moves(page) == frozen, f"a bot moved under {opener}"
        if closer:
            page.keyboard.press(closer)
        else:
            page.click('[data-ui="replay-close"]')
        page.wait_for_function(f"+document.body.dataset.novaMoves > {frozen}", timeout=20_000)
    assert page.nova.console_errors == [] and page.nova.page_errors == []


def test_bot_seat_plays_by_itself(page_factory, server_url):
    page = open_page(page_factory, server_url)
    page.select_option("#nova-bot-1", "random")
    page.click('[data-ui="new-game"]')
    assert page.locator('[data-ui="ready"]').count() == 0  # one human: no pass screen
    for _ in range(30):
        if page.locator('[data-move="E"]').count():
            page.click('[data-move="E"]')
        page.wait_for_timeout(100)
        if moves(page) >= 4:
            break
    # the bot's worker boots a second interpreter first
    page.wait_for_function("+document.body.dataset.novaMoves >= 3", timeout=120_000)


def _two_bots(page, bot: str = "best") -> None:
    bots_play(page, bot, think_ms="250")


def test_bots_think_in_a_worker_and_every_press_lands_while_they_play(page_factory, server_url):
    """Two of the strongest bots play quickly in the worker; the page is updated in place, so the
    "? Rules" button stays the same element and every real press on it opens the rules."""
    page = open_page(page_factory, server_url)
    _two_bots(page)
    page.wait_for_function("+document.body.dataset.novaMoves >= 3", timeout=120_000)
    assert page.get_attribute("body", "data-nova-worker") == "ready"
    assert page.get_attribute("body", "data-nova-bot-where") == "worker"
    page.evaluate(
        "window.__rules = document.querySelector('[data-ui=\"help\"]');"
        "window.__board = document.querySelector('svg.board');"
        "window.__seat = document.querySelector('#seat-0')"
    )
    start = moves(page)
    for _ in range(6):
        page.wait_for_function(
            f"+document.body.dataset.novaMoves > {moves(page)}", timeout=60_000
        )  # the bots moved on since the last press
        page.click('[data-ui="help"]', delay=60)  # held down while the bots may move
        assert page.get_attribute("body", "data-nova-screen") == "help"
        assert page.locator('[role="dialog"][aria-label="Rules help"]').is_visible()
        page.keyboard.press("Escape")
        assert page.evaluate(
            "window.__rules === document.querySelector('[data-ui=\"help\"]') && "
            "window.__board === document.querySelector('svg.board') && "
            "window.__seat === document.querySelector('#seat-0')"
        ), "a control was replaced while the bots played"
    assert moves(page) >= start + 6
    assert page.nova.console_errors == [] and page.nova.page_errors == []


def test_a_game_worker_that_cannot_start_is_said_with_a_way_to_try_again(page_factory, server_url):
    """The game's worker's script cannot be fetched (a network or a host that refuses it):
    the page says so in plain words, not in a minute but at once, and offers to try again."""
    page = page_factory(viewport=DESKTOP)
    page.context.route("**/game_worker.py", lambda r: r.abort())
    page.goto(server_url)
    page.wait_for_selector("body[data-nova-error]", state="attached", timeout=20_000)
    said = page.inner_text("#nova-boot")
    assert "could not start" in said
    # in plain words: never an exception's name (issue 49)
    assert not any(w in said for w in ("Exception", "Error", "(")), said
    assert page.locator("[data-nova-retry]").is_visible()


@pytest.mark.parametrize("reduce", [False, True])
def test_a_move_travels_on_the_board_unless_reduced_motion(page_factory, server_url, reduce):
    page = open_page(page_factory, server_url)
    if reduce:
        page.emulate_media(reduced_motion="reduce")
    start_game(page)
    page.click('[data-ui="ready"]')
    launch = next(m for m in legal_now(page) if m.startswith("L"))
    page.click(f'[data-move="{launch}"]')
    arrived = page.locator(f"#stack-{launch[1:]}")
    assert arrived.get_attribute("data-nova-motion")  # the renderer marked its way
    assert (arrived.get_attribute("data-nova-animated") is not None) is not reduce
    assert page.locator(".marks .trail").count() >= 1  # and it stays marked
