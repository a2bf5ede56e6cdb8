"""Hyper-Jump (R63): jump from any orbit space to any open Jump-Gate."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..board import open_gate
from .base import Kind, register
from .ship_move import ShipMove

if TYPE_CHECKING:
    from ..state import State


@register
@dataclass(frozen=True, kw_only=True)
class HyperJump(ShipMove):
    kind = Kind.HYPER_JUMP
    why_ship = "Hyper-Jump moves one of your ships on an orbit space (R63)"
    why_dest = "Hyper-Jump goes to an open Jump-Gate (R63)"

    def targets(self, s: State, ship: int) -> list[int]:
        return [g for g in s.layout.gates if g != ship and open_gate(s, g)]
