"""The two threads' messages (issue 52): the page's main thread only draws and forwards; the
game's Python runs in a worker (``nova/web/host.py``). One typed message each way, as JSON
(PyScript's ``sync_main_only`` workers pass JSON-able values only):

* :class:`PageMessage`, main thread -> worker: what happened on the page (a click's target
  as the DOM says it, a key, a field, the address's link, another tab's save, what an
  effect did), or a pull ("bots": play the next bot decision; "hint").
* :class:`Frame`, worker -> main thread: what to draw (the markup for ``novaMorph``, the
  board's unchanging layer), the ``<body>`` attributes, the effects only the page can
  perform (storage writes, the share menu, a new tab, the address, focus, zoom, animation),
  and what to pull next.

Only main -> worker calls work without SharedArrayBuffer, so the worker never calls the
page: a bot's turn is a pull the page makes again while the frame says so.
Pure Python: tested in CPython (tests/test_host.py).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any


class Ask(Enum):
    """What a page message is about."""

    START = "start"  # the page is up: its address, embed, the nova keys of its storage
    CLICK = "click"  # a click (its target, as the DOM says it)
    KEY = "key"  # a key pressed (not in a field)
    CHANGE = "change"  # a workbench field changed (data-lab)
    HASH = "hash"  # a link pasted into the address bar
    STORAGE = "storage"  # another tab wrote a key (the storage event)
    ANSWER = "answer"  # what an effect did (the share menu, a new tab), by its id
    REFUSED = "refused"  # the page's storage refused a write (key; how: the error's name)
    REDRAW = "redraw"  # an elided part was missing on the page: send the whole markup
    BOTS = "bots"  # pull: the next bot decision, if a bot is to play
    HINT = "hint"  # pull: think the hint asked for
    # the workbench's run: its games go to the page's lab workers (started from the page: a
    # worker starts none). value: a lab worker's answer (None: the first ask of a feeder);
    # answer_id: how many lab workers the page has (0: none started, play a game here)
    LAB = "lab"


@dataclass(frozen=True)
class Target:
    """A click's target as the page's DOM describes it (page.py's ``target_of``): the
    closest control's data, and where the click fell."""

    move: str | None = None  # data-move, else data-alt-move (a board Cargo Bay)
    ui: str | None = None  # data-ui
    share: str | None = None  # data-nova-share ("close", "copy")
    disabled: bool = False  # the control has the disabled attribute
    why_ui: str | None = None  # aria-disabled="true": its data-why-ui (None: not aria-off)
    why: str | None = None  # the closest [data-why] token (a card, an Academy card)
    space: str | None = None  # the board's [data-space] or [data-stack] under the click
    in_share_panel: bool = False
    on_share_button: bool = False  # inside [data-ui="share"]
    in_help: bool = False  # inside the rules dialog (.help)
    element: bool = True  # the target is an element at all

    @property
    def control(self) -> bool:
        return bool(self.move or self.ui or self.share)


@dataclass(frozen=True)
class PageMessage:
    """One message from the page's main thread to the worker."""

    ask: Ask
    target: Target | None = None  # CLICK
    fields: dict[str, Any] | None = None  # CLICK/KEY: the form's fields (FormInput's names)
    key: str = ""  # KEY: the key; STORAGE: the key written; CHANGE: the field's data-lab
    value: str | None = None  # KEY: the focused target's move; CHANGE: the value;
    # HASH/START: the address's fragment; STORAGE: the new value (None: removed)
    on_button: bool = False  # KEY: a button has the focus
    answer_id: int = 0  # ANSWER: the effect answered
    how: str = ""  # ANSWER: what it did ("shared", "copied", "", "opened"); REFUSED: the error
    # (START: the error a probe write met, "" none: a full storage reads but refuses writes)
    # START: the page's address (origin + path), its query, whether it is embedded, and the
    # storage's nova keys (None: the page's storage is off)
    page_url: str = ""
    query: str = ""
    embed: bool = False
    storage: dict[str, str] | None = None
    restarted: bool = False  # START: the page started this worker again (the last one died)
    cores: int = 1  # START: navigator.hardwareConcurrency (the workbench's workers)
    memory_gb: float | None = None  # START: navigator.deviceMemory (Chromium only)
    # START: the page installs its service worker for the first time: the worker hands it the
    # big files it downloaded (the wasm, the snapshot) before its first frame
    hand_over: bool = False
    # START: the keys of the keyed parts the page shows already (the prerendered first
    # screen's rules help, or the last screen of a worker that died): sent elided
    kept: tuple[str, ...] = ()

    def to_json(self) -> str:
        d = asdict(self)
        d["ask"] = self.ask.value
        return json.dumps(d, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> PageMessage:
        d = json.loads(text)
        d["ask"] = Ask(d["ask"])
        if d.get("target") is not None:
            d["target"] = Target(**d["target"])
        d["kept"] = tuple(str(k) for k in d.get("kept", ()))
        return cls(**d)


@dataclass(frozen=True)
class PageEffect:
    """An effect only the page can perform: ``kind`` and its data (JSON values)."""

    kind: str  # "help", "address", "offer", "tab", "download", "refocus"; the workbench's:
    # "lab" (start a run in ``workers`` lab workers), "lab-game" (a lab worker plays
    # ``request``), "lab-more" (ask again: no lab worker, a game was played here), "lab-end"
    # (the idle lab workers end); "snapshot" (how the game's worker booted: ``state``)
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Frame:
    """One message from the worker to the page: what to draw and do, in this order."""

    html: str | None = None  # the screen's markup for novaMorph (None: nothing to draw)
    static: tuple[str, str] | None = None  # the board's unchanging layer (key, markup)
    body: dict[str, str | None] = field(default_factory=dict)  # <body> attrs (None: remove)
    writes: tuple[tuple[str, str | None], ...] = ()  # storage: (key, value or None: remove)
    effects: tuple[PageEffect, ...] = ()
    focus: str = ""  # where the keyboard goes after drawing: "game", "lesson", ""
    pace_ms: int = 300  # how long a move's travel on the board takes (the animation)
    game_id: str = ""  # the animation's arrivals are remembered by game
    keys: tuple[str, ...] = ()  # the keys the screen takes now (the page prevents default)
    pull: tuple[str, ...] = ()  # the pulls to make next ("bots", "hint")

    def to_json(self) -> str:
        d = asdict(self)
        d["effects"] = [{"kind": e.kind, "data": e.data} for e in self.effects]
        return json.dumps(d, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Frame:
        d = json.loads(text)
        d["static"] = tuple(d["static"]) if d.get("static") else None
        d["writes"] = tuple(tuple(w) for w in d.get("writes", ()))
        d["effects"] = tuple(PageEffect(**e) for e in d.get("effects", ()))
        d["keys"] = tuple(d.get("keys", ()))
        d["pull"] = tuple(d.get("pull", ()))
        return cls(**d)
