"""The bot says why (nova/bots/explain.py, nova/render/hint.py, ``python -m nova hint``): the
whole turns a search weighed, best first, each with a chance of winning from the search's
own simulations, told in the log's words; the page's hint and a bot's last turn show them.
Tiny budgets: what is checked is what is shown, never how strong it is."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nova.bots import make_bot
from nova.bots.explain import LEAST_SIMS, LONE_SIMS, SHOWN, weigh, win_chance
from nova.render.hint import turn_words, turns_html, weighed_turns
from nova.rules import State, new_game
from nova_tools import hint as hint_cli

NAMES = ["Ada", "Bo", "Cy", "Di"]


def position(players: int, seed: int, decisions: int) -> State:
    """A start of a turn after ``decisions`` greedy decisions of a seeded game."""
    s = new_game(players=players, seed=seed)
    bots = [make_bot("greedy") for _ in range(players)]
    for k in range(decisions):
        s = s.apply(bots[s.current_player].choose(s.view(s.current_player), k))
    while s.pending is not None or s.spawn_shard or s.current_player != s.turn:
        s = s.apply(s.legal_moves()[0])
    return s


@pytest.mark.parametrize("bot", ["search", "raider"])
@pytest.mark.parametrize(("players", "seed", "decisions"), [(2, 3, 30), (3, 5, 12), (4, 8, 40)])
def test_the_turns_weighed_start_with_the_one_played_each_legal_with_a_chance(
    bot, players, seed, decisions
):
    s = position(players, seed, decisions)
    view = s.view(s.current_player)
    plays = make_bot(bot, 6).choose(view, 17)  # the bot's decision, not asked why
    move, turns = weigh(make_bot(bot, 6), view, 17)
    assert move == plays  # asking why changes no decision
    assert 1 <= len(turns) <= SHOWN
    assert turns[0].moves[0] == move
    legal = {str(m) for m in s.legal_moves()}
    assert all(t.moves[0] in legal and 0.0 <= t.win <= 1.0 for t in turns)
    assert len({t.moves for t in turns}) == len(turns)  # three different turns
    assert all(t.sims >= LEAST_SIMS for t in turns)  # each rests on simulations


def test_a_search_out_of_time_before_any_simulation_still_shows_three_simulated_turns():
    """The page's raider stops at 90% of its time even before its first simulation (a slow
    phone): the hint's turns are simulated after the decision, on the search's own deals."""
    s = position(2, 3, 30)
    view = s.view(s.current_player)
    bot = make_bot("raider", time_ms=1)
    move, turns = weigh(bot, view, 3)
    assert len(turns) == SHOWN and turns[0].moves[0] == move
    assert all(t.sims >= LEAST_SIMS and 0.0 <= t.win <= 1.0 for t in turns)


def test_the_chance_is_the_mean_over_the_searchs_own_simulations():
    s = position(2, 3, 30)
    bot = make_bot("raider", 12)
    move, turns = weigh(bot, s.view(s.current_player), 4)
    trace = bot.trace
    assert trace is not None and len(turns) == SHOWN
    for t in turns:
        k = trace.plans.index(t.moves)
        values = trace.rolled[k]
        assert t.sims == len(values) > 0
        assert t.win == pytest.approx(sum(win_chance(v, 2) for v in values) / len(values))
    # best first: the turn played is the one the search kept to the end
    assert trace.plans[trace.ranking[0]][0] == move


def test_a_forced_decision_is_still_weighed_on_simulations():
    s = position(2, 3, 30)
    while len(s.legal_moves()) != 1:  # on to a decision with one choice
        s = s.apply(s.legal_moves()[0])
        if s.is_over():
            pytest.skip("no forced decision in this game")
    move, turns = weigh(make_bot("raider", 6), s.view(s.current_player), 1)
    assert move == str(s.legal_moves()[0])
    assert len(turns) == 1 and turns[0].moves[0] == move and turns[0].sims == LONE_SIMS


@given(st.floats(-3000, 3000), st.floats(0.1, 200), st.sampled_from([2, 3, 4]))
@settings(max_examples=200, deadline=None)
def test_a_better_value_is_a_better_chance(value, more, players):
    a, b = win_chance(value, players), win_chance(value + more, players)
    assert 0.0 <= a <= b <= 1.0


def test_the_turns_are_told_in_the_logs_words_with_the_points_they_score():
    """A turn that banks Shards says so with the seat's points: find one in a greedy game."""
    s = new_game(players=2, seed=9)
    bots = [make_bot("greedy"), make_bot("greedy")]
    while not s.is_over():
        start, moves = s, []
        while not s.is_over() and s.current_player == start.current_player:
            m = bots[s.current_player].choose(s.view(s.current_player), len(moves))
            moves.append(str(m))
            s = s.apply(m)
        gain = (s.scores() if not s.is_over() else s.scores())[start.current_player] - (
            start.scores()[start.current_player]
        )
        if gain > 0 and start.pending is None:
            words = turn_words(start, moves, NAMES)
            assert words.endswith(f": +{gain} point{'s' * (gain != 1)}")
            assert NAMES[start.current_player] in words
            return
    pytest.fail("no scoring turn in this game")


