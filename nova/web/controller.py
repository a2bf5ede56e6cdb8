"""What the page shows, as one typed value, and how intents change it. Pure Python.

:class:`UiState` is the whole of what the page shows: the screen (one of the screen
states, so a replay without a game or a score screen over the start screen cannot be
written), the rules dialog over it, the bots' worker, the message, and what the saves
say (the game went on in another tab, storage full). :class:`Controller` takes intents
(typed values: :data:`Intent`), keeps the game (:class:`~nova.web.session.Session`) and
the saves (:class:`~nova.web.saves.SaveStore`), and makes the markup. ``app.py`` is
only the browser's side: it turns clicks, keys and storage events into intents and the
returned :class:`Effect` values into DOM work (focus, the share panel, a new tab).

Adding a screen: a member of :class:`Screen`, a frozen dataclass for its state (with
``kind``) in :data:`ScreenState`, an intent that enters it and a branch in
:meth:`Controller.screen_markup` (docs/PAGE.md, "The controller").
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from enum import Enum
from html import escape as html_escape
from typing import ClassVar

from ..lab.workbench import Workbench
from ..links import decode
from ..record import DEFAULT_COLOURS, GameRecord, RecordError
from ..render.board import static_layer
from ..render.game import game_html
from ..render.keep import keyed, rekeyed
from ..render.prompts import CARD_KEYS, assign_keys
from ..render.screens import (
    BOT_CHOICES,
    NewGameForm,
    help_html,
    new_game_html,
    pass_html,
    scores_html,
)
from ..render.tutorial import first_game_html, lesson_html
from ..render.words import describe
from ..render.workbench import workbench_html
from ..rules import IllegalMove, layout_for
from ..rules.scoring import best_bay_split
from ..tutorial import (
    BY_ID,
    FIRST_GAME,
    STORAGE_KEY,
    TUTORIAL_IDS,
    LessonSession,
    TutorialProgress,
    load_progress,
    narrate,
)
from ..tutorial import start as start_lesson
from ..tutorial.session import target_of
from .bot_turns import bot_request
from .saves import PREFIX, Moves, SaveStore, Verdict, new_id
from .session import Session
from .share import Replay

HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
BOT_NAMES = {v for v, _ in BOT_CHOICES if v}  # nova.bots is imported only when a bot plays
BOT_PACES = ("watch", "quick")
HINT_BOT = "search"  # the strongest bot (docs/BOTS.md) gives the hints
THINK_MS = (250, 1000, 3000)  # the new-game form's thinking times (screens.THINK_CHOICES)


def safe_colours(colours: list[str]) -> list[str]:
    """Only #rrggbb reaches a style attribute; anything else gets the default colour."""
    return [c if HEX.match(c or "") else DEFAULT_COLOURS[i % 4] for i, c in enumerate(colours)]


# -- the state ----------------------------------------------------------------------------
class Screen(Enum):
    """The screens; ``value`` is ``data-nova-screen`` (pass and scores are the game's)."""

    NEW = "new"
    GAME = "game"
    REPLAY = "replay"
    TUTORIAL = "tutorial"
    LAB = "lab"


class Worker(Enum):
    """The bots' worker: ``value`` is ``data-nova-worker`` ("" while never asked for)."""

    IDLE = ""
    STARTING = "starting"
    READY = "ready"
    FAILED = "failed"


@dataclass(frozen=True)
class NewGameScreen:
    """The start screen: the new-game form and the saved games."""

    kind: ClassVar[Screen] = Screen.NEW


@dataclass(frozen=True)
class GameScreen:
    """The game (its pass screen while the device is to be passed, its score screen over it
    once the game is over, until closed)."""

    kind: ClassVar[Screen] = Screen.GAME
    scores_closed: bool = False


@dataclass(frozen=True)
class ReplayScreen:
    """The game on screen watched move by move; ``back`` is the game screen it came from."""

    kind: ClassVar[Screen] = Screen.REPLAY
    record: GameRecord = field(compare=False)
    step: int
    back: GameScreen = GameScreen()


@dataclass(frozen=True)
class TutorialScreen:
    """Learn to play: the lesson ``lesson_id`` in play (``session``), or, for the last
    step (the first game), its introduction with the button that starts the game."""

    kind: ClassVar[Screen] = Screen.TUTORIAL
    lesson_id: str
    session: LessonSession | None = None


@dataclass(frozen=True)
class LabScreen:
    """The designer's workbench (its form, variant and runs: ``Controller.bench``)."""

    kind: ClassVar[Screen] = Screen.LAB


ScreenState = NewGameScreen | GameScreen | ReplayScreen | TutorialScreen | LabScreen


@dataclass(frozen=True, eq=False)
class Game:
    """The game open in this tab: its session, its save's id, and the moves this tab last
    read from or wrote to that save (``synced``: see :func:`nova.web.saves.reconcile`)."""

    session: Session
    game_id: str
    synced: Moves | None = None


