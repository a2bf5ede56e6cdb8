"""What a search weighed: the whole turns it compared, each with its chance of winning.

The search (:mod:`nova.bots.search`) keeps a :class:`Trace` of its last search: the
candidate turns, the value of every simulation it played for each, and the order it ranked
them in (the turn chosen first, then the others as successive halving kept them: a turn
dropped later ranks above one dropped sooner, and within a round by the search's own
mean). :meth:`Trace.top` turns that into the three best :class:`Weighed` turns.

A turn's chance of winning is the mean, over the simulations the search played for it, of
``sigmoid(WIN_SCALE x value + WIN_BIAS[players])``, where ``value`` is what the search
scored that simulation (the evaluation a round later, or the result of a game that ended).
The two constants turn evaluation points into a chance and are fitted to who won seeded
greedy games (``python tools/fit_win_chance.py``; docs/BOTS.md, "Why the bot plays a turn").
Nothing here changes a decision: the search records, this module reads.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..rules import State, View, determinize
from .evaluate import evaluate
from .planner import plan_turn, play

if TYPE_CHECKING:
    from .search import SearchBot

# fitted by `python tools/fit_win_chance.py --games 200` (docs/BOTS.md, "Why the bot plays")
WIN_SCALE = 0.065  # per evaluation point
WIN_BIAS = {2: -0.75, 3: -1.35, 4: -1.5}  # the log-odds of a value of 0 at 2, 3, 4 players
SHOWN = 3  # turns reported
LONE_SIMS = 8  # simulations played to weigh a turn the search did not need to compare
# simulations each turn a hint shows rests on at least: a search short of time (a slow
# phone) may have simulated some of them once or not at all; 4 read as noise (a hint at
# "38% ... (4 simulations)" against the Cadet, issue 49)
LEAST_SIMS = 8


def win_chance(value: float, players: int) -> float:
    """The chance of winning of a position the evaluation scores ``value``."""
    x = WIN_SCALE * value + WIN_BIAS.get(players, WIN_BIAS[4])
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


@dataclass(frozen=True)
class Weighed:
    """One whole turn the search weighed: its decisions (played on the search's own sampled
    deal, so a decision after a card drawn from a deck may differ in the real game), its
    estimated chance of winning (0 to 1) and the simulations that estimate rests on."""

    moves: tuple[str, ...]
    win: float
    sims: int

    @property
    def percent(self) -> int:
        return round(100 * self.win)

    def as_json(self) -> dict:
        return {"moves": list(self.moves), "win": round(self.win, 4), "sims": self.sims}


@dataclass(frozen=True)
class Trace:
    """What one search weighed (see the module's text)."""

    root: State  # the search's sampled deal at the decision
    seat: int
    plans: tuple[tuple[str, ...], ...]
    rolled: tuple[tuple[float, ...], ...]  # each plan's simulation values, in order
    ranking: tuple[int, ...]  # the plans, best first

    @classmethod
    def of(
        cls,
        root: State,
        seat: int,
        plans: Sequence[Sequence[object]],
        rolled: Sequence[Sequence[float]],
        ranking: Sequence[int],
    ) -> Trace:
        return cls(
            root,
            seat,
            tuple(tuple(str(m) for m in p) for p in plans),
            tuple(tuple(r) for r in rolled),
            tuple(ranking),
        )

    def top(self, n: int = SHOWN) -> tuple[Weighed, ...]:
        """The ``n`` best turns with their chances. A turn the search ran out of time to
        simulate (0 simulations) gets the chance of where its plan ends on the search's
        deal: the planned value that ranked it."""
        players = self.root.num_players
        out = []
        for k in self.ranking[:n]:
            values = self.rolled[k]
            if values:
                win = sum(win_chance(v, players) for v in values) / len(values)
            else:
                win = win_chance(_planned_value(self.root, self.seat, self.plans[k]), players)
            out.append(Weighed(self.plans[k], win, len(values)))
        return tuple(out)


@dataclass(frozen=True)
class Considered:
    """What a planning bot (greedy, the novice) weighed for the first decision of a turn it
    planned: its next steps as greedy ranks them (an action carried out the best way, a
    Launch, a chain link and the action it opens, or ending the turn), each with the value
    of where it leaves the game, and the one it took. They do not search: a step's chance
    is that value's (:func:`win_chance`), on no simulation."""

    players: int
    options: tuple[tuple[str, ...], ...]  # best first, as greedy ranks them
    values: tuple[float, ...]
    pick: int  # the option it took

    @classmethod
    def of(
        cls,
        players: int,
        options: Sequence[tuple[float, Sequence[object]]],
        pick: int,
        plan: Sequence[object] = (),
    ) -> Considered:
        """The ranked ``options`` (value, decisions), the one it took at ``pick``; ``plan``:
        the decisions it plays, for ending the turn (it cycles a stuck hand first, so its
        first decision is a chain link, not the end)."""
        steps = [tuple(str(m) for m in moves) for _, moves in options]
        if steps[pick] == ("E",) and plan:
            steps[pick] = tuple(str(m) for m in plan)
        return cls(players, tuple(steps), tuple(v for v, _ in options), pick)

    def top(self, n: int = SHOWN) -> tuple[Weighed, ...]:
        """The step it took, then the best others, each with its chance (0 simulations)."""
        order = [self.pick, *(k for k in range(len(self.options)) if k != self.pick)]
        return tuple(
            Weighed(self.options[k], win_chance(self.values[k], self.players), 0) for k in order[:n]
        )


def record_of(bot: object) -> Trace | Considered | None:
    """What ``bot`` last weighed, through the page's wrappers (a level's ``Capped``, an
    answer-at-once bot's ``_Instant``): a search's :class:`Trace` or a planner's
    :class:`Considered`. A new object each time it weighs afresh, none for a decision it
    remembered: compare before and after a decision by identity."""
    for _ in range(3):
        record = getattr(bot, "trace", None) or getattr(bot, "considered", None)
        if record is not None:
            return record
        bot = getattr(bot, "bot", None)
        if bot is None:
            break
    return None


def _planned_value(s: State, seat: int, moves: Sequence[str]) -> float:
    _, after = play(s, seat, moves)
    return evaluate(after, seat)


def weigh(bot: SearchBot, view: View, seed: int) -> tuple[str, tuple[Weighed, ...]]:
    """``bot``'s decision on ``view`` searched afresh (never a plan remembered from earlier
    in the turn: the turns weighed start here) and the turns it weighed, best first.

    Each turn shown rests on ``LEAST_SIMS`` simulations at least: after the decision, the
    search's simulations of those turns are played on where it stopped (the same deals, the
    same rollouts). A decision the search does not compare turns for (one legal decision, or
    one plan) is still weighed: its turn is simulated ``LONE_SIMS`` times.
    """
    work = weighing(bot, view, seed, 1000.0)
    while True:
        try:
            next(work)
        except StopIteration as done:
            return done.value


def weighing(
    bot: SearchBot, view: View, seed: int, slice_ms: float
) -> Generator[None, None, tuple[str, tuple[Weighed, ...]]]:
    """:func:`weigh` in small units of work (a slice of ``slice_ms`` of the search, or one
    simulation), yielding between them: for the page's main thread when the bots' worker
    could not start."""
    bot.memory.clear()
    before = bot.trace
    bot.start(view, seed)
    while not bot.done:
        bot.step(slice_ms)
        yield
    move = bot.best()
    trace = bot.trace if bot.trace is not before else None
    if trace is not None and len(trace.plans) > 1:
        rolled = [list(r) for r in trace.rolled]
        for k in trace.ranking[:SHOWN]:
            while len(rolled[k]) < LEAST_SIMS:
                rolled[k].append(bot._rollout(list(trace.plans[k]), len(rolled[k])))
                yield
        bot.trace = trace = replace(trace, rolled=tuple(tuple(r) for r in rolled))
        return move, trace.top()
    # nothing compared: simulate the turn the bot plays, on the search's own deals
    s = trace.root if trace is not None else determinize(view, seed)
    me = view.seat
    if trace is not None and trace.plans:
        plan = list(trace.plans[0])
    else:
        plan = [move]
        after = s.apply(move)
        if not after.over and after.current_player == me:
            rest, _ = plan_turn(after, me, w=bot.weights)
            plan += [str(m) for m in rest]
    values = []
    for j in range(LONE_SIMS):
        values.append(bot._rollout(plan, j))
        yield
    win = sum(win_chance(v, s.num_players) for v in values) / len(values)
    return move, (Weighed(tuple(plan), win, len(values)),)
