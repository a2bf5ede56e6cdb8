"""The rulebook's primitives (R28-R44, R60-R69), the parts a card's action is made of, and
what the program knows about each one that is not its rules: its name in the data, the
notation and saves, its word on a card, its text and rule references on the card, its
sentence in the rules help.

Each primitive registers itself from its own module in :mod:`nova.rules.actions` (with the
action it puts under way, or what it does at once); the tables below are filled from those
registrations and nothing else writes them. docs/RULES.md, "Adding a primitive".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .actions.base import Action
    from .content import Step
    from .state import State


@dataclass(frozen=True)
class Primitive:
    name: str  # in the data, the notation and saves: "orbit", "jump_push"
    word: str  # on a card: "Orbit", "Jump-Push"
    rules: str  # the rules that say what it does: "R28-R34"
    text: str  # what it does, in the rulebook's terms (a card's full text)
    help: str  # what it does, in one or two sentences (the rules help screen)
    help_name: str = ""  # its name on the help screen, when not its word ("Orbit N")
    basic: bool = False  # a basic card's action too (else only a Special's)
    takes_distances: bool = False  # written with distances ("orbit:1-3")
    distances: tuple[int, ...] | None = None  # its distances when the data gives none
    action: type[Action] | None = None  # the action it puts under way (nova.rules.actions)
    act: Callable[[State, Step], None] | None = None  # or what it does at once

    @property
    def first_rule(self) -> int:
        found = re.search(r"\d+", self.rules)
        return int(found.group()) if found else 0


PRIMITIVES: dict[str, Primitive] = {}
# Filled from the registrations, for the content's checks: name -> word; the primitives
# that take distances (-> their default, None: the data must give them); the names a basic
# card may use; the names a Special may use (every primitive).
STEP_WORDS: dict[str, str] = {}
STEP_DISTANCES: dict[str, tuple[int, ...] | None] = {}
BASIC_ACTIONS: set[str] = set()
SPECIAL_ACTIONS: set[str] = set()
# Primitives that act at once and leave nothing under way: name -> what they do.
IMMEDIATE: dict[str, Any] = {}
# The kinds of action that can be under way: kind -> its class. A primitive's action is put
# here by its registration; a part of an action that is no primitive of its own (an Unload's
# Shards going into the bays) by :func:`register_action`.
ACTIONS: dict[str, type[Action]] = {}


def register_primitive(p: Primitive) -> Primitive:
    """Make ``p`` known to the content, the engine (with the action it puts under way), the
    renderer and the bots: the one registration a primitive needs."""
    if (p.action is None) == (p.act is None):
        raise ValueError(f"primitive {p.name}: an action under way or an act, one of the two")
    if p.action is not None:
        if p.action.kind != p.name:
            raise ValueError(f"primitive {p.name}: its action's kind is {p.action.kind!r}")
        ACTIONS[p.name] = p.action
    PRIMITIVES[p.name] = p
    ordered = sorted(PRIMITIVES.values(), key=lambda q: q.first_rule)
    PRIMITIVES.clear()
    PRIMITIVES.update((q.name, q) for q in ordered)  # in the rulebook's order
    STEP_WORDS.clear()
    STEP_WORDS.update((q.name, q.word) for q in ordered)
    if p.takes_distances:
        STEP_DISTANCES[p.name] = p.distances
    SPECIAL_ACTIONS.add(p.name)
    if p.basic:
        BASIC_ACTIONS.add(p.name)
    if p.act is not None:
        IMMEDIATE[p.name] = p.act
    return p


def register_action(cls: type[Action]) -> type[Action]:
    """Make a kind of action under way known that is no primitive of its own (a class
    decorator)."""
    ACTIONS[cls.kind] = cls
    return cls


def unregister_primitive(name: str) -> None:
    """Forget primitive ``name`` and its action (a test's own primitive, once it is done)."""
    ACTIONS.pop(name, None)
    PRIMITIVES.pop(name, None)
    STEP_WORDS.pop(name, None)
    STEP_DISTANCES.pop(name, None)
    BASIC_ACTIONS.discard(name)
    SPECIAL_ACTIONS.discard(name)
    IMMEDIATE.pop(name, None)
