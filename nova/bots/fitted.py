"""``fitted``, the hint's bot (``best``): the raider with, at 4 players, evaluation weights fitted
to who wins there and rollouts that end after the replies.

The evaluation's weights (:class:`~nova.bots.evaluate.Weights`) were set by hand, and the
raider plays with the same ones at 2, 3 and 4 players. At 4 players what a position is worth
differs: three opponents hunt the same loose Shards, a carried stack meets more Hijacks, and
which opponent leads matters more than their mean. ``tools/texel_tune.py --players 4`` fits
the weights of what a position holds to the winners of 4-player self-play games
(:data:`~nova.bots.evaluate.FITTED`); this bot plays with the weights fitted for the table it
sits at, and with the raider's where none were. The rollouts' opponents play with them too:
they are the bot's model of every seat.

At 4 players its rollouts also end when the three opponents have replied, before its own
next turn (:data:`~nova.bots.search.SHORT_ROLLOUTS`): scored there, the fitted evaluation
says more than that turn, played greedily on a deal sampled three turns earlier, adds.
Everything else is the raider's: candidates, prior, deals, budget. So at 4 players, against
three ``raider:16``, ``fitted:16`` differs from its opponents by its weights and where its
rollouts end (docs/BOTS.md, "The evaluation fitted at 4 players" and "Rollouts that end
after the replies"), and won 41.7% of 120 games: at 4 players it is ``best`` (the hints, the
"Best bot" seat), and at 2 and 3 it plays the raider's moves, as ``best`` did before.
"""

from __future__ import annotations

from types import MappingProxyType

from .evaluate import FITTED
from .raider import RaiderBot
from .search import SHORT_ROLLOUTS


class FittedBot(RaiderBot):
    name = "fitted"
    fitted = MappingProxyType(FITTED)
    rollout_replies = MappingProxyType(SHORT_ROLLOUTS)


BOT = FittedBot
