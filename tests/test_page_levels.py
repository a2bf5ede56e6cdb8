"""The opponent levels in the page: each a one-tap solo game, each answering in the worker.

The page draws the levels from its own copy of their ratings (tests/test_levels.py keeps it
equal to nova.bots.LEVELS); here a level's button seats it, the usual Start begins the
game, and the person plays against the Cadet and the Admiral until the level has played
LEVEL_TURNS turns, deciding in the page's worker (a game against a bot in the worker to its
score screen is test_page_long_session's). Also the README's screenshots of the levels,
desktop and phone.
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
from nova.rules import State

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
MAX_CLICKS = 400  # the person's decisions: LEVEL_TURNS of theirs take a few dozen
# the level's turns played against each level: one is several decisions of the level in the
# worker (each step of the Admiral's turn a search of its own; three cost the suite 10 CPU-s
# more)
LEVEL_TURNS = 1


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


class Replay:
    """The saved game's state, replayed from the moves it has not seen yet: replaying the
    whole record at every decision would cost the test more than the page's own game."""

    def __init__(self) -> None:
        self.moves: list[str] = []
        self.state: State | None = None

    def follow(self, record: GameRecord) -> State:
        n = len(self.moves)
        if self.state is None or record.moves[:n] != self.moves:
            self.moves, self.state = [], record.initial_state()
            n = 0
        for move in record.moves[n:]:
            self.state = self.state.apply(move)
            self.moves.append(move)
        return self.state


def _person_move(page, person, replay: Replay) -> str | None:
    """The move greedy would make for the person (seat 0) in the game the page has saved."""
    text = page.evaluate(SAVED_JS)
    if not text:
        return None
    record = GameRecord.from_dict(json.loads(text)["record"])
    state = replay.follow(record)
    if state.is_over() or state.current_player != 0:
        return None
    return str(person.choose(state.view(0), len(record.moves)))


# the first game's level (a bot that answers at once) and the strongest (a search in slices):
# every level between takes one of these two paths in the worker, and each level's bot, its
# button and its shipping to the page are tests/test_levels.py's, in CPython
PLAYED = (LEVEL_CHOICES[0], LEVEL_CHOICES[-1])


@pytest.mark.slow
@pytest.mark.parametrize("level", PLAYED, ids=lambda level: level.name)
def test_each_level_plays_in_the_worker(page_factory, server_url, level):
    """The level's one-tap start seats it; the person (played by greedy from the page's own
    autosave) plays against it, and the level decides LEVEL_TURNS of its turns in the page's
    worker (a whole game against the Cadet cost the suite 70 CPU-s with the two threads; a
    game against a bot in the worker to its score screen is test_page_long_session's)."""
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
    person, rng, replay = make_bot("greedy"), random.Random(5), Replay()
    clicks, turns, seen, followed = 0, 0, _bot_decisions(page), 0
    while _settled(page) and clicks < MAX_CLICKS:
        if _bot_decisions(page) > seen:  # the level played since the person's last decision
            turns, seen = turns + 1, _bot_decisions(page)
            if turns >= LEVEL_TURNS:
                break
        token = _person_move(page, person, replay)
        r = page.evaluate(CLICK_JS, [token, rng.random(), 0.6])
        assert not r.get("none"), "the person has no decision on their turn"
        followed += r["move"] == token
        clicks += 1
    record = GameRecord.from_dict(json.loads(page.evaluate(SAVED_JS))["record"])
    replay.follow(record)
    assert record.bots == ["", level.name]
    # every decision so far is the person's, the level's or one taken for the person (a
    # decision with one option)
    taken = int(page.get_attribute("body", "data-nova-taken"))
    assert len(record.moves) == clicks + _bot_decisions(page) + taken
    # the level played the game's second seat, in the worker
    assert turns >= LEVEL_TURNS and page.get_attribute("body", "data-nova-bot-where") == "worker"
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
