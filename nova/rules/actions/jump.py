"""Jump (R35): your ship on a Jump-Gate jumps to any open Jump-Gate (no ship, no Shard)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..board import NOT_A_GATE, any_open_gate, open_gate
from ..content import Step
from ..primitives import Primitive, register_primitive
from .base import StartCheck
from .ship_move import ShipMove

if TYPE_CHECKING:
    from ..content import Layout
    from ..state import State


@dataclass(frozen=True, kw_only=True)
class Jump(ShipMove):
    kind = "jump"
    told_verb = " jumps"
    why_ship = "Jump starts from one of your ships on a Jump-Gate, to an open Jump-Gate (R35)"
    why_dest = "Jump goes to an open Jump-Gate: no ship and no Shard on it (R35)"

    @classmethod
    def can_start(cls, step: Step, lay: Layout) -> StartCheck:
        # a ship on a gate, and an open gate (never the ship's own: it has a ship on it)
        gate_owner = lay.gate_owner
        return lambda s, ships: (
            any(gate_owner[sp] != NOT_A_GATE for sp in ships) and any_open_gate(s)
        )

    def targets(self, s: State, ship: int) -> list[int]:
        if s.layout.gate_owner[ship] == NOT_A_GATE:
            return []
        return [g for g in s.layout.gates if g != ship and open_gate(s, g)]


PRIMITIVE = register_primitive(
    Primitive(
        name="jump",
        word="Jump",
        rules="R35",
        text=(
            "A ship on a Jump-Gate jumps, with its Shards, to any open Jump-Gate (no ship, no "
            "Shard on it)"
        ),
        help=("A ship on any Jump-Gate jumps to any open Jump-Gate (no ship, no Shard on it)."),
        basic=True,
        action=Jump,
    )
)
