"""Hyper-Jump (R63): jump from any orbit space to any open Jump-Gate."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..board import any_open_gate, open_gate
from ..content import Step
from ..primitives import Primitive, register_primitive
from .base import StartCheck
from .ship_move import ShipMove

if TYPE_CHECKING:
    from ..content import Layout
    from ..state import State


@dataclass(frozen=True, kw_only=True)
class HyperJump(ShipMove):
    kind = "hyper_jump"
    told_verb = " hyper-jumps"
    why_ship = "Hyper-Jump moves one of your ships on an orbit space (R63)"
    why_dest = "Hyper-Jump goes to an open Jump-Gate (R63)"

    @classmethod
    def can_start(cls, step: Step, lay: Layout) -> StartCheck:
        return lambda s, ships: bool(ships) and any_open_gate(s)  # no open gate has a ship

    def targets(self, s: State, ship: int) -> list[int]:
        return [g for g in s.layout.gates if g != ship and open_gate(s, g)]


PRIMITIVE = register_primitive(
    Primitive(
        name="hyper_jump",
        word="Hyper-Jump",
        rules="R63",
        text=("Jump from any orbit space to any open Jump-Gate"),
        help=("Jump from any orbit space to any open Jump-Gate."),
        action=HyperJump,
    )
)
