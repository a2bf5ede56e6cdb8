"""The README's screenshots, taken in Chromium from games that greedy bots played.

A random-clicking game leaves every Cargo Bay empty; these open real-looking games by link
(mid-game and finished) at desktop and phone sizes and write docs/screenshots/*.png. The
test also checks what a player must see on them: the hand, Shards in the bays, the track,
the Academy, the winner.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import wait_ready

from nova.links import encode
from nova.record import GameRecord
from nova_tools.links import random_record

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
NAMES = ["Ada", "Bo", "Cy", "Di"]


def _greedy_game(players: int) -> GameRecord:
    """A whole greedy game that ends at Super-Nova (the first such seed)."""
    for seed in range(1, 40):
        record = random_record(players, seed, bot="greedy")
        if record.state().end_reason == "supernova":
            record.names = NAMES[:players]
            return record
    raise AssertionError("no greedy game reached Super-Nova")


def _mid_game(record: GameRecord, round_: int) -> GameRecord:
    """The game cut at the start of the first turn of round ``round_``."""
    states = record.states()
    for i, s in enumerate(states):
        if (
            s.round >= round_
            and s.pending is None
            and not s.spawn_shard
            and i
            and (states[i - 1].turn != s.turn)
        ):
            return GameRecord(
                players=record.players, seed=record.seed, moves=record.moves[:i],
                names=record.names,
            )  # fmt: skip
    raise AssertionError("the game is shorter than that")


def _open(page_factory, server_url, size: str, record: GameRecord | None):
    page = page_factory(viewport=SIZES[size])
    page.goto(server_url + "index.html" + (f"#{encode(record)}" if record else ""))
    wait_ready(page)
    if record is not None and page.locator('[data-ui="ready"]').count():
        page.click('[data-ui="ready"]')
    return page


@pytest.mark.parametrize("size, players", [("desktop", 4), ("phone", 2)])
def test_screenshots_of_a_real_game(page_factory, server_url, size, players):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = _open(page_factory, server_url, size, None)
    page.screenshot(path=str(SHOTS / f"{size}-new-game.png"))

    whole = _greedy_game(players)
    mid = _mid_game(whole, whole.state().round // 2 + 1)
    page = _open(page_factory, server_url, size, mid)
    assert int(page.get_attribute("body", "data-nova-moves")) == len(mid.moves)
    assert page.locator(".hand .card").count() >= 5  # the deciding player's hand
    assert page.locator("[data-move]").count() > 1
    assert page.locator(".board .bay .shard, .board [data-bay] .shard").count() or any(
        "".join(p.bays) for p in mid.state().players
    )
    assert page.locator(".track").is_visible() or size == "phone"
    page.screenshot(path=str(SHOTS / f"{size}-mid-game.png"))
    if size == "desktop":
        page.screenshot(path=str(SHOTS / f"{size}-mid-game-full.png"), full_page=True)

    page = _open(page_factory, server_url, size, whole)
    scores = page.locator('[role="dialog"][aria-label="Final scores"]')
    assert scores.is_visible()
    assert "Super-Nova" in scores.inner_text() and "win" in scores.locator("h2").inner_text()
    assert scores.locator(".score-card").count() == players
    page.screenshot(path=str(SHOTS / f"{size}-scores.png"))
    assert page.nova.console_errors == [] and page.nova.page_errors == []


def test_screenshot_of_a_turn_marked_on_the_board(page_factory, server_url):
    """The previous player's moves stay marked on the board until the next player acts:
    trails in the mover's colour (along the ring for an Orbit), touched spaces ringed,
    and the log grouped by turn."""
    from nova.web.session import Session

    whole = _greedy_game(4)
    for round_ in range(whole.state().round // 2, whole.state().round):
        mid = _mid_game(whole, round_)
        marks = Session(mid).marks()
        if len(marks["motions"]) >= 2:
            break
    page = _open(page_factory, server_url, "desktop", mid)
    assert page.locator(".marks .trail").count() == len(marks["motions"])
    assert page.locator(".marks .mark-touched").count() == len(marks["touched"])
    assert page.locator(".log-turn").count() >= 4
    # the last move's travel has played (the page animates it with the Web Animations API)
    page.wait_for_function("document.getAnimations().every((a) => a.playState !== 'running')")
    page.locator(".board-wrap").screenshot(path=str(SHOTS / "desktop-turn-marked.png"))
    page.locator(".log").screenshot(path=str(SHOTS / "desktop-log-by-turn.png"))
    assert page.nova.console_errors == [] and page.nova.page_errors == []


def _cut_where(record: GameRecord, pred) -> GameRecord:
    """``record`` cut at its first decision where ``pred(state)`` holds."""
    for i, s in enumerate(record.states()):
        if i < len(record.moves) and pred(s):
            return GameRecord(
                players=record.players, seed=record.seed, moves=record.moves[:i],
                names=record.names,
            )  # fmt: skip
    raise AssertionError("no such decision in the game")


def _show(page, server_url: str, record: GameRecord) -> None:
    """The game of ``record`` on the open page (by its link: no reload), past its Ready."""
    page.goto(server_url + "index.html#" + encode(record))
    page.wait_for_function(f"+document.body.dataset.novaMoves === {len(record.moves)}")
    if page.locator('[data-ui="ready"]').count():
        page.locator('[data-ui="ready"]').tap()
    page.wait_for_selector("[data-move]")
    page.evaluate("document.activeElement && document.activeElement.blur()")


def test_phone_screenshots_of_the_mended_faults(page_factory, server_url):
    """Issue 49 at 390x844 by touch, from greedy games opened by link: a choice far from
    the others framed with them; the points a Cargo Bay would gain above its Shards; the
    whole board's labels, the Expansion Rings' and the stack height's key, a hand's Special
    cards; lesson 1 saying what the game is about first; a wrong tap's message on screen."""
    from nova.render.zoom import zoom_box

    page = page_factory(viewport=SIZES["phone"], has_touch=True, is_mobile=True)
    page.goto(server_url + "index.html")
    wait_ready(page)

    def far_apart(s) -> bool:  # a destination across the board from the other
        box = zoom_box(s.view(s.current_player)) if s.pending else None
        return box is not None and box.x1 - box.x0 > 600 and s.pending.kind == "orbit"

    def bays_filling(s) -> bool:
        return (
            bool(s.pending)
            and s.pending.kind == "unload_bays"
            and any(len(b) >= 2 for b in s.players[s.turn].bays)
        )

    def specials_late(s) -> bool:
        hand = s.players[s.turn].hand
        return s.removed >= 2 and s.pending is None and sum(c[0] == "s" for c in hand) >= 1

    game = None
    for seed in range(1, 40):
        game = random_record(2, seed, bot="greedy")
        game.names = NAMES[:2]
        states = game.states()
        if all(any(p(s) for s in states) for p in (far_apart, bays_filling, specials_late)):
            break
    assert game is not None
    _show(page, server_url, _cut_where(game, far_apart))
    off = page.evaluate(
        """() => { const w = document.querySelector('.board-wrap').getBoundingClientRect();
        return [...document.querySelectorAll('svg.board .target circle:not(.hit)')]
          .map((c) => c.getBoundingClientRect())
          .filter((r) => r.left < w.left - 1 || r.right > w.right + 1
                         || r.top < w.top - 1 || r.bottom > w.bottom + 1).length; }"""
    )
    assert off == 0, "a destination is outside the zoomed board"
    page.screenshot(path=str(SHOTS / "phone-zoom-all-choices.png"))
    _show(page, server_url, _cut_where(game, bays_filling))
    assert page.locator("svg.board .bay-target text").count() >= 2
    page.screenshot(path=str(SHOTS / "phone-bay-points.png"))
    _show(page, server_url, _cut_where(game, specials_late))
    assert "Expansion Rings" in page.locator(".board-wrap .exp-label").first.text_content()
    assert page.locator(".hand .card-special").count() >= 1
    page.screenshot(path=str(SHOTS / "phone-whole-board-specials.png"))

    page = page_factory(viewport=SIZES["phone"], has_touch=True, is_mobile=True)  # no game
    page.goto(server_url + "index.html")
    wait_ready(page)
    page.locator('.start [data-ui="learn"]').tap()
    page.wait_for_selector('body[data-nova-lesson="about"]')
    assert "What the game is about" in page.locator(".board-wrap .lesson-about").inner_text()
    page.screenshot(path=str(SHOTS / "phone-lesson-about.png"))
    page.locator('[data-ui="lesson:orbit"]').tap()
    page.wait_for_selector('body[data-nova-lesson="orbit"]')
    # the card (its one ship is chosen for the player, as in a game): then where it goes
    before = page.locator("#app").inner_html()
    page.locator("[data-lesson-target]").first.tap()
    page.wait_for_function("(b) => document.querySelector('#app').innerHTML !== b", arg=before)
    wrong = page.locator(".hand .card").first
    wrong.tap()
    notice = page.locator('.controls .notice[role="alert"]')
    notice.wait_for()
    box = notice.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= SIZES["phone"]["height"]
    # the step's instruction fades in again (its animation) before the picture
    page.wait_for_function("document.getAnimations().every((a) => a.playState !== 'running')")
    page.screenshot(path=str(SHOTS / "phone-lesson-wrong-tap.png"))
    assert page.nova.console_errors == [] and page.nova.page_errors == []
