"""Issue 11 in a real browser: numbers that say what they count, one-option decisions,
Cargo Bays as targets with their points, "why not?", keyboard play, dialogs, axe-core,
the phone. Uses tests/conftest.py's fixtures (built _site, served, system Chromium)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import wait_ready

from nova.links import encode
from nova.record import GameRecord

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"

DESKTOP = {"width": 1280, "height": 800}


def record_until(pred, players: int = 2, seeds=range(200), steps: int = 600) -> GameRecord:
    """A game record of seeded random decisions, stopped where ``pred(state)`` holds."""
    for seed in seeds:
        rng = random.Random(seed)
        rec = GameRecord(players=players, seed=seed)
        s = rec.state()
        for _ in range(steps):
            if pred(s):
                return rec
            if s.is_over():
                break
            legal = [str(m) for m in s.legal_moves()]
            others = [m for m in legal if m != "E"]
            end = not others or ("E" in legal and rng.random() < 0.12)
            move = "E" if end else rng.choice(sorted(others))
            rec.moves.append(move)
            s = s.apply(move)
    raise AssertionError("no such position found")


def open_page(page_factory, server_url, fragment: str = "", **context):
    page = page_factory(viewport=context.pop("viewport", DESKTOP), **context)
    page.goto(server_url + "index.html" + ("#" + fragment if fragment else ""))
    wait_ready(page)
    return page


def moves(page) -> int:
    return int(page.get_attribute("body", "data-nova-moves"))


def ready(page) -> None:
    button = page.locator('[data-ui="ready"]')
    if button.count():
        button.click()
    page.wait_for_selector("[data-move]")


def alert_text(page) -> str:
    page.wait_for_selector('[role="alert"]', timeout=5000)
    return page.locator('[role="alert"]').inner_text()


def test_bays_are_targets_on_the_board_with_the_points_each_gives(page_factory, server_url):
    def unloading(s):  # bays that would gain different points: the preview matters
        if not (s.pending and s.pending.kind == "unload_bays"):
            return False
        gains = {s.apply(f"B{b}").score_breakdown(s.turn)["total"] for b in range(3)}
        return len(gains) > 1

    rec = record_until(unloading)
    page = open_page(page_factory, server_url, encode(rec))
    ready(page)
    n = moves(page)
    s = rec.state()
    base = s.score_breakdown(s.turn)["total"]
    gains = {f"B{b}": s.apply(f"B{b}").score_breakdown(s.turn)["total"] - base for b in range(3)}
    for token, gain in gains.items():
        board = page.locator(f'svg.board [data-alt-move="{token}"]')
        assert board.locator("text").text_content() == f"+{gain}"
        assert f"+{gain} pt" in page.locator(f'button[data-move="{token}"]').inner_text()
    best = max(gains, key=gains.get)
    page.locator(f'svg.board [data-alt-move="{best}"]').click()  # a real tap on the bay
    page.wait_for_function(f"+document.body.dataset.novaMoves > {n}")
    newest = page.locator(".log-turn").first.locator("li").last.inner_text()
    assert f"into Bay {int(best[1]) + 1}" in newest


def test_undo_and_taps_on_what_is_not_a_choice_say_why(page_factory, server_url):
    page = open_page(page_factory, server_url)
    page.click('[data-ui="new-game"]')
    ready(page)
    undo = page.locator('[data-ui="undo"]')
    assert undo.get_attribute("aria-disabled") == "true"
    assert "Nothing to undo" in undo.get_attribute("title")
    undo.click(force=True)  # aria-disabled: Playwright would wait for it to be enabled
    assert "Nothing to undo" in alert_text(page)
    # a hand card that cannot be played upright now (no ship on the board yet)
    page.locator(".hand-card .card[data-why]").first.click()
    text = alert_text(page)
    assert text.startswith("Not possible: ") and "(R" in text, text
    # a space on the board that is not highlighted
    x, y = page.evaluate(
        """() => {
          const busy = new Set([...document.querySelectorAll('svg.board [data-move]')]
            .map(e => e.id.replace('target-', '')));
          document.querySelectorAll('svg.board [data-stack]')
            .forEach(e => busy.add(e.dataset.stack));
          const space = [...document.querySelectorAll('.board-wrap [data-space]')]
            .find(e => !busy.has(e.dataset.space));
          const r = space.getBoundingClientRect();
          return [r.left + r.width / 2, r.top + r.height / 2];
        }"""
    )
    page.mouse.click(x, y)  # a real tap on an empty space that is not highlighted
    page.wait_for_function(
        "document.querySelector('[role=alert]').textContent.includes('not a choice now')"
        " || /\\(R\\d+/.test(document.querySelector('[role=alert]').textContent)"
    )
    assert moves(page) == 0
    assert page.nova.console_errors == [] and page.nova.page_errors == []


FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  return {move: el.getAttribute('data-move'), ui: el.getAttribute('data-ui'),
          tag: el.tagName.toLowerCase(), visible: el.matches(':focus-visible'),
          inView: (() => { const r = el.getBoundingClientRect();
                           return r.bottom > 0 && r.top < innerHeight; })()};
}"""


