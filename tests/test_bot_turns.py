"""The game's bot seats (nova/web/bot_turns.py), driven under CPython as its worker drives them."""

from __future__ import annotations

import asyncio
import json

import pytest
from helpers_async import run

from nova.bots import make_bot
from nova.rules import new_game
from nova.web.bot_turns import BotError, BotTable


def _pauses():
    count = [0]

    async def pause() -> None:
        count[0] += 1
        await asyncio.sleep(0)

    return pause, count


def _play_bot_turns(table: BotTable, s, seat: int, slice_ms: float, pause):
    """Play ``seat``'s decisions with the table until another seat decides."""
    moves = []
    while not s.is_over() and s.current_player == seat:
        move = run(table.decide(s, seat, 1000 + s.ply, pause, slice_ms=slice_ms))
        moves.append(move)
        s = s.apply(move)
    return moves, s


def test_sliced_search_plays_the_same_turn_as_thinking_in_one_go():
    """Slices change when the page breathes, never what the bot decides."""
    s = new_game(players=2, seed=4)
    seat = s.current_player
    pause, count = _pauses()
    sliced, after = _play_bot_turns(BotTable(["search", "search"], budget=6), s, seat, 0.01, pause)
    whole_bot = make_bot("search:6")
    whole, t = [], s
    while not t.is_over() and t.current_player == seat:
        whole.append(whole_bot.choose(t.view(seat), 1000 + t.ply))
        t = t.apply(whole[-1])
    assert sliced == whole and len(sliced) > 1
    assert count[0] > 1  # the page got its turns while the bot thought


def test_a_bot_table_keeps_one_bot_per_seat_and_reports_its_work():
    table = BotTable(["", "search"], budget=6)
    s = new_game(players=2, seed=9, first_player=1)
    pause, _ = _pauses()
    moves, s = _play_bot_turns(table, s, 1, 5.0, pause)
    assert table.agent(1) is table.agent(1)
    stats = table.stats()
    assert int(stats["decisions"]) == len(moves)
    # one search for the turn; its later decisions come from the remembered plan
    assert 1 <= int(stats["searches"]) < len(moves)
    assert int(stats["positions"]) > 0 and float(stats["think-ms"]) > 0


def test_thinking_stops_when_the_game_moves_on():
    """Undo, a new game or the menu while a bot thinks: it gives up without deciding."""
    table = BotTable(["search", "search"], budget=48)
    s = new_game(players=2, seed=2)
    pause, count = _pauses()
    move = run(table.decide(s, s.current_player, 1, pause, slice_ms=0.01, cancelled=lambda: True))
    assert move is None and count[0] == 1


def test_a_bot_that_answers_an_illegal_move_is_reported():
    class Broken:
        done = True

        def start(self, view, seed):
            pass

        def best(self):
            return "b99u"

    table = BotTable(["greedy", "greedy"])
    table._agents[0] = Broken()
    s = new_game(players=2, seed=1, first_player=0)
    pause, _ = _pauses()
    with pytest.raises(BotError, match="not legal"):
        run(table.decide(s, 0, 1, pause))


def test_the_new_game_form_offers_every_bot():
    """The seat choices are the bots there are, the strongest by its name ``best`` (what it
    plays, ``fitted`` today, is the ladder's choice). ``fitted`` plays the raider's moves at 2
    and 3 players, so the raider is not offered beside it."""
    from nova.bots import BEST, BOT_NAMES
    from nova.render.screens import BOT_CHOICES

    assert BEST == "fitted"
    assert [v for v, _ in BOT_CHOICES if v] == [b for b in BOT_NAMES if b not in (BEST, "raider")]
    assert BOT_CHOICES[-1] == ("best", "Best bot (strongest)")


def test_a_bots_request_holds_only_what_its_seat_may_see():
    """The hint's request (``bot_request``) carries the deciding seat's view: no other seat's
    hand."""
    from nova.web.bot_turns import bot_request

    s = new_game(players=3, seed=12)
    seat = s.current_player
    sent = json.loads(bot_request(s, seat, ["search", "greedy", "random"], 99, 100, "g1"))
    for i, d in enumerate(sent["view"]["seats"]):
        assert i == seat or d.get("hand") is None


def test_a_search_bot_with_a_time_budget_decides_legally():
    bot = make_bot("search", None, 40)
    s = new_game(players=2, seed=6)
    for _ in range(8):
        if s.is_over():
            break
        move = bot.choose(s.view(s.current_player), s.ply)
        assert move in [str(m) for m in s.legal_moves()]
        s = s.apply(move)