@dataclass(frozen=True)
class Elsewhere:
    """The open game went on in another tab: ``moves`` decisions are saved under
    ``game_id``. ``forked``: this tab's own continuation is kept as a game of its own."""

    game_id: str
    moves: int
    forked: bool = False


@dataclass(frozen=True)
class Hint:
    """A hint for the person's decision after ``at`` decisions of game ``game_id``: the
    strongest bot's choice (``token``, "" while it thinks) and what it gains in words."""

    game_id: str
    at: int
    token: str = ""
    text: str = ""


@dataclass(frozen=True)
class UiState:
    screen: ScreenState = NewGameScreen()
    game: Game | None = None
    help_open: bool = False
    worker: Worker = Worker.IDLE
    worker_note: str = ""  # the worker could not start: the bots think on the page
    message: str = ""  # the alert: bad input, a link that could not be opened, why not
    elsewhere: Elsewhere | None = None
    save_error: str = ""  # the last save failed (storage full): said, the game plays on
    hint: Hint | None = None  # shown only while its decision is the one on screen

    def __post_init__(self) -> None:
        if self.screen.kind in (Screen.GAME, Screen.REPLAY) and self.game is None:
            raise ValueError(f"the {self.screen.kind.value} screen needs a game")

    @property
    def name(self) -> str:
        """``data-nova-screen``: help / new / pass / scores / game / replay / tutorial."""
        if self.help_open:
            return "help"
        s = self.game.session if self.game else None
        if isinstance(self.screen, GameScreen) and s is not None:
            if s.needs_pass():
                return "pass"
            if s.state.is_over() and not self.screen.scores_closed:
                return "scores"
        return self.screen.kind.value


# -- intents ------------------------------------------------------------------------------
@dataclass(frozen=True)
class FormInput:
    """What the new-game form's fields say (read from the page by the adapter); None: a
    field not on the page."""

    names: tuple[str | None, ...] = ()
    colours: tuple[str | None, ...] = ()
    bots: tuple[str | None, ...] = ()
    pace: str | None = None
    think_ms: str | None = None
    seed: str | None = None


@dataclass(frozen=True)
class StartGame:
    form: FormInput = FormInput()


@dataclass(frozen=True)
class Play:
    token: str


@dataclass(frozen=True)
class BotPlayed:
    """A bot's decision, already checked by the engine (``note``: a bot's failure said)."""

    token: str
    note: str = ""


@dataclass(frozen=True)
class Ready:
    pass


@dataclass(frozen=True)
class Undo:
    pass


@dataclass(frozen=True)
class OpenHelp:
    pass


@dataclass(frozen=True)
class CloseHelp:
    pass


@dataclass(frozen=True)
class Menu:
    form: FormInput = FormInput()


@dataclass(frozen=True)
class Back:
    pass


@dataclass(frozen=True)
class CloseScores:
    pass


@dataclass(frozen=True)
class Reseed:
    form: FormInput = FormInput()


@dataclass(frozen=True)
class SetPlayers:
    players: int
    form: FormInput = FormInput()


@dataclass(frozen=True)
class Resume:
    game_id: str


@dataclass(frozen=True)
class Delete:
    game_id: str


@dataclass(frozen=True)
class OpenLink:
    fragment: str


@dataclass(frozen=True)
class OpenReplay:
    pass


@dataclass(frozen=True)
class ReplayGo:
    where: str  # "first", "prev", "next", "last" or a step number


@dataclass(frozen=True)
class CloseReplay:
    pass


@dataclass(frozen=True)
class PlayFromReplay:
    pass


@dataclass(frozen=True)
class Say:
    """A message for the player (why a tap is not a choice now)."""

    text: str


@dataclass(frozen=True)
class WhyNot:
    """A tap on what is not a choice now: a decision's token (a card), or a board space."""

    token: str = ""
    space: str = ""


@dataclass(frozen=True)
class OpenTutorial:
    """Learn to play: the lesson ``lesson_id``, or ("") the first one not done yet."""

    lesson_id: str = ""


@dataclass(frozen=True)
class NextLesson:
    """On to the lesson after the one on screen."""


@dataclass(frozen=True)
class SkipLesson:
    """Skip the lesson on screen (kept as skipped; it can be played later)."""


@dataclass(frozen=True)
class RestartLesson:
    """The lesson on screen again from its start."""


@dataclass(frozen=True)
class CloseTutorial:
    """Leave the tutorial for the start screen (progress is kept)."""


@dataclass(frozen=True)
class StartFirstGame:
    """The tutorial's last step: an ordinary game with FIRST_GAME's settings."""


@dataclass(frozen=True)
class AskHint:
    """The person asks for a hint (the adapter asks the strongest bot, in the worker)."""