def test_a_whole_turn_by_keyboard_only(page_factory, server_url):
    """Tab to Start, Enter; Enter for Ready; then every action by Enter/Space on the choice
    the focus moved to (a board target first: a Launch), a card's digit key, and e to end
    the turn. After each action the focus is on the next choice, visible and in view."""
    page = open_page(page_factory, server_url)
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED)["ui"] == "new-game":
            break
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-ui="ready"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-move]")
    focused = page.evaluate(FOCUSED)
    assert focused["move"] and focused["move"].startswith("L"), focused  # a board target
    assert focused["tag"] == "g" and focused["visible"] and focused["inView"]
    page.keyboard.press("Enter")  # Enter on a board target launches
    page.wait_for_function("document.body.dataset.novaMoves === '1'")
    done = 1
    # a card by its digit: focus goes to its first play; Space plays it
    digit = page.evaluate(
        "() => document.querySelector('.hand-card.playable')?.dataset.cardKey || null"
    )
    assert digit, "no playable card after a Launch"
    page.keyboard.press(digit)
    assert page.evaluate(FOCUSED)["move"], "the card's digit did not focus its play"
    page.keyboard.press(" ")
    page.wait_for_function(f"+document.body.dataset.novaMoves > {done}")
    done = moves(page)
    for _ in range(8):  # finish whatever the card asked for: Enter on the focused choice
        focused = page.evaluate(FOCUSED)
        assert focused and focused["move"], f"focus fell off the choices: {focused}"
        assert focused["inView"]
        if (
            focused["move"] == "E"
            or not page.locator("svg.board [data-move], .choices [data-move]").count()
        ):
            break
        page.keyboard.press("Enter")
        page.wait_for_function(f"+document.body.dataset.novaMoves > {done}")
        done = moves(page)
    page.keyboard.press("e")  # end the turn
    page.wait_for_selector('[data-ui="ready"]')
    assert moves(page) > done
    assert page.nova.console_errors == [] and page.nova.page_errors == []


IN_VIEW = """(sel) => [...document.querySelectorAll(sel)].map(e => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight
    && r.right <= innerWidth; })"""
ON_TOP = """(sel) => { const e = document.querySelector(sel); const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (hit === e || e.contains(hit)); }"""


def finished_record() -> GameRecord:
    return record_until(lambda s: s.is_over(), seeds=range(3), steps=4000)


@pytest.mark.parametrize("embed", [False, True])
def test_upgrades_academy_cards_come_into_view(page_factory, server_url, embed):
    """At 1280x800, and embedded at 800x600 (the controls column scrolls on its own)."""
    rec = record_until(lambda s: bool(s.pending) and s.pending.kind == "upgrade")
    if embed:
        page = page_factory(viewport={"width": 800, "height": 600})
        page.goto(server_url + "index.html?embed#" + encode(rec))
        wait_ready(page)
    else:
        page = open_page(page_factory, server_url, encode(rec))
    ready(page)
    picks = page.evaluate(IN_VIEW, ".academy [data-move]")
    assert picks and any(picks), "Upgrade's Academy cards are out of view"
    assert page.evaluate("document.activeElement.closest('.academy') !== null")
    scrolled = page.evaluate(
        "document.querySelector('.controls').scrollTop + document.scrollingElement.scrollTop"
    )
    assert scrolled > 0, "the Academy was in view anyway: this shows nothing"


