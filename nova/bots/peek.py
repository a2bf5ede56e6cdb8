"""``peek``: the best bot, seeing every hidden card. A ceiling for the lab, never a player.

The raider's search (the page's ``best``), thinking on the true state (every hand, every
draw pile in order, the Academy Deck) instead of states dealt from its view; only the bag's
future draws and reshuffles are left to chance, by a fresh random generator per simulation.
How far the best honest bot rates below it on the ladder is how much hidden information
costs it: an upper bound on what better guessing of the hidden cards could gain. The page
never offers it (``LAB_ONLY`` in :mod:`nova.bots`): a bot that peeks would be a cheat.

The lab hands it the true state with :meth:`PeekingBot.see` before each decision (bots
that do not have ``peeks`` never get it).
"""

from __future__ import annotations

from ..rules import State
from ..rules.chance import with_generator
from .raider import RaiderBot


class PeekingBot(RaiderBot):
    name = "peek"
    peeks = True

    def __init__(self, budget: int | None = None, time_ms: float | None = None) -> None:
        super().__init__(budget, time_ms)
        self._truth: State | None = None

    def see(self, state: State) -> None:
        """The true state of the game, before the decision its deciding seat's view asks."""
        self._truth = state

    def _deal(self, seed: int) -> State:
        if self._truth is None:
            raise RuntimeError("the peeking bot was not shown the state (lab only)")
        return with_generator(self._truth, seed)  # the bag's draws to come stay unknown
