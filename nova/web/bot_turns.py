"""Bot seats in the page: the lab's own bots, thinking in short slices.

The hosted page has no cross-origin isolation (it must stay embeddable in the publisher's
iframe), so there is no SharedArrayBuffer and a bot thinks on the main thread. It does so
in slices of a few milliseconds and awaits a pause between them, so the browser can paint
and take clicks while a search bot thinks (no long task over 100 ms).

Pure Python: the pause is passed in (``asyncio.sleep(0)`` in the page), so the same code
runs under CPython in the tests.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from ..rules import State

SLICE_MS = 20.0  # one slice of bot thinking; the page paints and takes clicks in between


class BotError(RuntimeError):
    """A bot failed or chose a decision that is not legal (a bug, never the player's fault)."""


class BotTable:
    """One bot per bot seat of a game, kept for the whole game.

    A planning bot remembers the turn it planned, so the later decisions of its turn
    answer without thinking again: the same bot object must answer all of them.
    """

    def __init__(self, names: list[str], budget: int | None = None) -> None:
        self.names = list(names)
        self.budget = budget
        self._agents: dict[int, object] = {}
        # what the page reports (data-nova-bot-*) and bench-page reads
        self.decisions = 0
        self.searches = 0  # decisions that needed thinking (not remembered, not forced)
        self.think_ms = 0.0  # time inside slices, over the whole game
        self.positions = 0  # states a search bot visited
        self.longest_slice_ms = 0.0
        self.last_ms = 0.0  # wall time of the last decision, pauses included
        self.longest_ms = 0.0  # the longest decision, wall time

    def agent(self, seat: int):
        bot = self._agents.get(seat)
        if bot is None:
            from ..bots import make_bot  # only games with bots pay for importing them

            bot = self._agents[seat] = make_bot(self.names[seat], self.budget)
        return bot

    async def decide(
        self,
        state: State,
        seat: int,
        seed: int,
        pause: Callable[[], Awaitable[object]],
        slice_ms: float = SLICE_MS,
        cancelled: Callable[[], bool] = lambda: False,
    ) -> str | None:
        """The bot's decision for ``seat``, thought out in slices; None if cancelled."""
        view = state.view(seat)
        legal = view.get("legal") or []
        bot = self.agent(seat)
        start = time.perf_counter()
        before = getattr(bot, "positions", 0)
        try:
            bot.start(view, seed)
            if not bot.done:
                self.searches += 1
            while not bot.done:
                t0 = time.perf_counter()
                bot.step(slice_ms)
                ms = (time.perf_counter() - t0) * 1000
                self.think_ms += ms
                self.longest_slice_ms = max(self.longest_slice_ms, ms)
                await pause()
                if cancelled():
                    return None
            move = bot.best()
        except Exception as exc:  # report it: the page says so and the game goes on
            raise BotError(f"the {self.names[seat]} bot failed: {exc}") from exc
        self.positions += getattr(bot, "positions", 0) - before
        self.decisions += 1
        self.last_ms = (time.perf_counter() - start) * 1000
        self.longest_ms = max(self.longest_ms, self.last_ms)
        if move not in legal:
            raise BotError(f"the {self.names[seat]} bot chose {move!r}, which is not legal here")
        return move

    def stats(self) -> dict[str, str]:
        """Figures for the page's ``data-nova-bot-*`` attributes."""
        return {
            "decisions": str(self.decisions),
            "searches": str(self.searches),
            "think-ms": f"{self.think_ms:.1f}",
            "positions": str(self.positions),
            "longest-slice-ms": f"{self.longest_slice_ms:.1f}",
            "last-ms": f"{self.last_ms:.1f}",
            "longest-ms": f"{self.longest_ms:.1f}",
        }
