"""What a step asks of the browser once the state has changed: each effect is a frozen value that
carries its data, and the game's worker (``host.py``) carries it out by its kind, or hands it to
the page in the frame, without knowing which screen asked. A step returns them in the order they
are performed. Pure Python."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .screens.base import Intent


class Effect:
    """What the adapter does after an intent: each effect is a frozen dataclass of this kind."""

    __slots__ = ()


@dataclass(frozen=True)
class Render(Effect):
    """Draw the screen."""


@dataclass(frozen=True)
class ShowHelp(Effect):
    """Show (``open``) or hide the rules layer over the screen (a new screen only if needed)."""

    open: bool


@dataclass(frozen=True)
class Offer(Effect):
    """Offer ``url`` (the device's share menu, else the clipboard) with ``title``; what that
    did ("shared", "copied", "") comes back as the intent ``answer(how)``. ``focus``: the
    element that takes the keyboard first (a CSS selector; "" none)."""

    url: str
    answer: Callable[[str], Intent]
    title: str = "Nova Raiders game"
    focus: str = ""


@dataclass(frozen=True)
class OwnPage(Effect):
    """Embedded: open the game's own page in a new tab (``links``: play by links there);
    the controller's ``page_of_its_own`` makes its address from the page's."""

    links: bool = False


@dataclass(frozen=True)
class ClearAddress(Effect):
    """The page's address without its query and link (a reload no longer reopens them)."""


@dataclass(frozen=True)
class SetAddress(Effect):
    """Put ``query`` in the page's address (a reload, or the address copied, keeps it)."""

    query: str


@dataclass(frozen=True)
class Think(Effect):
    """Ask the strongest bot (in the worker) for the hint of ``request`` (its JSON)."""

    request: str


@dataclass(frozen=True)
class RunLab(Effect):
    """Play the workbench's run in the page's lab workers (``host.GameHost.lab``)."""


@dataclass(frozen=True)
class Download(Effect):
    """Offer ``text`` as a file named ``name`` (made on the device: nothing is sent)."""

    name: str
    text: str
    mime: str = "application/json"


@dataclass(frozen=True)
class Refocus(Effect):
    """A dialog closed: the keyboard goes back to the choice, else to ``opener``."""

    opener: str


@dataclass(frozen=True)
class Then(Effect):
    """Dispatch ``intent`` next (the controller does, before the adapter sees the rest):
    a screen hands an intent to another without importing it."""

    intent: Intent


Effects = tuple[Effect, ...]
ALL: Effects = (Render(),)
NONE: Effects = ()
