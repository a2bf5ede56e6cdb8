"""An Unload's Shards going into the Cargo Bays (R38): the next one, top first, into the
bay the player chooses (``B0``-``B2``); after the last, the Expansion Track advances."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import move as mv
from ..move import Move
from ..track import advance_track
from .base import Action, Kind, done, register

if TYPE_CHECKING:
    from ..state import State


@register
@dataclass(frozen=True, kw_only=True)
class Bank(Action):
    kind = Kind.BANK

    shards: str = ""  # still to bank, the next one first

    def moves(self, s: State) -> list[Move]:
        return [mv.bay(b) for b in range(len(s.players[s.turn].bays))]

    def why_not(self, s: State, move: Move) -> str:
        return "first put the unloaded Shard into one of your Cargo Bays (R38)"

    def choose(self, s: State, move: Move) -> None:
        s.players[s.turn].bays[move.number] += self.shards[0]
        if self.shards[1:]:
            s.pending = self.but(shards=self.shards[1:])
            return
        s.pending = None
        advance_track(s)  # R45
        done(s, self, None)
