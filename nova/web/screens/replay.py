"""The replay: the game on screen watched decision by decision, and played on from any of
them as a new game. Pure Python."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar

from ...record import GameRecord
from ..saves import new_id
from ..session import Session
from ..share import Replay
from .base import ALL, Effect, Intent, ScreenDef, UiName, safe_colours
from .game import GameScreen

if TYPE_CHECKING:
    from ..controller import Controller


@dataclass(frozen=True)
class ReplayScreen:
    """The game on screen watched move by move; ``back`` is the game screen it came from."""

    name: ClassVar[str] = "replay"
    record: GameRecord = field(compare=False)
    step: int
    back: Any = GameScreen()  # the screen it came from: the game, or a game by links
    states: list | None = field(default=None, compare=False)  # a game by links' states
    public: bool = False  # a game by links: no hand shown, no "Play from here"

    @property
    def needs_game(self) -> bool:
        """The tab's game, unless it is a game by links' (which the screen holds itself)."""
        return not self.public

    def replay(self) -> Replay:
        return Replay(self.record, self.step, self.states, self.public)

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


def open_replay(c: Controller, intent: OpenReplay) -> frozenset[Effect]:
    s = c.session
    from .links import LinksScreen

    if s is not None and isinstance(c.ui.screen, LinksScreen):
        n = len(s.record.moves)
        c.set(screen=ReplayScreen(s.record, n, c.ui.screen, list(s.states), public=True))
    elif s is not None:
        back = c.ui.screen if isinstance(c.ui.screen, GameScreen) else GameScreen()
        c.set(screen=ReplayScreen(s.record, len(s.record.moves), back))
    return ALL


def go(c: Controller, screen: ReplayScreen, intent: ReplayGo) -> frozenset[Effect]:
    replay = screen.replay()
    c.set(screen=replace(screen, step=replay.go(intent.where)))
    return ALL


def close(c: Controller, screen: ReplayScreen, intent: CloseReplay) -> frozenset[Effect]:
    c.set(screen=screen.back)
    return ALL


def play_from_here(
    c: Controller, screen: ReplayScreen, intent: PlayFromReplay
) -> frozenset[Effect]:
    if screen.public:
        return ALL
    record = screen.replay().record_upto_step()
    c.open(Session(record), new_id(c.rng.randrange(4096)))
    c.autosave()
    return ALL


def keys(c: Controller, screen: ReplayScreen, key: str, focused_move: str | None,
         on_button: bool) -> ReplayGo | None:  # fmt: skip
    """The arrows step through the replay."""
    step = {"ArrowLeft": "prev", "ArrowRight": "next"}.get(key)
    return ReplayGo(step) if step else None


def markup(c: Controller, screen: ReplayScreen, known: frozenset[str]) -> str:
    return screen.replay().screen_html(safe_colours(screen.record.colours))


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
        **{f"replay-{where}": _go(where) for where in ("first", "prev", "next", "last", "seek")},
    },
    keys=keys,
)
