"""``raider``: the search bot made stronger, one measured change at a time.

Each change is kept only when the sequential test of ``python -m nova lab sprt`` accepts it
against the bot without it (docs/BOTS.md lists the gates passed). What it adds to
:class:`~nova.bots.search.SearchBot`:

* **a prior on each candidate** (progressive bias): before its rollouts a candidate counts
  as ``PRIOR`` simulations worth its planned value, so the first rounds of successive
  halving, with two or three noisy rollouts a candidate, drop fewer good plans on bad luck;
* **its own evaluation weights** (:data:`WEIGHTS`), in place of the hand-set ones
  ``greedy`` and ``search`` keep as references.

Same budget, same API, same view as the search bot: only ``state.view(seat)``.
"""

from __future__ import annotations

from .evaluate import Weights
from .search import SearchBot

PRIOR = 2.0
# The evaluation's weights for this bot (tools/tune_weights.py tunes them by self-play).
WEIGHTS = Weights()


class RaiderBot(SearchBot):
    name = "raider"
    weights = WEIGHTS
    prior = PRIOR
