"""The tutorial as a screen of the controller (nova/web/controller.py), in CPython: the
lessons are finished by tapping their marked targets alone, anything else says why with
a rule, and progress is kept beside the saved games without touching them."""

from __future__ import annotations

import random
import re
from html import escape

from nova.tutorial import FIRST_GAME, LESSONS, STORAGE_KEY, TUTORIAL_IDS
from nova.web.controller import (
    CloseTutorial,
    Controller,
    GameScreen,
    Menu,
    NewGameScreen,
    NextLesson,
    OpenHelp,
    OpenTutorial,
    Play,
    RestartLesson,
    SkipLesson,
    StartFirstGame,
    StartGame,
    TutorialScreen,
    WhyNot,
    ui_intent,
)
from nova.web.saves import PREFIX, MemoryStorage, SaveStore

TARGET = re.compile(r'data-move="([^"]+)" data-lesson-target')


def tab(storage: MemoryStorage | None = None) -> Controller:
    c = Controller(SaveStore(storage or MemoryStorage()), rng=random.Random(3))
    c.start()
    return c


def targets(c: Controller) -> list[str]:
    from html import unescape

    return [unescape(t) for t in TARGET.findall(c.markup())]


def finish_lesson(c: Controller) -> int:
    """Tap the first marked target until the lesson's goal is met; the taps it took."""
    taps = 0
    while c.body_attributes()["data-nova-lesson-done"] is None:
        marked = targets(c)
        assert marked, f"lesson {c.ui.screen.lesson_id} offers nothing before its goal"
        c.dispatch(Play(marked[0]))
        assert not c.ui.message, c.ui.message  # a marked target is never refused
        taps += 1
        assert taps < 60
    return taps


def test_learn_opens_the_first_lesson_and_the_start_screen_offers_it():
    c = tab()
    assert 'data-ui="learn"' in c.markup()
    assert ui_intent("learn") == OpenTutorial()
    c.dispatch(ui_intent("learn"))
    assert c.ui.name == "tutorial"
    assert c.body_attributes()["data-nova-lesson"] == LESSONS[0].id
    page = c.markup()
    assert LESSONS[0].goal in page and LESSONS[0].rule in page


def test_every_lesson_is_finished_by_its_targets_alone_and_the_tutorial_ends():
    storage = MemoryStorage()
    c = tab(storage)
    c.dispatch(OpenTutorial())
    for lesson in LESSONS:
        assert c.body_attributes()["data-nova-lesson"] == lesson.id
        finish_lesson(c)
        page = c.markup()
        assert escape(lesson.after) in page
        assert 'data-ui="next-lesson"' in page
        c.dispatch(NextLesson())
    assert c.body_attributes()["data-nova-lesson"] == FIRST_GAME.id
    assert c.body_attributes()["data-nova-tutorial"] is None
    assert targets(c) == [] and 'data-ui="first-game" class="primary" data-lesson-target' in (
        c.markup()
    )
    c.dispatch(StartFirstGame())
    assert isinstance(c.ui.screen, GameScreen)
    assert c.body_attributes()["data-nova-tutorial"] == "done"
    s = c.session
    human = s.record.bots.index("")
    assert s.record.names[human] == "You" and s.state.current_player == human
    assert s.record.seed == FIRST_GAME.seed and "greedy" in s.record.bots
    assert c.form.pace == FIRST_GAME.pace
    # progress survives a reload (a new tab on the same storage)
    again = tab(storage)
    assert again.body_attributes()["data-nova-tutorial"] == "done"


def test_a_lessons_board_plays_a_card_by_its_place_as_the_game_does():
    """The first lesson's board offers the place the Orbit card takes the ship to (the
    game's folded place, data-alt-move), the prompt says so, and one tap there meets the
    goal; no lesson asks "keep the Shards?" (the game keeps them, nova/folding.py)."""
    c = tab()
    c.dispatch(OpenTutorial(LESSONS[0].id))
    page = c.markup()
    assert 'data-alt-move="b1u @d0 &gt;d1"' in page or 'data-alt-move="b1u @d0 >d1"' in page
    assert "Tap a card or a space" in page
    c.dispatch(Play("b1u @d0 >d1"))
    assert not c.ui.message and c.body_attributes()["data-nova-lesson-done"] is not None
    for lesson in LESSONS:  # the Shards' question (data-move="x0"...) is never on screen
        c.dispatch(OpenTutorial(lesson.id))
        while c.body_attributes()["data-nova-lesson-done"] is None:
            assert 'data-move="x' not in c.markup()
            c.dispatch(Play(targets(c)[0]))


