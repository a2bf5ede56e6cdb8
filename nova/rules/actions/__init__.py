"""The actions that can be under way between two decisions, one module each, and the
primitives a card's action is made of (docs/RULES.md, "Composed actions").

Adding a primitive: one module here (or anywhere imported), with a frozen dataclass for the
action it puts under way (:class:`~.base.Action`: its moves, its rules, its prompt and its
log line) registered with :func:`~.base.register`, and a :class:`~nova.rules.primitives.
Primitive` (its name in the data and the notation, its word, its rule references, its text
on a card and in the help) registered with :func:`~nova.rules.primitives.register_primitive`.
Nothing else in the package names it.
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
from .base import REGISTRY, Action, Kind, done, from_json, register, start, unregister
from .reorder import reorder_modes
from .skip import skip_possible

__all__ = [
    "REGISTRY",
    "Action",
    "Kind",
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
    "register",
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
