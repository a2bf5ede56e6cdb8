"""The hint on demand (nova/web/controller.py), in CPython: the strongest bot's choice for
the person's decision, thought as the game's worker thinks it, marked on the screen and said
in the log, never played."""

from __future__ import annotations

import json
import random
import re

from helpers_bots import hint

from nova.render.keep import keys_in
from nova.render.prompts import place_words
from nova.web.controller import (
    NONE,
    AskHint,
    Controller,
    FormInput,
    HintReady,
    Play,
    StartGame,
    ui_intent,
)
from nova.web.effects import Think
from nova.web.saves import MemoryStorage, SaveStore


def game_against_a_bot() -> Controller:
    c = Controller(SaveStore(MemoryStorage()), rng=random.Random(5))
    c.start()
    c.dispatch(StartGame(FormInput(bots=("", "greedy"), think_ms="250", seed="11")))
    s = c.session
    while s.bot_to_move() or s.needs_pass():  # on to the person's decision
        if s.needs_pass():
            c.dispatch(ui_intent("ready"))
        else:
            s.play(str(s.state.legal_moves()[0]))
    return c


def test_the_hint_is_the_strongest_bots_legal_choice_marked_and_logged_never_played():
    c = game_against_a_bot()
    s = c.session
    assert 'data-ui="hint"' in c.markup()
    effects = c.dispatch(ui_intent("hint"))
    assert Think(c.hint_request()) in effects
    assert "Looking for a hint" in c.markup()
    request = c.hint_request()
    data = json.loads(request)
    assert data["bots"][data["seat"]] == "best" and data["seat"] == s.state.current_player
    token = hint(c).token  # what the game's worker finds
    assert token in [str(m) for m in s.state.legal_moves()]
    moves = s.moves
    c.dispatch(HintReady(token, moves))
    page = c.markup()
    assert s.moves == moves  # shown, not played
    assert re.search(rf'data-move="{re.escape(token)}"[^>]*data-hint', page)
    assert any(line.startswith("Hint shown: ") for line in s.log)
    assert "Hint: " in page
    assert c.dispatch(AskHint()) == NONE  # asked already for this decision
    # once the person plays, the hint is gone
    c.dispatch(Play(token))
    assert "data-hint" not in c.markup()


def test_a_hint_that_comes_back_after_the_game_moved_on_is_dropped():
    c = game_against_a_bot()
    s = c.session
    c.dispatch(AskHint())
    at = s.moves
    move = str(s.state.legal_moves()[0])
    c.dispatch(Play(move))
    c.dispatch(HintReady(move, at))
    assert "data-hint" not in c.markup()
    assert not any(line.startswith("Hint shown") for line in s.log)


def test_no_hint_for_a_bots_decision():
    c = game_against_a_bot()
    s = c.session
    while not s.bot_to_move():
        c.dispatch(Play("E" if "E" in [str(m) for m in s.state.legal_moves()] else
                        str(s.state.legal_moves()[0])))  # fmt: skip
        if s.needs_pass():
            c.dispatch(ui_intent("ready"))
    assert 'data-ui="hint"' not in c.markup()
    c.dispatch(AskHint())
    assert c.hint_request() is None and "none is asked of you" in c.ui.message


def test_the_hint_is_marked_even_where_the_page_already_shows_the_choice():
    """The page keeps the parts it shows (render/keep.py): a hint marked after they were
    keyed must come with new keys, or the page keeps its unmarked parts and no choice is
    marked (the hint said in the log, never on the screen)."""

    def screen(html: str) -> str:  # the game, without the rules dialog under it
        return html.split('id="help-layer"')[0]

    c = game_against_a_bot()
    s = c.session
    shown = keys_in(c.markup())  # what the page shows before the hint
    c.dispatch(AskHint())
    asked = c.markup(shown)
    token = hint(c).token
    c.dispatch(HintReady(token, s.moves))
    page = c.markup(keys_in(asked))
    assert re.search(rf'data-move="{re.escape(token)}"[^>]*data-hint', page)
    assert "data-nova-elided" not in screen(page)
    assert not keys_in(screen(page)) & (shown | keys_in(asked))  # none kept unmarked
    c.dispatch(Play(token))  # once played, the plain keys come back and no mark stays
    after = c.markup(keys_in(page))
    assert "data-hint" not in after
    assert not keys_in(screen(after)) & keys_in(screen(page))


def test_the_hint_says_and_marks_the_place_on_the_board_that_plays_its_action():
    """The board plays a card by its place (nova/folding.py): a hint whose first action
    takes a ship to a place the board offers names that place ("tap b8 on the board") and
    marks its target there; a tap on it plays the action the hinted turn begins with."""
    from nova.bots import choose_move
    from nova.render.hint import WeighedTurn
    from nova.rules import move as mv

    last = {mv.DEST, mv.TARGET, mv.BAY, mv.UPGRADE}

    def begins_with_a_card(turn: list[str]) -> bool:
        return mv.Move(turn[0]).kind == mv.PLAY

    checked = 0
    c = game_against_a_bot()
    s = c.session
    for _ in range(120):
        if s.state.is_over() or checked >= 4:
            break
        if s.bot_to_move() or s.needs_pass():
            if s.needs_pass():
                c.dispatch(ui_intent("ready"))
            else:
                s.play(choose_move("greedy", s.state.view(s.state.current_player), s.moves))
            continue
        st, turn = s.state, []  # the hinted turn: greedy's decisions to its first place
        while len(turn) < 8:
            token = choose_move("greedy", st.view(st.current_player), s.moves + len(turn))
            turn.append(token)
            st = st.apply(token)
            if mv.Move(token).kind in last or st.current_player != s.state.current_player:
                break
        found = s.folded_moves()
        c.dispatch(AskHint())
        c.dispatch(HintReady(turn[0], s.moves, (WeighedTurn(tuple(turn), 50, 1, "words"),)))
        hint, page = c.ui.hint, c.markup()
        end = mv.Move(turn[-1])
        key = end.space or str(end)
        if end.kind in last and key in found and begins_with_a_card(turn):
            assert hint is not None and hint.place == key, (turn, found.keys())
            checked += 1
            said = (
                "after Upgrade:" if end.kind == mv.UPGRADE else f"{place_words(key)} on the board"
            )
            assert f"tap {said}" in page or "after Upgrade:)" in page and end.kind == mv.UPGRADE
            ways = found[key].options
            act = "data-alt-move" if len(ways) == 1 else "data-ui"
            assert re.search(rf'{act}="[^"]*"[^>]*data-hint', page)
            if len(ways) == 1:  # the place's tap: the action, all its decisions at once
                moves = s.moves
                c.dispatch(Play(ways[0]))
                assert s.moves >= moves + len(ways[0].split())
                continue
        else:
            assert hint is None or not hint.place, (turn, sorted(found))
        s.play(turn[0])
    assert checked >= 4, checked
