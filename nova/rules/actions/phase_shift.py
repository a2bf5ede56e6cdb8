"""Phase Shift (R62): hop to one of the (up to four) touching spaces on the next ring in or
out, not onto a ship."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..board import NO_SHIP, in_play
from ..primitives import Primitive, register_primitive
from .ship_move import ShipMove

if TYPE_CHECKING:
    from ..state import State


@dataclass(frozen=True, kw_only=True)
class PhaseShift(ShipMove):
    kind = "phase_shift"
    told_verb = " phase-shifts"
    why_ship = "Phase Shift needs your ship next to a free space on the next ring (R62)"
    why_dest = (
        "Phase Shift goes to a touching space on the next ring in or out, without a ship (R62)"
    )

    def targets(self, s: State, ship: int) -> list[int]:
        return [t for t in s.layout.phase_adjacent[ship] if in_play(s, t) and s.ship[t] == NO_SHIP]


PRIMITIVE = register_primitive(
    Primitive(
        name="phase_shift",
        word="Phase Shift",
        rules="R62",
        text=("Hop to one of the touching spaces on the next ring in or out"),
        help=("Hop to one of the (up to four) touching spaces on the next ring in or out."),
        action=PhaseShift,
    )
)
