"""The ``reply`` bot (nova/bots/reply.py): the raider's search with the opponent's reply
searched. Its legality, determinism and blindness to hidden cards are tests/test_bots.py's
(``TRIAL``); here, what it adds to the raider. Tiny budgets: what is checked is what it
does, never how strong it is (docs/BOTS.md has its games)."""

from __future__ import annotations

from nova.bots import RaiderBot, make_bot
from nova.bots.reply import ReplyBot
from nova.rules import State, new_game


def _turn_start(seed: int, rounds: int = 4) -> State:
    s = new_game(players=2, seed=seed)
    bots = [make_bot("greedy"), make_bot("greedy")]
    k = 0
    while s.round < rounds:
        seat = s.current_player
        s = s.apply(bots[seat].choose(s.view(seat), k))
        k += 1
    return s


def test_one_reply_is_the_raiders_rollout_exactly():
    """Searching one reply, the greedy turn the raider's rollout plays, is the raider: the
    same simulations, each worth the same, the same decision."""
    s = _turn_start(3)
    view = s.view(s.current_player)
    raider, one = RaiderBot(budget=6), ReplyBot(budget=6)
    one.replies = 1
    assert one.choose(view, 5) == raider.choose(view, 5)
    assert one.trace is not None and raider.trace is not None
    assert one.trace.rolled == raider.trace.rolled


def test_the_opponents_other_replies_change_what_a_turn_is_worth():
    """With the opponent's other replies searched, some simulation ends elsewhere than after
    greedy's reply: the bot weighs its turns on the reply the opponent would choose."""
    differ = 0
    for seed, rounds in ((3, 4), (4, 6)):
        s = _turn_start(seed, rounds)
        view = s.view(s.current_player)
        raider, reply = RaiderBot(budget=6), ReplyBot(budget=6)
        raider.choose(view, 5)
        move = reply.choose(view, 5)
        assert move in s.legal_moves()
        assert reply.trace is not None and raider.trace is not None
        assert reply.trace.plans == raider.trace.plans  # the raider's candidates
        assert reply.positions > raider.positions  # it played the other replies on
        differ += reply.trace.rolled != raider.trace.rolled
    assert differ > 0


def test_a_search_plays_its_budget_of_simulations():
    """The budget is simulations per search, as the raider's (each now several turns
    searched): no more are played, whatever the replies cost."""
    s = _turn_start(4)
    bot = ReplyBot(budget=5)
    bot.choose(s.view(s.current_player), 2)
    assert bot.trace is not None and len(bot.trace.plans) > 1
    assert sum(len(r) for r in bot.trace.rolled) == 5
