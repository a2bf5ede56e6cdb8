"""The start screen: the new-game form (players, names, colours, bots, pace, seed) and the
saved games to resume or delete. Pure Python."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from ...record import RecordError
from ...render.screens import BOT_CHOICES, LEVEL_CHOICES, NewGameForm, new_game_html
from ..by_links import cannot_keep, opened_games
from ..effects import ALL, OwnPage, Render, Then
from ..saves import new_id
from ..session import Session
from ..tab import autosave
from .base import HEX, Drawing, FormInput, Intent, Page, Result, ScreenDef, safe_colours, saving_off
from .game import open_game

if TYPE_CHECKING:
    from ..state import UiState

BOT_NAMES = {v for v, _ in BOT_CHOICES if v}  # nova.bots is imported only when a bot plays
LEVELS = {lv.name for lv in LEVEL_CHOICES}
SEAT_BOTS = BOT_NAMES | LEVELS  # what a seat's "Who" may name besides a person
BOT_PACES = ("watch", "quick")
THINK_MS = (250, 1000, 3000)  # the new-game form's thinking times (screens.THINK_CHOICES)


@dataclass(frozen=True)
class NewGameScreen:
    """The start screen: the new-game form (``UiState.form``) and the saved games.
    ``refused_link``: a game by links' link that could not be opened (it cannot name its
    game) was opened here; while its refusal is shown, this device's games by links come
    with it, before the form."""

    name: ClassVar[str] = "new"
    needs_game: ClassVar[bool] = False
    refused_link: bool = False

    def shown_as(self, session: Session | None) -> str:
        return self.name


@dataclass(frozen=True)
class StartGame(Intent):
    form: FormInput = FormInput()


@dataclass(frozen=True)
class Reseed(Intent):
    form: FormInput = FormInput()


@dataclass(frozen=True)
class SetPlayers(Intent):
    players: int
    form: FormInput = FormInput()


@dataclass(frozen=True)
class SetByLinks(Intent):
    """The new-game form's mode: on this device (pass-and-play, bots), or by links."""

    on: bool
    form: FormInput = FormInput()


@dataclass(frozen=True)
class StartByLinks(Intent):
    """The start screen's New game in by-links mode: this device is seat A (the screen of
    a game by links takes it: ``links.py``)."""

    form: FormInput = FormInput()


@dataclass(frozen=True)
class ChooseLevel(Intent):
    """A level's button: every seat but the first plays that level (on this device); the
    game starts with the usual Start button."""

    level: str
    form: FormInput = FormInput()


@dataclass(frozen=True)
class Resume(Intent):
    game_id: str


@dataclass(frozen=True)
class Delete(Intent):
    game_id: str


def start_game(page: Page, ui: UiState, intent: StartGame) -> Result:
    ui, form = read_form(ui, intent.form)
    if form is None:
        return ui, ALL
    if form.by_links:
        return ui, (Then(StartByLinks(intent.form)),)
    n = form.players
    names, colours = list(form.names[:n]), safe_colours(list(form.colours[:n]))
    session = Session.new(n, form.seed, names, colours, list(form.bots[:n]))
    ui = open_game(page, ui, session, new_id(form.seed))
    ui = ui.but(form=replace(form, seed=page.rng.randrange(1, 10**6)))  # the next: a fresh seed
    return autosave(page, ui), ALL


def reseed(page: Page, ui: UiState, intent: Reseed) -> Result:
    ui = read_form_quietly(ui, intent.form)
    return ui.but(form=replace(ui.form, seed=page.rng.randrange(1, 10**6))), ALL


def set_players(page: Page, ui: UiState, intent: SetPlayers) -> Result:
    ui = read_form_quietly(ui, intent.form)
    return ui.but(form=replace(ui.form, players=intent.players)), ALL


def set_by_links(page: Page, ui: UiState, intent: SetByLinks) -> Result:
    ui = read_form_quietly(ui, intent.form)
    if intent.on and page.embed:  # in a frame: in a page of its own, where the links open
        return ui, (Render(), OwnPage(links=True))
    return ui.but(form=replace(ui.form, by_links=intent.on)), ALL


def choose_level(page: Page, ui: UiState, intent: ChooseLevel) -> Result:
    ui = read_form_quietly(ui, intent.form)
    if intent.level not in LEVELS:
        return ui, ALL
    bots = ["", *[intent.level] * (len(ui.form.bots) - 1)]
    return ui.but(form=replace(ui.form, bots=bots, by_links=False)), ALL


