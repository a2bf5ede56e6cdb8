"""The actions that can be under way between two decisions, one module each, and the
primitives a card's action is made of (docs/RULES.md, "Composed actions").

Adding a primitive: a module here with a frozen dataclass registered under a new
:class:`Kind` (or, for one that acts at once, an entry in ``IMMEDIATE``), its name in
``content.STEP_WORDS`` (and the allowed names), and its words in ``nova.render``; the
tests in ``tests/test_architecture.py`` fail until each kind has words, a prompt and a plan.
"""

from . import (
    bank,
    disrupt,
    hijack,
    hyper_jump,
    jump,
    jump_push,
    orbit,
    phase_shift,
    push,
    reorder,
    sabotage,
    skip,
    unload,
    upgrade,
)
from .base import IMMEDIATE, REGISTRY, Action, Kind, done, from_json, start
from .reorder import reorder_modes
from .skip import skip_possible

__all__ = [
    "IMMEDIATE",
    "REGISTRY",
    "Action",
    "Kind",
    "bank",
    "disrupt",
    "done",
    "from_json",
    "hijack",
    "hyper_jump",
    "jump",
    "jump_push",
    "orbit",
    "phase_shift",
    "push",
    "reorder",
    "reorder_modes",
    "sabotage",
    "skip",
    "skip_possible",
    "start",
    "unload",
    "upgrade",
]
