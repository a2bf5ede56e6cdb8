"""Re-order (R61): rearrange the top Shard of each of your Cargo Bays (``Rt``) or one
whole bay (``R0``-``R2``), then place the Shards one colour at a time (``ck``, ``cr``,
``cy``): tops bay by bay in bay order, a whole bay bottom first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import move as mv
from ..move import Move
from ..primitives import Primitive, register_primitive
from .base import Action, done

if TYPE_CHECKING:
    from ..state import State
    from ..view import View


def reorder_modes(s: State) -> list[Move]:
    """The ways a Re-order can change something now."""
    bays = s.players[s.turn].bays
    modes = []
    if sum(1 for b in bays if b) >= 2 and len({b[-1] for b in bays if b}) >= 2:
        modes.append(mv.reorder(-1))
    for i, b in enumerate(bays):
        if len(set(b)) >= 2:
            modes.append(mv.reorder(i))
    return modes


@dataclass(frozen=True, kw_only=True)
class Reorder(Action):
    kind = "reorder"

    mode: str | None = None  # Rt, or R0-R2
    targets: tuple[int, ...] = ()  # the bays being rearranged
    pool: str = ""  # Shards still to place
    picked: str = ""  # Shards placed so far, in order

    def possible(self, s: State) -> bool:
        return bool(reorder_modes(s))

    def prompt(self, view: View) -> str:
        if self.mode is None:
            return "Re-order: the top Shards of your bays, or one whole bay?"
        return "Re-order: choose the colour of the next Shard to place."

    def told(self, before: State, move: Move, after: State, names: list[str]) -> str | None:
        who = names[before.current_player]
        if self.mode is None:
            if move.number < 0:
                return f"{who} re-orders the top Shards of the Cargo Bays"
            return f"{who} re-orders Bay {move.number + 1}"
        if after.pending is None:
            bays = " | ".join(b or "-" for b in after.players[before.turn].bays)
            return f"{who}'s Cargo Bays now read {bays} (bottom to top)"
        return None

    def moves(self, s: State) -> list[Move]:
        if self.mode is None:
            return reorder_modes(s)
        return [mv.colour(c) for c in sorted(set(self.pool))]

    def choose(self, s: State, move: Move) -> None:
        p = s.players[s.turn]
        if self.mode is None:
            if move.number < 0:  # the tops
                targets = tuple(i for i, b in enumerate(p.bays) if b)
                pool = "".join(sorted(p.bays[i][-1] for i in targets))
            else:
                targets = (move.number,)
                pool = "".join(sorted(p.bays[targets[0]]))
            nxt = self.but(mode=str(move), targets=targets, pool=pool, picked="")
        else:
            c = move.colour
            k = self.pool.index(c)
            nxt = self.but(pool=self.pool[:k] + self.pool[k + 1 :], picked=self.picked + c)
        if nxt.pool:
            s.pending = nxt
            return
        if nxt.mode == "Rt":
            for i, c in zip(nxt.targets, nxt.picked, strict=True):
                p.bays[i] = p.bays[i][:-1] + c
        else:
            p.bays[nxt.targets[0]] = nxt.picked
        done(s, nxt, None)


PRIMITIVE = register_primitive(
    Primitive(
        name="reorder",
        word="Re-order",
        rules="R61",
        text=("Rearrange the top Shard of each of your Cargo Bays, or reorder one whole bay"),
        help=("Rearrange the top Shard of each of your Cargo Bays, or reorder one whole bay."),
        action=Reorder,
    )
)
