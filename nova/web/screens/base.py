"""What the screens share: the effects an intent asks of the adapter, the game open in the
tab, the intents more than one screen accepts, the key map of a decision, and
:class:`ScreenDef`, a screen's entry in the controller's table (``controller.SCREENS``).
Pure Python."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, ClassVar, Protocol

from ...record import DEFAULT_COLOURS
from ...render.prompts import CARD_KEYS, assign_keys

if TYPE_CHECKING:
    from ..controller import Controller
    from ..saves import Moves
    from ..session import Session

HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def safe_colours(colours: list[str]) -> list[str]:
    """Only #rrggbb reaches a style attribute; anything else gets the default colour."""
    return [c if HEX.match(c or "") else DEFAULT_COLOURS[i % 4] for i, c in enumerate(colours)]


class Effect(Enum):
    """What the adapter does after an intent (besides drawing the new state)."""

    RENDER = "render"  # draw the screen
    HELP_LAYER = "help-layer"  # show or hide the rules layer (a new screen only if needed)
    SHARE = "share"  # offer the share panel's link (the device's share menu, the clipboard)
    FULL_PAGE = "full-page"  # open the full page in a new tab
    LINKS_PAGE = "links-page"  # embedded: open play by links in a page of its own
    CLEAR_LINK = "clear-link"  # the link's game is saved: drop the link from the address
    HINT = "hint"  # ask the strongest bot for the person's decision on screen (ui.hint)
    LAB_RUN = "lab-run"  # play the workbench's run (bench.run) in web workers
    LAB_SAVE = "lab-save"  # download the workbench's variant as a file
    SEND_LINK = "send-link"  # offer a game by links' link to send (the share menu, clipboard)
    LAB_ADDRESS = "lab-address"  # put the workbench as it is in the address (a reload keeps it)


ALL: frozenset[Effect] = frozenset({Effect.RENDER})
NONE: frozenset[Effect] = frozenset()


class Worker(Enum):
    """The bots' worker: ``value`` is ``data-nova-worker`` ("" while never asked for)."""

    IDLE = ""
    STARTING = "starting"
    READY = "ready"
    FAILED = "failed"


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
    """What the new-game form's fields say (read from the page by the adapter); None: a
    field not on the page."""

    names: tuple[str | None, ...] = ()
    colours: tuple[str | None, ...] = ()
    bots: tuple[str | None, ...] = ()
    pace: str | None = None
    think_ms: str | None = None
    seed: str | None = None


@dataclass(frozen=True)
class Play(Intent):
    """A tap (or key) on a decision: ``token`` is its ``data-move``."""

    token: str


@dataclass(frozen=True)
class WhyNot(Intent):
    """A tap on what is not a choice now: a decision's token (a card), or a board space."""

    token: str = ""
    space: str = ""


def say_why_not(c: Controller, game: Session, intent: WhyNot) -> frozenset[Effect]:
    """Show why ``intent``'s tap is not a choice now (a game on this device or by links, in
    its words naming the rule), unless it is one or that is shown already."""
    why = game.why_not(intent.token) if intent.token else game.why_not_space(intent.space)
    if not why or why == c.ui.message:
        return NONE
    c.set(message=why)
    return ALL


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
Step = Callable[..., frozenset[Effect]]  # (controller, screen state, intent) -> effects
Anywhere = Callable[..., frozenset[Effect]]  # (controller, intent) -> effects
UiName = Callable[[str, FormInput], Intent]  # (the part after "name:", the form) -> intent
Keys = Callable[..., Intent | None]  # (controller, screen, key, focused_move, on_button)


@dataclass(frozen=True)
class ScreenDef:
    """One screen: its state's class, the intents it accepts while it is on screen
    (``steps``), those it takes on any screen (``anywhere``: the ones that open it, and
    answers that arrive in the background), its ``data-ui`` names, its keys, its markup
    (``(controller, screen, known) -> str``) and its attributes on ``<body>`` (``body``:
    ``controller -> {name: value or None to remove}``, on every screen)."""

    state: type
    markup: Callable[..., str]
    steps: Mapping[type[Intent], Step] = field(default_factory=dict)
    anywhere: Mapping[type[Intent], Anywhere] = field(default_factory=dict)
    ui: Mapping[str, UiName] = field(default_factory=dict)
    keys: Keys | None = None
    body: Callable[..., dict[str, str | None]] | None = None
