"""Helpers for the renderer's tests: parse markup, play seeded random decisions."""

from __future__ import annotations

import random
from html.parser import HTMLParser

from nova.render.game import GamePage
from nova.rules import State, new_game


class Elements(HTMLParser):
    """Every start tag as (tag, attrs dict), in document order."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[tuple[str, dict]] = []
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        self.items.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag

    def attr(self, name: str) -> list[str]:
        return [a[name] for _, a in self.items if name in a]

    def with_class(self, cls: str) -> list[tuple[str, dict]]:
        return [(t, a) for t, a in self.items if cls in (a.get("class") or "").split()]


def random_state(players: int, seed: int, steps: int) -> State:
    """A position after ``steps`` seeded random decisions (ending the turn now and then)."""
    rng = random.Random(seed)
    s = new_game(players=players, seed=seed)
    for _ in range(steps):
        if s.is_over():
            break
        legal = s.legal_moves()
        others = [m for m in legal if m != "E"]
        if others and ("E" not in legal or rng.random() < 0.85):
            s = s.apply(rng.choice(others))
        else:
            s = s.apply("E")
    return s


def game_page(names, colours, bots=(), **kw) -> GamePage:
    """The game screen's own state for a test: lists taken as the tuples it holds."""
    kw = {k: tuple(v) if isinstance(v, list) else v for k, v in kw.items()}
    return GamePage(tuple(names), tuple(colours), tuple(bots or ()), **kw)
