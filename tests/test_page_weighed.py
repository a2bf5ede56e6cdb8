"""The bot says why, in a real browser: the hint shows the three whole turns the best bot
weighed in the worker, each ``data-hint-turn`` (its decisions, the first a choice on screen)
with ``data-win`` (its chance in percent), on a desktop and on a phone in the publisher's
cross-origin frame; and, on request, what a bot weighed for the turn it just played."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import publishers_frame, wait_ready
from tests.phone_helpers import measure

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TOUCH = {"viewport": PHONE, "has_touch": True, "is_mobile": True}
FRAME = (390, 600)  # the publisher's frame on a phone
TURNS = "[data-hint-turn][data-win]"
SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


def start_against(frame, bot: str, tap: bool) -> None:
    """A new game of the person (seat A) against ``bot``, thinking a quarter second."""
    frame.select_option("#nova-bot-1", bot)
    more = frame.locator("details.more summary")  # the thinking time is under "More"
    more.tap() if tap else more.click()
    frame.select_option("#nova-bot-think", "250")
    new = frame.locator('[data-ui="new-game"]')
    new.tap() if tap else new.click()
    frame.wait_for_selector("[data-move]")
    frame.wait_for_function("!document.body.hasAttribute('data-nova-bot-turn')")


def hint_turns(frame, tap: bool) -> list[tuple[str, int]]:
    """Ask for a hint; the turns it shows, once shown, each checked legal and not played."""
    moves = frame.get_attribute("body", "data-nova-moves")
    button = frame.locator('[data-ui="hint"]')
    button.tap() if tap else button.click()
    frame.wait_for_selector(f".hint-turns {TURNS}", timeout=120_000)
    shown = [
        (el.get_attribute("data-hint-turn"), int(el.get_attribute("data-win")))
        for el in frame.query_selector_all(f".hint-turns {TURNS}")
    ]
    assert 1 <= len(shown) <= 3, shown  # three, less any that read as a better one
    assert [w for _, w in shown] == sorted((w for _, w in shown), reverse=True)  # by chance
    words = frame.eval_on_selector_all(
        ".hint-turns .turn-words", "els => els.map(e => e.textContent)"
    )
    assert len(set(words)) == len(words)  # no line twice
    for turn, win in shown:
        assert 0 <= win <= 100
        first = turn.split()[0]  # a choice on screen now: legal
        assert frame.locator(f'[data-move="{first}"]').count() >= 1, first
    hinted = frame.get_attribute("[data-move][data-hint]", "data-move")
    assert hinted == shown[0][0].split()[0]  # the turn it plays first
    assert frame.get_attribute("body", "data-nova-moves") == moves  # shown, not played
    return shown


def test_the_hint_shows_three_turns_and_a_bot_its_last_turn_on_a_desktop(page_factory, server_url):
    page = page_factory(viewport={"width": 1280, "height": 800})
    page.goto(server_url + "index.html")
    wait_ready(page)
    start_against(page, "search", tap=False)
    hint_turns(page, tap=False)
    assert page.locator(".hint-turns .turn-words").first.inner_text().strip()
    page.locator(".hint-turns").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "desktop-hint.png"))
    # the person ends the turn; the bot searches its own, and says why on request
    page.click('[data-move="E"]')
    page.wait_for_selector('[data-ui="bot-why"]', timeout=120_000)
    page.wait_for_function("!document.body.hasAttribute('data-nova-bot-turn')")
    assert page.locator(f".bot-why {TURNS}").count() == 0  # only when asked
    page.click('[data-ui="bot-why"]')
    page.wait_for_selector(f".bot-why {TURNS}")
    wins = [
        int(w)
        for w in page.eval_on_selector_all(
            f".bot-why {TURNS}", "els => els.map(e => e.dataset.win)"
        )
    ]
    assert 1 <= len(wins) <= 3 and all(0 <= w <= 100 for w in wins)
    page.click('[data-ui="bot-why"]')
    page.wait_for_selector(f".bot-why {TURNS}", state="detached")
    assert page.nova.page_errors == []


def test_the_hint_shows_three_turns_on_a_phone_in_the_publishers_frame(
    page_factory, site_dir, tmp_path
):
    host = page_factory(**TOUCH)
    with publishers_frame(host, site_dir, tmp_path, FRAME) as (frame, _):
        start_against(frame, "greedy", tap=True)
        hint_turns(frame, tap=True)
        # the bots' worker starts though the browser blocks storage in the frame
        assert frame.get_attribute("body", "data-nova-worker") == "ready"
        # the hinted choice is outlined on screen, its card with it (which of two)
        outline = frame.eval_on_selector(
            "[data-move][data-hint]", "e => getComputedStyle(e).outlineStyle"
        )
        assert outline == "solid"
        # the turns can be read in the frame: scrolled into the controls' drawer, each
        # is in view and not covered
        first = frame.locator(f".hint-turns {TURNS}").first
        first.scroll_into_view_if_needed()
        part, uncovered = measure(frame, {"turn": f".hint-turns {TURNS}"})["turn"]
        assert uncovered and part > 0.9, (part, uncovered)
        host.screenshot(
            path=str(SHOTS / "phone-frame-hint.png"),
            clip={"x": 0, "y": 0, "width": FRAME[0], "height": FRAME[1]},
        )
        # the Pilot (greedy) does not search, and says why all the same (issue 49)
        frame.locator('[data-move="E"]').tap()
        frame.wait_for_selector('[data-ui="bot-why"]', timeout=120_000)
        frame.wait_for_function("!document.body.hasAttribute('data-nova-bot-turn')")
        frame.locator('[data-ui="bot-why"]').tap()
        frame.wait_for_selector(f".bot-why {TURNS}[data-played]")
        assert "does not simulate" in frame.locator(".bot-why-slot").inner_text()
        frame.locator(f".bot-why {TURNS}").last.evaluate("e => e.scrollIntoView({block: 'end'})")
        host.screenshot(
            path=str(SHOTS / "phone-frame-why-pilot.png"),
            clip={"x": 0, "y": 0, "width": FRAME[0], "height": FRAME[1]},
        )
    assert host.nova.page_errors == []
    assert host.nova.external == []
