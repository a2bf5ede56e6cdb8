"""``stepwise``: the raider's search made at every step of its turn, not only the first.

The raider (:mod:`nova.bots.raider`) searches once a turn: its candidates are the best few
*first* steps, each completed into a whole turn by the greedy planner, and the plan chosen
is remembered, so every later action of the turn (the second card, the third, where to go
with them) is the greedy planner's choice made before the first action was even seen
through. Its ceiling (docs/BOTS.md: seeing every hidden card adds nothing, twice the
simulations about +12 Elo) says the limit is what it searches, not how often.

This bot remembers only the first step of the plan it chose (the action it carries out,
with the chain link before it, or a Launch, or the end of the turn with its chain links),
so at the next point between actions it searches again, from the position the step
reached: every action of its turn is chosen by the search, each with its own candidates
and rollouts. And since every step is now searched, it tries more ways to carry each one
out: for its ``WIDE`` (5) best actions, the ``ALTERNATIVES`` (3) next best ways (the
raider: 3 and 2), 21 candidates a search against the raider's 12, so it wants about twice
the raider's simulations (the Admiral plays ``stepwise:96``). Its budget counts two
players' rollouts: at ``n`` players a search has ``budget * 2 / n`` simulations, about the
same work, since a rollout plays a turn for each seat. Below ``WIDE_FROM`` (64) simulations
a search it keeps the raider's 12 candidates: successive halving visits every candidate left
in each of its rounds, so 21 candidates need about 100 simulations for their five rounds,
and 32 buy the first round and half the second (at 4 players, 32 simulations a search won
18% of 28 games against three ``raider:16`` with 21 candidates, 34% and 25% of 40 with 12,
on two sets of deals: docs/BOTS.md). Everything else is the raider's: prior, deals,
successive halving and the page's time budget (a turn thinks once per action). The same
public view, no peeking: every state it thinks on is dealt from ``state.view(seat)``.

At 4 players it plays with the evaluation's weights fitted to who wins there
(:data:`~nova.bots.evaluate.FITTED`, as ``fitted`` does), and its rollouts end when the
three opponents have replied (:data:`~nova.bots.search.SHORT_ROLLOUTS`): with the hand-set
weights no budget or search shape tried moved it above parity against three ``raider:16``;
with the fit ``stepwise:64`` won 35.4% of 120 games, with the short rollouts too 45.3% of
120, and the Admiral 40.0% of 40 against three Captains (docs/BOTS.md, "The evaluation
fitted at 4 players", "Rollouts that end after the replies"). At 2 and 3 players its
weights and rollouts are the raider's.
"""

from __future__ import annotations

from types import MappingProxyType

from ..rules import State, View
from ..rules import move as mv
from .evaluate import FITTED
from .raider import RaiderBot
from .search import CANDIDATES, SHORT_ROLLOUTS

WIDE = 5  # the best actions whose other ways to be carried out are tried
ALTERNATIVES = 3  # other ways to carry out each of them
WIDE_FROM = 64  # simulations a search from which it is this wide; below, the raider's width


def first_step(s: State, me: int, plan: list[str]) -> list[str]:
    """The decisions of ``plan`` up to the end of its first step: through its first action
    finished (chain links before it included), a Launch, or the end of the turn."""
    out: list[str] = []
    for m in plan:
        if s.over or s.current_player != me:
            break
        move = mv.Move(m)
        s = s.apply(move)
        out.append(m)
        link = move.kind == mv.PLAY and move.mode in ("s", "l")
        if s.pending is None and not s.spawn_shard and not link:
            break
    return out


class StepwiseBot(RaiderBot):
    name = "stepwise"
    # at 4 players, the weights fitted to who wins there (docs/BOTS.md, "The evaluation fitted
    # at 4 players")
    fitted = MappingProxyType(FITTED)
    rollout_replies = MappingProxyType(SHORT_ROLLOUTS)
    wide = WIDE
    alternatives = ALTERNATIVES
    candidates = CANDIDATES + WIDE * ALTERNATIVES
    wide_from = WIDE_FROM

    def __init__(self, budget: int | None = None, time_ms: float | None = None) -> None:
        super().__init__(budget, time_ms)
        self.two_player_budget = self.budget

    def start(self, view: View, seed: int) -> None:
        # A rollout plays on for about a round, a turn for each seat: the budget is counted
        # in two players' rollouts, so that a search does about the same work at every
        # player count (at 4 players, stepwise:96 searches 48 simulations; with 96, the
        # Admiral's decision took 3.4 s at the 95th percentile in the page: docs/BOTS.md)
        self.budget = max(1, self.two_player_budget * 2 // len(view.seats))
        wide = self.budget >= self.wide_from  # else too few simulations for 21 candidates
        cls = type(self) if wide else RaiderBot
        self.wide, self.alternatives = cls.wide, cls.alternatives
        self.candidates = cls.candidates
        super().start(view, seed)

    def remember(self, state, seat: int, moves) -> None:
        # only the first step: the next one is searched again from where it leads
        super().remember(state, seat, first_step(state, seat, list(moves)))
