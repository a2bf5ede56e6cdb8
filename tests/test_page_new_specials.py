"""A variant's new Special cards, composed from the rulebook's primitives, in the page:
a link carrying nova/data/variants/new-specials.json opens a game where a new card is in
the player's hand; its face says what it does, and playing it goes on to its first step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nova.bots import make_bot
from nova.links import encode
from nova.record import GameRecord
from nova.rules import new_game
from tests.conftest import wait_ready

pytestmark = pytest.mark.browser

VARIANT = json.loads(
    (Path(__file__).resolve().parent.parent / "nova/data/variants/new-specials.json").read_text()
)
NEW_CARDS = {"s8": "Jump + Unload", "s10": "Push + Orbit 1-2", "s18": "Phase Shift + Hijack"}


def a_game_where_a_new_card_can_act() -> tuple[GameRecord, str]:
    """Greedy bots play the variant until a seat may play a new card as an action."""
    for seed in range(40):
        s = new_game(players=2, seed=seed, variant=VARIANT)
        bot = make_bot("greedy")
        moves: list[str] = []
        while not s.is_over() and len(moves) < 600:
            playable = [m for m in s.legal_moves() if m[:-1] in NEW_CARDS and m[-1] == "u"]
            if playable:
                return GameRecord(players=2, seed=seed, variant=VARIANT, moves=moves), playable[0]
            m = bot.choose(s.view(s.current_player), len(moves))
            moves.append(m)
            s = s.apply(m)
    raise AssertionError("no game of 40 reached a playable new card")


def test_a_new_composed_card_shows_its_steps_and_plays_in_the_page(page_factory, server_url):
    record, move = a_game_where_a_new_card_can_act()
    page = page_factory()
    page.goto(f"{server_url}#{encode(record)}")
    wait_ready(page)
    ready = page.locator('[data-ui="ready"]:visible')
    if ready.count():
        ready.first.click()
    cid = move[:-1]
    card = page.locator(f'.hand [data-card="{cid}"], [data-card="{cid}"]').first
    card.wait_for(timeout=10_000)
    assert NEW_CARDS[cid] in card.inner_text()
    page.locator(f'[data-move="{move}"]').first.click()
    page.wait_for_function(
        f"Number(document.body.dataset.novaMoves) > {len(record.moves)}", timeout=20_000
    )
    # a decision with one option is taken for the player (docs/PAGE.md): replay those too
    after = record.state().apply(move)
    for _ in range(int(page.get_attribute("body", "data-nova-moves")) - len(record.moves) - 1):
        assert len(after.legal_moves()) == 1
        after = after.apply(after.legal_moves()[0])
    shown = set(page.eval_on_selector_all("[data-move]", "els => els.map(e => e.dataset.move)"))
    assert shown and shown <= {str(m) for m in after.legal_moves()}
    assert page.locator('[role="alert"]:visible').count() == 0
