"""``raider``: the search bot made stronger, one measured change at a time.

Each change is kept only when the sequential test of ``python -m nova lab sprt`` accepts it
against the bot without it (docs/BOTS.md lists the gates passed). What it adds to
:class:`~nova.bots.search.SearchBot`:

* **wider candidates**: the search bot tries one plan per way to *start* its turn (each
  card's action carried out the one way the evaluation likes best), so where to move, whom
  to Hijack or which Shards to take is never searched, only guessed. The raider also tries,
  for its ``WIDE`` best actions, the ``ALTERNATIVES`` next best ways to carry each out;
* **a prior on each candidate** (progressive bias): before its rollouts a candidate counts
  as ``PRIOR`` simulations worth its planned value, so the first rounds of successive
  halving, with one or two noisy rollouts a candidate, drop fewer good plans on bad luck;
* **each sampled deal dealt once**: the candidates' j-th simulations share a deal (as the
  search's do), and the raider keeps it instead of dealing the same cards again for each
  candidate: the same decisions for less time, so more simulations in the page's time;
* **its own evaluation weights** (:data:`WEIGHTS`), in place of the hand-set ones
  ``greedy`` and ``search`` keep as references.

Same budget (simulations per search), same API, same view as the search bot: only
``state.view(seat)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..rules import State, View
from ..rules import move as mv
from .evaluate import Weights, evaluate
from .planner import END, action_ends
from .search import CANDIDATES, SearchBot

PRIOR = 2.0
WIDE = 3  # the best actions whose other ways to be carried out are tried
ALTERNATIVES = 2  # other ways to carry out each of them
ENDS = 60  # ways to carry out one action looked at, at most
TIME_SHARE = 0.9  # of a thinking time (the page's), the rest for what follows the search
# The evaluation's weights for this bot (tools/texel_tune.py fits them to who wins).
WEIGHTS = Weights()


class RaiderBot(SearchBot):
    name = "raider"
    weights = WEIGHTS
    # Weights by player count (nova.bots.evaluate.FITTED) that replace ``weights`` at a table
    # of that size; none for the raider, the reference field the 4-player games measure against
    fitted: Mapping[int, Weights] = MappingProxyType({})
    prior = PRIOR
    # the best actions whose other ways to be carried out are tried, and how many each
    wide = WIDE
    alternatives = ALTERNATIVES
    candidates = CANDIDATES + WIDE * ALTERNATIVES
    # with twice the candidates, a short thinking time cannot visit them all: stop in time
    time_share = TIME_SHARE

    def __init__(self, budget: int | None = None, time_ms: float | None = None) -> None:
        super().__init__(budget, time_ms)
        self._deals: dict[int, State] = {}  # this search's sampled deals, by seed

    def start(self, view: View, seed: int) -> None:
        self._deals = {}
        if self.fitted:  # the weights fitted at this table's size, else the bot's own
            self.weights = self.fitted.get(view.players, type(self).weights)
        super().start(view, seed)

    def _deal(self, seed: int) -> State:
        # Every candidate's j-th simulation is played on the same deal (common random
        # numbers): deal it once. A state is a value (apply leaves it alone), so sharing it
        # is safe; the search bot deals it again for every candidate, the same cards.
        s = self._deals.get(seed)
        if s is None:
            s = self._deals[seed] = super()._deal(seed)
        return s

    def _distinct(self, moves: list) -> object:
        return tuple(moves)

    def _options(self, s: State, me: int):
        ranked = yield from super()._options(s, me)
        if s.pending is not None or s.spawn_shard or s.current_player != me:
            return ranked
        w = self.weights
        extra = []
        actions = [(v, moves) for v, moves in ranked if moves != [END] and len(moves) > 1]
        for _, moves in actions[: self.wide]:
            # the card played for its action, after the chain link that opens it if any
            k = 1 if moves[0].mode in ("s", "l") else 0
            if moves[k].kind != mv.PLAY or moves[k].mode not in ("u", "r"):
                continue  # a Launch has one way to be carried out
            prefix = moves[: k + 1]
            after = s
            for m in prefix:
                after = after.apply(m)
            ways = sorted(
                (
                    (evaluate(end, me, w), [*prefix, *more])
                    for more, end in action_ends(after, me, [ENDS], w)
                    if [*prefix, *more] != moves
                ),
                key=lambda o: -o[0],
            )
            extra += ways[: self.alternatives]
            yield
        return sorted(ranked + extra, key=lambda o: -o[0])