def test_a_tap_on_anything_else_says_why_naming_a_rule_and_changes_nothing():
    c = tab()
    c.dispatch(OpenTutorial("launch"))
    before = c.ui.screen
    c.dispatch(Play("Lc0"))  # a Shard sits on c0
    assert re.search(r"\bR\d+\b", c.ui.message)
    assert c.ui.screen == before
    c.dispatch(WhyNot(space="c0"))
    assert re.search(r"\bR\d+\b", c.ui.message)
    c.dispatch(WhyNot(space="zz9"))
    assert re.search(r"\bR\d+\b", c.ui.message)


def test_skip_restart_and_replay_any_lesson():
    storage = MemoryStorage()
    c = tab(storage)
    c.dispatch(OpenTutorial())
    c.dispatch(SkipLesson())
    assert c.body_attributes()["data-nova-lesson"] == TUTORIAL_IDS[1]
    assert "(skipped)" in c.markup()
    c.dispatch(Play(targets(c)[0]))
    c.dispatch(RestartLesson())
    start = c.ui.screen
    assert isinstance(start, TutorialScreen) and start.session.state.position() == (
        TutorialScreen("launch", start.session).session.state.position()
    )
    c.dispatch(ui_intent("lesson:orbit"))
    assert c.body_attributes()["data-nova-lesson"] == "orbit"
    c.dispatch(ui_intent("lesson:no-such-lesson"))  # an unknown id: the first lesson not done
    assert c.body_attributes()["data-nova-lesson"] == "launch"
    # "learn" again goes on from the first lesson neither done nor skipped
    c.dispatch(CloseTutorial())
    assert isinstance(c.ui.screen, NewGameScreen)
    c.dispatch(OpenTutorial())
    assert c.body_attributes()["data-nova-lesson"] == "launch"


def test_progress_never_touches_saved_games_and_a_damaged_entry_is_said():
    storage = MemoryStorage()
    c = tab(storage)
    c.dispatch(StartGame())
    c.dispatch(Menu())
    saved = {k: v for k, v in storage.data.items() if k.startswith(PREFIX)}
    c.dispatch(OpenTutorial())
    finish_lesson(c)
    assert {k: v for k, v in storage.data.items() if k.startswith(PREFIX)} == saved
    assert '"about"' in storage.data[STORAGE_KEY]
    storage.data[STORAGE_KEY] = "{not json"
    d = tab(storage)
    d.dispatch(OpenTutorial())
    assert "could not be read" in d.ui.message
    assert d.body_attributes()["data-nova-lesson"] == LESSONS[0].id
    assert len(d.store.entries()) == 1


def test_storage_off_the_tutorial_still_plays():
    c = Controller(SaveStore(None), rng=random.Random(1))
    c.start()
    c.dispatch(OpenTutorial())
    finish_lesson(c)
    c.dispatch(NextLesson())
    assert c.body_attributes()["data-nova-lesson"] == LESSONS[1].id


def test_keys_in_a_lesson_are_the_games():
    c = tab()
    c.dispatch(OpenTutorial("launch"))
    token = targets(c)[0]
    assert c.key_intent("Enter", token) == Play(token)
    assert c.key_intent("Enter", None, on_button=True) is None
    c.dispatch(OpenHelp())
    assert c.key_intent("Enter", token) is None  # the rules are over the lesson


def test_the_rules_dialog_offers_learn_to_play_and_it_closes_the_dialog():
    c = tab()
    c.dispatch(OpenHelp())
    assert 'data-ui="learn"' in c.markup().split('id="help-layer"')[1]
    c.dispatch(OpenTutorial())
    assert not c.ui.help_open and c.ui.name == "tutorial"


def test_the_first_games_prompt_says_what_happened_and_what_to_do_now():
    c = tab()
    c.dispatch(OpenTutorial(FIRST_GAME.id))
    c.dispatch(StartFirstGame())
    s = c.session
    assert not s.needs_pass() and not s.bot_to_move()  # the player moves first
    launch = next(str(m) for m in s.state.legal_moves() if str(m).startswith("L"))
    c.dispatch(Play(launch))
    prompt = re.search(r'<p class="prompt"[^>]*>([^<]*)</p>', c.markup())[1]
    assert prompt.startswith(f"You launched a ship to {launch[1:]}") and "R44" in prompt
    assert "You can" in prompt


def test_two_tabs_keep_each_others_lessons():
    storage = MemoryStorage()
    a, b = tab(storage), tab(storage)
    a.dispatch(OpenTutorial("about"))
    finish_lesson(a)
    b.dispatch(OpenTutorial("launch"))
    finish_lesson(b)  # b never read a's progress, and must not write over it
    fresh = tab(storage)
    assert {"about", "launch"} <= fresh.progress.done
