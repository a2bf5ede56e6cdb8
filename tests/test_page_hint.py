"""The hint on demand in a real browser: the strongest bot, in the worker, marks the
person's next decision with ``data-hint`` and the log says a hint was shown; nothing is
played for the person."""

from __future__ import annotations

import pytest
from conftest import wait_ready

pytestmark = pytest.mark.browser


def test_a_hint_marks_a_choice_and_plays_nothing(page_factory, server_url):
    page = page_factory(viewport={"width": 1280, "height": 800})
    page.goto(server_url + "index.html")
    wait_ready(page)
    page.select_option("#nova-bot-1", "greedy")
    page.click('[data-ui="new-game"]')
    page.wait_for_selector("[data-move]")
    page.wait_for_function("!document.body.hasAttribute('data-nova-bot-turn')")
    moves = page.get_attribute("body", "data-nova-moves")
    page.click('[data-ui="hint"]')
    hinted = page.wait_for_selector("[data-move][data-hint]", timeout=120_000)
    token = hinted.get_attribute("data-move")
    assert page.get_attribute("body", "data-nova-moves") == moves  # shown, not played
    assert page.get_attribute("body", "data-nova-worker") in ("ready", "failed")
    assert "Hint shown" in page.locator(".log").inner_text()
    assert page.locator(f'[data-move="{token}"]').count() == 1
    assert page.nova.page_errors == []
