"""Sabotage (R64): take control of an opponent's ship or stack (``!``) and orbit it 1-3
spaces (``>``), not onto a ship; the distances are the card's (``sabotage:1-3``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import move as mv
from ..board import NO_SHIP, move_stack, orbit_targets
from ..content import Step
from ..move import Move
from ..primitives import Primitive, register_primitive
from .base import Action, done

if TYPE_CHECKING:
    from ..state import State
    from ..view import View


@dataclass(frozen=True, kw_only=True)
class Sabotage(Action):
    kind = "sabotage"
    why_target = "Sabotage takes an opponent's ship that can be moved 1-3 spaces (R64)"
    why_dest = "Sabotage moves that ship 1-3 spaces along its ring, not onto a ship (R64)"

    target: int | None = None
    dists: tuple[int, ...] = (1, 2, 3)

    @classmethod
    def from_step(cls, step: Step, then: tuple[Step, ...], ship: int | None) -> Sabotage:
        return cls.make(then=then, dists=step.dists or (1, 2, 3))

    def targets(self, s: State) -> list[int]:
        seat = s.turn
        return [
            sp
            for sp, o in enumerate(s.ship)
            if o not in (NO_SHIP, seat) and orbit_targets(s, sp, self.dists)
        ]

    def possible(self, s: State) -> bool:
        return bool(self.targets(s))

    def prompt(self, view: View) -> str:
        if self.target is None:
            return "Sabotage: choose the opponent's ship to move."
        return "Sabotage: choose where that ship goes (1-3 spaces)."

    def told(self, before: State, move: Move, after: State, names: list[str]) -> str | None:
        if move.kind == mv.TARGET:
            return None
        t = self.target
        assert t is not None
        who, victim = names[before.current_player], names[before.ship[t]]
        where = before.space_name(t)
        return f"{who} sabotages {victim}'s ship on {where}, moving it to {move.space}"

    def moves(self, s: State) -> list[Move]:
        names = s.layout.space_names
        if self.target is None:
            return [mv.target(names[sp]) for sp in self.targets(s)]
        return [mv.dest(names[t]) for t in orbit_targets(s, self.target, self.dists)]

    def choose(self, s: State, move: Move) -> None:
        space = s.layout.name_to_space[move.space]
        if move.kind == mv.TARGET:
            s.pending = self.but(target=space)
            return
        assert self.target is not None
        move_stack(s, self.target, space, leave=0)
        s.last_event = f"sabotage to {s.layout.space_names[space]}"
        done(s, self, None)


PRIMITIVE = register_primitive(
    Primitive(
        name="sabotage",
        word="Sabotage",
        rules="R64",
        text=("Take control of an opponent's ship or stack and orbit it 1-3 spaces"),
        help=("Take control of an opponent's ship or stack and orbit it 1-3 spaces."),
        takes_distances=True,
        distances=(1, 2, 3),
        action=Sabotage,
    )
)
