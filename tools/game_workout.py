"""Whole games through the page's own code paths, with no browser: the module census.

Run by ``tools/snapshot.mjs`` inside the pinned Pyodide (under Node) to find which standard
library modules the game imports (``trace``), and again under the trimmed standard library to
prove nothing is missing (``play``, tests/test_trimmed_stdlib.py). Also runs under CPython::

    python tools/game_workout.py [games-per-bot]

What it does is what the game's worker does: import every module the site ships, play whole
games with every bot (each decision thought in slices by ``BotTable``, as the worker thinks),
draw every screen after every decision, save and reload through the save store, and make and
open a share link.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path


def import_everything() -> list[str]:
    """Import every module of the ``nova`` package the page ships: under Pyodide, nova.zip
    holds exactly those; under CPython, what tools/build_site.py derives from the page's
    imports (``page_modules``)."""
    import nova

    try:
        from build_site import page_modules  # beside this file, under CPython
    except ImportError:  # in Pyodide: nova.zip, unpacked, holds the page's modules only
        root = Path(nova.__path__[0]).parent
        names = sorted(
            {
                ".".join(f.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
                for f in root.joinpath("nova").rglob("*.py*")
                if f.suffix in (".py", ".pyc") and "__pycache__" not in f.parts
            }
        )
    else:
        names = page_modules()
    for name in names:
        importlib.import_module(name)
    return names


async def _no_pause() -> None:
    return None


def _run(coroutine):
    """A coroutine that never suspends (its pauses return at once), run to its value (no
    event loop: Pyodide's under node runs none)."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    raise RuntimeError("the coroutine suspended")


def play(bots: list[str], seed: int, search_ms: float = 30.0, max_decisions: int = 2000) -> int:
    """One whole game of ``bots`` (one per seat) the way the page plays it; decisions made."""
    from nova.record import DEFAULT_COLOURS
    from nova.render.board import static_layer
    from nova.render.game import GamePage, game_html
    from nova.render.keep import keys_in
    from nova.render.screens import NewGameForm, help_html, new_game_html, pass_html, scores_html
    from nova.web.bot_turns import BotTable
    from nova.web.saves import MemoryStorage, SaveStore, new_id
    from nova.web.session import Session
    from nova.web.share import Replay, link_for, open_link, share_panel_html

    table = BotTable(bots, time_ms=search_ms)  # as the game's worker thinks, in slices
    players = len(bots)
    store = SaveStore(MemoryStorage())
    game_id = new_id(seed)
    new_game_html(NewGameForm(seed=seed), store.entries(), "", store.error)
    session = Session.new(players=players, seed=seed, bots=bots)
    colours = list(DEFAULT_COLOURS[:players])
    names = session.record.names
    n = 0
    while not session.state.is_over() and n < max_decisions:
        s = session.state
        view = session.view()
        seat = s.current_player
        if session.needs_pass():
            pass_html(view, names, colours, seat, False, session.marks())
            session.ready()
        page = GamePage(
            tuple(names), tuple(colours), tuple(session.record.bots),
            log_turns=tuple(session.log_turns()), can_undo=session.can_undo(),
            static_slot=True, marks=session.marks(),
        )  # fmt: skip
        html = game_html(view, page)
        keys_in(html)
        static_layer(view, colours)
        token = _run(table.decide(s, seat, seed * 1000 + n, _no_pause))
        session.play(token)
        store.save(game_id, session.record, session.state.is_over())
        n += 1
    view = session.view()
    scores_html(view, names, colours)
    help_html(players, session.record.variant)
    if store.load(game_id).moves != session.record.moves:
        raise AssertionError("a saved game came back different")
    url = link_for(session.record, "https://example.org/nova/")
    record, error = open_link(url.split("#", 1)[1])
    if error or record is None or record.moves != session.record.moves:
        raise AssertionError(f"a share link did not give the game back: {error}")
    share_panel_html(session.record, url)
    replay = Replay(session.record)
    replay.go("last")
    replay.screen_html(colours)
    return n


def play_by_links(seed: int = 3, players: int = 2) -> int:
    """A short game by links through the page's controller, device by device (each its own
    storage), to the end audit: the hashes, HMAC and ``secrets`` it needs."""
    import random

    from nova.web.controller import Controller, OpenLink, Play, ui_intent
    from nova.web.saves import MemoryStorage, SaveStore

    def device() -> Controller:
        c = Controller(SaveStore(MemoryStorage()))
        c.page_url = "https://example.org/nova/"
        c.start()
        return c

    def sent(c: Controller) -> str:
        return (c.body_attributes()["data-nova-send"] or "").split("#", 1)[1]

    rng = random.Random(seed)
    devs = [device() for _ in range(players)]
    devs[0].dispatch(ui_intent("by-links"))
    devs[0].dispatch(ui_intent(f"players:{players}"))
    devs[0].dispatch(ui_intent("new-game"))
    for c in devs[1:]:
        c.dispatch(OpenLink(sent(devs[0] if c is devs[1] else devs[devs.index(c) - 1])))
        c.dispatch(ui_intent("join"))
    devs[0].dispatch(OpenLink(sent(devs[-1])))
    for c in devs[1:]:
        c.dispatch(OpenLink(sent(devs[0])))
    n = 0
    while n < 3000:
        movers = [c for c in devs if c.session and not c.session.over() and c.session.my_turn()]
        if not movers:
            break
        c = movers[0]
        legal = c.session.view().legal
        c.dispatch(Play("E" if "E" in legal and rng.random() < 0.4 else rng.choice(legal)))
        c.markup()
        n += 1
        if c.session.draft == [] or c.session.over():
            for other in devs:
                if other is not c:
                    other.dispatch(OpenLink(sent(c)))
    for c in devs:
        for other in devs:
            if other is not c and c.body_attributes()["data-nova-send"]:
                other.dispatch(OpenLink(sent(c)))
    if any(c.body_attributes()["data-nova-audit"] != "passed" for c in devs):
        raise AssertionError("a game by links did not pass its audit")
    return n


def workout(games_per_bot: int = 1, search_ms: float = 5.0) -> dict:
    """Import everything, then whole games: every bot against itself and a mixed table."""
    modules = import_everything()
    tables = []
    for g in range(games_per_bot):
        tables += [["random", "random"], ["greedy", "greedy"], ["search", "search"]]
        tables.append(["random", "greedy", "search"][: 2 + g % 2])
    decisions = [play(bots, seed=7 + i, search_ms=search_ms) for i, bots in enumerate(tables)]
    decisions.append(play_by_links())
    return {"modules": len(modules), "games": len(tables), "decisions": decisions}


if __name__ == "__main__":
    print(json.dumps(workout(int(sys.argv[1]) if len(sys.argv) > 1 else 1)))
