"""The ``steady`` bot on trial (nova/bots/steady.py): the stepwise bot that starts each
search of its turn with what the last one found. Its legality, determinism and blindness
to hidden cards are tests/test_bots.py's (``TRIAL``); here, what it changes from the
stepwise bot. Tiny budgets: what is checked is what it does, never how strong it is."""

from __future__ import annotations

from test_reply import _turn_start
from test_stepwise import _play_turn

from nova.bots.steady import SteadyBot
from nova.bots.stepwise import StepwiseBot
from nova.rules import State


class _Traced(SteadyBot):
    """Keeps every search's trace and the step the chosen turn took next."""

    def __init__(self, budget: int) -> None:
        super().__init__(budget)
        self.searches: list[tuple[object, object]] = []  # (carried in, trace)

    def _evidence(self, plans):
        carried = self._next
        out = super()._evidence(plans)
        self.searches.append((carried if out else None, None))
        return out

    def _finish(self, move, plan):
        super()._finish(move, plan)
        if self.searches and self.searches[-1][1] is None:
            self.searches[-1] = (self.searches[-1][0], self.trace)


def _turns(seeds) -> list[tuple[State, int]]:
    return [(_turn_start(seed, rounds), seed) for seed in seeds for rounds in (4, 6)]


def test_the_next_search_starts_the_chosen_turns_next_step_with_its_rollouts():
    """After a step of the turn it chose, the candidate that takes that turn's next step
    begins with the chosen turn's simulations (the earlier search's values, first), and the
    new search plays its own after them."""
    carried = 0
    for s, seed in _turns((3, 4, 5, 6)):
        bot = _Traced(budget=6)
        _play_turn(bot, s, seed)
        for before, after in zip(bot.searches, bot.searches[1:], strict=False):
            into, trace = after
            if into is None:
                continue
            _, step, values = into
            assert before[1] is not None and trace is not None
            chosen = before[1].ranking[0]
            assert tuple(values) == before[1].rolled[chosen]
            k = next(k for k, p in enumerate(trace.plans) if list(p[: len(step)]) == step)
            assert trace.rolled[k][: len(values)] == tuple(values)
            carried += 1
    assert carried > 0


def test_a_view_the_chosen_turn_did_not_expect_starts_afresh():
    """Carried values belong to the position the chosen turn led to: a search anywhere else
    (another seat's turn, a card drawn, a Spawn) starts with no simulation."""
    s = _turn_start(4, 6)
    view = s.view(s.current_player)
    fresh = StepwiseBot(budget=6)
    fresh.choose(view, 1)
    assert fresh.trace is not None and len(fresh.trace.plans) > 1
    step = list(fresh.trace.plans[0][:1])  # a step one candidate here takes
    bot = SteadyBot(budget=6)
    bot._next = ("the view of another position", step, [1.0, 2.0])
    bot.choose(view, 1)
    assert bot.trace is not None
    assert bot.trace.rolled == fresh.trace.rolled


def test_a_search_with_nothing_carried_is_the_stepwise_bots():
    """The first search of a turn is the stepwise bot's: the same candidates, simulations
    and choice."""
    for seed in (3, 4):
        s = _turn_start(seed)
        view = s.view(s.current_player)
        a, b = SteadyBot(budget=6), StepwiseBot(budget=6)
        assert a.choose(view, 2) == b.choose(view, 2)
        assert a.trace is not None and b.trace is not None
        assert a.trace.rolled == b.trace.rolled
