"""What the screens share: the game open in the tab, the intents more than one screen
accepts, the key map of a decision, what a step may use beside the state (:class:`Page`),
a screen's drawing, and :class:`ScreenDef`, a screen's entry in the controller's table
(``controller.SCREENS``). Pure Python."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Protocol

from ...record import DEFAULT_COLOURS
from ...render.prompts import CARD_KEYS, assign_keys
from ..effects import ALL, NONE, Effects

if TYPE_CHECKING:
    from ...lab.workbench import Workbench
    from ..saves import Moves, SaveStore
    from ..session import Session
    from ..state import UiState

HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def safe_colours(colours: list[str]) -> list[str]:
    """Only #rrggbb reaches a style attribute; anything else gets the default colour."""
    return [c if HEX.match(c or "") else DEFAULT_COLOURS[i % 4] for i, c in enumerate(colours)]


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


class ScreenState(Protocol):
    """A screen's state (a frozen dataclass): ``name`` is its ``data-nova-screen``, and a
    screen that shows the game (``needs_game``) cannot be made without one."""

    name: ClassVar[str]
    needs_game: ClassVar[bool]

    def shown_as(self, session: Session | None) -> str: ...


# -- intents more than one screen accepts -------------------------------------------------
class Intent:
    """What a person or the page asks for: each intent is a frozen dataclass of this kind,
    defined by the screen it is for (``nova/web/screens/``) or the page (``state.py``)."""

    __slots__ = ()


@dataclass(frozen=True)
class FormInput:
    """What the page's fields say when a control is pressed (read by the adapter): the
    new-game form's, the replay's slider (``seek``) and the page's address (``here``);
    None: a field not on the page."""

    names: tuple[str | None, ...] = ()
    colours: tuple[str | None, ...] = ()
    bots: tuple[str | None, ...] = ()
    pace: str | None = None
    think_ms: str | None = None
    seed: str | None = None
    seek: str | None = None
    here: str = ""


@dataclass(frozen=True)
class Play(Intent):
    """A tap (or key) on a decision: ``token`` is its ``data-move``."""

    token: str


@dataclass(frozen=True)
class WhyNot(Intent):
    """A tap on what is not a choice now: a decision's token (a card), or a board space."""

    token: str = ""
    space: str = ""


def say_why_not(ui: UiState, game: Session, intent: WhyNot) -> Result:
    """Show why ``intent``'s tap is not a choice now (a game on this device or by links, in
    its words naming the rule), unless it is one or that is shown already."""
    why = game.why_not(intent.token) if intent.token else game.why_not_space(intent.space)
    return say(ui, why)


def say(ui: UiState, text: str) -> Result:
    """``text`` in the alert, unless it is empty or already said (nothing to draw)."""
    if not text or text == ui.message:
        return ui, NONE
    return ui.but(message=text), ALL


def saving_off(page: Page) -> str:
    """What the page says while saving is off ("" when it is on): in a frame, how to
    keep a game begun there, before it matters (docs/PAGE.md, "Embed mode")."""
    if page.store.available:
        return ""
    return SAVING_OFF_IN_A_FRAME if page.embed else page.store.error


SAVING_OFF_IN_A_FRAME = (  # short: the phone frame's status shows two lines
    "Saving is off in this frame: to keep this game, open it in Full page ↗ or Share its link."
)


def choice_key(
    key: str, focused_move: str | None, on_button: bool, legal: list[str]
) -> Play | None:
    """The keys of a decision (docs/PAGE.md, "Keys"), the game's and a lesson's alike:
    Enter or Space plays the focused target, e (or Enter on no button) ends the turn,
    letters the choices of the moment; a hand card's digit is the adapter's (it focuses
    the card). None: nothing."""
    if key in ("Enter", " ") and focused_move:
        return Play(focused_move)
    if on_button and key in ("Enter", " "):
        return None  # the browser clicks the focused button
    if key == "e" or key == "Enter":
        return Play("E") if "E" in legal else None
    if key in CARD_KEYS:
        return None
    return next((Play(t) for t, k in assign_keys(legal).items() if k == key), None)


# -- a screen's entry in the controller's table -------------------------------------------
class Page(Protocol):
    """What a step may use beside the state: the page's services, which are no part of
    what it shows (the controller is one), each changed only through its own methods. The
    designer's workbench (``nova.lab.workbench``) is one: a model that changes in place, so
    kept here, not in the state."""

    store: SaveStore
    rng: random.Random
    embed: bool
    page_url: str  # the page's address without query or fragment (for links)

    @property
    def bench(self) -> Workbench | None:
        """The workbench once opened."""

    def open_bench(self, query: str) -> Workbench:
        """The workbench, made anew from ``query`` if it names one or none is open yet."""


@dataclass(frozen=True)
class Drawing:
    """A screen drawn: its markup, and the board's unchanging layer (key, markup) that the
    adapter fills in once (``render/backdrop.py``'s ``static_layer``), if it shows a board."""

    html: str
    static: tuple[str, str] | None = None


Result = tuple["UiState", Effects]  # what a step returns: the new state, and the effects
Step = Callable[..., Result]  # (page, ui, screen state, intent) -> (ui, effects)
Anywhere = Callable[..., Result]  # (page, ui, intent) -> (ui, effects)
UiName = Callable[[str, FormInput], Intent]  # (the part after "name:", the fields) -> intent
Keys = Callable[..., Intent | None]  # (ui, screen, key, focused_move, on_button)


@dataclass(frozen=True)
class ScreenDef:
    """One screen: its state's class, the intents it accepts while it is on screen
    (``steps``), those it takes on any screen (``anywhere``: the ones that open it, and
    answers that arrive in the background), its ``data-ui`` names, its keys, its markup
    (``(page, ui, screen, known) -> Drawing``), its attributes on ``<body>`` (``body``:
    ``(page, ui) -> {name: value or None to remove}``, on every screen) and the intents
    that are no person's action (``quiet``: the alert on show stays)."""

    state: type
    markup: Callable[..., Drawing]
    steps: Mapping[type[Intent], Step] = field(default_factory=dict)
    anywhere: Mapping[type[Intent], Anywhere] = field(default_factory=dict)
    ui: Mapping[str, UiName] = field(default_factory=dict)
    keys: Keys | None = None
    body: Callable[..., dict[str, str | None]] | None = None
    quiet: frozenset[type[Intent]] = frozenset()
