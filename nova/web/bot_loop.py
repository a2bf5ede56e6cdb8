"""The bots' turns in the page: ask, check, pace, play, again. Pure Python (asyncio only).

The loop asks the bots' worker (``ask``: its ``think`` export) or, when none could start,
thinks on the page in slices (:class:`~nova.web.bot_turns.BotTable`). It plays only while
the controller says a bot may (the game on screen, nothing over it, this tab not behind
another's); an answer that comes back after undo, a new game, the menu, the rules or a
replay is stale and dropped, and the loop asks again about what is on screen then.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from .bot_turns import BotError, BotStats, BotTable, accept, bot_request
from .controller import BotPlayed, Controller, Worker

# seconds a bot decision stays on screen before the next, so people can follow the bots
BOT_PACE = {"watch": 0.45, "quick": 0.05}


class BotLoop:
    """One game's bot decisions, one after another (at most one loop runs at a time)."""

    def __init__(
        self,
        controller: Controller,
        pause: Callable[[], Awaitable[object]],
        sleep: Callable[[float], Awaitable[object]],
        shown: Callable[[str], Awaitable[object]],
    ) -> None:
        self.c = controller
        self.pause = pause  # gives the browser a turn (paint, input)
        self.sleep = sleep
        self.shown = shown  # draws a bot's decision (the adapter's, given the token)
        self.ask: Callable[[str], Awaitable[object]] | None = None  # the worker's think
        self.running = False
        self.stats = BotStats()
        self.table: BotTable | None = None  # the fallback, if the worker cannot start

    def new_game(self) -> None:
        """Another game on screen: its bots start afresh."""
        self.stats, self.table = BotStats(), None

    async def run(self) -> None:
        """Play the bot seats' decisions while a bot is to decide on screen."""
        if self.running:
            return
        self.running = True
        try:
            while self.c.bots_may_play():
                if self.c.ui.worker is Worker.STARTING:
                    return  # the adapter starts the loop again once the worker is up
                await self.one()
        finally:
            self.running = False

    async def one(self) -> None:
        c = self.c
        s, game_id = c.session, c.game_id
        if s is None:  # the game was closed while the loop waited
            return
        seat, at = s.state.current_player, s.moves
        name = s.record.bots[seat]
        seed = s.record.seed * 1_000_003 + at
        started = time.perf_counter()

        def moved_on() -> bool:  # undo, a new game, the menu, help, a replay, another tab
            return c.session is not s or s.moves != at or not c.bots_may_play()

        note = ""
        try:
            if self.ask is not None:
                request = bot_request(
                    s.state, seat, s.record.bots, seed, c.form.think_ms, f"{game_id}:{id(s)}"
                )
                answer = await self.ask(request)
                if moved_on():
                    return  # stale: ask again about what is on screen now
                token, data = accept(s.state, seat, name, answer)
                wall = (time.perf_counter() - started) * 1000
                self.stats.add(data.get("searched", False), data.get("positions", 0),
                               data.get("ms", 0.0), wall)  # fmt: skip
            else:
                if self.table is None:
                    self.table = BotTable(s.record.bots, time_ms=c.form.think_ms)
                    self.stats = self.table
                decided = await self.table.decide(s.state, seat, seed, self.pause,
                                                  cancelled=moved_on)  # fmt: skip
                if decided is None:
                    return
                token = decided
        except BotError as exc:
            if moved_on():
                return
            # never expected (the bots are tested to choose only legal moves); say so and
            # play on with the first legal decision, so the game is not stuck
            token = str(s.state.legal_moves()[0])
            note = f"{exc}; it plays {token!r} instead."
        wait = BOT_PACE.get(c.form.pace, 0.0) - (time.perf_counter() - started)
        if wait > 0:
            await self.sleep(wait)
        if moved_on():
            return
        c.dispatch(BotPlayed(token, note))
        await self.shown(token)