def test_a_turn_whose_first_decision_is_not_legal_is_dropped_and_nothing_raw_is_markup():
    s = position(2, 3, 30)
    legal = [str(m) for m in s.legal_moves()]
    illegal = next(t for t in ("E", "Lc0", "b1u", "@a0") if t not in legal)
    data = [
        {"moves": [legal[0]], "win": 0.5, "sims": 3},
        {"moves": [illegal], "win": 0.9, "sims": 3},
        {"moves": [], "win": 0.4, "sims": 1},
        {"moves": [legal[-1]], "win": 1.5, "sims": 1},
        "<b>x</b>",
    ]
    turns = weighed_turns(s, data, ["<script>", "Bo"])
    assert [t.moves for t in turns] == [(legal[0],)]
    html = turns_html(turns, "Turns <weighed>", "hint-turns")
    assert "<script>" not in html and "<weighed>" not in html
    assert re.search(rf'data-hint-turn="{re.escape(legal[0])}" data-win="50"', html)
    assert weighed_turns(s, "not a list", NAMES) == ()


def test_the_command_line_prints_the_three_turns_with_their_chances(capsys):
    s = position(2, 3, 30)
    text = " | ".join(s.position().splitlines())
    assert hint_cli.main([text, "--budget", "8", "--seed", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    legal = {str(m) for m in s.legal_moves()}
    assert len(out["turns"]) == SHOWN
    assert out["turns"][0]["moves"][0] == out["move"]
    assert all(t["moves"][0] in legal and 0 <= t["win"] <= 100 for t in out["turns"])
    # the same turns as the page's hint from the same bot and seed
    _, turns = weigh(make_bot("best", 8), s.view(s.current_player), 2)
    assert [tuple(t["moves"]) for t in out["turns"]] == [t.moves for t in turns]
    assert hint_cli.main([text, "--budget", "8", "--seed", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    shown = [ln for ln in lines if re.match(r"\d\.\s+\d+%", ln)]
    assert len(shown) == SHOWN
    assert hint_cli.main(["nova 2p nonsense"]) == 2


def test_the_hint_shows_three_turns_and_a_bot_its_last_turn_on_request():
    from helpers_bots import decide, hint

    from nova.web.bot_turns import BotTable
    from nova.web.controller import (
        BotPlayed,
        Controller,
        FormInput,
        Play,
        StartGame,
        ui_intent,
    )
    from nova.web.saves import MemoryStorage, SaveStore

    c = Controller(SaveStore(MemoryStorage()), rng=random.Random(5))
    c.start()
    c.dispatch(StartGame(FormInput(bots=("", "search"), think_ms="250", seed="11")))
    s = c.session
    # the bot's turns, as the game's worker plays them: each decision thought, then played
    table = BotTable(["", "search:6"])
    while s.bot_to_move() or s.needs_pass() or s.moves < 8:
        if s.needs_pass():
            c.dispatch(ui_intent("ready"))
        elif s.bot_to_move():
            move = decide(table, s.state, s.state.current_player, s.moves)
            turns = weighed_turns(s.state, table.turns, s.record.names)
            c.dispatch(BotPlayed(move, "", turns))
        else:
            legal = [str(m) for m in s.state.legal_moves()]
            c.dispatch(Play("E" if "E" in legal else legal[0]))
    page = c.markup()
    assert 'data-ui="bot-why"' in page and "data-hint-turn" not in page  # only on request
    c.dispatch(ui_intent("bot-why"))
    page = c.markup()
    shown = re.findall(r'data-hint-turn="([^"]*)" data-win="(\d+)"', page)
    assert 1 <= len(shown) <= SHOWN
    assert all(moves == "" for moves, _ in shown)  # the game goes on: its hand stays hidden (R14)
    c.dispatch(ui_intent("bot-why"))
    assert "data-hint-turn" not in c.markup()
    # the hint: three turns, each legal now, with its chance
    c.dispatch(ui_intent("hint"))
    ready = hint(c)
    turns = list(ready.turns)
    c.dispatch(ready)
    page = c.markup()
    shown = re.findall(r'data-hint-turn="([^"]*)" data-win="(\d+)"', page)
    legal = {str(m) for m in s.state.legal_moves()}
    assert len(shown) == len(turns) >= 1
    assert all(t.split()[0] in legal and 0 <= int(w) <= 100 for t, w in shown)
    assert shown[0][0].split()[0] == ready.token


def test_the_bots_weigh_their_turns_in_slices_and_remember_the_rest_of_a_turn():
    """The game's worker thinks in slices (the page's messages are answered between two):
    the hint and a bot's turn carry what they weighed; the next decision of the same turn is
    remembered, not searched, and weighs nothing."""
    from helpers_async import run  # asyncio.run fails where a test left a loop running

    from nova.web.bot_turns import BotTable

    s = position(2, 3, 30)
    seat = s.current_player
    table = BotTable(["raider:6", "raider:6"])
    pauses = []

    async def pause():
        pauses.append(1)

    move = run(table.decide(s, seat, 5, pause, explain=True))
    assert pauses  # it gave the page turns between slices
    assert table.turns and table.turns[0]["moves"][0] == move
    assert all(t["sims"] >= LEAST_SIMS for t in table.turns)
    played = BotTable(["raider:6", "raider:6"])
    move = run(played.decide(s, seat, 5, pause))
    assert played.turns and played.turns[0]["moves"][0] == move
    after = s.apply(move)
    if not after.is_over() and after.current_player == seat:
        searches = played.searches
        run(played.decide(after, seat, 6, pause))
        assert played.turns == [] and played.searches == searches


def test_turns_told_alike_in_their_first_words_are_told_through_where_they_differ(monkeypatch):
    """Three turns the page shows must read differently where they differ: told alike in
    their first lines (here: none, so every turn reads the same), each is told on through
    the first line where it differs from the others, and no further."""
    import nova.render.hint as hint

    s = position(2, 3, 30)
    _, turns = weigh(make_bot("raider", 8), s.view(s.current_player), 2)
    data = [t.as_json() for t in turns]
    whole = {t.moves: hint.turn_lines(s, t.moves, NAMES)[0] for t in turns}
    monkeypatch.setattr(hint, "MOST_WORDS", 0)
    shown = hint.weighed_turns(s, data, NAMES)
    assert len(shown) == len({tuple(lines) for lines in whole.values()})
    assert len({t.words for t in shown}) == len(shown)
    for t in shown:
        told = re.sub(r": [+-]\d+ points?$", "", t.words).removesuffix("; …").split("; ")
        lines = whole[t.moves]
        assert told == lines[: len(told)]  # the turn's own first lines
        others = [o for m, o in whole.items() if m != t.moves and o != lines]
        # the last line told is where it first differs from one of the others
        k = len(told) - 1
        assert any(o[:k] == lines[:k] and o[k : k + 1] != lines[k : k + 1] for o in others)


def test_what_a_bot_weighed_shows_nothing_of_its_hand_while_the_game_goes_on():
    """R14: a hand is private. The turns a bot weighed name its cards (those it did not play
    too): until the game is over only their chances show; then every turn is told."""
    from nova.render.hint import WeighedTurn
    from nova.web.screens.why import public_turns

    turns = (
        WeighedTurn(("P s7", "O 3"), 61, 12, "Ram plays Hijack 1-3 (s7): +2 points"),
        WeighedTurn(("P s2",), 55, 6, "Ram plays Push (s2)"),
        WeighedTurn(("P b4",), 40, 3, "Ram plays Orbit 4-6 (b4)"),
    )
    shown = public_turns(turns)
    assert [(t.percent, t.sims) for t in shown] == [(61, 12), (55, 6), (40, 3)]
    for t in shown:
        assert t.moves == () and "s2" not in t.words and "b4" not in t.words
        assert "Push" not in t.words and "Orbit" not in t.words