def test_score_dialog_share_on_top_and_escape_and_outside_taps_close(page_factory, server_url):
    rec = finished_record()
    page = open_page(page_factory, server_url, encode(rec))
    scores = page.locator('[role="dialog"][aria-label="Final scores"]')
    assert scores.is_visible()
    page.click('.scores [data-ui="share"]')
    page.wait_for_selector("[data-nova-share-panel]:not([hidden]) button")
    assert page.evaluate(ON_TOP, "[data-nova-share-panel] button[data-nova-share=copy]")
    assert all(page.evaluate(IN_VIEW, "[data-nova-share-panel] button"))
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-nova-share-panel][hidden]", state="attached")
    assert scores.is_visible()
    page.click('.scores [data-ui="share"]')
    page.wait_for_selector("[data-nova-share-panel]:not([hidden]) button")
    page.mouse.click(3, 3)  # beside the share dialog
    page.wait_for_selector("[data-nova-share-panel][hidden]", state="attached")
    page.keyboard.press("Escape")
    page.wait_for_function("document.body.dataset.novaScreen === 'game'")
    assert not scores.count()
    assert page.nova.console_errors == [] and page.nova.page_errors == []


def test_rules_on_a_phone_close_control_in_sight_and_a_tap_beside_closes(page_factory, server_url):
    page = open_page(
        page_factory, server_url, viewport={"width": 390, "height": 844}, has_touch=True,
        is_mobile=True,
    )  # fmt: skip
    page.click('[data-ui="new-game"]')
    page.click('[data-ui="ready"]')
    page.click('.tools [data-ui="help"]')
    page.wait_for_selector(".help")
    # what the track's spaces do, with their pictures, and scoring by the rulebook's
    # examples (issue 49); no keys on a touch phone
    assert not page.locator(".help-keys").is_visible()
    assert page.locator(".track-help .track-pic").count() >= 3
    for part, shot in ((".track-help", "track"), (".scoring-help", "scoring")):
        page.locator(part).scroll_into_view_if_needed()
        # the help's sections out of view are content-visibility: auto: drawn a frame later
        page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        page.screenshot(path=str(SHOTS / f"phone-rules-{shot}.png"))
    page.eval_on_selector(".help", "e => e.scrollTop = e.scrollHeight")
    assert all(page.evaluate(IN_VIEW, ".help .close")), "the Close button scrolled away"
    page.touchscreen.tap(195, 6)  # above the dialog
    page.wait_for_function("document.body.dataset.novaScreen === 'game'")
    page.click('.tools [data-ui="help"]')
    page.keyboard.press("Escape")
    page.wait_for_function("document.body.dataset.novaScreen === 'game'")


CLIPPED = """() => [...document.querySelectorAll('.card-name, .card-top, .card-bottom')]
  .filter(e => e.offsetParent !== null && e.textContent.trim())
  .filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
  .map(e => e.textContent)"""

# the page's scroll and its end, unchanged over ten animation frames
STILL = """() => new Promise(done => {
  const at = () => `${scrollY} ${document.documentElement.scrollHeight}`, first = at();
  let n = 0;
  const tick = () =>
    at() !== first ? done(false) : ++n < 10 ? requestAnimationFrame(tick) : done(true);
  requestAnimationFrame(tick);
})"""


