"""The page's controller (nova/web/controller.py), its bot loop (nova/web/bot_loop.py) and
the saves across tabs (nova/web/saves.py), in CPython: what the page shows after each
intent, and that no tab ever loses another's moves."""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest
from helpers_async import run

from nova.web.bot_loop import BotLoop
from nova.web.controller import (
    NONE,
    Back,
    CloseHelp,
    CloseReplay,
    CloseScores,
    Controller,
    Delete,
    FormInput,
    GameScreen,
    KeepHere,
    Menu,
    NewGameScreen,
    OpenHelp,
    OpenLink,
    OpenNewest,
    OpenReplay,
    Play,
    PlayFromReplay,
    Ready,
    ReplayGo,
    ReplayScreen,
    Resume,
    SavesChanged,
    StartGame,
    UiState,
    Undo,
    WhyNot,
    ui_intent,
)
from nova.web.effects import ClearAddress, Render, ShowHelp
from nova.web.saves import CURRENT, PREFIX, MemoryStorage, SaveStore, Verdict, reconcile


def tab(storage: MemoryStorage, seed: int = 1) -> Controller:
    """A tab of the page: a controller on the origin's storage, opened as a page opens."""
    c = Controller(SaveStore(storage), rng=random.Random(seed))
    c.start()
    return c


def play_until(c: Controller, moves: int) -> None:
    """Play the first legal decision (never ending the turn early) up to ``moves``."""
    while len(c.session.record.moves) < moves:
        s = c.session
        if s.needs_pass():
            c.dispatch(Ready())
            continue
        legal = [str(m) for m in s.state.legal_moves()]
        c.dispatch(Play(next((m for m in legal if m != "E"), legal[0])))


def other_move(c: Controller, than: str) -> str:
    if c.session.needs_pass():
        c.dispatch(Ready())
    legal = [str(m) for m in c.session.state.legal_moves()]
    return next(m for m in legal if m != than)


def start_two_person_game(storage: MemoryStorage) -> Controller:
    a = tab(storage)
    a.dispatch(StartGame(FormInput(seed="7")))
    return a


# -- the state ----------------------------------------------------------------------------
def test_a_game_screen_without_a_game_cannot_be_made():
    with pytest.raises(ValueError):
        UiState(screen=GameScreen())
    with pytest.raises(ValueError):
        UiState(screen=ReplayScreen(record=None, step=0))
    assert UiState().name == "new"


def test_the_screens_a_person_goes_through():
    c = tab(MemoryStorage())
    assert c.ui.name == "new" and 'data-ui="new-game"' in c.markup()
    c.dispatch(StartGame(FormInput(names=("Ada", "Bo"), seed="5")))
    assert c.ui.name == "pass" and 'data-ui="ready"' in c.markup()
    c.dispatch(Ready())
    assert c.ui.name == "game" and 'data-move="E"' in c.markup()
    assert c.dispatch(OpenHelp()) == (ShowHelp(True),)
    assert c.ui.name == "help" and 'id="help-layer">' in c.markup()
    c.dispatch(Play("E"))  # nothing is played under the rules
    assert c.session.moves == 0
    c.dispatch(CloseHelp())
    assert 'id="help-layer" hidden' in c.markup()
    c.dispatch(Menu())
    assert c.ui.name == "new" and 'data-ui="back"' in c.markup()
    c.dispatch(Back())
    assert c.ui.name == "game"


def test_keys_a_person_presses():
    c = start_two_person_game(MemoryStorage())
    assert c.key_intent("Enter") == Ready()  # the pass screen's "I'm ready"
    c.dispatch(Ready())
    assert c.key_intent("e") == Play("E") and c.key_intent("Enter") == Play("E")
    assert c.key_intent("Enter", on_button=True) is None  # the button's own click
    assert c.key_intent(" ", focused_move="La4") == Play("La4")
    assert c.key_intent("?") == OpenHelp()
    c.dispatch(OpenHelp())
    assert c.key_intent("Escape") == CloseHelp() and c.key_intent("e") is None
    c.dispatch(CloseHelp())
    lettered = [i for i in (c.key_intent(k) for k in "abcdfgijklmnopqrstvwxyz") if i]
    assert lettered and all(isinstance(i, Play) for i in lettered)
    assert c.key_intent("1") is None  # a hand card's digit: the adapter focuses the card
    c.dispatch(OpenReplay())
    assert c.key_intent("ArrowLeft") == ReplayGo("prev") and c.key_intent("u") is None


