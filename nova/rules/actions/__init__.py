"""The actions that can be under way between two decisions, one module each, and the
primitives a card's action is made of (docs/RULES.md, "Composed actions").

Adding a primitive: one module here (or anywhere imported), with a frozen dataclass for the
action it puts under way (:class:`~.base.Action`: its kind, its moves, its rules, its prompt,
its log line and what it moves on the board) and one registration: a
:class:`~nova.rules.primitives.Primitive` (its name in the data and the notation, its word,
its rule references, its text on a card and in the help, and that action) given to
:func:`~nova.rules.primitives.register_primitive`. Nothing else in the package names it.
"""

from . import (
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
    unload_bays,
    upgrade,
)
from .base import REGISTRY, Action, done, from_json, start, unregister
from .reorder import reorder_modes
from .skip import skip_possible

__all__ = [
    "REGISTRY",
    "Action",
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
    "unload_bays",
    "unregister",
    "upgrade",
]