def test_cards_explain_themselves_and_nothing_is_clipped(page_factory, server_url):
    """Hover, focus or a tap shows a card's full text with its R-numbers; no card title is
    clipped; a Special played this turn stays upright and readable."""

    def special_played(s):
        lay = s.layout
        return not s.pending and any(c in lay.special for c, _ in s.players[s.turn].played)

    rec = record_until(special_played, seeds=range(400), steps=900)
    page = open_page(page_factory, server_url, encode(rec))
    ready(page)
    played = page.locator(".played-row .card-special").first
    assert played.evaluate("e => getComputedStyle(e).transform") == "none"
    card = page.locator(".hand .card").first
    tip = card.locator(".card-tip")
    assert not tip.is_visible()
    card.hover()
    assert tip.is_visible() and "(R" in tip.inner_text()
    page.mouse.move(1, 1)
    card.focus()
    assert tip.is_visible()
    assert page.evaluate(CLIPPED) == []
    # the Academy's cards are the lowest row on a wide screen, often at the page's end: their
    # tips open upwards, so that one below the end cannot make the page shake (game.css)
    page.evaluate("document.activeElement.blur()")
    academy = page.locator(".academy .card").first
    academy.scroll_into_view_if_needed()
    end = page.evaluate("scrollY")
    academy.hover()
    box, card_box = academy.locator(".card-tip").bounding_box(), academy.bounding_box()
    assert box is not None and card_box is not None and 0 <= box["y"]
    assert box["y"] + box["height"] <= card_box["y"] + 1, "the Academy's tip opens downwards"
    assert page.evaluate("scrollY") == end, "the page moved when a card's tip opened"
    assert page.evaluate(STILL), "the page moves under a card's tip"
    phone = open_page(
        page_factory, server_url, encode(rec), viewport={"width": 390, "height": 844},
        has_touch=True, is_mobile=True,
    )  # fmt: skip
    ready(phone)
    assert phone.evaluate(CLIPPED) == []
    card = phone.locator(".academy .card").first
    card.scroll_into_view_if_needed()
    card.tap()  # a tap leaves no text over the prompt and the board (issue 49)
    assert not card.locator(".card-tip").is_visible()
    # a long press (the browser's context menu on a touch screen) shows it, till a touch
    held = phone.locator(".hand .card").first
    phone.evaluate("document.activeElement.blur()")
    assert not held.locator(".card-tip").is_visible()
    held.dispatch_event("contextmenu", {"bubbles": True, "cancelable": True})
    assert held.locator(".card-tip").is_visible()
    assert re.search(r"\(R\d+", held.locator(".card-tip").inner_text())
    phone.touchscreen.tap(5, 5)
    assert not held.locator(".card-tip").is_visible()
    for row in (".played-row", ".academy"):  # tips that open upwards on a wide screen
        other = phone.locator(f"{row} .card").first
        other.dispatch_event("contextmenu", {"bubbles": True, "cancelable": True})
        assert (other.locator(".card-tip").bounding_box() or {"height": 0})["height"] > 40, row


def test_the_new_game_form_says_which_bot_is_strongest(page_factory, server_url):
    page = open_page(page_factory, server_url)
    options = page.locator("#nova-bot-0 option").all_inner_texts()
    assert "Best bot (strongest)" in options and "Random bot (weakest)" in options
    page.click("details.more summary")  # the bots by algorithm are under "More"
    assert "weakest to strongest" in page.locator(".bots-note").inner_text()


def test_a_link_pasted_into_an_open_tab_opens_at_once(page_factory, server_url):
    page = open_page(page_factory, server_url)
    page.click('[data-ui="new-game"]')
    rec = record_until(lambda s: s.round >= 3, seeds=[7])
    page.evaluate("(h) => { location.hash = h; }", encode(rec))
    page.wait_for_function(f"document.body.dataset.novaMoves === '{len(rec.moves)}'")
    page.evaluate("() => { location.hash = 'not-a-game-link'; }")
    assert "could not be opened" in alert_text(page)
    assert moves(page) == len(rec.moves)  # the open game is not lost


PHONE = {"width": 390, "height": 844}
SIZES = """() => [...document.querySelectorAll('svg.board .target')].map(e => {
  const r = e.getBoundingClientRect(); return [r.width, r.height]; })"""
