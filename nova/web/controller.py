"""The page's state and its changes: routes each intent to the screen it is for. Pure Python.

:class:`~nova.web.state.UiState` is the whole of what the page shows. Each screen is one
module of ``nova/web/screens/`` (its state, its intents, how each changes the state, its
keys, its markup), listed in :data:`SCREENS`. :class:`Controller` keeps the state, the
game (:class:`~nova.web.session.Session`) and the saves (:class:`~nova.web.saves.SaveStore`);
:meth:`Controller.dispatch` sends an intent to the screen on show (``ScreenDef.steps``),
or, for an intent of the whole page or one a screen takes anywhere (``anywhere``: the one
that opens it, answers that arrive later), to its handler, and returns the
:class:`~nova.web.screens.base.Effect` values the adapter (``app.py``) carries out. What is
common stays here: the rules dialog, the menu, the keys' first rules, saving, links.
"""

from __future__ import annotations

import random
from dataclasses import replace
from urllib.parse import parse_qsl

from ..lab.workbench import Workbench
from ..links import decode
from ..record import RecordError
from ..render.keep import keyed
from ..render.screens import NewGameForm, help_html
from ..tutorial import STORAGE_KEY, TutorialProgress, load_progress
from .saves import PREFIX, Moves, SaveStore, Verdict, new_id
from .screens import game, lab, links, replay, start, tutorial
from .screens.base import (
    ALL,
    NONE,
    Anywhere,
    Effect,
    Elsewhere,
    FormInput,
    Game,
    Intent,
    Play,
    ScreenDef,
    UiName,
    WhyNot,
    Worker,
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
    LabSave,
    LabScreen,
    LabStart,
    LabStop,
    OpenLab,
)
from .screens.replay import CloseReplay, OpenReplay, PlayFromReplay, ReplayGo, ReplayScreen
from .screens.start import (
    BOT_PACES,
    THINK_MS,
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
    WorkerChanged,
)

__all__ = [  # the page's vocabulary, in one import for the adapter and the tests
    "ALL", "NONE", "HINT_BOT", "AskHint", "Back", "BotPlayed", "CloseHelp", "CloseReplay",
    "CloseScores", "CloseShare", "CloseTutorial", "Controller", "Delete", "Effect",
    "FormInput", "FullPage", "GameScreen", "Hint", "HintReady", "Intent", "KeepHere", "LabAnswer",
    "LabEdit", "LabFinished", "LabReset", "LabSave", "LabScreen", "LabStart", "LabStop",
    "Menu", "NewGameScreen", "NextLesson", "OpenHelp", "OpenLab", "OpenLink", "OpenNewest",
    "OpenReplay", "OpenTutorial", "Play", "PlayFromReplay", "Ready", "ReplayGo",
    "ReplayScreen", "Reseed", "RestartLesson", "Resume", "SavesChanged", "Say", "SCREENS",
    "SetPlayers", "Share", "Shared", "SkipLesson", "StartFirstGame", "StartGame",
    "TutorialScreen", "UiState", "Undo", "WhyNot", "Worker", "WorkerChanged", "ui_intent",
]  # fmt: skip

# The screens: adding one is a module in nova/web/screens/ and its SCREEN here.
SCREENS: tuple[ScreenDef, ...] = (
    start.SCREEN, game.SCREEN, replay.SCREEN, tutorial.SCREEN, lab.SCREEN, links.SCREEN,
)  # fmt: skip
BY_STATE: dict[type, ScreenDef] = {d.state: d for d in SCREENS}

# intents that are no person's action on the page: the message on show stays
QUIET = (
    OpenHelp, CloseHelp, Say, WhyNot, WorkerChanged, SavesChanged, BotPlayed, HintReady,
    LabAnswer, LabFinished, Shared, links.SendOffered,
)  # fmt: skip


# -- the intents of the whole page ----------------------------------------------------------
def _help(c: Controller, intent: OpenHelp | CloseHelp) -> frozenset[Effect]:
    c.set(help_open=isinstance(intent, OpenHelp))
    return frozenset({Effect.HELP_LAYER})


