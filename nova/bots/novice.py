"""``novice``: the greedy planner playing like a beginner, the opponent of a first game.

Against ``random`` a new player wins without learning anything (it carries Shards home
only by chance), and against ``greedy`` loses most games. The novice sits between: it
sees greedy's options, ranked by greedy's evaluation, but does not always take the best.
Between actions it takes, at random, one of its ``TOP`` best next steps (an action carried
out the best way, a Launch, a chain link and the action it opens, or ending the turn) that
is worth no more than ``SLACK`` less than the best: a sensible turn with a beginner's slips
(an action played where a slightly better one waited, a turn ended with a card still of
some use), never a step the evaluation sees as a big loss. How an action is carried out
(which ship, where, which bays) stays greedy's choice.

Deterministic for a view and a seed, like greedy (the lab's games and the page's agree).
"""

from __future__ import annotations

import random

from ..rules import State
from .evaluate import DEFAULT
from .planner import END, MAX_STEPS, end_turn, finish_action, play, ranked_options
from .simple import PlanningBot

TOP = 3  # next steps it chooses among
# how much worse than the best a step it takes may be, in the evaluation's points of score
# (a carried Shard is worth about 2.2): against greedy 1.0 scored 35%, 2.5 12.5% (40 paired
# games each, seed 5, while choosing it; the rating is in docs/BOTS.md, "Levels")
SLACK = 2.5


def novice_turn(
    s: State,
    me: int,
    rng: random.Random,
    seen: list[tuple[list[tuple[float, list]], int]] | None = None,
) -> list:
    """The rest of ``me``'s turn as the novice plays it (greedy's loop, its choice loosened).
    ``seen``: as for :func:`~nova.bots.planner.plan_turn`, the options it chose among."""
    w = DEFAULT
    plan: list = []
    for _ in range(MAX_STEPS):
        if s.over or s.current_player != me:
            break
        if s.pending is not None or s.spawn_shard:
            _, moves, s = finish_action(s, me, None, w)
            plan += moves
            continue
        options = ranked_options(s, me, w=w)[:TOP]
        pick = rng.choice([o for o in options if o[0] >= options[0][0] - SLACK])
        if seen is not None and not plan:
            seen.append((options, options.index(pick)))
        if pick[1] == [END]:
            done, s = end_turn(s, me)  # as greedy does: a stuck hand is cycled
            plan += done
            break
        done, s = play(s, me, pick[1], w)
        if not done:  # cannot happen (every option starts with a legal move); never loop
            break
        plan += done
    else:
        if not s.over and s.current_player == me and s.pending is None and END in s.legal_moves():
            plan.append(END)
    return plan


class NoviceBot(PlanningBot):
    """Greedy's options, not always the best of them (see the module)."""

    name = "novice"

    def turn(self, s: State, seat: int, seed: int) -> list:
        seen: list = []
        plan = novice_turn(s, seat, random.Random(seed), seen)
        self.consider(s, seat, seen, plan)
        return plan