TOGETHER = """() => {
  const wrap = document.querySelector('.board-wrap').getBoundingClientRect();
  const onScreen = (r) => r.top >= 0 && r.bottom <= innerHeight && r.left >= 0
    && r.right <= innerWidth;
  const inWrap = (r) => r.top >= wrap.top - 1 && r.bottom <= wrap.bottom + 1
    && r.left >= wrap.left - 1 && r.right <= wrap.right + 1;
  const shown = [...document.querySelectorAll('svg.board .target')]
    .map(e => e.getBoundingClientRect()).filter(r => inWrap(r) && onScreen(r));
  const focus = document.activeElement.getBoundingClientRect();
  const prompt = document.querySelector('.prompt').getBoundingClientRect();
  if (!shown.length || !onScreen(focus) || !onScreen(prompt)) return null;
  return [shown[0].left + shown[0].width / 2, shown[0].top + shown[0].height / 2];
}"""
LABEL_PX = """() => { const h = [...document.querySelectorAll('.board-wrap .space-name')]
  .map(e => e.getBoundingClientRect().height).filter(x => x > 0).sort((a, b) => a - b);
  return h[Math.floor(h.length / 2)]; }"""


@pytest.mark.parametrize("players", [2, 4])
def test_phone_board_targets_are_big_enough_and_in_view_with_the_prompt(
    page_factory, server_url, players
):
    """390x844 touch: every board target of a board choice measures at least 44x44 CSS px,
    the focused one is in the board's window and on screen with the prompt, the space
    labels are legible, and a tap on a target plays it."""
    kinds = {
        "launch": lambda s: s.pending is None and any(str(m)[0] == "L" for m in s.legal_moves()),
        "destination": lambda s: bool(s.pending) and s.pending.kind == "orbit"
        and s.pending.ship is not None and s.pending.dest is None,
        "bays": lambda s: bool(s.pending) and s.pending.kind == "unload_bays",
    }  # fmt: skip
    page = page_factory(viewport=PHONE, has_touch=True, is_mobile=True)
    for kind, pred in kinds.items():
        rec = record_until(lambda s, pred=pred: pred(s) and len(s.legal_moves()) > 1, players)
        page.goto(server_url + "index.html#" + encode(rec))
        wait_ready(page)
        ready(page)
        sizes = page.evaluate(SIZES)
        assert sizes, kind
        small = [s for s in sizes if min(s) < 44]
        assert not small, f"{players}p {kind}: targets under 44 px: {small}"
        tap = page.evaluate(TOGETHER)
        assert tap, (
            f"{kind}: the board's choices, the focused choice and the prompt are not in view"
        )
        assert page.evaluate(LABEL_PX) >= 11, f"{kind}: space labels too small to read"
        n = moves(page)
        page.touchscreen.tap(*tap)  # a target on the board, as a finger would
        page.wait_for_function(f"+document.body.dataset.novaMoves > {n}")
    assert page.nova.console_errors == [] and page.nova.page_errors == []


def test_readme_screenshots_of_the_clear_screen(page_factory, server_url):
    """docs/screenshots: a card's rulebook text and a "why not?" at desktop width; a phone
    zoomed to a board choice with the prompt under it."""
    from pathlib import Path

    shots = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
    rec = record_until(
        lambda s: s.round >= 4 and s.pending is None and not s.spawn_shard
        and any(str(m)[0] == "L" for m in s.legal_moves()),
    )  # fmt: skip
    page = open_page(page_factory, server_url, encode(rec))
    ready(page)
    page.locator(".hand .card[data-why]").first.click()  # a card that cannot go upright
    assert alert_text(page).startswith("Not possible: ")
    page.locator(".hand .card").first.hover()
    assert page.locator(".hand .card .card-tip").first.is_visible()
    page.screenshot(path=str(shots / "desktop-card-text.png"))
    phone = open_page(
        page_factory, server_url, encode(rec), viewport=PHONE, has_touch=True, is_mobile=True
    )
    ready(phone)
    assert phone.locator(".board-wrap.zoomed").count() == 1
    phone.screenshot(path=str(shots / "phone-board-choice.png"))
