"""What the page shows, as one frozen value (:class:`UiState`), and the intents that are
the whole page's rather than one screen's. Pure Python."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..render.screens import NewGameForm
from ..tutorial import TutorialProgress, new_progress
from .screens.base import Elsewhere, FormInput, Game, Intent, ScreenState
from .screens.game import Hint, SharePanel
from .screens.start import NewGameScreen
from .screens.why import BotWhy

if TYPE_CHECKING:
    from .session import Session


@dataclass(frozen=True)
class UiState:
    """The whole of what the page shows: the screen, the game open in the tab, the rules
    dialog over the screen, the bots' worker, the alert, what the saves say, the hint, the
    share panel, the new-game form, the tutorial's progress. A step returns a new one
    (:meth:`but`); the workbench, a model that changes in place, is the page's
    (``screens.base.Page``), not in here."""

    screen: ScreenState = NewGameScreen()
    game: Game | None = None
    help_open: bool = False
    message: str = ""  # the alert: bad input, a link that could not be opened, why not
    elsewhere: Elsewhere | None = None
    save_error: str = ""  # the last save failed (storage full): said, the game plays on
    hint: Hint | None = None  # shown only while its decision is the one on screen
    why: BotWhy | None = None  # what a bot weighed for its last searched turn (on request)
    share: SharePanel | None = None  # the share dialog over the game screen
    form: NewGameForm = field(default_factory=NewGameForm)
    progress: TutorialProgress = field(default_factory=new_progress)
    progress_note: str = ""  # what could not be read of the progress: said once, then ""
    guided: str = ""  # the id of the tutorial's first game while it is on in this tab

    def __post_init__(self) -> None:
        if self.screen.needs_game and self.game is None:
            raise ValueError(f"the {self.screen.name} screen needs a game")

    def but(self, **changes: Any) -> UiState:
        """This state with ``changes``; the share panel is the game screen's, and closes
        with it."""
        if "screen" in changes and "share" not in changes:
            changes["share"] = None
        return replace(self, **changes)

    @property
    def session(self) -> Session | None:
        """The game on screen: a screen's own (``holds_game``: a game by links on this
        device), else the tab's game."""
        if getattr(self.screen, "holds_game", False):
            return getattr(self.screen, "session", None)
        return self.game.session if self.game else None

    @property
    def game_id(self) -> str:
        return self.game.game_id if self.game else ""

    @property
    def name(self) -> str:
        """``data-nova-screen``: help / new / pass / scores / game / replay / tutorial / lab."""
        if self.help_open:
            return "help"
        return self.screen.shown_as(self.game.session if self.game else None)


# -- the page's own intents (each screen's are in its module) -------------------------------
@dataclass(frozen=True)
class OpenHelp(Intent):
    pass


@dataclass(frozen=True)
class CloseHelp(Intent):
    pass


@dataclass(frozen=True)
class Menu(Intent):
    """To the start screen (what was typed in its form is kept)."""

    form: FormInput = FormInput()


@dataclass(frozen=True)
class Back(Intent):
    """From the start screen back to the game."""


@dataclass(frozen=True)
class OpenLink(Intent):
    fragment: str


@dataclass(frozen=True)
class Say(Intent):
    """A message for the player (why a tap is not a choice now)."""

    text: str


@dataclass(frozen=True)
class SavesChanged(Intent):
    """Another tab wrote to storage (the ``storage`` event): ``key`` None means cleared."""

    key: str | None = None


@dataclass(frozen=True)
class OpenNewest(Intent):
    """Open the game as it went on in another tab."""


@dataclass(frozen=True)
class KeepHere(Intent):
    """Go on in this tab anyway: the next decision here is saved as a game of its own."""


@dataclass(frozen=True)
class FullPage(Intent):
    """Embedded: open the full page in a new tab."""
