"""The replay: the game on screen watched decision by decision, and played on from any of
them as a new game. Pure Python."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar

from ...record import GameRecord
from ..effects import ALL
from ..saves import new_id
from ..session import Session
from ..share import Replay
from ..tab import autosave
from .base import Drawing, Intent, Page, Result, ScreenDef, UiName, safe_colours
from .game import GameScreen, open_game
from .links import LinksScreen

if TYPE_CHECKING:
    from ..state import UiState


@dataclass(frozen=True)
class ReplayScreen:
    """The game on screen watched move by move; ``back`` is the game screen it came from."""

    name: ClassVar[str] = "replay"
    record: GameRecord = field(compare=False)
    step: int
    back: Any = GameScreen()  # the screen it came from: the game, or a game by links
    states: tuple | None = field(default=None, compare=False)  # a game by links' states
    public: bool = False  # a game by links: no hand shown, no "Play from here"

    @property
    def needs_game(self) -> bool:
        """The tab's game, unless it is a game by links' (which the screen holds itself)."""
        return not self.public

    def replay(self) -> Replay:
        states = list(self.states) if self.states is not None else None
        return Replay(self.record, self.step, states, self.public)

    def shown_as(self, session: Session | None) -> str:
        return self.name


@dataclass(frozen=True)
class OpenReplay(Intent):
    pass


@dataclass(frozen=True)
class ReplayGo(Intent):
    where: str  # "first", "prev", "next", "last" or a step number ("seek": the adapter's)


@dataclass(frozen=True)
class CloseReplay(Intent):
    pass


@dataclass(frozen=True)
class PlayFromReplay(Intent):
    pass


def open_replay(page: Page, ui: UiState, intent: OpenReplay) -> Result:
    s = ui.session
    if s is not None and isinstance(ui.screen, LinksScreen):
        n = len(s.record.moves)
        ui = ui.but(screen=ReplayScreen(s.record, n, ui.screen, tuple(s.states), public=True))
    elif s is not None:
        back = ui.screen if isinstance(ui.screen, GameScreen) else GameScreen()
        ui = ui.but(screen=ReplayScreen(s.record, len(s.record.moves), back))
    return ui, ALL


def go(page: Page, ui: UiState, screen: ReplayScreen, intent: ReplayGo) -> Result:
    replay = screen.replay()
    return ui.but(screen=replace(screen, step=replay.go(intent.where))), ALL


def close(page: Page, ui: UiState, screen: ReplayScreen, intent: CloseReplay) -> Result:
    return ui.but(screen=screen.back), ALL


def play_from_here(page: Page, ui: UiState, screen: ReplayScreen, intent: PlayFromReplay) -> Result:
    if screen.public:
        return ui, ALL
    record = screen.replay().record_upto_step()
    ui = open_game(page, ui, Session(record), new_id(page.rng.randrange(4096)))
    return autosave(page, ui), ALL


def keys(ui: UiState, screen: ReplayScreen, key: str, focused_move: str | None,
         on_button: bool) -> ReplayGo | None:  # fmt: skip
    """The arrows step through the replay."""
    step = {"ArrowLeft": "prev", "ArrowRight": "next"}.get(key)
    return ReplayGo(step) if step else None


def markup(page: Page, ui: UiState, screen: ReplayScreen, known: frozenset[str]) -> Drawing:
    return Drawing(screen.replay().screen_html(safe_colours(screen.record.colours)))


def _go(where: str) -> UiName:
    return lambda arg, form: ReplayGo(where)


SCREEN = ScreenDef(
    state=ReplayScreen,
    markup=markup,
    steps={ReplayGo: go, CloseReplay: close, PlayFromReplay: play_from_here},
    anywhere={OpenReplay: open_replay},
    ui={
        "replay": lambda arg, form: OpenReplay(),
        "replay-close": lambda arg, form: CloseReplay(),
        "replay-play": lambda arg, form: PlayFromReplay(),
        **{f"replay-{where}": _go(where) for where in ("first", "prev", "next", "last")},
        "replay-seek": lambda arg, form: ReplayGo(form.seek or ""),
    },
    keys=keys,
)
