"""The page's state and its changes: routes each intent to the screen it is for. Pure Python.

:class:`~nova.web.state.UiState` is the whole of what the page shows. Each screen is one module
of ``nova/web/screens/`` (its state, its intents, a step for each, its keys, its markup), listed
in :data:`SCREENS`. A step is ``(page, ui, screen, intent) -> (ui, effects)``: it returns the
new state and the :mod:`~nova.web.effects` values the game's worker (``host.py``) turns into
what the page performs. :class:`Controller` keeps the state and the page's services (the saves,
the random numbers, the workbench: ``screens.base.Page``); :meth:`Controller.dispatch` sends an
intent to the screen on show (``ScreenDef.steps``) or, for an intent of the whole page or one a
screen takes anywhere (``anywhere``: the one that opens it, answers that arrive later), to its
handler. What is common stays here: the rules dialog, the menu, the keys' first rules, links,
another tab's saves."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import replace
from urllib.parse import parse_qsl

from ..lab.workbench import Workbench
from ..links import decode
from ..record import RecordError
from ..render.keep import keyed
from ..render.screens import NewGameForm, help_html, new_form
from ..tutorial import STORAGE_KEY, TutorialProgress, load_progress
from . import tab
from .effects import ALL, NONE, ClearAddress, Effect, Effects, OwnPage, Render, ShowHelp, Then
from .saves import SaveStore, new_id
from .screens import game, lab, links, replay, start, tutorial
from .screens.base import (
    Anywhere,
    Drawing,
    FormInput,
    Intent,
    Page,
    Play,
    Result,
    ScreenDef,
    UiName,
    WhyNot,
    saving_off,
)
from .screens.game import (
    HINT_BOT,
    AskHint,
    BotPlayed,
    CloseScores,
    CloseShare,
    GameScreen,
    Hint,
    HintReady,
    Ready,
    Share,
    Shared,
    Undo,
)
from .screens.lab import (
    LabAnswer,
    LabEdit,
    LabFinished,
    LabReset,
    LabResults,
    LabSave,
    LabScreen,
    LabStart,
    LabStop,
    OpenLab,
)
from .screens.replay import CloseReplay, OpenReplay, PlayFromReplay, ReplayGo, ReplayScreen
from .screens.start import (
    Delete,
    NewGameScreen,
    Reseed,
    Resume,
    SetPlayers,
    StartGame,
)
from .screens.tutorial import (
    CloseTutorial,
    NextLesson,
    OpenTutorial,
    RestartLesson,
    SkipLesson,
    StartFirstGame,
    TutorialScreen,
)
from .session import Session
from .share import full_page_address, link_for
from .state import (
    Back,
    CloseHelp,
    FullPage,
    KeepHere,
    Menu,
    OpenHelp,
    OpenLink,
    OpenNewest,
    SavesChanged,
    Say,
    UiState,
)

__all__ = [  # the page's vocabulary, in one import for the adapter and the tests
    "ALL", "NONE", "HINT_BOT", "AskHint", "Back", "BotPlayed", "CloseHelp", "CloseReplay",
    "CloseScores", "CloseShare", "CloseTutorial", "Controller", "Delete", "Effect",
    "FormInput", "FullPage", "GameScreen", "Hint", "HintReady", "Intent", "KeepHere", "LabAnswer",
    "LabEdit", "LabFinished", "LabReset", "LabResults", "LabSave", "LabScreen", "LabStart",
    "LabStop",
    "Menu", "NewGameScreen", "NextLesson", "OpenHelp", "OpenLab", "OpenLink", "OpenNewest",
    "OpenReplay", "OpenTutorial", "Play", "PlayFromReplay", "Ready", "ReplayGo",
    "ReplayScreen", "Reseed", "RestartLesson", "Resume", "SavesChanged", "Say", "SCREENS",
    "Screens", "SetPlayers", "Share", "Shared", "SkipLesson", "StartFirstGame", "StartGame",
    "TutorialScreen", "UiState", "Undo", "WhyNot", "ui_intent",
]  # fmt: skip


# -- the intents of the whole page ----------------------------------------------------------
def _help(page: Page, ui: UiState, intent: OpenHelp | CloseHelp) -> Result:
    opened = isinstance(intent, OpenHelp)
    return ui.but(help_open=opened), (ShowHelp(opened),)


def _menu(page: Page, ui: UiState, intent: Menu) -> Result:
    ui = start.read_form_quietly(ui, intent.form)
    leaving_lab = isinstance(ui.screen, LabScreen)
    ui = ui.but(screen=NewGameScreen(), help_open=False)
    if leaving_lab:  # the address no longer opens the workbench on a reload
        return ui, (Render(), ClearAddress())
    return ui, ALL


def _back(page: Page, ui: UiState, intent: Back) -> Result:
    return (ui.but(screen=GameScreen()) if ui.session is not None else ui), ALL


def _say(page: Page, ui: UiState, intent: Say) -> Result:
    if intent.text == ui.message:
        return ui, NONE
    return ui.but(message=intent.text), ALL


def _newest(page: Page, ui: UiState, intent: OpenNewest) -> Result:
    if ui.elsewhere is not None:
        ui = start.resume(page, ui, ui.elsewhere.game_id)
    return ui, ALL


def _keep_here(page: Page, ui: UiState, intent: KeepHere) -> Result:
    return ui.but(elsewhere=None), ALL


def _saves_changed(page: Page, ui: UiState, intent: SavesChanged) -> Result:
    return tab.saves_changed(page, ui, intent.key, isinstance(ui.screen, NewGameScreen))


def _open_link(page: Page, ui: UiState, intent: OpenLink) -> Result:
    """A link opened in this tab: a game by links' (``links.open_fair``), else a game's."""
    if links.is_fair(intent.fragment):  # a game by links (docs/LINKS.md)
        return links.open_fair(page, ui, intent.fragment)
    try:
        session = Session(decode(intent.fragment))
    except RecordError as exc:
        return ui.but(message=f"This game link could not be opened: {exc}"), ALL
    except Exception:  # a decoder bug must not break the page (nor show its exception's name)
        return ui.but(message="This game link could not be opened: it is damaged."), ALL
    ui = game.open_game(page, ui, session, new_id(page.rng.randrange(4096)))
    return tab.autosave(page, ui), (ClearAddress(), Render())


COMMON: dict[type[Intent], Anywhere] = {
    OpenHelp: _help, CloseHelp: _help, Menu: _menu, Back: _back, Say: _say,
    OpenNewest: _newest, KeepHere: _keep_here,
    OpenLink: _open_link, SavesChanged: _saves_changed,
    FullPage: lambda page, ui, intent: (ui, (OwnPage(),)),
}  # fmt: skip
# intents that are no person's action on the page: the message on show stays
COMMON_QUIET = frozenset({OpenHelp, CloseHelp, Say, WhyNot, SavesChanged})
COMMON_UI: dict[str, UiName] = {
    "help": lambda arg, form: OpenHelp(), "close-help": lambda arg, form: CloseHelp(),
    "back": lambda arg, form: Back(), "menu": lambda arg, form: Menu(form),
    "open-newest": lambda arg, form: OpenNewest(), "keep-here": lambda arg, form: KeepHere(),
    "full-page": lambda arg, form: FullPage(),
}  # fmt: skip
NO_FORM = FormInput()  # a control pressed where the new-game form is not on the page


class Screens:
    """The controller's table of screens: each intent's one handler, each ``data-ui``
    name's intent, the quiet intents, each screen by its state's class."""

    def __init__(self, defs: Iterable[ScreenDef]) -> None:
        self.defs = tuple(defs)
        self.by_state: dict[type, ScreenDef] = {d.state: d for d in self.defs}
        assert len(self.by_state) == len(self.defs), "a screen is listed once"
        self.anywhere: dict[type[Intent], Anywhere] = dict(COMMON)
        self.ui: dict[str, UiName] = dict(COMMON_UI)
        quiet = set(COMMON_QUIET)
        for d in self.defs:
            assert not set(d.anywhere) & set(self.anywhere), "an intent has one handler"
            self.anywhere.update(d.anywhere)
            self.ui.update(d.ui)
            quiet |= d.quiet
        self.quiet = tuple(quiet)

    def ui_intent(self, name: str, form: FormInput = NO_FORM) -> Intent | None:
        """The intent of a ``data-ui`` control ("name" or "name:argument"); None if unknown."""
        kind, _, arg = name.partition(":")
        make = self.ui.get(name) or self.ui.get(kind)
        return make(arg, form) if make is not None else None


# The screens: adding one is a module in nova/web/screens/ and its SCREEN here.
SCREENS: tuple[ScreenDef, ...] = (
    start.SCREEN, game.SCREEN, replay.SCREEN, tutorial.SCREEN, lab.SCREEN, links.SCREEN,
)  # fmt: skip
TABLE = Screens(SCREENS)
ANYWHERE: Mapping[type[Intent], Anywhere] = TABLE.anywhere
UI: Mapping[str, UiName] = TABLE.ui
ui_intent = TABLE.ui_intent


# -- the controller -----------------------------------------------------------------------
class Controller:
    """The page's state and its services (``screens.base.Page``); knows nothing of the
    browser. ``screens``: the table of screens (a test adds one of its own)."""

    def __init__(
        self, store: SaveStore, embed: bool = False, rng: random.Random | None = None,
        screens: Screens = TABLE,
    ) -> None:  # fmt: skip
        self.rng = rng or random.Random()
        self.store = store
        self.embed = embed
        self.screens = screens
        self.bench: Workbench | None = None  # the designer's workbench once opened
        self.page_url = ""  # the page's address without query or fragment (for links)
        # the tutorial's progress (its own key beside the saved games), and what could not
        # be read of it, said once when the tutorial opens
        progress, note = load_progress(store.read(STORAGE_KEY))
        self.ui = UiState(
            save_error=store.error if store.full else "", progress=progress,
            progress_note=note, form=new_form(self.rng.randrange(1, 10**6), embed),
        )  # fmt: skip

    # -- reading --------------------------------------------------------------------------
    @property
    def session(self) -> Session | None:
        """The game on screen: the tab's game, or a game by links' on this device."""
        return self.ui.session

    @property
    def game_id(self) -> str:
        return self.ui.game_id

    @property
    def form(self) -> NewGameForm:
        return self.ui.form

    @property
    def progress(self) -> TutorialProgress:
        return self.ui.progress

    def saving_off(self) -> str:
        return saving_off(self)

    def ui_intent(self, name: str, form: FormInput = NO_FORM) -> Intent | None:
        return self.screens.ui_intent(name, form)

    def open_bench(self, query: str) -> Workbench:
        """The workbench, made anew from ``query`` if it names one or none is open yet."""
        if query or self.bench is None:
            self.bench = Workbench.from_query(query)
        return self.bench

    def bots_may_play(self) -> bool:
        """A bot decides only in the game on screen: not under the rules, a replay, the
        start screen, nor while this tab is behind another's game."""
        s = self.session
        return (
            s is not None
            and self.on_game()
            and not (self.ui.elsewhere and not self.ui.elsewhere.forked)
            and s.bot_to_move()
        )

    def on_game(self) -> bool:
        """The game screen with nothing over it: a person's moves and keys count."""
        return isinstance(self.ui.screen, GameScreen) and not self.ui.help_open

    def on_lesson(self) -> bool:
        """A lesson in play with nothing over it: its moves and keys count."""
        screen = self.ui.screen
        return (
            isinstance(screen, TutorialScreen)
            and screen.session is not None
            and not self.ui.help_open
        )

    def body_attributes(self) -> dict[str, str | None]:
        """The screens' contract on ``<body>`` (the tutorial's, the workbench's; None: the
        attribute is removed)."""
        attributes: dict[str, str | None] = {}
        for screen in self.screens.defs:
            if screen.body is not None:
                attributes |= screen.body(self, self.ui)
        return attributes

    def hint_shown(self) -> Hint | None:
        return game.hint_shown(self.ui)

    def hint_request(self) -> str | None:
        return game.hint_request(self.ui)

    # -- changing -------------------------------------------------------------------------
    def start(self, fragment: str = "", query: str = "") -> Effects:
        """The page opens: the workbench if the address asks for it (``?lab``), a link's
        game, else the game the last save was of."""
        if query.lstrip("?").split("&")[0] == "lab":
            return self.dispatch(OpenLab(query))
        if "links" in (k for k, _ in parse_qsl(query.lstrip("?"), keep_blank_values=True)):
            # "Play by links" pressed in the publisher's frame opened this page (links.py)
            self.ui = self.ui.but(form=replace(self.form, by_links=True))
            if not fragment:
                return ALL
        if fragment:
            return self.dispatch(OpenLink(fragment))
        shown = links.shown(self, self.ui)
        if shown is not self.ui:
            self.ui = shown
            return ALL
        current = self.store.current()
        if current:
            self.ui = start.resume(self, self.ui, current)
        return ALL

    def dispatch(self, intent: Intent) -> Effects:
        """Apply ``intent``; the effects say what the adapter does next (a ``Then`` is the
        controller's: the intent it names is dispatched at once)."""
        ui = self.ui
        if not isinstance(intent, self.screens.quiet):  # a person's action: the last message goes
            ui = ui.but(message="")
        anywhere = self.screens.anywhere.get(type(intent))
        if anywhere is not None:
            ui, effects = anywhere(self, ui, intent)
        else:
            screen = ui.screen
            step = self.screens.by_state[type(screen)].steps.get(type(intent))
            if step is None:  # not possible now (e.g. undo on the start screen): redraw
                self.ui = ui
                return NONE if isinstance(intent, self.screens.quiet) else ALL
            ui, effects = step(self, ui, screen, intent)
        self.ui = ui
        out: list[Effect] = []
        for effect in effects:
            out.extend(self.dispatch(effect.intent) if isinstance(effect, Then) else (effect,))
        return tuple(out)

    def key_intent(
        self, key: str, focused_move: str | None = None, on_button: bool = False
    ) -> Intent | None:
        """The intent of a key (docs/PAGE.md, "Keys"): ``focused_move`` is the move of a
        focused board target or Academy card, ``on_button`` whether a button has the focus
        (Enter clicks it). Escape closes the topmost dialog, ? or h opens the rules; the
        rest are the screen's (``ScreenDef.keys``). None: nothing, or a hand card's digit
        (the adapter focuses the card)."""
        ui = self.ui
        if key == "Escape":
            if ui.share is not None:
                return CloseShare()
            if ui.help_open:
                return CloseHelp()
            return CloseScores() if ui.name == "scores" else None
        if key in ("?", "h"):
            return OpenHelp()
        keys = self.screens.by_state[type(ui.screen)].keys
        return keys(ui, ui.screen, key, focused_move, on_button) if keys else None

    def page_of_its_own(self, here: str, links_page: bool) -> tuple[str, Intent | None, Intent]:
        """Embedded, "Full page" (or play by links: ``links_page``): the address of the new
        tab, what this page says once it opened, and what it shows if the browser refused
        (a sandboxed frame without ``allow-popups``). ``here``: the page's whole address."""
        if links_page or isinstance(self.ui.screen, links.LinksScreen):  # never a seed
            url = links.page_of_its_own(self.ui, here)
            return url, Say(links.OPENED_ELSEWHERE), Say(links.refused_tab(url))
        s = self.session
        if s is not None:  # refused: the share panel, whose link is the same
            return link_for(s.record, here), None, Share(here)
        url = full_page_address(here)
        return url, None, Say(f"This browser refused to open a new tab; the full page is at {url}")

    # -- drawing --------------------------------------------------------------------------
    def drawing(self, known: frozenset[str] = frozenset()) -> Drawing:
        """The screen, then the rules dialog over it (always on the page, hidden while
        closed: opening it is one attribute, and its text is sent once)."""
        screen = self.screen_drawing(known)
        s = self.session
        players = s.record.players if s else self.form.players
        variant = s.record.variant if s else None
        body = keyed(f'<div class="help-body">{help_html(players, variant)}</div>', "help-body",
                     known)  # fmt: skip
        hidden = "" if self.ui.help_open else " hidden"
        html = screen.html + f'<div class="help-layer" id="help-layer"{hidden}>{body}</div>'
        return Drawing(html, screen.static)

    def markup(self, known: frozenset[str] = frozenset()) -> str:
        return self.drawing(known).html

    def screen_drawing(self, known: frozenset[str] = frozenset()) -> Drawing:
        """The screen on show, drawn by its module."""
        screen = self.ui.screen
        return self.screens.by_state[type(screen)].markup(self, self.ui, screen, known)