@dataclass(frozen=True)
class HintReady:
    """The bot's choice for the decision after ``at`` decisions (checked by the engine)."""

    token: str
    at: int


@dataclass(frozen=True)
class OpenLab:
    """Open the workbench: as it was left, or as the address's query (``?lab&...``) says."""

    query: str = ""


@dataclass(frozen=True)
class LabEdit:
    """A field of the workbench changed: ``name`` is its ``data-lab``."""

    name: str
    value: str


@dataclass(frozen=True)
class LabRun:
    pass


@dataclass(frozen=True)
class LabStop:
    pass


@dataclass(frozen=True)
class LabReset:
    pass


@dataclass(frozen=True)
class LabSave:
    pass


@dataclass(frozen=True)
class LabAnswer:
    """A worker's answer to a run's request (``lab_worker.play``)."""

    answer: str


@dataclass(frozen=True)
class LabFinished:
    """The run's games are all played (or it was stopped): ``elapsed`` seconds, in
    ``workers`` web workers (0: on this page)."""

    elapsed: float
    workers: int


@dataclass(frozen=True)
class WorkerChanged:
    worker: Worker
    note: str = ""


@dataclass(frozen=True)
class SavesChanged:
    """Another tab wrote to storage (the ``storage`` event): ``key`` None means cleared."""

    key: str | None = None


@dataclass(frozen=True)
class OpenNewest:
    """Open the game as it went on in another tab."""


@dataclass(frozen=True)
class KeepHere:
    """Go on in this tab anyway: the next decision here is saved as a game of its own."""


@dataclass(frozen=True)
class Share:
    pass


@dataclass(frozen=True)
class FullPage:
    pass


Intent = (
    StartGame | Play | BotPlayed | Ready | Undo | OpenHelp | CloseHelp | Menu | Back
    | CloseScores | Reseed | SetPlayers | Resume | Delete | OpenLink | OpenReplay | ReplayGo
    | CloseReplay | PlayFromReplay | Say | WhyNot | WorkerChanged | SavesChanged | OpenNewest
    | KeepHere | Share | FullPage | OpenTutorial | NextLesson | SkipLesson | RestartLesson
    | CloseTutorial | StartFirstGame | AskHint | HintReady | OpenLab | LabEdit | LabRun
    | LabStop | LabReset | LabSave | LabAnswer | LabFinished
)  # fmt: skip


class Effect(Enum):
    """What the adapter does after an intent (besides drawing the new state)."""

    RENDER = "render"  # draw the screen
    HELP_LAYER = "help-layer"  # show or hide the rules layer (a new screen only if needed)
    SHARE = "share"  # open the share panel for the game on screen
    FULL_PAGE = "full-page"  # open the full page in a new tab
    CLEAR_LINK = "clear-link"  # the link's game is saved: drop the link from the address
    HINT = "hint"  # ask the strongest bot for the person's decision on screen (ui.hint)
    LAB_RUN = "lab-run"  # play the workbench's run (bench.run) in web workers
    LAB_SAVE = "lab-save"  # download the workbench's variant as a file
    LAB_ADDRESS = "lab-address"  # put the workbench as it is in the address (a reload keeps it)


def ui_intent(name: str, form: FormInput = FormInput()) -> Intent | None:
    """The intent of a ``data-ui`` control (docs/PAGE.md lists them); None if unknown."""
    simple: dict[str, Intent] = {
        "ready": Ready(), "undo": Undo(), "help": OpenHelp(), "close-help": CloseHelp(),
        "back": Back(), "close-scores": CloseScores(), "share": Share(),
        "full-page": FullPage(), "replay": OpenReplay(), "replay-close": CloseReplay(),
        "replay-play": PlayFromReplay(), "open-newest": OpenNewest(), "keep-here": KeepHere(),
        "new-game": StartGame(form), "menu": Menu(form), "reseed": Reseed(form),
        "learn": OpenTutorial(), "next-lesson": NextLesson(), "skip-lesson": SkipLesson(),
        "restart-lesson": RestartLesson(), "close-tutorial": CloseTutorial(),
        "first-game": StartFirstGame(), "hint": AskHint(), "lab": OpenLab(),
        "lab-run": LabRun(), "lab-stop": LabStop(), "lab-reset": LabReset(),
        "lab-save": LabSave(),
    }  # fmt: skip
    if name in simple:
        return simple[name]
    kind, _, arg = name.partition(":")
    if kind == "players":
        return SetPlayers(int(arg) if arg in ("2", "3", "4") else 2, form)
    if kind == "resume":
        return Resume(arg)
    if kind == "delete":
        return Delete(arg)
    if kind == "lesson":
        return OpenTutorial(arg)
    if name.startswith("replay-"):
        return ReplayGo(name.removeprefix("replay-"))
    return None


ALL: frozenset[Effect] = frozenset({Effect.RENDER})
NONE: frozenset[Effect] = frozenset()