def test_a_tap_on_what_is_not_a_choice_says_why_in_the_rules_words():
    c = start_two_person_game(MemoryStorage())
    assert c.dispatch(WhyNot(space="a0")) == NONE  # the pass screen: nothing to say
    c.dispatch(Ready())
    c.dispatch(WhyNot(space="a5"))
    assert "that space is not a choice now" in c.ui.message
    c.dispatch(WhyNot(token="b7r"))
    assert "not in your hand" in c.ui.message and "not in your hand" in c.markup()
    assert c.dispatch(WhyNot(token="b7r")) == NONE  # said already: no new screen


def test_a_bad_seed_is_said_and_no_game_starts():
    c = tab(MemoryStorage())
    c.dispatch(StartGame(FormInput(seed="12a")))
    assert c.ui.name == "new" and c.session is None
    assert "The seed must be a whole number" in c.markup()


def test_a_bad_link_is_said_on_the_screen_on_show():
    c = tab(MemoryStorage())
    effects = c.dispatch(OpenLink("not-a-game"))
    assert ClearAddress() not in effects
    assert c.ui.name == "new" and "could not be opened" in c.markup()


def test_a_bad_link_is_said_as_text_never_as_markup():
    c = tab(MemoryStorage())
    c.dispatch(OpenLink("n1.<img src=x onerror=alert(1)>"))
    markup = c.markup()
    assert "could not be opened" in markup and "<img" not in markup


def test_the_replay_steps_back_and_plays_on_from_there_as_a_new_game():
    storage = MemoryStorage()
    c = start_two_person_game(storage)
    play_until(c, 6)
    first = c.game_id
    c.dispatch(OpenReplay())
    assert c.ui.name == "replay" and not c.bots_may_play()
    c.dispatch(ReplayGo("prev"))
    c.dispatch(ReplayGo("prev"))
    assert c.ui.screen.step == 4
    c.dispatch(CloseReplay())
    assert c.ui.name == "game" and c.session.moves == 6
    c.dispatch(OpenReplay())
    c.dispatch(ReplayGo("2"))
    c.dispatch(PlayFromReplay())
    assert c.ui.name in ("game", "pass") and c.session.moves == 2 and c.game_id != first
    assert {e.moves for e in c.store.entries()} == {6, 2}


def test_the_score_screen_closes_and_stays_closed():
    c = tab(MemoryStorage())
    c.dispatch(StartGame(FormInput(bots=("random", "random"), seed="3")))
    s = c.session
    while not s.state.is_over():
        s.play(str(s.state.legal_moves()[0]))
    assert c.ui.name == "scores"
    c.dispatch(CloseScores())
    assert c.ui.name == "game" and isinstance(c.ui.screen, GameScreen)


def test_every_control_on_the_screens_is_an_intent():
    """Each data-ui name the screens show maps to an intent (no control does nothing)."""
    c = tab(MemoryStorage())
    seen = set(re.findall(r'data-ui="([^"]+)"', c.markup()))
    c.dispatch(StartGame(FormInput(seed="9")))
    seen |= set(re.findall(r'data-ui="([^"]+)"', c.markup()))
    c.dispatch(Ready())
    play_until(c, 3)
    seen |= set(re.findall(r'data-ui="([^"]+)"', c.markup()))
    c.dispatch(OpenReplay())
    seen |= set(re.findall(r'data-ui="([^"]+)"', c.markup()))
    assert {"new-game", "ready", "undo", "help", "replay-prev", "replay-play"} <= seen
    assert [name for name in seen if ui_intent(name) is None] == []


def test_deleting_the_open_game_goes_back_to_the_start_screen():
    c = start_two_person_game(MemoryStorage())
    play_until(c, 2)
    c.dispatch(Delete(c.game_id))
    assert c.ui.name == "new" and c.session is None and c.store.entries() == []


# -- nothing lost: tabs -----------------------------------------------------------------
@pytest.mark.parametrize(
    "stored, synced, ours, verdict",
    [
        (None, None, ("a",), Verdict.WRITE),  # a new game
        (("a", "b"), ("a", "b"), ("a",), Verdict.WRITE),  # this tab's own undo
        (("a",), ("a",), ("a", "b"), Verdict.WRITE),  # this tab's next move
        (("a", "b"), ("a",), ("a", "b", "c"), Verdict.WRITE),  # ahead of the other tab
        (("a", "b"), ("a",), ("a", "b"), Verdict.SAME),
        (("a", "b", "c"), ("a",), ("a", "b"), Verdict.BEHIND),  # went on elsewhere
        (("a", "b", "c"), ("a",), ("a", "x"), Verdict.FORK),  # went another way here
    ],
)
def test_which_save_wins(stored, synced, ours, verdict):
    assert reconcile(stored, synced, ours) is verdict


