"""Learn to play in a real browser: every lesson finished by taps on its marked targets
alone, one lesson at phone width by touch, one by keyboard, axe-core clean on every
lesson screen, and the last step starting an ordinary game against the bot."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from axe_helpers import AXE, axe_violations
from conftest import wait_ready
from phone_helpers import CUT_LABELS

from nova.tutorial import FIRST_GAME, LESSONS

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
RULE = re.compile(r"\bR\d+\b")
SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
# the README's lesson screenshots: (lesson, before or after its goal is met)
README_SHOTS = {("hijack", "before"): "lesson-hijack.png", ("cargo", "after"): "lesson-cargo.png"}


def open_tutorial(page, server_url: str) -> None:
    page.goto(server_url + "index.html")
    wait_ready(page)
    page.locator('.start [data-ui="learn"]').click()
    page.wait_for_selector(f'body[data-nova-lesson="{LESSONS[0].id}"]')


def lesson_shown(page, lesson_id: str) -> None:
    page.wait_for_selector(f'body[data-nova-screen="tutorial"][data-nova-lesson="{lesson_id}"]')
    assert RULE.search(page.locator(".lesson-rule").inner_text())


def finish_by_taps(page, tap) -> int:
    """Tap the first marked target until the goal is met; the taps it took."""
    for taps in range(60):
        if page.locator("body[data-nova-lesson-done]").count():
            return taps
        before = page.locator("#app").inner_html()
        tap(page.locator("[data-lesson-target]").first)
        page.wait_for_function(
            "(b) => document.body.hasAttribute('data-nova-lesson-done')"
            " || document.querySelector('#app').innerHTML !== b",
            arg=before,
        )
        assert not page.locator('.notice[role="alert"]').count(), page.locator(
            ".notice"
        ).inner_text()
    pytest.fail("the lesson was not finished in 60 taps")


def readme_shot(page, name: str) -> None:
    """The lesson as a newcomer first sees it: the top of the page, no card's text open."""
    page.evaluate("document.activeElement && document.activeElement.blur(); scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / name))


def clean(page, screen: str) -> None:
    violations = axe_violations(page)
    assert violations == [], f"{screen}: " + "; ".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in violations
    )


def test_every_lesson_by_its_targets_alone_then_the_first_game(page_factory, server_url):
    assert AXE.exists(), "node_modules/axe-core missing: run `make node` (npm ci)"
    page = page_factory(bypass_csp=True, viewport=DESKTOP)  # axe is injected inline
    open_tutorial(page, server_url)
    for i, lesson in enumerate(LESSONS):
        lesson_shown(page, lesson.id)
        if i == 0:  # a lesson's screen as it opens; each lesson's own content once its goal is met
            clean(page, f"lesson {lesson.id}")
        if (lesson.id, "before") in README_SHOTS:
            readme_shot(page, README_SHOTS[(lesson.id, "before")])
        if i == 1:  # a tap on a choice the lesson does not expect says why, naming a rule
            other = page.locator("[data-move]:not([data-lesson-target])")
            if other.count():
                other.first.dispatch_event("click")
                alert = page.locator('.notice[role="alert"]')
                alert.wait_for()
                assert RULE.search(alert.inner_text())
        finish_by_taps(page, lambda el: el.dispatch_event("click"))
        assert page.locator(".lesson-after").inner_text().strip()
        clean(page, f"lesson {lesson.id}, goal met")
        if (lesson.id, "after") in README_SHOTS:
            readme_shot(page, README_SHOTS[(lesson.id, "after")])
        page.click('[data-ui="next-lesson"]')
    lesson_shown(page, FIRST_GAME.id)
    assert page.locator("body[data-nova-tutorial]").count() == 0
    page.locator("[data-lesson-target]").click()
    page.wait_for_selector('body[data-nova-tutorial="done"]:not([data-nova-lesson])')
    assert page.get_attribute("body", "data-nova-screen") in ("game", "pass")
    page.reload()  # progress is remembered
    wait_ready(page)
    assert page.get_attribute("body", "data-nova-tutorial") == "done"
    assert page.nova.console_errors == [] and page.nova.page_errors == []


def test_a_lesson_at_phone_width_by_touch(page_factory, server_url):
    page = page_factory(viewport=PHONE, has_touch=True, is_mobile=True)
    open_tutorial(page, server_url)
    page.locator('[data-ui="lesson:orbit"]').click()
    lesson_shown(page, "orbit")
    # as in the game, the place the card takes the ship to is one tap: card, ship and place
    page.locator(".board .fold-target[data-alt-move]").tap()
    page.wait_for_selector("body[data-nova-lesson-done]")
    page.locator('[data-ui="restart-lesson"]').tap()
    page.wait_for_selector("body:not([data-nova-lesson-done])")
    # or the card (its one ship chosen for the player, as in a game), then the place; the
    # lesson's part of the board, framed on it, cuts none of the board's labels to half a word
    before = page.locator("#app").inner_html()
    page.locator("[data-lesson-target]").first.tap()
    page.wait_for_function("(b) => document.querySelector('#app').innerHTML !== b", arg=before)
    assert page.evaluate(CUT_LABELS) == []
    assert finish_by_taps(page, lambda el: el.tap()) == 1
    page.locator('[data-ui="next-lesson"]').tap()
    lesson_shown(page, "chain")
    # a Cargo Bay's button keeps the focus its tap gave it, and then says the next Shard
    # (Idiomorph left a focused control's words as they were: "+1 pt" for a +4)
    page.locator('[data-ui="lesson:unload"]').click()
    lesson_shown(page, "unload")
    page.locator("[data-lesson-target]").first.tap()  # the Unload card (its one ship chosen)
    for _ in range(2):
        before = page.locator("#app").inner_html()
        page.locator("#move-B0").tap()
        page.wait_for_function("(b) => document.querySelector('#app').innerHTML !== b", arg=before)
        assert page.evaluate("document.activeElement.id") == "move-B0"
        said = page.locator("#prompt").inner_text()
        icons = page.eval_on_selector_all(
            '.choices [data-move^="B"] .shard-icon', "els => els.map((e) => e.ariaLabel)"
        )
        assert len(icons) == 3 and all(i.split()[0] in said for i in icons), (said, icons)
    assert page.nova.console_errors == [] and page.nova.page_errors == []


def test_a_lesson_by_keyboard(page_factory, server_url):
    page = page_factory(viewport=DESKTOP)
    open_tutorial(page, server_url)
    page.locator('[data-ui="lesson:chain"]').click()
    lesson_shown(page, "chain")
    for _ in range(40):  # the focus goes to what the lesson expects: Enter takes it
        if page.locator("body[data-nova-lesson-done]").count():
            break
        assert page.evaluate("document.activeElement.hasAttribute('data-lesson-target')")
        before = page.locator("#app").inner_html()
        page.keyboard.press("Enter")
        page.wait_for_function("(b) => document.querySelector('#app').innerHTML !== b", arg=before)
    assert page.locator("body[data-nova-lesson-done]").count() == 1
    page.wait_for_function("document.activeElement.dataset.ui === 'next-lesson'")
    page.keyboard.press("Enter")
    lesson_shown(page, "jump")
    assert page.nova.console_errors == [] and page.nova.page_errors == []
