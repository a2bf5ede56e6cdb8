"""The ``fitted`` bot (nova/bots/fitted.py, ``best``), the Admiral's 4-player settings it
shares and the fit behind its weights (tools/texel_tune.py). Its legality, determinism and
blindness to hidden cards are tests/test_bots.py's (``LEVEL_ONLY``); here, what it changes
from the raider. Tiny budgets: what is checked is what it does, never how strong it is."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from nova.bots import make_bot, search
from nova.bots.evaluate import FITTED, cargo_gain, evaluate, geometry
from nova.bots.fitted import FittedBot
from nova.bots.raider import RaiderBot
from nova.bots.search import SHORT_ROLLOUTS
from nova.bots.stepwise import StepwiseBot
from nova.rules import State, new_game
from tests.build_helpers import tool_module


class _FittedRaider(RaiderBot):
    """The raider told the 4-player fit and short rollouts by hand: what ``fitted`` (and so
    ``best``) must play at 4 players."""

    weights = FITTED[4]
    rollout_replies = MappingProxyType({4: 3})


def _decisions(bot, players: int, seed: int, n: int) -> list[str]:
    s = new_game(players=players, seed=seed)
    out = []
    for k in range(n):
        move = bot.choose(s.view(s.current_player), seed * 1000 + k)
        out.append(move)
        s = s.apply(move)
    return out


def test_where_no_fit_is_kept_it_plays_the_raiders_moves():
    """At 2 players ``best`` (the hints) plays as it did when it was the raider."""
    assert 2 not in FITTED and 2 not in SHORT_ROLLOUTS
    for seed in (1, 2):
        assert _decisions(make_bot("best", 4), 2, seed, 6) == _decisions(
            RaiderBot(budget=4), 2, seed, 6
        )


def test_at_four_players_it_searches_with_the_weights_fitted_there():
    bot = make_bot("best", 4)
    moves = _decisions(bot, 4, 4, 6)  # a deal where the short rollouts change a decision
    assert isinstance(bot, FittedBot) and bot.weights is FITTED[4]
    assert moves == _decisions(_FittedRaider(budget=4), 4, 4, 6)
    # and the fit is not the raider's own weights: at 4 players the evaluation changes
    assert FITTED[4] != RaiderBot.weights


def test_the_fits_chance_of_winning_is_shared_among_every_seat():
    """The loss the fit lowers: each seat's result against its softmax chance. With K 0
    (the evaluation says nothing) each of four seats has a 1/4 chance, not a sigmoid's 1/2;
    with the evaluation's K, a position the winner leads costs less than an even one."""
    tune = tool_module("texel_tune")
    s = new_game(players=4, seed=5)
    won = [1.0, 0.0, 0.0, 0.0]
    assert abs(tune.loss([(s, won)], RaiderBot.weights, 0.0) - (0.75**2 + 3 * 0.25**2) / 4) < 1e-12
    ahead = State.from_json(s.to_json())
    ahead.players[0].bays[0] = "kry"  # a set of three in seat 0's bay: 10 points
    assert tune.loss([(ahead, won)], RaiderBot.weights, 0.1) < tune.loss(
        [(s, won)], RaiderBot.weights, 0.1
    )


def test_the_admiral_takes_the_fit_at_four_players_and_its_own_weights_at_two():
    """The stepwise bot (the Admiral) plays with the 4-player fit at 4 players only: the
    same bot, seated at 2 players after, is back to the raider's weights (its 2-player
    rating's), whatever the table before."""
    bot = StepwiseBot(budget=4)
    _decisions(bot, 4, 3, 2)
    assert bot.weights is FITTED[4]
    _decisions(bot, 2, 3, 2)
    assert bot.weights is RaiderBot.weights and 2 not in FITTED


def test_a_carried_stack_is_worth_the_points_it_would_add_to_its_seats_bays():
    """``cargo_gain``: the Shards unloaded top first (R38), each into the bay it adds most to."""
    table = geometry(new_game(players=4, seed=5).layout).bay_table
    assert cargo_gain(("ky", "", ""), "r", table) == 5  # a set of three where a pair was
    assert cargo_gain(("kry", "", ""), "k", table) == 1  # a single, wherever it goes
    assert cargo_gain(("", "", ""), "yk", table) == 5  # k first, then y: a pair
    assert cargo_gain(("kr", "", ""), "yy", table) == 6  # the top y completes the set


def test_with_a_cargo_weight_a_stack_that_completes_a_set_is_worth_more():
    """With ``cargo`` 0 (the hand-set weights) every carried Shard is worth the same; with
    it, a red Shard to a seat whose bay holds black and yellow is worth more than a black."""
    base = new_game(players=4, seed=5)
    gate = base.layout.seat_gates[0][0]

    def carrying(colour: str) -> State:
        s = State.from_json(base.to_json())
        s.players[0].bays[0] = "ky"
        s.players[0].dock -= 1
        s.ship[gate], s.pile[gate] = 0, colour
        return s

    red, black = carrying("r"), carrying("k")
    assert evaluate(red, 0) == evaluate(black, 0)
    w = replace(RaiderBot.weights, cargo=0.5)
    assert evaluate(red, 0, w) - evaluate(black, 0, w) > 1.0


def test_a_second_fit_can_take_its_positions_from_greedy_play_with_a_first_fits_weights():
    """``--self-play FIT``: the positions of greedy bots playing with the fit's weights;
    with the hand-set weights they are greedy's own, with the 4-player fit other games."""
    tune = tool_module("texel_tune")
    greedy = tune.positions_of(("greedy", 2, 21, None))
    assert greedy and tune.positions_of(("greedy", 2, 21, RaiderBot.weights.as_dict())) == greedy
    assert tune.positions_of(("greedy", 2, 21, FITTED[4].as_dict())) != greedy


def test_at_four_players_a_fitted_rollout_is_scored_when_the_bots_next_turn_begins(monkeypatch):
    """``SHORT_ROLLOUTS``: at 4 players the rollouts of ``fitted`` and of the Admiral end when
    the three opponents have replied; the raider's (every count, and theirs at 2 players)
    play the bot's own next turn too, so they are scored as the turn after it begins."""
    scored: list[tuple[int, int]] = []  # (whose turn, the scoring seat) at each rollout's end
    real = search.evaluate

    def spy(s: State, me: int, w=RaiderBot.weights) -> float:
        scored.append((s.turn, me))
        return real(s, me, w)

    monkeypatch.setattr(search, "evaluate", spy)
    for bot, players, after in (
        (FittedBot(budget=6), 4, 0),
        (StepwiseBot(budget=12), 4, 0),
        (RaiderBot(budget=6), 4, 1),
        (FittedBot(budget=6), 2, 1),
    ):
        s = new_game(players=players, seed=3)
        scored.clear()
        bot.choose(s.view(s.current_player), 1)
        ends = [(turn - me) % players for turn, me in scored]
        assert ends and set(ends) == {after}, (bot.name, players, ends)
