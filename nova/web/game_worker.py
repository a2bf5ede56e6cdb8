"""The game's worker (issue 52): ``game_worker.py`` at the site's root exports these to the
page's main thread, which calls them with a :class:`~nova.web.protocol.PageMessage` as JSON
and gets a :class:`~nova.web.protocol.Frame` back as JSON (PyScript's named worker with
``sync_main_only``: only the page calls, and only JSON-able values pass)."""

from __future__ import annotations

from .host import GameHost
from .protocol import PageMessage

_host: GameHost | None = None


def start(message: str) -> str:
    """The page is up (``Ask.START``): the game's first frame."""
    global _host
    _host = GameHost(PageMessage.from_json(str(message)))
    return _host.first_frame().to_json()


async def handle(message: str) -> str:
    """One page message; its frame."""
    if _host is None:
        raise RuntimeError("the game has not started")
    return (await _host.handle(PageMessage.from_json(str(message)))).to_json()
