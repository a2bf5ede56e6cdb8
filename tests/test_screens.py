"""The page's screens as modules (nova/web/screens/): the controller's table and the share
panel in the page's state, in CPython."""

from __future__ import annotations

import random

from nova.web.controller import (
    ANYWHERE,
    SCREENS,
    UI,
    CloseShare,
    Controller,
    FormInput,
    Ready,
    Share,
    Shared,
    StartGame,
    ui_intent,
)
from nova.web.effects import Offer, Render
from nova.web.saves import MemoryStorage, SaveStore

FOCUS = "[data-nova-share-panel] button"  # the share panel's Copy button takes the keyboard


def test_each_intent_has_one_place_and_each_control_one_intent():
    for screen in SCREENS:
        assert not set(screen.steps) & set(ANYWHERE), screen.state.name
    names = [screen.state.name for screen in SCREENS]
    assert len(names) == len(set(names))
    assert all(ui_intent(name) is not None for name in UI)


def test_the_share_panel_is_in_the_state_and_escape_closes_it():
    c = Controller(SaveStore(MemoryStorage()), rng=random.Random(2))
    c.start()
    c.dispatch(StartGame(FormInput(seed="4")))
    c.dispatch(Ready())
    assert "data-nova-share-panel hidden" in c.markup()
    effects = c.dispatch(Share("https://x.example/nova/?embed"))
    panel = c.ui.share
    assert panel is not None and effects == (Render(), Offer(panel.url, Shared, focus=FOCUS))
    page = c.markup()
    assert "data-nova-share-panel>" in page and 'value="https://x.example/nova/#' in page
    c.dispatch(Shared("copied"))
    assert "The link is copied" in c.markup()
    assert c.key_intent("Escape") == CloseShare()
    c.dispatch(CloseShare())
    assert "data-nova-share-panel hidden" in c.markup() and c.dispatch(Shared("")) == ()


def test_no_module_of_the_page_is_over_500_lines():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "nova"
    long = {
        str(p.relative_to(root)): n
        for folder in ("web", "render")
        for p in sorted((root / folder).rglob("*.py"))
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500
    }
    assert long == {}
