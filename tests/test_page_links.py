"""Links in the page: a link made in Python opens the same game; bad links say why.

Relies on the page's test contract: ``<body data-nova-ready>``, ``data-nova-moves``,
``[data-move]`` buttons, ``[data-ui="new-game"]`` / ``[data-ui="ready"]``, bad input in a
``role="alert"`` element; and on the share UI (nova/web/share.py): a ``[data-ui="share"]``
button filling ``input[data-nova-share-link]``.
"""

from __future__ import annotations

import pytest

from nova.links import decode, encode
from nova.record import GameRecord, RecordError
from nova.web.share import Replay
from nova_tools.links import random_record
from tests.conftest import wait_ready

pytestmark = pytest.mark.browser


@pytest.fixture
def game_page(page_factory, server_url):
    """``open_at(fragment)``: a fresh browser context opened at that link, once usable."""

    def open_at(fragment: str = ""):
        page = page_factory()
        page.goto(f"{server_url}{'#' + fragment if fragment else ''}")
        wait_ready(page)
        return page

    return open_at


def moves_in(page) -> int:
    return int(page.get_attribute("body", "data-nova-moves"))


def offered(page) -> set[str]:
    """The decisions the page offers now (after pass-and-play's "I'm ready")."""
    ready = page.locator('[data-ui="ready"]:visible')
    if ready.count():
        ready.first.click()
    page.wait_for_selector("[data-move]:visible", timeout=10_000)
    return set(page.eval_on_selector_all("[data-move]", "els => els.map(e => e.dataset.move)"))


def test_link_opens_at_the_same_decision_with_the_same_choices(game_page) -> None:
    """`python -m nova link --players 3 --seed 5 --moves 40` opens at decision 40."""
    record = random_record(3, 5, 40)
    page = game_page(encode(record))
    assert moves_in(page) == 40
    assert page.locator('[role="alert"]:visible').count() == 0
    legal = {str(m) for m in record.state().legal_moves()}
    shown = offered(page)
    assert shown and shown <= legal


def test_a_link_played_on_in_another_browser_continues_the_game(game_page) -> None:
    record = random_record(2, 8, 30)
    first = game_page(encode(record))
    move = sorted(offered(first))[0]
    first.click(f'[data-move="{move}"]')
    first.wait_for_function("document.body.dataset.novaMoves === '31'", timeout=10_000)
    offered(first)  # past pass-and-play's "I'm ready", where the Share button is
    first.click('[data-ui="share"]')
    url = first.input_value("input[data-nova-share-link]", timeout=10_000)
    fragment = url.split("#", 1)[1]
    carried = decode(fragment)
    assert carried.moves[:30] == record.moves and len(carried.moves) == 31
    second = game_page(fragment)  # a fresh context: nothing shared but the link
    assert moves_in(second) == 31
    assert offered(second) <= {str(m) for m in carried.state().legal_moves()}


def _bad_links() -> dict[str, str]:
    good = encode(random_record(2, 3, 20))
    edited = good[:10] + ("A" if good[10] != "A" else "B") + good[11:]
    return {
        "truncated": good[:-5],
        "edited": edited,
        "garbage": "hello%20world",
        "future": "n9." + good[3:],
        "markup": "n1.<img src=x onerror=window.__pwned=1>",
    }


@pytest.mark.parametrize("kind", sorted(_bad_links()))
def test_a_bad_link_shows_why_and_the_page_stays_usable(game_page, kind: str) -> None:
    fragment = _bad_links()[kind]
    page = game_page(fragment)
    alert = page.locator('[role="alert"]')
    alert.first.wait_for(timeout=10_000)
    try:
        decode(fragment)
    except RecordError as exc:
        expected = str(exc)
    else:  # pragma: no cover - every case above is refused
        pytest.fail(f"{kind} link decoded")
    assert expected in alert.first.inner_text()
    assert page.evaluate("window.__pwned") is None
    page.click('[data-ui="new-game"]')
    page.wait_for_function("document.body.dataset.novaMoves === '0'", timeout=10_000)
    assert offered(page)


def test_names_from_a_link_are_shown_as_text_never_as_markup(game_page) -> None:
    names = ["<script>window.__pwned=1</script", '<img src=x onerror="window.__pwned=2">']
    record = GameRecord(players=2, seed=4, names=names)
    page = game_page(encode(record))
    assert moves_in(page) == 0
    offered(page)
    assert page.evaluate("window.__pwned") is None
    assert page.locator("img[src='x']").count() == 0
    assert page.locator("script:text('__pwned')").count() == 0
    assert "<img src=x" in page.inner_text("body")  # the name is there, as text


def test_a_linked_game_replays_move_by_move(game_page) -> None:
    """Share → "Watch the replay": step back and forth, nothing playable, play on from a step."""
    record = random_record(2, 12, 40)
    page = game_page(encode(record))
    offered(page)
    page.click('[data-ui="share"]')
    # the panel says when sharing is done (copied here); its buttons are the ones drawn
    # first, so the keyboard is still on its first button
    page.wait_for_selector("[data-nova-share-panel]:not([hidden]) [data-nova-share-done]")
    assert page.evaluate("document.activeElement.dataset.novaShare") == "copy"
    # "Watch the replay" in the panel (the log has a Replay button too)
    page.click('[data-nova-share-panel] [data-ui="replay"]')
    bar = page.locator(".nova-replay")
    bar.wait_for(timeout=10_000)
    assert bar.get_attribute("data-nova-replay-step") == "40"
    page.click('[data-ui="replay-prev"]')
    page.click('[data-ui="replay-prev"]')
    assert page.locator(".nova-replay").get_attribute("data-nova-replay-step") == "38"
    assert "Decision 38 of 40" in page.inner_text(".nova-replay-caption")
    caption = page.inner_text(".nova-replay-caption")
    assert Replay(record, 38).caption() == caption  # the log's words, not notation
    assert page.locator("[data-move]").count() == 0  # a replay is watched, not played
    page.click('[data-ui="replay-first"]')
    assert "Set-up" in page.inner_text(".nova-replay-caption")
    page.click('[data-ui="replay-next"]')
    page.click('[data-ui="replay-play"]')
    page.wait_for_function("document.body.dataset.novaMoves === '1'", timeout=10_000)
    assert offered(page) <= {str(m) for m in record.state(1).legal_moves()}
