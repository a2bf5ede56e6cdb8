"""Orbit (R28-R34): one of your ships moves exactly N spaces along its ring, either way,
passing over ships and Shards, never landing on a ship; Shards where it lands join the
bottom of its stack; it may leave Shards behind, from the bottom."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import move as mv
from ..board import can_orbit, orbit_reach, orbit_ships, orbit_targets
from ..content import Step
from ..move import Move
from ..primitives import Primitive, register_primitive
from .base import StartCheck, done
from .ship_move import ShipMove

if TYPE_CHECKING:
    from ..content import Layout
    from ..state import State


@dataclass(frozen=True, kw_only=True)
class Orbit(ShipMove):
    kind = "orbit"
    why_ship = (
        "Orbit moves one of your ships that can go that far without landing on a ship (R28, R30)"
    )
    why_dest = (
        "the ship moves exactly the card's number of spaces along its ring, either way, and "
        "never lands on a ship (R28, R30)"
    )

    dists: tuple[int, ...] = ()
    optional: bool = False  # may stay put: the Orbit after a Hijack, read as optional (R68)

    @classmethod
    def from_step(cls, step: Step, then: tuple[Step, ...], ship: int | None) -> Orbit:
        return cls.make(then=then, ship=ship, dists=step.dists)

    def targets(self, s: State, ship: int) -> list[int]:
        return orbit_targets(s, ship, self.dists)

    def ships(self, s: State) -> list[int]:
        return orbit_ships(s, self.dists)

    @classmethod
    def can_start(cls, step: Step, lay: Layout) -> StartCheck:
        reach = orbit_reach(lay, step.dists)  # the commonest question of all
        return lambda s, ships: can_orbit(s, ships, reach)

    def moves(self, s: State) -> list[Move]:
        moves = super().moves(s)
        if self.optional and self.ship is not None and self.dest is None:
            moves.append(mv.done())  # stay put (R68 with the optional reading)
        return moves

    def choose(self, s: State, move: Move) -> None:
        if move.kind == mv.DONE:
            done(s, self, self.ship)
            return
        super().choose(s, move)


PRIMITIVE = register_primitive(
    Primitive(
        name="orbit",
        word="Orbit",
        rules="R28-R34",
        text=(
            "Move one of your ships exactly that many spaces along its ring, either way; it "
            "passes over ships and Shards but never lands on a ship, and picks up the Shards it "
            "lands on (bottom of the stack); you may leave Shards behind"
        ),
        help=(
            "Move one of your ships N spaces along its ring, either way. Ships pass over ships "
            "and Shards but never land on a ship. Landing on Shards adds them to the bottom of "
            "your stack. You may leave Shards behind, from the bottom."
        ),
        help_name="Orbit N",
        basic=True,
        takes_distances=True,
        action=Orbit,
    )
)