def test_an_old_tab_never_overwrites_the_game_that_went_on_and_its_move_is_kept():
    """The issue's scenario: tab A plays to move 12; tab B, opened at move 7, makes one
    move. Both lines of play survive, and a reload opens the newest (A's)."""
    storage = MemoryStorage()
    a = start_two_person_game(storage)
    play_until(a, 7)
    b = tab(storage, seed=2)  # opened now: the game at move 7
    assert b.session.moves == 7 and b.game_id == a.game_id
    play_until(a, 12)
    a_line = tuple(a.session.record.moves)
    b.dispatch(Play(other_move(b, a_line[7])))
    assert b.session.moves >= 8
    b_line = tuple(b.session.record.moves)
    assert b.game_id != a.game_id  # kept as a game of its own
    assert b.ui.elsewhere is not None and b.ui.elsewhere.forked
    assert "went on in another tab" in b.markup()
    lines = {tuple(b.store.load(e.id).moves) for e in b.store.entries()}
    assert lines == {a_line, b_line}
    reloaded = tab(storage, seed=3)
    assert tuple(reloaded.session.record.moves) == a_line
    # tab B plays on in its own line; tab A's is untouched
    play_until(b, len(b_line) + 2)
    assert tuple(b.store.load(a.game_id).moves) == a_line


def test_a_tab_that_hears_of_another_tabs_save_says_so_and_offers_the_newest():
    storage = MemoryStorage()
    a = start_two_person_game(storage)
    play_until(a, 7)
    b = tab(storage, seed=2)
    play_until(a, 12)
    assert b.dispatch(SavesChanged(PREFIX + a.game_id)) == (Render(),)
    assert b.ui.elsewhere is not None and not b.ui.elsewhere.forked
    assert 'data-ui="open-newest"' in b.markup() and "12 decisions" in b.markup()
    b.dispatch(OpenNewest())
    assert b.session.moves == 12 and b.ui.elsewhere is None
    # and its next move goes on from there, over the same save
    play_until(b, 13)
    assert b.game_id == a.game_id and len(storage.data) == 2  # one game and nova:current


def test_a_stale_tab_that_stays_forks_on_its_next_move():
    storage = MemoryStorage()
    a = start_two_person_game(storage)
    play_until(a, 4)
    b = tab(storage, seed=2)
    play_until(a, 6)
    b.dispatch(SavesChanged(PREFIX + a.game_id))
    b.dispatch(KeepHere())
    assert b.ui.elsewhere is None
    b.dispatch(Play(other_move(b, a.session.record.moves[4])))
    assert b.game_id != a.game_id and len(b.store.entries()) == 2


def test_a_tab_that_is_behind_and_plays_the_same_move_does_not_write():
    storage = MemoryStorage()
    a = start_two_person_game(storage)
    play_until(a, 3)
    b = tab(storage, seed=2)
    play_until(a, 6)
    if b.session.needs_pass():
        b.dispatch(Ready())
    b.dispatch(Play(a.session.record.moves[3]))
    assert b.store.stored_moves(a.game_id) == tuple(a.session.record.moves)
    assert b.ui.elsewhere is not None and len(b.store.entries()) == 1


def test_a_save_a_newer_release_wrote_is_never_written_over_by_an_older_tab():
    storage = MemoryStorage()
    c = start_two_person_game(storage)
    play_until(c, 3)
    newer = json.dumps({"format": "nova-save", "v": 99, "record": {"moves": ["?"]}})
    storage.setItem(PREFIX + c.game_id, newer)
    first = c.game_id
    play_until(c, 4)
    assert storage.getItem(PREFIX + first) == newer
    assert c.game_id != first and c.store.stored_moves(c.game_id) == tuple(c.session.record.moves)


def test_undo_in_the_only_tab_overwrites_its_own_save():
    c = start_two_person_game(MemoryStorage())
    c.dispatch(Ready())
    legal = [str(m) for m in c.session.state.legal_moves() if str(m) != "E"]
    c.dispatch(Play(legal[0]))
    assert c.session.can_undo()
    c.dispatch(Undo())
    assert c.store.stored_moves(c.game_id) == tuple(c.session.record.moves)
    assert len(c.store.entries()) == 1 and c.ui.elsewhere is None


def test_other_tabs_saves_of_other_games_only_refresh_the_list():
    storage = MemoryStorage()
    a = start_two_person_game(storage)
    b = tab(storage, seed=2)
    b.dispatch(Menu())
    a.dispatch(StartGame(FormInput(seed="8")))
    assert b.dispatch(SavesChanged(PREFIX + a.game_id)) == (Render(),)
    assert b.ui.elsewhere is None and len(b.store.entries()) == 2


# -- nothing lost: storage full -------------------------------------------------------------
class FullAfter(MemoryStorage):
    """Storage that takes ``room`` more characters, then throws as a full browser does."""

    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room

    def setItem(self, key: str, value: str) -> None:  # noqa: N802 - the Web Storage name
        used = sum(len(v) for k, v in self.data.items() if k != key)
        if used + len(value) > self.room:
            raise QuotaError("QuotaExceededError: The quota has been exceeded.")
        super().setItem(key, value)


