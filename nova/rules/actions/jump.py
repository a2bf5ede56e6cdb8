"""Jump (R35): your ship on a Jump-Gate jumps to any open Jump-Gate (no ship, no Shard)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..board import NOT_A_GATE, open_gate
from .base import Kind, register
from .ship_move import ShipMove

if TYPE_CHECKING:
    from ..state import State


@register
@dataclass(frozen=True, kw_only=True)
class Jump(ShipMove):
    kind = Kind.JUMP
    why_ship = "Jump starts from one of your ships on a Jump-Gate, to an open Jump-Gate (R35)"
    why_dest = "Jump goes to an open Jump-Gate: no ship and no Shard on it (R35)"

    def targets(self, s: State, ship: int) -> list[int]:
        if s.layout.gate_owner[ship] == NOT_A_GATE:
            return []
        return [g for g in s.layout.gates if g != ship and open_gate(s, g)]