def resume(page: Page, ui: UiState, game_id: str) -> UiState:
    """The saved game ``game_id`` on screen, with its bots' pace; a save that cannot be
    read is said on the start screen."""
    try:
        record = page.store.load(game_id)
        session = Session(record)
    except RecordError as exc:
        page.store.clear_current()
        message = f"The saved game could not be opened: {exc}"
        return ui.but(message=message, screen=NewGameScreen())
    settings = page.store.settings(game_id)
    if settings.get("pace") in BOT_PACES:
        ui = ui.but(form=replace(ui.form, pace=settings["pace"]))
    if settings.get("think_ms") in THINK_MS:
        ui = ui.but(form=replace(ui.form, think_ms=settings["think_ms"]))
    return open_game(page, ui, session, game_id, tuple(record.moves))


def _resume(page: Page, ui: UiState, intent: Resume) -> Result:
    return resume(page, ui, intent.game_id), ALL


def delete(page: Page, ui: UiState, intent: Delete) -> Result:
    page.store.delete(intent.game_id)
    if intent.game_id == ui.game_id:
        ui = ui.but(screen=NewGameScreen(), game=None, elsewhere=None)
    return ui, ALL


def read_form(ui: UiState, got: FormInput) -> tuple[UiState, NewGameForm | None]:
    """The form with its fields as the page has them (kept in the state); None (and a
    message) if one is bad."""
    f = ui.form
    names, colours, bots = list(f.names), list(f.colours), list(f.bots)
    pace, think_ms, seed = f.pace, f.think_ms, f.seed
    for i in range(f.players):
        if i < len(got.names) and got.names[i] is not None:
            names[i] = str(got.names[i])[:24] or f"Player {i + 1}"
        if i < len(got.colours) and HEX.match(str(got.colours[i] or "")):
            colours[i] = str(got.colours[i])
        bot = got.bots[i] if i < len(got.bots) else None
        if bot is not None:
            bots[i] = bot if bot in SEAT_BOTS else ""
    if got.pace in BOT_PACES:
        pace = got.pace
    if got.think_ms is not None and got.think_ms.isdigit() and int(got.think_ms) in THINK_MS:
        think_ms = int(got.think_ms)
    form = replace(f, names=names, colours=colours, bots=bots, pace=pace, think_ms=think_ms)
    if got.seed is not None:
        text = got.seed.strip()
        if not text.isdigit() or len(text) > 18:
            return ui.but(form=form, message="The seed must be a whole number (0 or more)."), None
        seed = int(text)
    form = replace(form, seed=seed)
    return ui.but(form=form), form


def read_form_quietly(ui: UiState, got: FormInput) -> UiState:
    """Keep what was typed in the form when the start screen is redrawn."""
    if isinstance(ui.screen, NewGameScreen) and not ui.help_open:
        read, _ = read_form(ui, got)
        return read.but(message=ui.message)
    return ui


def markup(page: Page, ui: UiState, screen: NewGameScreen, known: frozenset[str]) -> Drawing:
    store = page.store
    return Drawing(new_game_html(
        ui.form, store.entries(), ui.message, ui.save_error or saving_off(page) or store.error,
        can_return=ui.game is not None, embed=page.embed, by_links=opened_games(store),
        links_note=cannot_keep(page.embed, store) if ui.form.by_links else "",
        links_first=screen.refused_link and bool(ui.message),
    ))  # fmt: skip


def _players(arg: str, form: FormInput) -> SetPlayers:
    return SetPlayers(int(arg) if arg in ("2", "3", "4") else 2, form)


SCREEN = ScreenDef(
    state=NewGameScreen,
    markup=markup,
    steps={},
    # its controls' intents count wherever they come from (as the start screen's form is
    # the page's: "Menu" keeps what was typed)
    anywhere={
        StartGame: start_game,
        Reseed: reseed,
        SetPlayers: set_players,
        SetByLinks: set_by_links,
        ChooseLevel: choose_level,
        Resume: _resume,
        Delete: delete,
    },
    ui={
        "new-game": lambda arg, form: StartGame(form),
        "reseed": lambda arg, form: Reseed(form),
        "players": _players,
        "by-links": lambda arg, form: SetByLinks(True, form),
        "one-device": lambda arg, form: SetByLinks(False, form),
        "level": lambda arg, form: ChooseLevel(arg, form),
        "resume": lambda arg, form: Resume(arg),
        "delete": lambda arg, form: Delete(arg),
    },
)
