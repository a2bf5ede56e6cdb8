"""Hijack (R39-R41): push the adjacent opponent away as many spaces as your stack is high;
its bottom Shard stays behind, and your ship orbits onto that space and claims it."""

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
class Hijack(Attack):
    kind = "hijack"
    verb, verbs = "hijack", "hijacks"
    leaves_shard = True
    why_ship = "Hijack needs your ship next to an opponent's on the same ring (R39)"

    def asks_leave(self, s: State) -> bool:
        """Setting ``hijack_leave_behind``: the Hijack's orbit is a move like any other, so
        a loaded attacker may leave Shards behind on the space it leaves (R33)."""
        assert self.ship is not None
        return bool(s.pile[self.ship]) and s.layout.settings.hijack_leave_behind

    def resolve(self, s: State) -> None:
        assert self.ship is not None and self.target is not None
        dest = self.destination(s)
        leave = 1 if s.pile[self.target] else 0
        move_stack(s, self.target, dest, leave=leave)
        move_stack(s, self.ship, self.target, leave=self.leave or 0)
        s.last_event = f"hijack {s.layout.space_names[self.target]}"
        done(s, self, self.target)


PRIMITIVE = register_primitive(
    Primitive(
        name="hijack",
        word="Hijack",
        rules="R39-R41",
        text=(
            "Your ship pushes an opponent next to it on the same ring away as many spaces as your"
            " stack is high; their bottom Shard is left behind and your ship moves onto it"
        ),
        help=(
            "Your ship attacks an opponent next to it on the same ring: the target is pushed away"
            " as many spaces as your stack is high, leaving its bottom Shard behind, and your "
            "ship moves onto that space."
        ),
        basic=True,
        action=Hijack,
    )
)
