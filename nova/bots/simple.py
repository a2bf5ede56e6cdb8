"""The random and greedy bots, and the plan memory they share with the search bot.

Every bot sees only ``state.view(seat)``: a :class:`~nova.rules.View` without the other
seats' hands, the draw piles' order, the Academy Deck or the bag's draws. A bot that needs a
full state to think on deals the unseen cards at random with
:func:`nova.rules.determinize`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from ..rules import View, determinize
from .evaluate import DEFAULT, Weights
from .explain import Considered
from .planner import plan_turn

PLAN_MEMORY = 4096  # remembered (view -> planned decision) pairs per bot


def view_key(view: View) -> str:
    """A fingerprint of what a seat sees, to recognise a view a plan expected (its JSON:
    a view holds a variant's dict, so it is no dictionary key itself)."""
    # last_event is a caption (and blank in a determinized state); legal follows from the rest
    slim = view.to_json()
    del slim["last_event"]
    slim.pop("legal", None)
    return json.dumps(slim, sort_keys=True, separators=(",", ":"))


class Bot:
    """A player: ``choose(view, seed)`` returns one of ``view.legal``."""

    name = "bot"

    def choose(self, view: View, seed: int) -> str:
        raise NotImplementedError


class RandomBot(Bot):
    """Picks uniformly among the legal decisions: the floor every other bot must beat."""

    name = "random"

    def choose(self, view: View, seed: int) -> str:
        return random.Random(seed).choice(view.legal)


class PlanningBot(Bot):
    """A bot that works out a whole turn at once and remembers it.

    After planning, the views the plan will lead to (on the bot's own sampled state)
    are remembered with the decision planned for each. When the real game shows one
    of those views, the bot plays the remembered decision without thinking again;
    anything unforeseen (a card drawn from the Academy Deck, a Spawn) gives a view it
    has not seen, and it plans afresh from there.
    """

    def __init__(self) -> None:
        self.memory: dict[str, str] = {}
        # what it weighed for the last turn it planned afresh (nova.bots.explain): a new
        # object each time, so the page can tell a fresh plan from a remembered decision
        self.considered: Considered | None = None

    def consider(self, s, seat: int, seen: Sequence, plan: Sequence) -> None:
        """Keep the options ranked for the plan's first decision and the one it took
        (``seen``), if it had them."""
        if not (seen and plan):
            self.considered = None
            return
        options, pick = seen[0]
        self.considered = Considered.of(s.num_players, options, pick, plan)

    def recall(self, view: View) -> str | None:
        m = self.memory.get(view_key(view))
        return m if m is not None and m in view.legal else None

    def remember(self, state, seat: int, moves: Sequence[str]) -> None:
        if len(self.memory) > PLAN_MEMORY:
            self.memory.clear()
        for m in moves:
            if state.over or state.current_player != seat:
                break
            self.memory[view_key(state.view(seat))] = m
            state = state.apply(m)

    def turn(self, s, seat: int, seed: int) -> Sequence[str]:
        """The rest of ``seat``'s turn planned on ``s`` (a sampled deal of the view)."""
        raise NotImplementedError

    def choose(self, view: View, seed: int) -> str:
        """The decision of the turn planned by :meth:`turn`, or remembered from it."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        known = self.recall(view)
        if known is not None:
            return known
        seat = view.seat
        s = determinize(view, seed)
        plan = self.turn(s, seat, seed)
        if not plan or plan[0] not in legal:  # cannot happen; never play an illegal move
            return legal[-1] if "E" not in legal else "E"
        self.remember(s, seat, plan)
        return plan[0]


class GreedyBot(PlanningBot):
    """Plans its turn action by action with the hand-written evaluation (see planner)."""

    name = "greedy"

    def __init__(self, weights: Weights = DEFAULT) -> None:
        super().__init__()
        self.weights = weights  # DEFAULT for ``greedy``; others only while tuning them

    def turn(self, s, seat: int, seed: int) -> Sequence[str]:
        seen: list = []
        plan = plan_turn(s, seat, w=self.weights, seen=seen)[0]
        self.consider(s, seat, seen, plan)
        return plan
