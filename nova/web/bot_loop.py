"""The bots' turns, in the game's worker: think, pace, play, again. Pure Python (asyncio only).

The loop thinks in slices (:class:`~nova.web.bot_turns.BotTable`), with an awaited pause
between two, so that a message from the page is answered meanwhile. It plays only while the
controller says a bot may (the game on screen, nothing over it, this tab not behind
another's); a decision thought while the person undid, started a new game, opened the menu,
the rules or a replay is stale and dropped, and the loop thinks again about what is on screen
then. A hint (:meth:`BotLoop.hint`) is thought the same way, by the strongest bot in the
person's seat.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable

from ..render.hint import WeighedTurn, weighed_turns
from .bot_turns import BotError, BotStats, BotTable
from .controller import BotPlayed, Controller, HintReady, Say

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
        self.running = False
        self.stats = BotStats()
        self.table: BotTable | None = None  # the game's bots

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
                await self.one()
        finally:
            self.running = False

    async def think(
        self, state, seat: int, seed: int, thinker: BotTable,
        cancelled: Callable[[], bool], explain: bool = False,
    ) -> tuple[str | None, list[dict]]:  # fmt: skip
        """One decision of ``thinker``'s bot in ``seat``, thought in slices, and what it
        weighed; None if cancelled meanwhile."""
        decided = await thinker.decide(state, seat, seed, self.pause, cancelled=cancelled,
                                       explain=explain)  # fmt: skip
        return decided, thinker.turns

    async def one(self) -> None:
        c = self.c
        s = c.session
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
        try:
            decided, weighed = await self.think(s.state, seat, seed, table(), moved_on)
            if decided is None:
                return  # stale: think again about what is on screen now
            token = decided
            turns = weighed_turns(s.state, weighed, s.record.names, played=True)
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

        thinker = BotTable(data["bots"], time_ms=data["time_ms"])
        try:
            token, weighed = await self.think(s.state, seat, data["seed"], thinker,
                                              lambda: s.moves != at, explain=True)  # fmt: skip
        except BotError as exc:
            return Say(f"No hint this time: {exc}.")
        if token is None:
            return None
        turns = weighed_turns(s.state, weighed, s.record.names)
        # the hint is the turn with the best chance: the list's first (its turns were
        # simulated further once the search had chosen, so it may differ from the search's)
        return HintReady(turns[0].first if turns else token, at, turns)
