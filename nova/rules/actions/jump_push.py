"""Jump-Push (R69): jump between any Jump-Gates; if the Gate is occupied, its occupant is
pushed x spaces either way along its ring, x being the jumper's stack height."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import move as mv
from ..board import NO_SHIP, NOT_A_GATE, height, in_play, move_stack, push_destination
from ..move import Move
from ..primitives import Primitive, register_primitive
from .base import done
from .ship_move import ShipMove
from .telling import moved_to

if TYPE_CHECKING:
    from ..state import State


def push_directions(s: State, ship: int, gate: int) -> list[int]:
    """Directions the occupant of ``gate`` can be pushed when the ship on ``ship`` jumps in
    (the jumper has left its own space by then)."""
    dist = height(s, ship)
    return [d for d in (1, -1) if push_destination(s, gate, d, dist, vacated=ship) is not None]


@dataclass(frozen=True, kw_only=True)
class JumpPush(ShipMove):
    kind = "jump_push"
    told_verb = " jump-pushes"
    why_ship = "Jump-Push starts from one of your ships on a Jump-Gate (R69)"
    why_dest = "Jump-Push goes to another Jump-Gate (R69)"

    dir: int | None = None  # the push's direction along the ring: +1 clockwise, -1 anti

    def targets(self, s: State, ship: int) -> list[int]:
        lay = s.layout
        if lay.gate_owner[ship] == NOT_A_GATE:
            return []
        out = []
        for g in lay.gates:
            if g == ship or not in_play(s, g):
                continue
            o = s.ship[g]
            if o == NO_SHIP or (o != s.turn and push_directions(s, ship, g)):
                out.append(g)
        return out

    def told_more(self, before: State, after: State, names: list[str], dest: int) -> str:
        occupant = before.ship[dest]
        if occupant < 0:
            return ""
        to = moved_to(before, after, occupant, dest)
        line = f", pushing {names[occupant]}'s ship"
        return line + (f" to {before.space_name(to)}" if to is not None else "")

    def occupied(self, s: State) -> bool:
        return self.dest is not None and s.ship[self.dest] != NO_SHIP

    def more_moves(self, s: State) -> list[Move]:
        if self.occupied(s) and self.dir is None:
            assert self.ship is not None and self.dest is not None
            return [mv.direction(d) for d in push_directions(s, self.ship, self.dest)]
        return []

    def choose_more(self, s: State, move: Move) -> JumpPush:
        return self.but(dir=move.number)

    def complete(self, s: State) -> bool:
        if self.occupied(s) and self.dir is None:
            return False
        return super().complete(s)

    def resolve(self, s: State) -> None:
        ship, dest = self.ship, self.dest
        assert ship is not None and dest is not None
        if not self.occupied(s):
            super().resolve(s)
            return
        assert self.dir is not None
        # The jumper leaves its space first, then the occupant is pushed x spaces, x = the
        # jumper's stack height as it jumps (R69): the push may end on the space the jumper
        # just left (it is open now), so the jumper is lifted off before anything moves.
        leave = self.leave or 0
        owner, carried = s.ship[ship], s.pile[ship][leave:]
        s.ship[ship] = NO_SHIP
        s.pile[ship] = s.pile[ship][:leave]
        to = push_destination(s, dest, self.dir, 1 + len(carried))
        assert to is not None
        move_stack(s, dest, to, leave=0)
        s.ship[dest] = owner
        s.pile[dest] += carried
        s.last_event = f"jump push to {s.layout.space_names[dest]}"
        done(s, self, dest)


PRIMITIVE = register_primitive(
    Primitive(
        name="jump_push",
        word="Jump-Push",
        rules="R69",
        text=(
            "Jump between Jump-Gates; if the Gate is occupied, push its occupant along the ring, "
            "either way, as many spaces as your stack is high"
        ),
        help=(
            "Jump between Jump-Gates; if the Gate is occupied, push its occupant along the ring "
            "(either way) as many spaces as your stack is high."
        ),
        action=JumpPush,
    )
)
