"""Bot seats, in the game's worker: the bots of a game thinking in short slices
(:class:`BotTable`), their figures, and the hint's request (what the person's seat may see).

Pure Python (no browser imports), driven by the tests under CPython.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any  # a bot (nova.bots, imported only when one plays)

from ..rules import State

SLICE_MS = 20.0  # one slice of thinking: a page message waits at most about this long
DEFAULT_THINK_MS = 1000  # the search bot's thinking time per search (new-game form)


class BotError(RuntimeError):
    """A bot failed or chose a decision that is not legal (a bug, never the player's fault)."""


def record_of(bot: Any) -> Any:
    """What ``bot`` last weighed (``nova.bots.explain.record_of``), None for a bot that
    weighs nothing; imports the bots only when one plays."""
    from ..bots.explain import record_of as of

    return of(bot)


def thinking_bot(name: str, time_ms: float | None = None) -> Any:
    """A fresh bot for a seat; a search bot thinks ``time_ms`` per search (if given)."""
    from ..bots import make_bot  # only games with bots pay for importing them

    return make_bot(name, None, time_ms)


def bot_request(
    state: State,
    seat: int,
    bots: list[str],
    seed: int,
    time_ms: float,
    game: str,
    explain: bool = False,
) -> str:
    """A decision asked of a bot, as JSON: what ``seat`` may see, never more (no hidden
    card). ``explain``: search afresh and send the turns weighed (the hint's request)."""
    request = {
        "game": game,
        "bots": list(bots),
        "seat": seat,
        "view": state.view(seat).to_json(),
        "seed": seed,
        "time_ms": time_ms,
    }
    if explain:
        request["explain"] = True
    return json.dumps(request, separators=(",", ":"))


class BotStats:
    """The game's bot figures, shown as ``data-nova-bot-*`` (read by bench-page)."""

    def __init__(self) -> None:
        self.decisions = 0
        self.searches = 0  # decisions that needed thinking (not remembered, not forced)
        self.think_ms = 0.0  # time the bots spent thinking
        self.positions = 0  # states a search bot visited
        self.longest_slice_ms = 0.0  # the longest slice of thinking
        self.last_ms = 0.0  # wall time of the last decision, as the page waited for it
        self.longest_ms = 0.0
        self.search_ms: list[float] = []  # wall time of each decision that was thought

    def add(self, searched: bool, positions: int, think_ms: float, wall_ms: float) -> None:
        self.decisions += 1
        self.searches += bool(searched)
        self.positions += int(positions)
        self.think_ms += float(think_ms)
        self.last_ms = wall_ms
        self.longest_ms = max(self.longest_ms, wall_ms)
        if searched:
            self.search_ms.append(float(wall_ms))

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
            "search-p50-ms": f"{_quantile(self.search_ms, 0.5):.1f}",
            "search-p95-ms": f"{_quantile(self.search_ms, 0.95):.1f}",
        }


def _quantile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank; 0 for none)."""
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


class BotTable(BotStats):
    """The game's bots: one per bot seat, thinking in slices of about ``SLICE_MS`` with an
    awaited pause between them (a message from the page is answered between two).

    A planning bot remembers the turn it planned, so the later decisions of its turn
    answer without thinking again: the same bot object must answer all of them.
    """

    def __init__(
        self, names: list[str], budget: int | None = None, time_ms: float | None = None
    ) -> None:
        super().__init__()
        self.names = list(names)
        self.budget = budget
        self.time_ms = time_ms
        self._agents: dict[int, object] = {}
        self.turns: list[dict] = []  # what the last decision weighed (``decide``)

    def agent(self, seat: int):
        bot = self._agents.get(seat)
        if bot is None:
            from ..bots import make_bot

            bot = self._agents[seat] = make_bot(self.names[seat], self.budget, self.time_ms)
        return bot

    async def decide(
        self,
        state: State,
        seat: int,
        seed: int,
        pause: Callable[[], Awaitable[object]],
        slice_ms: float = SLICE_MS,
        cancelled: Callable[[], bool] = lambda: False,
        explain: bool = False,
    ) -> str | None:
        """The bot's decision for ``seat``, thought out in slices; None if cancelled.
        ``turns`` is then what it weighed (``WeighedTurn`` as JSON): when it searched or
        planned afresh, and always with ``explain`` (the hint: searched afresh and weighed)."""
        view = state.view(seat)
        legal = view.legal
        bot = self.agent(seat)
        start = time.perf_counter()
        before = getattr(bot, "positions", 0)
        record = record_of(bot)
        think = 0.0
        self.turns = []
        try:
            if explain and hasattr(bot, "trace"):
                from ..bots.explain import weighing

                work = weighing(bot, view, seed, slice_ms)
                searched = True
            else:
                bot.start(view, seed)
                searched = not bot.done
                work = _steps(bot, slice_ms)
            while True:
                t0 = time.perf_counter()
                try:
                    next(work)
                except StopIteration as done:
                    move, weighed = done.value
                    break
                ms = (time.perf_counter() - t0) * 1000
                think += ms
                self.longest_slice_ms = max(self.longest_slice_ms, ms)
                await pause()
                if cancelled():
                    return None
            after = record_of(bot)
            if weighed is None and after is not None and after is not record:
                weighed = after.top()  # it searched or planned afresh: what it weighed
            self.turns = [t.as_json() for t in weighed or ()]
        except Exception as exc:  # report it: the page says so and the game goes on
            raise BotError(f"the {self.names[seat]} bot failed") from exc
        positions = getattr(bot, "positions", 0) - before
        self.add(searched, positions, think, (time.perf_counter() - start) * 1000)
        if move not in legal:
            raise BotError(f"the {self.names[seat]} bot chose {move!r}, which is not legal here")
        return move


def _steps(bot: Any, slice_ms: float):
    """A started bot's thinking as a generator: a slice of ``slice_ms`` a step; returns
    (its decision, None)."""
    while not bot.done:
        bot.step(slice_ms)
        yield
    return bot.best(), None
