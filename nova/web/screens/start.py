"""The start screen: the new-game form (players, names, colours, bots, pace, seed) and the
saved games to resume or delete. Pure Python."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from ...render.screens import BOT_CHOICES, NewGameForm, new_game_html
from ..saves import new_id
from ..session import Session
from .base import ALL, HEX, Effect, FormInput, Intent, ScreenDef, safe_colours

if TYPE_CHECKING:
    from ..controller import Controller

BOT_NAMES = {v for v, _ in BOT_CHOICES if v}  # nova.bots is imported only when a bot plays
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
class Resume(Intent):
    game_id: str


@dataclass(frozen=True)
class Delete(Intent):
    game_id: str


def start_game(c: Controller, intent: StartGame) -> frozenset[Effect]:
    form = read_form(c, intent.form)
    if form is None:
        return ALL
    if form.by_links:
        from .links import StartByLinks, start_by_links

        return start_by_links(c, StartByLinks(intent.form))
    n = form.players
    names, colours = list(form.names[:n]), safe_colours(list(form.colours[:n]))
    c.open(Session.new(n, form.seed, names, colours, list(form.bots[:n])), new_id(form.seed))
    c.set(form=replace(form, seed=c.rng.randrange(1, 10**6)))  # the next game: a fresh seed
    c.autosave()
    return ALL


def reseed(c: Controller, intent: Reseed) -> frozenset[Effect]:
    read_form_quietly(c, intent.form)
    c.set(form=replace(c.form, seed=c.rng.randrange(1, 10**6)))
    return ALL


def set_players(c: Controller, intent: SetPlayers) -> frozenset[Effect]:
    read_form_quietly(c, intent.form)
    c.set(form=replace(c.form, players=intent.players))
    return ALL


def set_by_links(c: Controller, intent: SetByLinks) -> frozenset[Effect]:
    read_form_quietly(c, intent.form)
    if intent.on and c.embed:  # in a frame: in a page of its own, where the links open
        return frozenset({Effect.RENDER, Effect.LINKS_PAGE})
    c.set(form=replace(c.form, by_links=intent.on))
    return ALL


def resume(c: Controller, intent: Resume) -> frozenset[Effect]:
    c.resume(intent.game_id)
    return ALL


def delete(c: Controller, intent: Delete) -> frozenset[Effect]:
    c.store.delete(intent.game_id)
    if intent.game_id == c.game_id:
        c.set(screen=NewGameScreen(), game=None, elsewhere=None)
    return ALL


def read_form(c: Controller, got: FormInput) -> NewGameForm | None:
    """The form with its fields as the page has them (kept in the state); None (and a
    message) if one is bad."""
    f = c.form
    names, colours, bots = list(f.names), list(f.colours), list(f.bots)
    pace, think_ms, seed = f.pace, f.think_ms, f.seed
    for i in range(f.players):
        if i < len(got.names) and got.names[i] is not None:
            names[i] = str(got.names[i])[:24] or f"Player {i + 1}"
        if i < len(got.colours) and HEX.match(str(got.colours[i] or "")):
            colours[i] = str(got.colours[i])
        bot = got.bots[i] if i < len(got.bots) else None
        if bot is not None:
            bots[i] = bot if bot in BOT_NAMES else ""
    if got.pace in BOT_PACES:
        pace = got.pace
    if got.think_ms is not None and got.think_ms.isdigit() and int(got.think_ms) in THINK_MS:
        think_ms = int(got.think_ms)
    form = replace(f, names=names, colours=colours, bots=bots, pace=pace, think_ms=think_ms)
    if got.seed is not None:
        text = got.seed.strip()
        if not text.isdigit() or len(text) > 18:
            c.set(form=form, message="The seed must be a whole number (0 or more).")
            return None
        seed = int(text)
    form = replace(form, seed=seed)
    c.set(form=form)
    return form


def read_form_quietly(c: Controller, got: FormInput) -> None:
    """Keep what was typed in the form when the start screen is redrawn."""
    if isinstance(c.ui.screen, NewGameScreen) and not c.ui.help_open:
        keep = c.ui.message
        read_form(c, got)
        c.set(message=keep)


def markup(c: Controller, screen: NewGameScreen, known: frozenset[str]) -> str:
    from .links import cannot_keep, opened_games

    ui = c.ui
    return new_game_html(
        c.form, c.store.entries(), ui.message, ui.save_error or c.saving_off() or c.store.error,
        can_return=ui.game is not None, embed=c.embed, by_links=opened_games(c),
        links_note=cannot_keep(c) if c.form.by_links else "",
        links_first=screen.refused_link and bool(ui.message),
    )  # fmt: skip


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
        Resume: resume,
        Delete: delete,
    },
    ui={
        "new-game": lambda arg, form: StartGame(form),
        "reseed": lambda arg, form: Reseed(form),
        "players": _players,
        "by-links": lambda arg, form: SetByLinks(True, form),
        "one-device": lambda arg, form: SetByLinks(False, form),
        "resume": lambda arg, form: Resume(arg),
        "delete": lambda arg, form: Delete(arg),
    },
)
