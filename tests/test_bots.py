"""Bots: legal decisions only, no peeking at hidden cards, deterministic, sliceable search."""

from __future__ import annotations

import json
import random

import pytest

from nova.bots import BOT_NAMES, SearchBot, choose_move, make_bot
from nova.rules import determinize, new_game

SMALL = 4  # a search budget small enough for tests


def _states(players: int, seed: int, every: int = 37, limit: int = 8):
    """States met along a random game (actions half done, Spawns, turn starts...)."""
    rng = random.Random(seed)
    s = new_game(players=players, seed=seed)
    out = []
    while not s.is_over() and len(out) < limit:
        if s.ply % every == 5:
            out.append(s)
        s = s.apply(rng.choice(s.legal_moves()))
    return out


def _name(bot: str) -> str:
    return f"search:{SMALL}" if bot == "search" else bot


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bot", BOT_NAMES)
def test_bots_only_choose_legal_moves(players, bot):
    """Whatever the position, a bot's decision is one the rules allow (R22-R49)."""
    for s in _states(players, seed=players * 11):
        view = s.view(s.current_player)
        move = make_bot(_name(bot)).choose(view, seed=s.ply)
        assert move in s.legal_moves()


def test_bots_play_whole_games_legally():
    """Bots of every kind finish a game together; every decision is applied by the rules."""
    s = new_game(players=3, seed=5)
    bots = [make_bot("random"), make_bot("greedy"), make_bot(f"search:{SMALL}")]
    k = 0
    while not s.is_over() and s.round < 5:
        seat = s.current_player
        s = s.apply(bots[seat].choose(s.view(seat), k))  # apply raises on an illegal move
        k += 1
    assert s.round >= 5 or s.is_over()


def test_view_given_to_bots_hides_other_hands():
    """A view holds the seat's own hand only; others are counts (R14: hands are private)."""
    s = _states(3, seed=2)[2]
    view = s.view(s.current_player)
    for i, seat in enumerate(view["seats"]):
        assert ("hand" in seat) == (i == view["seat"])
        assert "draw" not in seat  # no seat's draw order
    assert "academy" not in view and "rng" not in view


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_bots_cannot_tell_hidden_deals_apart(bot):
    """Two games that differ only in cards the seat cannot see get the same decision."""
    for s in _states(2, seed=9, limit=5):
        seat = s.current_player
        view = s.view(seat)
        other = determinize(view, seed=12345)  # same view, other hidden cards and bag order
        other_view = other.view(seat)
        other_view["last_event"] = view["last_event"]
        assert other_view == view
        a = make_bot(_name(bot)).choose(view, seed=3)
        b = make_bot(_name(bot)).choose(other_view, seed=3)
        assert a == b


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_choose_move_needs_only_plain_json(bot):
    """The page and the lab hand bots a plain JSON view: no State object to reach into."""
    s = _states(2, seed=4)[3]
    view = json.loads(json.dumps(s.view(s.current_player)))
    assert choose_move(bot, view, seed=1, budget=SMALL) in s.legal_moves()


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_same_seed_same_move(bot):
    for s in _states(2, seed=6, limit=4):
        view = s.view(s.current_player)
        first = make_bot(_name(bot)).choose(view, seed=77)
        assert make_bot(_name(bot)).choose(view, seed=77) == first
        assert choose_move(bot, view, 77, budget=SMALL) == choose_move(bot, view, 77, SMALL)


def test_choose_move_rejects_a_view_without_a_decision():
    s = new_game(players=2, seed=1)
    watcher = 1 - s.current_player
    with pytest.raises(ValueError):
        choose_move("greedy", s.view(watcher), seed=1)
    with pytest.raises(ValueError):
        make_bot("deep-blue")


def _turn_start(seed: int):
    s = new_game(players=2, seed=seed)
    bots = [make_bot("greedy"), make_bot("greedy")]
    k = 0
    while s.round < 4:
        seat = s.current_player
        s = s.apply(bots[seat].choose(s.view(seat), k))
        k += 1
    return s


def test_search_works_in_slices_and_agrees_with_one_go():
    """The page's incremental API: start, step in short slices until done, best."""
    s = _turn_start(3)
    view = s.view(s.current_player)
    whole = SearchBot(budget=8).choose(view, seed=5)
    bot = SearchBot(budget=8)
    bot.start(view, seed=5)
    steps = 0
    while not bot.done:
        bot.step(ms=0.001)  # one unit of work per call
        steps += 1
    assert steps > 1
    assert bot.best() == whole
    assert whole in s.legal_moves()


def test_search_follows_its_plan_through_the_turn():
    """After searching a turn, the rest of its decisions answer from the plan."""
    s = _turn_start(8)
    bot = SearchBot(budget=6)
    seat = s.current_player
    bot.choose(s.view(seat), seed=1)
    s = s.apply(bot.best())
    if s.current_player == seat and not s.is_over():
        bot.start(s.view(seat), seed=2)
        assert bot.done  # remembered: no search needed


def test_greedy_beats_random():
    """Greedy banks Shards (R36-R38, R50) that a random player leaves in space."""
    wins = 0.0
    short = {"settings": {"max_rounds": 12}}  # a short game is enough to tell them apart
    for g in range(4):
        s = new_game(players=2, seed=100 + g, variant=short)
        bots = [make_bot("greedy"), make_bot("random")]
        if g % 2:
            bots.reverse()
        k = 0
        while not s.is_over():
            seat = s.current_player
            s = s.apply(bots[seat].choose(s.view(seat), k))
            k += 1
        wins += s.returns()[g % 2]
    assert wins >= 3


def test_greedy_clears_its_own_gate_to_bring_its_cargo_home():
    """A stack next to its own Jump-Gate cannot Unload while the seat's own empty ship is
    parked there (R36, R44): greedy moves the blocker (or goes round it) instead of ending
    its turn, turn after turn, in a game that then never reaches Super-Nova."""
    from helpers_rules import blank_state, give_hand, setup

    s = blank_state(players=2, seed=5, seat=0)
    lay = s.layout
    gates = lay.seat_gates[0]
    home = gates[-1]
    cargo = lay.prev_space[home]  # next to the gate on its ring
    blockers = [home] + [g for g in gates if g != home][: lay.ships - 2]
    ships = {s.space_name(g): 0 for g in blockers}
    ships[s.space_name(cargo)] = 0
    s = setup(s, shards={s.space_name(cargo): "yr"}, ships=ships)
    s = give_hand(s, 0, ["b1", "b3", "b4", "b8", "b10"])
    bot = make_bot("greedy")
    k = 0
    for _turn in range(2):  # its turn, the opponent's, its turn again
        while not s.is_over() and s.current_player == 0:
            s = s.apply(bot.choose(s.view(0), k))
            k += 1
        while not s.is_over() and s.current_player != 0:
            s = s.apply("E" if "E" in s.legal_moves() else s.legal_moves()[0])
    assert sum(len(b) for b in s.players[0].bays) >= 2, "the Shards never got home"
