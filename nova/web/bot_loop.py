"""The bots' turns in the page: ask, check, pace, play, again. Pure Python (asyncio only).

The loop asks the bots' worker (``ask``: its ``think`` export) or, when none could start,
thinks on the page in slices (:class:`~nova.web.bot_turns.BotTable`). It plays only while
the controller says a bot may (the game on screen, nothing over it, this tab not behind
another's); an answer that comes back after undo, a new game, the menu, the rules or a
replay is stale and dropped, and the loop asks again about what is on screen then. A hint
(:meth:`BotLoop.hint`) is thought the same way, by the strongest bot in the person's seat.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable

from ..render.hint import WeighedTurn, weighed_turns
from .bot_turns import BotError, BotStats, BotTable, accept, bot_request
from .controller import BotPlayed, Controller, HintReady, Say, Worker

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

    async def think(
        self, state, seat: int, bot: str, seed: int, request: str,
        table: Callable[[], BotTable], cancelled: Callable[[], bool],
    ) -> tuple[str | None, dict]:  # fmt: skip
        """One decision of ``bot`` in ``seat``: asked of the worker (``request``), else
        thought on this page by ``table()``'s bot, in slices. None: cancelled meanwhile."""
        if self.ask is not None:
            answer = await self.ask(request)
            if cancelled():
                return None, {}
            return accept(state, seat, bot, answer)
        thinker = table()
        explain = bool(json.loads(request).get("explain"))
        decided = await thinker.decide(state, seat, seed, self.pause, cancelled=cancelled,
                                       explain=explain)  # fmt: skip
        return decided, {"turns": thinker.turns}

    async def one(self) -> None:
        c = self.c
        s, game_id = c.session, c.game_id
        if s is None:  # the game was closed while the loop waited
            return
        seat, at = s.state.current_player, s.moves
        seed = s.record.seed * 1_000_003 + at
        started = time.perf_counter()

        def moved_on() -> bool:  # undo, a new game, the menu, help, a replay, another tab
            return c.session is not s or s.moves != at or not c.bots_may_play()

        def table() -> BotTable:
            if self.table is None:
                self.table = BotTable(s.record.bots, time_ms=c.form.think_ms)
                self.stats = self.table
            return self.table

        note = ""
        turns: tuple[WeighedTurn, ...] = ()
        request = bot_request(
            s.state, seat, s.record.bots, seed, c.form.think_ms, f"{game_id}:{id(s)}"
        )
        try:
            bot = s.record.bots[seat]
            decided, data = await self.think(s.state, seat, bot, seed, request, table, moved_on)
            if decided is None:
                return  # stale: ask again about what is on screen now
            token = decided
            turns = weighed_turns(s.state, data.get("turns"), s.record.names, played=True)
            if self.ask is not None:
                wall = (time.perf_counter() - started) * 1000
                self.stats.add(data.get("searched", False), data.get("positions", 0),
                               data.get("ms", 0.0), wall)  # fmt: skip
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
        c.dispatch(BotPlayed(token, note, turns))
        await self.shown(token)

    async def hint(self) -> HintReady | Say | None:
        """The hint asked for the person's decision on screen (``Controller.hint_request``:
        the strongest bot in their seat), thought as a bot's decision is; the intent that
        shows it (the controller drops it if the game moved on meanwhile)."""
        c = self.c
        s, request = c.session, c.hint_request()
        if s is None or request is None:
            return None
        seat, at = s.state.current_player, s.moves
        data = json.loads(request)

        def table() -> BotTable:
            return BotTable(data["bots"], time_ms=data["time_ms"])

        try:
            token, answer = await self.think(s.state, seat, data["bots"][seat], data["seed"],
                                             request, table, lambda: s.moves != at)  # fmt: skip
        except BotError as exc:
            return Say(f"No hint this time: {exc}.")
        if token is None:
            return None
        turns = weighed_turns(s.state, answer.get("turns"), s.record.names)
        # the hint is the turn with the best chance: the list's first (its turns were
        # simulated further once the search had chosen, so it may differ from the search's)
        return HintReady(turns[0].first if turns else token, at, turns)
