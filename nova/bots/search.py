"""The searching bot: Monte-Carlo over sampled hidden cards, whole turns at a time.

A decision in Nova Raiders is atomic, so a turn is a dozen decisions; searching them
one by one wastes the budget on choosing bays and ships. This bot searches *turns*:

1. From the current view it builds a few candidate plans for the rest of its turn:
   the planner's best few next steps (an action finished, a chain link and the action
   it opens, a Launch, or ending the turn), each followed by the greedy plan to the
   end of the turn.
2. Each simulation deals the unseen cards at random (:func:`nova.rules.determinize`;
   the bot never sees the real hidden cards), plays the candidate, lets every seat
   play greedy turns for about one round (the opponents' replies and the bot's own
   next turn; or only the replies, at a player count in ``rollout_replies``), and scores the
   position reached with the evaluation.
3. Candidates share the same samples (common random numbers) and are thinned by
   successive halving: after each round of simulations the worse half is dropped.

The budget is the number of simulations. The work is cut into small steps so a page
can think without freezing (no step takes more than a few tens of milliseconds)::

    bot = SearchBot(budget=64)
    bot.start(view, seed)          # cheap: no search yet
    while not bot.done:
        bot.step(ms=30)            # await asyncio.sleep(0) between calls in the page
    move = bot.best()

``bot.choose(view, seed)`` does all of that at once. The plan chosen is remembered,
so the remaining decisions of the turn come back at once without searching again.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from types import MappingProxyType

from ..rules import State, View, determinize
from .evaluate import DEFAULT, Weights, evaluate
from .explain import Trace
from .planner import END, dump_moves, finish_action, plan_turn, play, ranked_options
from .simple import PlanningBot

DEFAULT_BUDGET = 48
CANDIDATES = 6
ROLLOUT_NODES = 40  # states tried per action in rollouts: a cheaper greedy
# At 4 players, the rollouts of the bots with the evaluation fitted there (``fitted``, the
# Admiral) end when the three opponents have replied, before the bot's own next turn: that
# turn, planned greedily on a sampled deal three turns on, added noise more than it told
# (docs/BOTS.md, "Rollouts that end after the replies").
SHORT_ROLLOUTS: dict[int, int] = {4: 3}
TIMED_CAP = 100_000  # simulations at most under a time budget (never reached in practice)


class SearchBot(PlanningBot):
    name = "search"
    # The evaluation's weights (nova.bots.evaluate.Weights): the hand-set defaults here, the
    # reference every other searching bot is measured against; subclasses change them.
    weights: Weights = DEFAULT
    # Simulations' worth of trust in each candidate's planned value before its rollouts
    # (0: none, the reference search: candidates are judged on their rollouts alone).
    prior: float = 0.0
    # Under a time budget, the share of it after which the search stops even in the middle
    # of a round (None: the reference search finishes the round's visits, past its time).
    time_share: float | None = None
    # By player count, the other seats' turns a rollout plays after the bot's own before it
    # is scored; at a count not listed (every one, for the reference search), about a round:
    # the replies and the bot's own next turn.
    rollout_replies: Mapping[int, int] = MappingProxyType({})

    def __init__(self, budget: int | None = None, time_ms: float | None = None) -> None:
        super().__init__()
        # With a time budget the bot simulates until its time is up (the page's setting);
        # the simulation count is then only a cap. Without one it is the budget, and the
        # bot is deterministic (the lab, the tests).
        self.time_ms = None if time_ms is None else max(1.0, float(time_ms))
        if budget is None:
            budget = TIMED_CAP if self.time_ms is not None else DEFAULT_BUDGET
        self.budget = max(1, int(budget))
        self.done = True
        self._move: str | None = None
        self.positions = 0  # states the search has visited (for the benchmark)
        # what the last search weighed (nova.bots.explain), kept until the next search
        self.trace: Trace | None = None

    # -- the incremental API ----------------------------------------------------------
    def start(self, view: View, seed: int) -> None:
        """Begin thinking about ``view`` (the deciding seat's view, with ``legal``)."""
        self._view = view
        self._seed = seed
        self._t0 = time.perf_counter()
        self._seat = view.seat
        self._root: State | None = None
        self._work = self._search()
        legal = view.legal
        self._move = None
        if len(legal) == 1:
            self._move = legal[0]
        else:
            self._move = self.recall(view)
        self.done = self._move is not None

    def step(self, ms: float = 30.0) -> None:
        """Think for about ``ms`` milliseconds (at least one unit of work)."""
        deadline = time.perf_counter() + ms / 1000.0
        while not self.done:
            next(self._work, None)
            if time.perf_counter() >= deadline:
                break

    def best(self) -> str:
        """The decision chosen (finishes the search first if it is not done)."""
        while not self.done:
            self.step(1000.0)
        assert self._move is not None
        return self._move

    def choose(self, view: View, seed: int) -> str:
        self.start(view, seed)
        return self.best()

    # -- the search, as a generator that yields after each small unit of work -----------
    def _deal(self, seed: int) -> State:
        """A full state to think on: the view's unseen cards dealt at random from ``seed``."""
        return determinize(self._view, seed)

    # Candidates: how many whole-turn plans are tried, and what makes two of them different
    # (for this bot, their first decision: one plan per card or Launch or end to start with).
    candidates = CANDIDATES

    def _distinct(self, moves: list) -> object:
        return moves[0]

    def _options(self, s: State, me: int):
        """(value, decisions) of the next steps worth trying, best first: a generator that
        yields between units of work and returns the list."""
        w = self.weights
        if s.pending is None and not s.spawn_shard and s.current_player == me:
            ranked = ranked_options(s, me, w=w)
            yield
            return ranked
        ranked = []  # in the middle of an action, or placing a Spawned Shard
        for m in s.legal_moves()[:24]:
            v, more, _ = finish_action(s.apply(m), me, None, w)
            ranked.append((v, [m, *more]))
            yield
        ranked.sort(key=lambda o: -o[0])
        return ranked

    def _search(self):
        view, me, w = self._view, self._seat, self.weights
        s = self._deal(self._seed)
        self._root = s
        ranked = yield from self._options(s, me)
        plans: list[list[str]] = []
        values: list[float] = []
        seen = set()
        for value, moves in ranked:
            if moves == [END]:
                # end the turn as the planner does: cards of no use now go as chain links,
                # else a hand that cannot act (Specials without their colour) stays stuck for
                # ever and the seat passes to the round limit
                moves = [*dump_moves(s, me), END]
            key = self._distinct(moves)
            if key in seen:
                continue
            seen.add(key)
            done, after = play(s, me, moves, w)
            rest, _ = plan_turn(after, me, w=w) if done and done[-1] != END else ([], after)
            if done and done[0] in view.legal:
                plans.append([*done, *rest])
                values.append(value)
            if len(plans) >= self.candidates:
                break
            yield
        if len(plans) <= 1:
            plan = plans[0] if plans else None
            self.trace = Trace.of(s, me, plans, [[] for _ in plans], list(range(len(plans))))
            self._finish(plan[0] if plan else view.legal[0], plan)
            return
        rolled: list[list[float]] = [[] for _ in plans]  # each candidate's rollout values
        out: list[int] = []  # the candidates dropped, the last dropped first
        totals = [0.0] * len(plans)
        counts = [0] * len(plans)
        alive = list(range(len(plans)))
        carried = [0] * len(plans)  # values of earlier searches, in counts but not deals
        for k, known in self._evidence(plans).items():
            rolled[k] += known
            totals[k] += sum(known)
            counts[k] = carried[k] = len(known)
        rounds = max(1, (len(plans) - 1).bit_length())
        per_round = max(len(plans), self.budget // rounds)
        sims = 0

        # The prior: each candidate starts as if it had ``prior`` simulations worth its
        # planned value. Rollouts end a round later than the plan, on another scale, so only
        # the plans' differences carry over: the prior's simulations are worth the mean of
        # every rollout so far plus the candidate's lead over the best plan.
        top = max(values)
        lead = [v - top for v in values]

        def mean(k: int) -> float:
            if not self.prior:
                return totals[k] / max(counts[k], 1)
            n = sum(counts)
            grand = sum(totals) / n if n else 0.0
            return (totals[k] + self.prior * (grand + lead[k])) / (counts[k] + self.prior)

        timed = self.time_ms is not None
        total = (self.time_ms or 0.0) / 1000.0
        # a hard deadline, for a bot with more candidates than a short time can visit
        deadline = self._t0 + total * self.time_share if timed and self.time_share else None
        done_rounds = 0
        while len(alive) > 1 and sims < self.budget:
            # a round: every candidate left, on the samples they all share; under a time
            # budget each round gets an equal share of the time (and every candidate once)
            end = self._t0 + total * (done_rounds + 1) / rounds
            r = 0
            while sims < self.budget:
                if timed:
                    if r >= len(alive) and time.perf_counter() >= end:
                        break
                    if deadline is not None and time.perf_counter() >= deadline:
                        break
                elif r >= per_round:
                    break
                c = alive[r % len(alive)]
                value = self._rollout(plans[c], counts[c] - carried[c])
                totals[c] += value
                rolled[c].append(value)
                counts[c] += 1
                sims += 1
                r += 1
                yield
            done_rounds += 1
            # successive halving: keep the better half
            alive.sort(key=lambda k: -mean(k))
            keep = max(1, (len(alive) + 1) // 2)
            if deadline is not None and time.perf_counter() >= deadline:
                keep = 1
            out[:0] = alive[keep:]
            alive = alive[:keep]
        best = max(alive, key=mean)
        ranking = [best, *sorted((k for k in alive if k != best), key=lambda k: -mean(k)), *out]
        self.trace = Trace.of(s, me, plans, rolled, ranking)
        self._finish(plans[best][0], plans[best])
        yield

    def _own_turn(self, plan: list[str], j: int) -> State:
        """Simulation ``j``'s deal with ``plan`` played on it, and the rest of the bot's
        turn as the planner would play it."""
        me = self._seat
        w = self.weights
        s = self._deal(self._seed * 7919 + j + 1)
        done, s = play(s, me, plan, w)
        self.positions += len(done)
        if not s.over and s.current_player == me:
            more, s = plan_turn(s, me, ROLLOUT_NODES, w)
            self.positions += len(more)
        return s

    def _rollout(self, plan: list[str], j: int) -> float:
        me = self._seat
        w = self.weights
        s = self._own_turn(plan, j)
        n = s.num_players
        replies = self.rollout_replies.get(n)
        for _ in range(2 * n):  # about a round: the replies and our own next turn
            if s.over or replies == 0:
                break
            seat, turn = s.current_player, s.turn
            moves, s = plan_turn(s, seat, ROLLOUT_NODES, w)
            self.positions += len(moves)
            if replies is not None and turn != me and s.turn != turn:
                replies -= 1  # an opponent's turn is over
            if seat == me and s.current_player != me and not s.spawn_shard:
                break
        return evaluate(s, me, w)

    def _evidence(self, plans: list[list[str]]) -> dict[int, list[float]]:
        """Rollout values already known for some of the candidates ``plans``, by index:
        none, every search starts afresh (a bot that searches again within its turn may
        carry over what its last search found)."""
        return {}

    def _finish(self, move: str, plan: list[str] | None) -> None:
        self._move = move
        self.done = True
        if plan is not None and self._root is not None:
            self.remember(self._root, self._seat, plan)
