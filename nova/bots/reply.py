"""``reply``: the raider's search, with the opponent's reply searched instead of played greedily.

The raider (:mod:`nova.bots.raider`) judges each candidate turn by rollouts in which every
seat plays greedy turns for about a round: the opponent answers the candidate with the one
turn greedy's evaluation likes best right after it, blind to what the raider does next.
Its ceiling (docs/BOTS.md: seeing every hidden card adds nothing, twice the simulations
about +12 Elo) says the limit is that horizon, not the guesses at hidden cards.

This bot looks one turn further, the way a two-turn search with the opponents' best replies
does, on the same sampled deals:

* after the candidate turn, the **next seat's reply is searched**: the greedy turn the
  raider's rollout would play for it, and its next best steps by the greedy ranking (each with
  another first decision, completed into a turn as the planner would, ending the turn among
  them), ``REPLIES`` in all, each played on;
* each reply is followed as the raider's rollout is (the other seats' greedy turns, then the
  bot's own next turn, greedy) and judged at the end **by the replying seat's own
  evaluation**: the reply it would choose seeing the bot's answer to it (the max-n rule: at
  2 players the evaluation is nearly zero-sum, so this is the reply worst for the bot);
* the simulation's value is the bot's evaluation after the reply so chosen.

Everything else is the raider's: its candidates, prior, the deals kept once per search,
successive halving, the budget (simulations per search) and the page's time budget. A
simulation costs about ``REPLIES`` raider simulations; the same public view, no peeking:
every state it thinks on is dealt from ``state.view(seat)``
(:func:`nova.rules.determinize`).
"""

from __future__ import annotations

from ..rules import State
from .evaluate import evaluate
from .planner import END, dump_moves, plan_turn, play, ranked_options
from .raider import RaiderBot
from .search import ROLLOUT_NODES

REPLIES = 3  # the replying seat's turns searched (1: the raider's rollout, exactly)


class ReplyBot(RaiderBot):
    name = "reply"
    replies = REPLIES

    def _rollout(self, plan: list[str], j: int) -> float:
        me = self._seat
        w = self.weights
        s = self._own_turn(plan, j)
        if s.over:
            return evaluate(s, me, w)
        opp = s.current_player
        if opp == me or s.pending is not None or s.spawn_shard:
            # no reply to search (a Spawn to place first, or the bot plays again): as the raider
            return evaluate(self._on(s, me, 2 * s.num_players), me, w)
        best: tuple[float, float] | None = None  # (the replying seat's value, the bot's)
        for reply in self._replies(s, opp):
            end = self._on(reply, me, 2 * s.num_players - 1)
            theirs = evaluate(end, opp, w)
            if best is None or theirs > best[0]:
                best = (theirs, evaluate(end, me, w))
        assert best is not None
        return best[1]

    def _replies(self, s: State, opp: int) -> list[State]:
        """The states after ``opp``'s reply turns: first the one the raider's rollout plays
        (greedy's turn), then its other best next steps by the greedy ranking, each with a
        distinct first decision and completed into a turn as the planner would."""
        w = self.weights
        seen: list = []
        moves, after = plan_turn(s, opp, ROLLOUT_NODES, w, seen=seen)
        self.positions += len(moves)
        out = [after]
        firsts = {moves[0]} if moves else set()
        # the options greedy ranked for its first decision (none when it looked two actions
        # ahead, in a game that drags: rank them here)
        options = seen[0][0] if seen else ranked_options(s, opp, ROLLOUT_NODES, w)
        for _, moves in options:
            if len(out) >= self.replies:
                break
            if moves == [END]:
                moves = [*dump_moves(s, opp), END]  # ending as the planner ends a turn
            if moves[0] in firsts:
                continue
            firsts.add(moves[0])
            done, after = play(s, opp, moves, w)
            self.positions += len(done)
            if not after.over and after.current_player == opp:
                more, after = plan_turn(after, opp, ROLLOUT_NODES, w)
                self.positions += len(more)
            out.append(after)
        return out

    def _on(self, s: State, me: int, turns: int) -> State:
        """Greedy turns from ``s`` until ``me``'s next turn is over (at most ``turns``), as
        the raider's rollout plays them; the evaluation is the caller's."""
        w = self.weights
        for _ in range(turns):
            if s.over:
                break
            seat = s.current_player
            moves, s = plan_turn(s, seat, ROLLOUT_NODES, w)
            self.positions += len(moves)
            if seat == me and s.current_player != me and not s.spawn_shard:
                break
        return s


BOT = ReplyBot  # what nova.bots.make_bot("reply") plays (a bot on trial, loaded by name)
