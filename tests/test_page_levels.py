"""The opponent levels in the page: each a one-tap solo game, each answering in the worker.

The page draws the levels from its own copy of their ratings (tests/test_levels.py keeps it
equal to nova.bots.LEVELS); here each level's button seats it, the usual Start begins the
game, and the person plays until the level has played whole turns of its own in the page's
worker. Also the README's screenshots of the levels, desktop and phone.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import wait_ready
from test_page_game import CLICK_JS, DESKTOP, PHONE

from nova.render.screens import LEVEL_CHOICES, elo_text

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
BOT_TURNS = 2  # the level's own turns to see played in the worker


def _bot_decisions(page) -> int:
    return int(page.get_attribute("body", "data-nova-bot-decisions") or 0)


def _settled(page) -> bool:
    """Wait until no bot is deciding; True if the game is on (a person's decision)."""
    page.wait_for_function(
        "document.body.hasAttribute('data-nova-over') || "
        "!document.body.hasAttribute('data-nova-bot-turn')",
        timeout=60_000,
    )
    return not page.evaluate("document.body.hasAttribute('data-nova-over')")


@pytest.mark.slow
def test_each_level_plays_its_turns_in_the_worker(page_factory, server_url):
    page = page_factory(viewport=DESKTOP)
    page.goto(server_url + "index.html")
    wait_ready(page)
    rng = random.Random(5)
    for level in LEVEL_CHOICES:
        if page.locator('[data-ui="menu"]').count():
            page.click('[data-ui="menu"]')
        button = page.locator(f'[data-ui="level:{level.name}"]')
        assert level.title in button.inner_text() and elo_text(level.elo) in button.inner_text()
        button.click()
        assert button.get_attribute("aria-pressed") == "true"
        assert page.locator("#nova-bot-1").input_value() == level.name
        page.select_option("#nova-bot-pace", "quick")
        page.click('[data-ui="new-game"]')
        assert page.locator('[data-ui="ready"]').count() == 0  # one person: no pass screen
        # the person plays (ending turns often) until the level has played two turns: each
        # time the person has a decision again after the bot's count grew is one turn of it
        turns, clicks, seen = 0, 0, _bot_decisions(page)
        while turns < BOT_TURNS and clicks < 400 and _settled(page):
            if _bot_decisions(page) > seen:
                turns, seen = turns + 1, _bot_decisions(page)
                continue
            r = page.evaluate(CLICK_JS, [None, rng.random(), 0.6])
            assert not r.get("none"), "the person has no decision on their turn"
            clicks += 1
        assert turns >= BOT_TURNS, (level.name, turns, clicks)
        assert page.get_attribute("body", "data-nova-bot-where") == "worker", level.name
    assert page.nova.console_errors == [] and page.nova.page_errors == []


@pytest.mark.parametrize("size, viewport", [("desktop", DESKTOP), ("phone", PHONE)])
def test_screenshots_of_the_levels(page_factory, server_url, size, viewport):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = page_factory(viewport=viewport)
    page.goto(server_url + "index.html")
    wait_ready(page)
    page.click('[data-ui="level:cadet"]')
    levels = page.locator(".levels-pick")
    for level in LEVEL_CHOICES:  # every level and its rating on screen, none cut off
        button = page.locator(f'[data-ui="level:{level.name}"]')
        assert button.is_visible() and elo_text(level.elo) in button.inner_text()
        box, width = button.bounding_box(), viewport["width"]
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    levels.scroll_into_view_if_needed()
    page.locator(".new-game").screenshot(path=str(SHOTS / f"{size}-levels.png"))
    assert page.nova.console_errors == [] and page.nova.page_errors == []