def _menu(c: Controller, intent: Menu) -> frozenset[Effect]:
    start.read_form_quietly(c, intent.form)
    leaving_lab = isinstance(c.ui.screen, LabScreen)
    c.set(screen=NewGameScreen(), help_open=False)
    if leaving_lab:  # the address no longer opens the workbench on a reload
        return frozenset({Effect.RENDER, Effect.CLEAR_LINK})
    return ALL


def _back(c: Controller, intent: Back) -> frozenset[Effect]:
    if c.session is not None:
        c.set(screen=GameScreen())
    return ALL


def _say(c: Controller, intent: Say) -> frozenset[Effect]:
    if intent.text == c.ui.message:
        return NONE
    c.set(message=intent.text)
    return ALL


def _worker(c: Controller, intent: WorkerChanged) -> frozenset[Effect]:
    c.set(worker=intent.worker, worker_note=intent.note or c.ui.worker_note)
    return ALL


def _newest(c: Controller, intent: OpenNewest) -> frozenset[Effect]:
    if c.ui.elsewhere is not None:
        c.resume(c.ui.elsewhere.game_id)
    return ALL


def _keep_here(c: Controller, intent: KeepHere) -> frozenset[Effect]:
    c.set(elsewhere=None)
    return ALL


COMMON: dict[type[Intent], Anywhere] = {
    OpenHelp: _help, CloseHelp: _help, Menu: _menu, Back: _back, Say: _say,
    WorkerChanged: _worker, OpenNewest: _newest, KeepHere: _keep_here,
    OpenLink: lambda c, intent: c.open_link(intent.fragment),
    SavesChanged: lambda c, intent: c.saves_changed(intent.key),
    FullPage: lambda c, intent: frozenset({Effect.FULL_PAGE}),
}  # fmt: skip
ANYWHERE: dict[type[Intent], Anywhere] = {**COMMON}
for _screen in SCREENS:
    assert not set(_screen.anywhere) & set(ANYWHERE), "an intent has one handler"
    ANYWHERE.update(_screen.anywhere)

NO_FORM = FormInput()  # a control pressed where the new-game form is not on the page
UI: dict[str, UiName] = {
    "help": lambda arg, form: OpenHelp(), "close-help": lambda arg, form: CloseHelp(),
    "back": lambda arg, form: Back(), "menu": lambda arg, form: Menu(form),
    "open-newest": lambda arg, form: OpenNewest(), "keep-here": lambda arg, form: KeepHere(),
    "full-page": lambda arg, form: FullPage(),
}  # fmt: skip
for _screen in SCREENS:
    UI.update(_screen.ui)


def ui_intent(name: str, form: FormInput = NO_FORM) -> Intent | None:
    """The intent of a ``data-ui`` control ("name" or "name:argument"); None if unknown."""
    kind, _, arg = name.partition(":")
    make = UI.get(name) or UI.get(kind)
    return make(arg, form) if make is not None else None


SAVING_OFF_IN_A_FRAME = (  # short: the phone frame's status shows two lines
    "Saving is off in this frame: to keep this game, open it in Full page ↗ or Share its link."
)


