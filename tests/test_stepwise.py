"""The ``stepwise`` bot (nova/bots/stepwise.py): the raider's search at every step of its
turn, the Admiral's bot. Its legality, determinism and blindness to hidden cards are
tests/test_bots.py's (``LEVEL_ONLY``); here, what it changes from the raider. Tiny budgets:
what is checked is what it does, never how strong it is (docs/BOTS.md has its games)."""

from __future__ import annotations

from test_reply import _turn_start

from nova.bots import RaiderBot
from nova.bots.stepwise import StepwiseBot, first_step
from nova.rules import State, new_game
from nova.rules import move as mv


class _WideRaider(RaiderBot):
    """The raider with the stepwise bot's candidates: what it searches at a turn's start."""

    wide, alternatives, candidates = (
        StepwiseBot.wide,
        StepwiseBot.alternatives,
        StepwiseBot.candidates,
    )


class _Wide(StepwiseBot):
    """The stepwise bot as wide as the Admiral's at the tests' tiny budgets."""

    wide_from = 1


class _Counting(_Wide):
    searches = 0

    def _search(self):
        type(self).searches += 1
        return (yield from super()._search())


def _play_turn(bot, s: State, seed: int) -> tuple[list[str], State]:
    me, moves = s.current_player, []
    while not s.over and s.current_player == me:
        m = bot.choose(s.view(me), seed + len(moves))
        moves.append(m)
        s = s.apply(m)
    return moves, s


def test_the_first_step_ends_between_actions():
    """The step remembered is a prefix of the plan that ends where no action is under way
    and no chain link waits for its action: an action finished, a Launch, or the turn's end."""
    seen = 0
    for seed in (3, 4, 5):
        s = _turn_start(seed)
        me = s.current_player
        bot = RaiderBot(budget=4)
        bot.choose(s.view(me), 1)
        assert bot.trace is not None
        for plan in map(list, bot.trace.plans):
            step = first_step(s, me, plan)
            assert step and plan[: len(step)] == step
            after = s
            for m in step:
                after = after.apply(m)
            if after.over or after.current_player != me:
                continue  # the turn ended (or the game): a Spawn may be under way for another
            last = mv.Move(step[-1])
            assert after.pending is None and not after.spawn_shard
            assert not (last.kind == mv.PLAY and last.mode in ("s", "l"))
            seen += len(step) < len(plan)
    assert seen > 0  # some plans went on past their first step


def test_every_action_of_its_turn_is_searched():
    """The raider searches once a turn and replays its plan; this bot searches again after
    each step, from where the step led, and starts the turn as the raider with its candidates
    does."""
    searched_more = 0
    for seed in (3, 4, 5, 6):
        s = _turn_start(seed)
        me = s.current_player
        first = _WideRaider(budget=4).choose(s.view(me), 11)
        bot = _Counting(budget=4)
        _Counting.searches = 0
        moves, _ = _play_turn(bot, s, 11)
        assert moves[0] == first  # the same first search
        actions = sum(1 for m in moves if mv.Move(m).kind in (mv.PLAY, mv.LAUNCH))
        searched_more += _Counting.searches > 1
        assert _Counting.searches <= max(1, actions + 1)
    assert searched_more > 0


def test_it_tries_more_ways_to_carry_out_its_best_actions_than_the_raider():
    """Each search weighs the raider's candidates and more: other ways to carry out more of
    its best actions (WIDE, ALTERNATIVES), as many as the position has."""
    wider = 0
    for seed in (3, 4, 5):
        s = _turn_start(seed)
        view = s.view(s.current_player)
        raider, bot = RaiderBot(budget=4), _Wide(budget=4)
        raider.choose(view, 2)
        bot.choose(view, 2)
        assert raider.trace is not None and bot.trace is not None
        assert set(raider.trace.plans) <= set(bot.trace.plans)
        wider += len(bot.trace.plans) > len(raider.trace.plans)
    assert wider > 0


def test_below_wide_from_simulations_it_weighs_the_raiders_candidates():
    """With fewer simulations than successive halving needs for 21 candidates, each search
    weighs the raider's 12 (the same plans)."""
    for seed in (3, 4):
        s = _turn_start(seed)
        view = s.view(s.current_player)
        raider, bot = RaiderBot(budget=4), StepwiseBot(budget=4)
        raider.choose(view, 2)
        bot.choose(view, 2)
        assert bot.candidates == raider.candidates
        assert raider.trace is not None and bot.trace is not None
        assert raider.trace.plans == bot.trace.plans


def test_its_budget_counts_two_players_rollouts():
    """At n players a search has budget * 2 / n simulations (a rollout plays a turn for each
    seat), and is as wide as those simulations allow: the Admiral's 96 are 48 at 4 players,
    with the raider's candidates, and 64 at 3, with its own."""
    seen = {}
    for players in (2, 3, 4):
        s = new_game(players=players, seed=5)
        bot = StepwiseBot(budget=96)
        bot.start(s.view(s.current_player), 1)
        seen[players] = (bot.budget, bot.candidates)
    wide, narrow = StepwiseBot.candidates, RaiderBot.candidates
    assert seen == {2: (96, wide), 3: (64, wide), 4: (48, narrow)}
