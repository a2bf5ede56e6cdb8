"""The bots as the game's worker runs them (``BotTable``, ``BotLoop``), driven in CPython with
pauses that wait for nothing."""

from __future__ import annotations

from helpers_async import run

from nova.web.bot_loop import BotLoop
from nova.web.bot_turns import BotTable
from nova.web.controller import Controller, HintReady


async def no_wait(*_args) -> None:
    return None


def hint(c: Controller) -> HintReady:
    """The hint the game's worker finds for the decision on screen (``BotLoop.hint``)."""
    ready = run(BotLoop(c, no_wait, no_wait, no_wait).hint())
    assert isinstance(ready, HintReady), ready
    return ready


def decide(table: BotTable, state, seat: int, seed: int) -> str:
    """``table``'s bot's decision for ``seat`` (what it weighed: ``table.turns``)."""
    move = run(table.decide(state, seat, seed, no_wait))
    assert move is not None
    return move