class QuotaError(Exception):
    name = "QuotaExceededError"


def test_storage_full_is_said_the_game_plays_on_and_nothing_is_deleted():
    storage = FullAfter(room=10**9)
    c = start_two_person_game(storage)
    play_until(c, 3)
    old = dict(storage.data)
    c.dispatch(StartGame(FormInput(seed="11")))
    storage.room = sum(len(v) for v in storage.data.values())  # full from now on
    play_until(c, 4)
    assert c.session.moves == 4  # plays on
    assert "storage is full" in c.markup()
    assert all(k in storage.data for k in old)  # nothing made room
    storage.room = 10**9  # the player deleted something elsewhere: the next save works
    play_until(c, 5)
    assert c.ui.save_error == "" and c.store.stored_moves(c.game_id) == tuple(
        c.session.record.moves
    )


def test_storage_full_at_the_start_still_lists_the_saved_games():
    storage = FullAfter(room=10**9)
    c = start_two_person_game(storage)
    play_until(c, 2)
    storage.room = 0
    again = tab(storage, seed=4)
    assert again.store.available and again.session.moves == 2
    again.dispatch(Menu())
    html = again.markup()
    assert "storage is full" in html and "Saving is off" not in html and 'data-ui="resume:' in html


# -- the bots ---------------------------------------------------------------------------------
async def _no_wait(*_args) -> None:
    await asyncio.sleep(0)


def bots_tab(storage: MemoryStorage, seed: int = 1) -> tuple[Controller, BotLoop]:
    """A tab and its bots, as the game's worker runs them (in slices, no pause waits)."""
    c = tab(storage, seed)
    return c, BotLoop(c, _no_wait, _no_wait, _no_wait)


def test_two_bots_play_a_whole_game_and_it_is_saved():
    storage = MemoryStorage()
    c, loop = bots_tab(storage)
    c.dispatch(StartGame(FormInput(bots=("random", "random"), pace="quick", seed="4")))
    run(loop.run())
    assert c.session.state.is_over() and loop.stats.decisions == c.session.moves
    assert c.store.stored_moves(c.game_id) == tuple(c.session.record.moves)
    assert c.ui.name == "scores"


def test_bots_wait_under_the_rules():
    c, loop = bots_tab(MemoryStorage())
    c.dispatch(StartGame(FormInput(bots=("random", "random"), seed="4")))
    c.dispatch(OpenHelp())
    run(loop.run())
    assert c.session.moves == 0


def test_a_bot_decision_made_while_the_person_went_to_the_menu_is_dropped():
    c = tab(MemoryStorage(), 1)

    async def menu_meanwhile(*_args) -> None:  # the bot's pace, while the person leaves
        c.dispatch(Menu())

    loop = BotLoop(c, _no_wait, menu_meanwhile, _no_wait)
    c.dispatch(StartGame(FormInput(bots=("random", "random"), pace="watch", seed="4")))
    run(loop.run())
    assert c.session.moves == 0 and c.ui.screen == NewGameScreen()


async def _play_some(loop: BotLoop, c: Controller, moves: int) -> None:
    while c.session.moves < moves and c.bots_may_play():
        await loop.one()


def test_a_reload_while_a_bot_thinks_loses_nothing_and_the_bot_goes_on():
    storage = MemoryStorage()
    c, loop = bots_tab(storage)
    c.dispatch(StartGame(FormInput(bots=("random", "random"), pace="quick", think_ms="250")))
    run(_play_some(loop, c, 9))
    line = tuple(c.session.record.moves)
    # the page goes away mid-thought: a new tab opens on the same storage
    again, loop2 = bots_tab(storage, seed=5)
    assert tuple(again.session.record.moves) == line
    assert again.form.pace == "quick" and again.form.think_ms == 250  # its settings too
    assert again.bots_may_play()
    run(_play_some(loop2, again, len(line) + 3))
    assert tuple(again.session.record.moves[: len(line)]) == line
    assert again.store.stored_moves(again.game_id) == tuple(again.session.record.moves)


def test_a_stale_tab_keeps_its_bots_still_until_it_chooses():
    storage = MemoryStorage()
    a = start_two_person_game(storage)
    play_until(a, 3)
    storage.setItem(CURRENT, a.game_id)
    b, _ = bots_tab(storage, seed=2)
    b.session.record.bots[1] = "random"  # as if seat 2 were a bot in both tabs
    play_until(a, 6)
    b.dispatch(SavesChanged(PREFIX + a.game_id))
    assert not b.bots_may_play()
    b.dispatch(Resume(a.game_id))
    assert b.ui.elsewhere is None and b.session.moves == 6
