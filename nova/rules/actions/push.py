"""Push (R67): push an adjacent opponent along the ring, x spaces, x = your stack height;
your ship stays where it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..board import move_stack
from ..primitives import Primitive, register_primitive
from .attack import Attack
from .base import done

if TYPE_CHECKING:
    from ..state import State


@dataclass(frozen=True, kw_only=True)
class Push(Attack):
    kind = "push"
    verb, verbs = "push", "pushes"
    why_ship = "Push needs your ship next to an opponent's on the same ring (R67)"

    def resolve(self, s: State) -> None:
        assert self.ship is not None and self.target is not None
        dest = self.destination(s)
        move_stack(s, self.target, dest, leave=0)
        names = s.layout.space_names
        s.last_event = f"push {names[self.target]} to {names[dest]}"
        done(s, self, self.ship)


PRIMITIVE = register_primitive(
    Primitive(
        name="push",
        word="Push",
        rules="R67",
        text=("Push an adjacent opponent along the ring as many spaces as your stack is high"),
        help=("Push an adjacent opponent along the ring as many spaces as your stack is high."),
        action=Push,
    )
)
