"""``steady``, on trial: the stepwise bot that keeps what its last search found.

The stepwise bot (:mod:`nova.bots.stepwise`) searches again at every step of its turn, each
search from nothing: the turn it chose a step ago, whose rollouts made it the best, starts
the next search level with every other candidate. With few simulations a search (at 4
players the budget is halved) one lucky rollout then decides each step, and a turn of three
steps is three draws of that luck: at 4 players ``stepwise:32`` (16 simulations a search)
won 18.8% of 40 games against three ``raider:16``, below parity (docs/BOTS.md).

This bot carries the chosen turn's rollout values into the next search of the same turn:
the candidate that starts with the step the chosen turn takes next begins with those
simulations (as a tree search keeps the subtree it moves into), so another step replaces it
only on the evidence of the new rollouts. Everything else is the stepwise bot's.

On the same 40 deals at 4 players, ``steady:32`` won 23.8% (12.5–36.3%) against three
``raider:16``, ``stepwise:32`` 18.8%: not shown better. At 2 players ``steady:16`` was
+32 Elo (+1 … +64) over ``stepwise:16`` in 400 games, its gate (SPRT, 0 against 50) without
a verdict (docs/BOTS.md, "On trial: steady").
"""

from __future__ import annotations

from .simple import view_key
from .stepwise import StepwiseBot, first_step


class SteadyBot(StepwiseBot):
    name = "steady"

    def __init__(self, budget: int | None = None, time_ms: float | None = None) -> None:
        super().__init__(budget, time_ms)
        # what the chosen turn does next, and its rollout values: (the view it expects
        # there, that step's decisions, the values)
        self._next: tuple[str, list[str], list[float]] | None = None

    def _finish(self, move: str, plan: list[str] | None) -> None:
        super()._finish(move, plan)
        self._next = None
        root, me, trace = self._root, self._seat, self.trace
        # the chosen turn's rollouts: first in the search's ranking
        rolled = trace.rolled[trace.ranking[0]] if trace and trace.ranking else ()
        if plan is None or root is None or not rolled:
            return
        step = first_step(root, me, plan)
        after = root
        for m in step:
            after = after.apply(m)
        if after.over or after.current_player != me:
            return
        rest = first_step(after, me, plan[len(step) :])
        if rest:
            self._next = (view_key(after.view(me)), rest, list(rolled))

    def _evidence(self, plans: list[list[str]]) -> dict[int, list[float]]:
        carried, self._next = self._next, None
        if carried is None:
            return {}
        key, step, values = carried
        if key != view_key(self._view):
            return {}  # something unforeseen (a card drawn, a Spawn): a fresh search
        for k, plan in enumerate(plans):
            if plan[: len(step)] == step:
                return {k: values}
        return {}


BOT = SteadyBot