# -- the controller -----------------------------------------------------------------------
class Controller:
    """The page's state and its changes; knows nothing of the browser."""

    def __init__(
        self, store: SaveStore, embed: bool = False, rng: random.Random | None = None
    ) -> None:
        self.rng = rng or random.Random()
        self.store = store
        self.embed = embed
        # the tutorial's progress (its own key beside the saved games), and what could not
        # be read of it, said once when the tutorial opens
        progress, self.progress_note = load_progress(store.read(STORAGE_KEY))
        self.ui = UiState(
            save_error=store.error if store.full else "", progress=progress,
            form=NewGameForm(seed=self.rng.randrange(1, 10**6)),
        )  # fmt: skip
        # the board's unchanging layer (key, markup) of the last game markup, for the adapter
        self.static: tuple[str, str] | None = None
        self.page_url = ""  # the page's address without query or fragment (for links)

    # -- reading --------------------------------------------------------------------------
    @property
    def session(self) -> Session | None:
        """The game on screen: the tab's game, or a game by links' on this device."""
        screen = self.ui.screen
        if isinstance(screen, links.LinksScreen):
            return screen.session
        return self.ui.game.session if self.ui.game else None

    @property
    def game_id(self) -> str:
        return self.ui.game.game_id if self.ui.game else ""

    @property
    def form(self) -> NewGameForm:
        return self.ui.form

    @property
    def bench(self) -> Workbench | None:
        return self.ui.bench

    @property
    def progress(self) -> TutorialProgress:
        return self.ui.progress

    def saving_off(self) -> str:
        """What the page says while saving is off ("" when it is on): in a frame, how to
        keep a game begun there, before it matters (docs/PAGE.md, "Embed mode")."""
        if self.store.available:
            return ""
        return SAVING_OFF_IN_A_FRAME if self.embed else self.store.error

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
        for screen in SCREENS:
            if screen.body is not None:
                attributes |= screen.body(self)
        return attributes

    def hint_shown(self) -> Hint | None:
        return game.hint_shown(self)

    def hint_request(self) -> str | None:
        return game.hint_request(self)

    # -- changing -------------------------------------------------------------------------
    def set(self, **changes) -> None:
        """Change the state; the share panel is the game screen's, and closes with it."""
        if "screen" in changes and "share" not in changes:
            changes["share"] = None
        self.ui = replace(self.ui, **changes)

    def start(self, fragment: str = "", query: str = "") -> frozenset[Effect]:
        """The page opens: the workbench if the address asks for it (``?lab``), a link's
        game, else the game the last save was of."""
        if query.lstrip("?").split("&")[0] == "lab":
            return self.dispatch(OpenLab(query))
        if "links" in (k for k, _ in parse_qsl(query.lstrip("?"), keep_blank_values=True)):
            # "Play by links" pressed in the publisher's frame opened this page (links.py)
            self.set(form=replace(self.form, by_links=True))
            if not fragment:
                return ALL
        if fragment:
            return self.dispatch(OpenLink(fragment))
        by_links = self.store.read(links.CURRENT_KEY)
        kept = links.stored(self, by_links) if by_links else None
        if kept is not None:
            links.show(self, kept)
            return ALL
        current = self.store.current()
        if current:
            self.resume(current)
        return ALL

    def dispatch(self, intent: Intent) -> frozenset[Effect]:
        """Apply ``intent``; the effects say what the adapter does next."""
        if not isinstance(intent, QUIET):  # a person's action replaces the last message
            self.set(message="")
        anywhere = ANYWHERE.get(type(intent))
        if anywhere is not None:
            return anywhere(self, intent)
        screen = self.ui.screen
        step = BY_STATE[type(screen)].steps.get(type(intent))
        if step is None:  # not possible now (e.g. undo on the start screen): redraw
            return NONE if isinstance(intent, QUIET) else ALL
        return step(self, screen, intent)

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
        keys = BY_STATE[type(ui.screen)].keys
        return keys(self, ui.screen, key, focused_move, on_button) if keys else None

    def open(self, session: Session, game_id: str, synced: Moves | None = None) -> None:
        """Put ``session`` on screen as the tab's game."""
        self.store.remove(links.CURRENT_KEY)  # a reload resumes this game, not one by links
        self.set(
            screen=GameScreen(), game=Game(session, game_id, synced), help_open=False,
            elsewhere=None,
        )  # fmt: skip

    def resume(self, game_id: str) -> None:
        try:
            record = self.store.load(game_id)
            session = Session(record)
        except RecordError as exc:
            self.store.clear_current()
            self.set(message=f"The saved game could not be opened: {exc}", screen=NewGameScreen())
            return
        settings = self.store.settings(game_id)
        if settings.get("pace") in BOT_PACES:
            self.set(form=replace(self.form, pace=settings["pace"]))
        if settings.get("think_ms") in THINK_MS:
            self.set(form=replace(self.form, think_ms=settings["think_ms"]))
        self.open(session, game_id, tuple(record.moves))

    def open_link(self, fragment: str) -> frozenset[Effect]:
        if links.is_fair(fragment):  # a game by links (docs/LINKS.md)
            return links.open_fair(self, fragment)
        try:
            session = Session(decode(fragment))
        except RecordError as exc:
            self.set(message=f"This game link could not be opened: {exc}")
            return ALL
        except Exception as exc:  # a decoder bug must not break the page
            self.set(message=f"This game link could not be opened ({exc.__class__.__name__}).")
            return ALL
        self.open(session, new_id(self.rng.randrange(4096)))
        self.autosave()
        return frozenset({Effect.RENDER, Effect.CLEAR_LINK})

    def page_of_its_own(self, here: str, links_page: bool) -> tuple[str, Intent | None, Intent]:
        """Embedded, "Full page" (or play by links: ``links_page``): the address of the new
        tab, what this page says once it opened, and what it shows if the browser refused
        (a sandboxed frame without ``allow-popups``). ``here``: the page's whole address."""
        if links_page or isinstance(self.ui.screen, links.LinksScreen):  # never a seed
            url = links.page_of_its_own(self, here)
            return url, Say(links.OPENED_ELSEWHERE), Say(links.refused_tab(url))
        s = self.session
        if s is not None:  # refused: the share panel, whose link is the same
            return link_for(s.record, here), None, Share(here)
        url = full_page_address(here)
        return url, None, Say(f"This browser refused to open a new tab; the full page is at {url}")

    # -- saving ---------------------------------------------------------------------------
    def autosave(self) -> None:
        """Save the game without losing another tab's line (saves.reconcile)."""
        game = self.ui.game
        if game is None or not self.store.available:
            return
        s = game.session
        done = self.store.commit(
            game.game_id, s.record, game.synced, s.state.is_over(),
            fork_id=new_id(self.rng.randrange(4096)),
            settings={"pace": self.form.pace, "think_ms": self.form.think_ms},
        )  # fmt: skip
        ours = tuple(s.record.moves)
        if done.verdict is Verdict.BEHIND:
            stored = self.store.stored_moves(game.game_id) or ()
            self.set(elsewhere=Elsewhere(game.game_id, len(stored)))
            return
        if done.verdict is Verdict.FORK:
            stored = self.store.stored_moves(game.game_id) or ()
            elsewhere = Elsewhere(game.game_id, len(stored), forked=True)
            if not done.written:  # not even the fork fits: said, nothing overwritten
                self.set(save_error=done.error, elsewhere=elsewhere)
                return
            self.set(game=Game(s, done.game_id, ours), elsewhere=elsewhere, save_error="")
            return
        if done.verdict is Verdict.WRITE and not done.written:
            self.set(save_error=done.error)
            return
        self.set(game=replace(game, synced=ours), save_error="")

    def saves_changed(self, key: str | None) -> frozenset[Effect]:
        """Another tab saved: the saved games' list changes; if it was this tab's game and
        the stored line is not this tab's, say so (and offer the newest)."""
        game = self.ui.game
        if game is None or (key is not None and key != PREFIX + game.game_id):
            return ALL if isinstance(self.ui.screen, NewGameScreen) else NONE
        stored = self.store.stored_moves(game.game_id)
        ours = tuple(game.session.record.moves)
        if stored is None or stored == game.synced or stored == ours:
            return NONE
        self.set(elsewhere=Elsewhere(game.game_id, len(stored)))
        return ALL

    # -- drawing --------------------------------------------------------------------------
    def markup(self, known: frozenset[str] = frozenset()) -> str:
        """The screen, then the rules dialog over it (always on the page, hidden while
        closed: opening it is one attribute, and its text is sent once)."""
        html = self.screen_markup(known)
        s = self.session
        players = s.record.players if s else self.form.players
        variant = s.record.variant if s else None
        body = keyed(f'<div class="help-body">{help_html(players, variant)}</div>', "help-body",
                     known)  # fmt: skip
        hidden = "" if self.ui.help_open else " hidden"
        return html + f'<div class="help-layer" id="help-layer"{hidden}>{body}</div>'

    def screen_markup(self, known: frozenset[str] = frozenset()) -> str:
        """The screen on show, drawn by its module."""
        self.static = None
        screen = self.ui.screen
        return BY_STATE[type(screen)].markup(self, screen, known)
