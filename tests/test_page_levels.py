"""The opponent levels in the page: each a one-tap solo game, each answering in the worker.

The page draws the levels from its own copy of their ratings (tests/test_levels.py keeps it
equal to nova.bots.LEVELS); here each level's button seats it, the usual Start begins the
game, and a whole game is played to its end against each level, the level deciding in the
page's worker. Also the README's screenshots of the levels, desktop and phone.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import wait_ready
from test_page_game import CLICK_JS, DESKTOP, PHONE

from nova.bots import make_bot
from nova.record import GameRecord
from nova.render.screens import LEVEL_CHOICES, elo_text

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
MAX_CLICKS = 3000  # the person's decisions: a whole game takes a few hundred


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


# the page's autosave of the game on screen: the person's side is played from it
SAVED_JS = """() => {
  const id = localStorage.getItem('nova:current');
  return id ? localStorage.getItem('nova:save:' + id) : null;
}"""


def _person_move(page, person) -> str | None:
    """The move greedy would make for the person (seat 0) in the game the page has saved."""
    text = page.evaluate(SAVED_JS)
    if not text:
        return None
    record = GameRecord.from_dict(json.loads(text)["record"])
    state = record.state()
    if state.is_over() or state.current_player != 0:
        return None
    return str(person.choose(state.view(0), len(record.moves)))


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVEL_CHOICES, ids=lambda level: level.name)
def test_a_whole_game_against_each_level_in_the_worker(page_factory, server_url, level):
    """The level's one-tap start seats it; the person (played by greedy from the page's own
    autosave, so that games end in a sensible number of rounds) plays it to the final scores;
    the level decides its turns in the page's worker."""
    page = page_factory(viewport=DESKTOP)
    page.goto(server_url + "index.html")
    wait_ready(page)
    button = page.locator(f'[data-ui="level:{level.name}"]')
    assert level.title in button.inner_text() and elo_text(level.elo) in button.inner_text()
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    assert page.locator("#nova-bot-1").input_value() == level.name
    page.select_option("#nova-bot-pace", "quick")
    page.click('[data-ui="new-game"]')
    assert page.locator('[data-ui="ready"]').count() == 0  # one person: no pass screen
    person, rng = make_bot("greedy"), random.Random(5)
    clicks, turns, seen, followed = 0, 0, _bot_decisions(page), 0
    while _settled(page) and clicks < MAX_CLICKS:
        if _bot_decisions(page) > seen:  # the level played since the person's last decision
            turns, seen = turns + 1, _bot_decisions(page)
        token = _person_move(page, person)
        r = page.evaluate(CLICK_JS, [token, rng.random(), 0.6])
        assert not r.get("none"), "the person has no decision on their turn"
        followed += r["move"] == token
        clicks += 1
    assert page.evaluate("document.body.hasAttribute('data-nova-over')"), (level.name, clicks)
    record = GameRecord.from_dict(json.loads(page.evaluate(SAVED_JS))["record"])
    end = record.state()
    assert end.is_over() and record.bots == ["", level.name]
    assert page.locator('[role="dialog"][aria-label="Final scores"]').is_visible()
    # every decision of the game is the person's, the level's or one taken for the person
    # (a decision with one option)
    taken = int(page.get_attribute("body", "data-nova-taken"))
    assert len(record.moves) == clicks + _bot_decisions(page) + taken
    # the level played the game's second seat to the end, in the worker
    assert turns >= 5 and page.get_attribute("body", "data-nova-bot-where") == "worker"
    assert followed >= clicks * 0.9, (followed, clicks)  # the person's moves were greedy's
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
