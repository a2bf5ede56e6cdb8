"""The game's worker (issue 52): ``game_worker.py`` at the site's root exports these to the
page's main thread, which calls them with a :class:`~nova.web.protocol.PageMessage` as JSON
and gets a :class:`~nova.web.protocol.Frame` back as JSON (PyScript's named worker with
``sync_main_only``: only the page calls, and only JSON-able values pass)."""

from __future__ import annotations

import gc
from dataclasses import replace

from .host import GameHost
from .protocol import PageEffect, PageMessage

_host: GameHost | None = None


async def start(message: str) -> str:
    """The page is up (``Ask.START``): the game's first frame (and how this worker booted,
    for the page's ``<html data-nova-snapshot>``: the shim says it here, with no DOM). On the
    visit that installs the service worker, this worker's downloads are handed over first."""
    global _host
    msg = PageMessage.from_json(str(message))
    await _hand_over(msg.hand_over)
    _host = GameHost(msg)
    frame = _host.first_frame()
    gc.freeze()  # the cyclic collector leaves what booting made alone from now on
    state = _snapshot_state()
    if state:
        frame = replace(frame, effects=(*frame.effects, PageEffect("snapshot", {"state": state})))
    return frame.to_json()


async def _hand_over(wanted: bool) -> None:
    """The shim's hand-over to the service worker's install (tools/nova-shim.mjs), or its
    copies let go; nothing outside Pyodide."""
    try:
        import js
    except ImportError:
        return
    hand_over = getattr(js, "novaHandOver", None)
    if hand_over is not None:
        await hand_over(wanted)


def _snapshot_state() -> str:
    """The shim's report of this worker's boot (tools/nova-shim.mjs), "" outside Pyodide."""
    try:
        import js
    except ImportError:
        return ""
    state = getattr(js, "novaSnapshot", None)
    return state if isinstance(state, str) else ""


async def handle(message: str) -> str:
    """One page message; its frame."""
    if _host is None:
        raise RuntimeError("the game has not started")
    return (await _host.handle(PageMessage.from_json(str(message)))).to_json()
