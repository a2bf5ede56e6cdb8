"""A screen is one module and one table line: a new one, defined here and nowhere else (a
notepad: notes added by a control or a key, shown escaped, counted on ``<body>``), is
routed, stepped and drawn by the page's controller with nothing in nova/web edited
(docs/ARCHITECTURE.md, "Adding a screen")."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from html import escape
from typing import ClassVar

from nova.web.controller import SCREENS, Controller, Menu, Screens, ui_intent
from nova.web.effects import ALL, NONE, Offer, Render
from nova.web.saves import MemoryStorage, SaveStore
from nova.web.screens.base import Drawing, Intent, Page, Result, ScreenDef
from nova.web.session import Session
from nova.web.state import UiState


# -- the screen's module: its state, its intents, a step for each, its keys, its markup ----
@dataclass(frozen=True)
class NotesScreen:
    name: ClassVar[str] = "notes"
    needs_game: ClassVar[bool] = False
    notes: tuple[str, ...] = ()

    def shown_as(self, session: Session | None) -> str:
        return self.name


@dataclass(frozen=True)
class OpenNotes(Intent):
    pass


@dataclass(frozen=True)
class AddNote(Intent):
    text: str


@dataclass(frozen=True)
class SendNotes(Intent):
    pass


@dataclass(frozen=True)
class NotesSent(Intent):
    how: str


def open_notes(page: Page, ui: UiState, intent: OpenNotes) -> Result:
    return ui.but(screen=NotesScreen(), help_open=False), ALL


def add(page: Page, ui: UiState, screen: NotesScreen, intent: AddNote) -> Result:
    if not intent.text:
        return ui.but(message="A note needs words."), ALL
    return ui.but(screen=replace(screen, notes=(*screen.notes, intent.text))), ALL


def send(page: Page, ui: UiState, screen: NotesScreen, intent: SendNotes) -> Result:
    url = f"{page.page_url}#notes={len(screen.notes)}"
    return ui, (Render(), Offer(url, NotesSent, title="My notes"))


def sent(page: Page, ui: UiState, intent: NotesSent) -> Result:
    return (ui.but(message=f"Notes {intent.how}.") if intent.how else ui), ALL


def keys(ui: UiState, screen: NotesScreen, key: str, focused_move, on_button) -> Intent | None:
    return AddNote(key) if key.isdigit() else None


def markup(page: Page, ui: UiState, screen: NotesScreen, known: frozenset[str]) -> Drawing:
    items = "".join(f"<li>{escape(n)}</li>" for n in screen.notes)
    alert = f'<p role="alert">{escape(ui.message)}</p>' if ui.message else ""
    return Drawing(f'<div class="notes">{alert}<ul>{items}</ul>'
                   '<button type="button" data-ui="note:hello">Add</button></div>')  # fmt: skip


def body(page: Page, ui: UiState) -> dict[str, str | None]:
    screen = ui.screen
    return {"data-nova-notes": str(len(screen.notes)) if isinstance(screen, NotesScreen) else None}


SCREEN = ScreenDef(
    state=NotesScreen,
    markup=markup,
    steps={AddNote: add, SendNotes: send},
    anywhere={OpenNotes: open_notes, NotesSent: sent},
    ui={
        "notes": lambda arg, form: OpenNotes(),
        "note": lambda arg, form: AddNote(arg),
        "send-notes": lambda arg, form: SendNotes(),
    },
    keys=keys,
    body=body,
    quiet=frozenset({NotesSent}),
)

# -- the one table line ---------------------------------------------------------------------
WITH_NOTES = Screens((*SCREENS, SCREEN))


def page() -> Controller:
    c = Controller(SaveStore(MemoryStorage()), rng=random.Random(1), screens=WITH_NOTES)
    c.page_url = "https://example.org/nova/"
    c.start()
    return c


def test_a_screen_defined_in_a_test_is_routed_stepped_and_drawn():
    c = page()
    intent = c.ui_intent("notes")
    assert intent == OpenNotes() and ui_intent("notes") is None  # only this page's table
    assert c.dispatch(intent) == ALL
    assert c.ui.name == "notes" and c.body_attributes()["data-nova-notes"] == "0"
    assert c.dispatch(c.ui_intent("note:<b>hi</b>")) == ALL  # "name:argument" routed
    assert c.key_intent("7") == AddNote("7") and c.key_intent("x") is None
    c.dispatch(c.key_intent("7"))
    assert c.ui.screen == NotesScreen(("<b>hi</b>", "7"))
    html = c.markup()
    assert "<li>&lt;b&gt;hi&lt;/b&gt;</li><li>7</li>" in html and "<b>hi</b>" not in html
    assert 'id="help-layer" hidden' in html  # the page's rules layer comes with it
    assert c.body_attributes()["data-nova-notes"] == "2"


def test_its_effects_are_values_and_its_answers_arrive_anywhere():
    c = page()
    c.dispatch(OpenNotes())
    effects = c.dispatch(SendNotes())
    assert effects == (Render(), Offer("https://example.org/nova/#notes=0", NotesSent, "My notes"))
    offer = effects[1]
    assert isinstance(offer, Offer)
    c.dispatch(Menu())  # the answer comes after the player left the screen: taken anywhere
    assert c.ui.name == "new" and c.body_attributes()["data-nova-notes"] is None
    c.dispatch(offer.answer("copied"))
    assert "Notes copied." in c.markup()  # a quiet intent: no person's action


def test_a_step_is_a_function_of_the_state_and_leaves_it_as_it_was():
    c = page()
    c.dispatch(OpenNotes())
    before = c.ui
    after, effects = add(c, before, before.screen, AddNote(""))
    assert before.message == "" and after.message == "A note needs words." and effects == ALL
    assert c.ui is before  # nothing was changed behind the step's back
    assert add(c, before, before.screen, AddNote("x"))[0].screen == NotesScreen(("x",))
    assert c.dispatch(SendNotes()) != NONE and c.ui.name == "notes"


def test_the_pages_own_screens_do_not_take_its_intents():
    plain = Controller(SaveStore(MemoryStorage()), rng=random.Random(1))
    plain.start()
    assert plain.dispatch(AddNote("x")) == ALL and plain.ui.name == "new"  # not possible: redrawn