# -- the controller -----------------------------------------------------------------------
class Controller:
    """The page's state and its changes; knows nothing of the browser."""

    def __init__(
        self, store: SaveStore, embed: bool = False, rng: random.Random | None = None
    ) -> None:
        self.rng = rng or random.Random()
        self.store = store
        self.embed = embed
        self.form = NewGameForm(seed=self.rng.randrange(1, 10**6))
        self.ui = UiState(save_error=store.error if store.full else "")
        # the tutorial's progress (its own key beside the saved games), and what could not
        # be read of it, said once when the tutorial opens
        self.progress, self.progress_note = load_progress(store.read(STORAGE_KEY))
        self.guided = ""  # the id of the tutorial's first game while it is on in this tab
        # the board's unchanging layer (key, markup) of the last game markup, for the adapter
        self.static: tuple[str, str] | None = None
        self.bench: Workbench | None = None  # the designer's workbench, once opened
        self.page_url = ""  # the page's address without query or fragment (for links)

    # -- reading --------------------------------------------------------------------------
    @property
    def session(self) -> Session | None:
        return self.ui.game.session if self.ui.game else None

    @property
    def game_id(self) -> str:
        return self.ui.game.game_id if self.ui.game else ""

    def bots_may_play(self) -> bool:
        """A bot decides only in the game on screen: not under the rules, a replay, the
        start screen, nor while this tab is behind another's game."""
        s = self.session
        return (
            s is not None
            and isinstance(self.ui.screen, GameScreen)
            and not self.ui.help_open
            and not (self.ui.elsewhere and not self.ui.elsewhere.forked)
            and s.bot_to_move()
        )

    def on_lesson(self) -> bool:
        """A lesson in play with nothing over it: its moves and keys count."""
        screen = self.ui.screen
        return (
            isinstance(screen, TutorialScreen)
            and screen.session is not None
            and (not self.ui.help_open)
        )

    def body_attributes(self) -> dict[str, str | None]:
        """The tutorial's test contract on ``<body>`` (None: the attribute is removed)."""
        screen = self.ui.screen
        lesson = screen.lesson_id if isinstance(screen, TutorialScreen) else None
        done = (
            isinstance(screen, TutorialScreen)
            and screen.session is not None
            and (screen.session.done)
        )
        run = self.bench.run if self.bench is not None else None
        return {
            "data-nova-lesson": lesson,
            "data-nova-lesson-done": "" if done else None,
            "data-nova-tutorial": "done" if self.progress.finished else None,
            # the workbench's: its last run's games played, and that it ended (how)
            "data-nova-lab-games": f"{run.done}/{run.total}" if run else None,
            "data-nova-lab-done": run.status if run is not None and run.finished else None,
            "data-nova-lab-moves": run.moves() if run is not None and run.finished else None,
        }

    def hint_shown(self) -> Hint | None:
        """The hint for the decision on screen (asked or ready), if any."""
        h, s = self.ui.hint, self.session
        if h is None or s is None or h.game_id != self.game_id or h.at != s.moves:
            return None
        return h

    def hint_request(self) -> str | None:
        """The worker's request for the hint asked now: the strongest bot in the person's
        seat, on what that seat may see (``bot_turns.bot_request``); None if none asked."""
        s = self.session
        if s is None or self.hint_shown() is None or s.state.is_over():
            return None
        seat = s.state.current_player
        bots = list(s.record.bots)
        bots[seat] = HINT_BOT
        seed = s.record.seed * 1_000_003 + s.moves
        return bot_request(s.state, seat, bots, seed, self.form.think_ms, f"hint:{self.game_id}")

    def on_game(self) -> bool:
        """The game screen with nothing over it: a person's moves and keys count."""
        return isinstance(self.ui.screen, GameScreen) and not self.ui.help_open

    # -- changing -------------------------------------------------------------------------
    def set(self, **changes) -> None:
        self.ui = replace(self.ui, **changes)

    def start(self, fragment: str = "", query: str = "") -> frozenset[Effect]:
        """The page opens: the workbench if the address asks for it (``?lab``), a link's
        game, else the game the last save was of."""
        if query.lstrip("?").split("&")[0] == "lab":
            return self.dispatch(OpenLab(query))
        if fragment:
            return self.dispatch(OpenLink(fragment))
        current = self.store.current()
        if current:
            self.resume(current)
        return ALL

    def dispatch(self, intent: Intent) -> frozenset[Effect]:
        """Apply ``intent``; the effects say what the adapter does next."""
        ui = self.ui
        s = self.session
        quiet = (
            OpenHelp | CloseHelp | Say | WhyNot | WorkerChanged | SavesChanged | BotPlayed
            | HintReady | LabAnswer | LabFinished
        )  # fmt: skip
        if not isinstance(intent, quiet):  # a person's action replaces the last message
            self.set(message="")
        match intent:
            case Play(token) if isinstance(ui.screen, TutorialScreen):
                if ui.help_open or ui.screen.session is None:
                    return NONE
                self.lesson_move(ui.screen, token)
            case WhyNot(token, space) if isinstance(ui.screen, TutorialScreen):
                why = self.lesson_why_not(ui.screen, token, space)
                if not why or why == ui.message or ui.help_open:
                    return NONE
                self.set(message=why)
            case OpenTutorial(lesson_id):
                self.open_lesson(lesson_id if lesson_id in TUTORIAL_IDS else "")
            case NextLesson() if isinstance(ui.screen, TutorialScreen):
                self.open_lesson(self.lesson_after(ui.screen.lesson_id))
            case SkipLesson() if isinstance(ui.screen, TutorialScreen):
                self.save_progress(self.progress.skip(ui.screen.lesson_id))
                self.open_lesson(self.lesson_after(ui.screen.lesson_id))
            case RestartLesson() if isinstance(ui.screen, TutorialScreen):
                self.open_lesson(ui.screen.lesson_id)
            case CloseTutorial():
                self.set(screen=NewGameScreen(), help_open=False)
            case StartFirstGame():
                self.start_first_game()
            case AskHint() if s is not None and self.on_game():
                if s.state.is_over() or s.needs_pass() or s.bot_to_move():
                    self.set(message="A hint is for your own decision: none is asked of you now.")
                    return ALL
                if self.hint_shown() is not None:
                    return NONE  # asked already for this decision
                self.set(hint=Hint(self.game_id, s.moves))
                return frozenset({Effect.RENDER, Effect.HINT})
            case HintReady(token, at):
                h = ui.hint
                if s is None or h is None or h.token or h.at != at or s.moves != at:
                    return NONE  # stale: the game moved on while the bot thought
                text = hint_text(s, token)
                s.note(f"Hint shown: {text}")
                self.set(hint=replace(h, token=token, text=text))
            case Play(token):
                if not self.on_game() or s is None or s.bot_to_move():
                    return NONE
                try:
                    s.play(token)
                except IllegalMove as exc:
                    self.set(message=str(exc))
                    return ALL
                self.autosave()
            case BotPlayed(token, note):
                if s is None:
                    return NONE
                s.play(token)
                if note:
                    self.set(message=note)
                self.autosave()
            case StartGame(form):
                if not self.read_form(form):
                    return ALL
                f = self.form
                n = f.players
                names, colours = f.names[:n], safe_colours(f.colours[:n])
                self.open(Session.new(n, f.seed, names, colours, f.bots[:n]), new_id(f.seed))
                f.seed = self.rng.randrange(1, 10**6)  # the next game gets a fresh seed
                self.autosave()
            case Ready() if s is not None and self.on_game():
                s.ready()
            case Undo() if s is not None and self.on_game():
                if s.undo():
                    self.autosave()
            case OpenHelp():
                self.set(help_open=True)
                return frozenset({Effect.HELP_LAYER})
            case CloseHelp():
                self.set(help_open=False)
                return frozenset({Effect.HELP_LAYER})
            case Menu(form):
                self.read_form_quietly(form)
                leaving_lab = isinstance(ui.screen, LabScreen)
                self.set(screen=NewGameScreen(), help_open=False)
                if leaving_lab:  # the address no longer opens the workbench on a reload
                    return frozenset({Effect.RENDER, Effect.CLEAR_LINK})
            case Back() if s is not None:
                self.set(screen=GameScreen())
            case CloseScores() if isinstance(ui.screen, GameScreen):
                self.set(screen=GameScreen(scores_closed=True))
            case Reseed(form):
                self.read_form_quietly(form)
                self.form.seed = self.rng.randrange(1, 10**6)
            case SetPlayers(n, form):
                self.read_form_quietly(form)
                self.form.players = n
            case Resume(game_id):
                self.resume(game_id)
            case Delete(game_id):
                self.store.delete(game_id)
                if game_id == self.game_id:
                    self.set(screen=NewGameScreen(), game=None, elsewhere=None)
            case OpenLink(fragment):
                return self.open_link(fragment)
            case OpenReplay() if s is not None:
                back = ui.screen if isinstance(ui.screen, GameScreen) else GameScreen()
                self.set(screen=ReplayScreen(s.record, len(s.record.moves), back))
            case ReplayGo(where) if isinstance(ui.screen, ReplayScreen):
                replay = Replay(ui.screen.record, ui.screen.step)
                self.set(screen=replace(ui.screen, step=replay.go(where)))
            case CloseReplay() if isinstance(ui.screen, ReplayScreen):
                self.set(screen=ui.screen.back)
            case PlayFromReplay() if isinstance(ui.screen, ReplayScreen):
                record = Replay(ui.screen.record, ui.screen.step).record_upto_step()
                self.open(Session(record), new_id(self.rng.randrange(4096)))
                self.autosave()
            case Say(text):
                if text == ui.message:
                    return NONE
                self.set(message=text)
            case WhyNot(token, space):
                if s is None or not self.on_game() or s.state.is_over() or s.needs_pass():
                    return NONE
                why = s.why_not(token) if token else s.why_not_space(space)
                if not why or why == ui.message:
                    return NONE
                self.set(message=why)
            case OpenLab(query):
                if query or self.bench is None:
                    self.bench = Workbench.from_query(query)
                self.set(screen=LabScreen(), help_open=False)
                return frozenset({Effect.RENDER, Effect.LAB_ADDRESS})
            case LabEdit(name, value) if self.bench is not None:
                self.bench.edit(name, value)
                return frozenset({Effect.RENDER, Effect.LAB_ADDRESS})
            case LabReset() if self.bench is not None:
                self.bench.reset()
                return frozenset({Effect.RENDER, Effect.LAB_ADDRESS})
            case LabRun() if self.bench is not None and isinstance(ui.screen, LabScreen):
                why = self.bench.why_not_run()
                if why:
                    self.set(message=f"The run cannot start: {why}.")
                    return ALL
                self.bench.start_run()
                return frozenset({Effect.RENDER, Effect.LAB_RUN})
            case LabStop() if self.bench is not None and self.bench.run is not None:
                self.bench.run.stop()
            case LabAnswer(answer) if self.bench is not None and self.bench.run is not None:
                self.bench.run.add(answer)
            case LabFinished(elapsed, workers) if self.bench and self.bench.run is not None:
                self.bench.run.workers = workers
                self.bench.run.finish(elapsed)
            case LabSave() if self.bench is not None:
                return frozenset({Effect.LAB_SAVE})
            case WorkerChanged(worker, note):
                self.set(worker=worker, worker_note=note or ui.worker_note)
            case SavesChanged(key):
                return self.saves_changed(key)
            case OpenNewest() if ui.elsewhere is not None:
                self.resume(ui.elsewhere.game_id)
            case KeepHere():
                self.set(elsewhere=None)
            case Share() if s is not None:
                return frozenset({Effect.SHARE})
            case FullPage():
                return frozenset({Effect.FULL_PAGE})
            case _:
                return ALL  # not possible now (e.g. undo on the start screen): redraw
        return ALL

    def key_intent(
        self, key: str, focused_move: str | None = None, on_button: bool = False
    ) -> Intent | None:
        """The intent of a key (docs/PAGE.md, "Keys"): ``focused_move`` is the move of a
        focused board target or Academy card, ``on_button`` whether a button has the focus
        (Enter clicks it). None: nothing, or a hand card's digit (the adapter focuses it)."""
        ui = self.ui
        s = self.session
        if key == "Escape":  # closes the topmost dialog (the share panel is the adapter's)
            if ui.help_open:
                return CloseHelp()
            return CloseScores() if ui.name == "scores" else None
        if key in ("?", "h"):
            return OpenHelp()
        if isinstance(ui.screen, ReplayScreen):  # arrows step through the replay
            step = {"ArrowLeft": "prev", "ArrowRight": "next"}.get(key)
            return ReplayGo(step) if step else None
        if self.on_lesson():
            return self.lesson_key(key, focused_move, on_button)
        if s is None or not self.on_game():
            return None
        if s.needs_pass():
            return Ready() if key in ("Enter", " ") else None
        if key == "u":
            return Undo()
        if key in ("Enter", " ") and focused_move:
            return Play(focused_move)
        legal = [str(m) for m in s.view().get("legal", [])]
        if key == "e" or (key == "Enter" and not on_button):
            return Play("E") if "E" in legal else None
        if key in CARD_KEYS:
            return None
        return next((Play(t) for t, k in assign_keys(legal).items() if k == key), None)

    # -- the tutorial -----------------------------------------------------------------------
    def open_lesson(self, lesson_id: str) -> None:
        """Show lesson ``lesson_id`` from its start ("": the first one not done yet); a
        progress save that could not be read is said once, here."""
        lesson_id = lesson_id or self.progress.next_lesson() or TUTORIAL_IDS[0]
        session = None if lesson_id == FIRST_GAME.id else start_lesson(BY_ID[lesson_id])
        self.set(screen=TutorialScreen(lesson_id, session), help_open=False)
        if self.progress_note:
            self.set(message=self.progress_note)
            self.progress_note = ""

    @staticmethod
    def lesson_after(lesson_id: str) -> str:
        i = TUTORIAL_IDS.index(lesson_id)
        return TUTORIAL_IDS[min(i + 1, len(TUTORIAL_IDS) - 1)]

    def lesson_move(self, screen: TutorialScreen, token: str) -> None:
        """A tap on a move in a lesson: taken if the lesson offers it, else why not."""
        assert screen.session is not None
        step = screen.session.try_move(token)
        if step.refused:
            self.set(message=_sentence(step.refused))
            return
        self.set(screen=replace(screen, session=step.session))
        if step.session.done:
            self.save_progress(self.progress.complete(screen.lesson_id))

    def lesson_why_not(self, screen: TutorialScreen, token: str, space: str) -> str:
        """Why a tap in a lesson on what is not a choice now (a card, a board space)."""
        ls = screen.session
        if ls is None:
            return ""
        if token:
            return _sentence(ls.why_not(token))
        moves = [m for m in ls.state.legal_moves() if target_of(m).name == space]
        if moves:
            return _sentence(ls.why_not(moves[0]))
        lesson = ls.lesson
        if ls.done:
            return _sentence(ls.why_not(""))
        return _sentence(f"{space} is not a choice now. The goal: {lesson.goal} ({lesson.rule})")

    def save_progress(self, progress: TutorialProgress) -> None:
        """Keep the progress (in memory always; in storage when it can be written), with
        what another tab stored meanwhile: a lesson done there stays done."""
        stored, _ = load_progress(self.store.read(STORAGE_KEY))
        done = progress.done | stored.done
        skipped = (progress.skipped | stored.skipped) - done
        self.progress = TutorialProgress(progress.lesson_ids, done, skipped)
        self.store.write(STORAGE_KEY, self.progress.to_json())

    def start_first_game(self) -> None:
        """The tutorial hands over to an ordinary game with FIRST_GAME's settings."""
        g = FIRST_GAME
        self.form.pace = g.pace
        names, bots = list(g.names), list(g.bots)
        # a game record has no first player of its own (the seed decides): the player sits
        # in the seat that moves first, as FIRST_GAME wants
        first = GameRecord(players=g.players, seed=g.seed).initial_state().current_player
        shift = (first - g.human_seat) % g.players
        names, bots = names[-shift:] + names[:-shift], bots[-shift:] + bots[:-shift]
        colours = safe_colours(list(DEFAULT_COLOURS[: g.players]))
        self.open(Session.new(g.players, g.seed, names, colours, bots), new_id(g.seed))
        self.save_progress(self.progress.complete(g.id))
        self.autosave()
        self.guided = self.game_id

    def lesson_key(self, key: str, focused_move: str | None, on_button: bool) -> Intent | None:
        """A lesson's keys are the game's: Enter or Space plays the focused target, e (or
        Enter on no button) ends the turn, letters the choices of the moment."""
        screen = self.ui.screen
        assert isinstance(screen, TutorialScreen) and screen.session is not None
        ls = screen.session
        if ls.done:
            return None
        if key in ("Enter", " ") and focused_move:
            return Play(focused_move)
        if on_button and key in ("Enter", " "):
            return None  # the browser clicks the focused button
        legal = [str(m) for m in ls.state.view(ls.lesson.seat).get("legal", [])]
        if key == "e" or key == "Enter":
            return Play("E") if "E" in legal else None
        if key in CARD_KEYS:
            return None
        return next((Play(t) for t, k in assign_keys(legal).items() if k == key), None)

    def read_form(self, got: FormInput) -> bool:
        """Take the form's fields into ``self.form``; False (and a message) if bad."""
        f = self.form
        for i in range(f.players):
            if i < len(got.names) and got.names[i] is not None:
                f.names[i] = str(got.names[i])[:24] or f"Player {i + 1}"
            if i < len(got.colours) and HEX.match(str(got.colours[i] or "")):
                f.colours[i] = str(got.colours[i])
            bot = got.bots[i] if i < len(got.bots) else None
            if bot is not None:
                f.bots[i] = bot if bot in BOT_NAMES else ""
        if got.pace in BOT_PACES:
            f.pace = got.pace
        if got.think_ms is not None and got.think_ms.isdigit() and int(got.think_ms) in THINK_MS:
            f.think_ms = int(got.think_ms)
        if got.seed is not None:
            text = got.seed.strip()
            if not text.isdigit() or len(text) > 18:
                self.set(message="The seed must be a whole number (0 or more).")
                return False
            f.seed = int(text)
        return True

    def read_form_quietly(self, got: FormInput) -> None:
        """Keep what was typed in the form when the start screen is redrawn."""
        if isinstance(self.ui.screen, NewGameScreen) and not self.ui.help_open:
            keep = self.ui.message
            self.read_form(got)
            self.set(message=keep)

    def open(self, session: Session, game_id: str, synced: Moves | None = None) -> None:
        """Put ``session`` on screen as the tab's game."""
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
            self.form.pace = settings["pace"]
        if settings.get("think_ms") in THINK_MS:
            self.form.think_ms = settings["think_ms"]
        self.open(session, game_id, tuple(record.moves))

    def open_link(self, fragment: str) -> frozenset[Effect]:
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
        ui = self.ui
        self.static = None
        match ui.screen:
            case ReplayScreen(record=record, step=step):
                return Replay(record, step).screen_html(safe_colours(record.colours))
            case TutorialScreen(session=None):
                return first_game_html(self.progress, ui.message)
            case TutorialScreen(session=session) if session is not None:
                return lesson_html(session, self.progress, ui.message)
            case LabScreen() if self.bench is not None:
                return workbench_html(self.bench, ui.message, self.page_url)
            case GameScreen(scores_closed=scores_closed) if ui.game is not None:
                return self.elsewhere_html() + self.game_markup(ui.game.session, scores_closed,
                                                                known)  # fmt: skip
            case _:
                return new_game_html(
                    self.form, self.store.entries(), ui.message,
                    ui.save_error or self.store.error,
                    can_return=ui.game is not None, embed=self.embed,
                )  # fmt: skip

    def game_markup(self, s: Session, scores_closed: bool, known: frozenset[str]) -> str:
        ui = self.ui
        names = s.record.names
        colours = safe_colours(s.record.colours)
        view = s.view()
        if s.needs_pass():
            return pass_html(
                view, names, colours, s.state.current_player, self.embed, s.marks(),
                " ".join(x for x in (ui.message, ui.save_error) if x),
            )  # fmt: skip
        thinking = ""
        if s.bot_to_move():
            seat = s.state.current_player
            who = f"{names[seat]} ({s.record.bots[seat]} bot)"
            thinking = f"{who} is thinking…"
            if ui.worker is Worker.STARTING:
                thinking = f"{who} is getting ready…"
            if ui.elsewhere and not ui.elsewhere.forked:
                thinking = f"{who} waits: this game went on in another tab."
        guided = self.guided and self.game_id == self.guided and len(s.states) > 1
        if guided and not thinking:  # the first game's prompt says what just happened
            human = s.humans[0] if s.humans else 0
            thinking = narrate(s.states[-2], s.record.moves[-1], s.state, human)
        off = "" if self.store.available else self.store.error
        hint = self.hint_shown()
        said = ""
        if hint is not None:
            said = f"Hint: {hint.text}" if hint.token else "Looking for a hint…"
        status = " ".join(x for x in (said, off, ui.save_error, ui.worker_note) if x)
        self.static = static_layer(view, colours)
        hinted = hint.token if hint is not None else ""
        if hinted:  # the marked choice may be in a part the page shows: send every part
            known = frozenset()
        html = game_html(
            view, names, colours, s.record.bots, s.log, s.can_undo(), ui.message, thinking,
            True, status, self.embed, marks=s.marks(), log_turns=s.log_turns(), known=known,
            undo_why=s.undo_block(),
        )  # fmt: skip
        if hinted:  # new keys, or the page's morph keeps its unmarked parts (render/keep.py)
            html = rekeyed(mark_hint(html, hinted), hinted)
        if s.state.is_over() and not scores_closed:
            html += scores_html(view, names, colours)
        return html

    def elsewhere_html(self) -> str:
        """The notice that this game went on in another tab, with the way to the newest."""
        e = self.ui.elsewhere
        if e is None:
            return ""
        went_on = f"This game went on in another tab ({e.moves} decisions saved there)."
        if e.forked:
            what = "Your moves here are kept as a saved game of their own."
            keep = ""
        else:
            what = "A move here is kept as a saved game of its own."
            keep = '<button type="button" data-ui="keep-here" class="secondary">Stay here</button>'
        return (
            f'<div class="nova-elsewhere" role="alert"><p>{went_on} {what}</p>'
            '<button type="button" data-ui="open-newest" class="primary">Open the newest</button>'
            f"{keep}</div>"
        )


def _sentence(text: str) -> str:
    """A refusal as the alert shows it: a capital first letter."""
    return text[:1].upper() + text[1:] if text else ""


def hint_text(s: Session, token: str) -> str:
    """One line of what the hinted decision does and gains (public facts only: the log's
    words for it and the Cargo Bays' points)."""
    before = s.state
    seat = before.current_player
    after = before.apply(token)
    line = describe(before, token, after, s.record.names)
    lay = layout_for(s.record.players, s.record.variant)

    def bays(state) -> int:
        seat_view = state.view(seat)["seats"][seat]
        return sum(best_bay_split(b, lay.bay_sets)[0] for b in seat_view["bays"])

    gain = bays(after) - bays(before)
    words = line or "this decision"
    return f"{words}: Cargo Bays +{gain} pts" if gain > 0 else words


def mark_hint(html: str, token: str) -> str:
    """Mark the element that plays ``token`` with ``data-hint`` (the hint, never played)."""
    attr = f'data-move="{html_escape(token, quote=True)}"'
    return html.replace(attr, attr + " data-hint", 1)
