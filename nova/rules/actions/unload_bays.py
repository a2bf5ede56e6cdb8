"""An Unload's Shards going into the Cargo Bays (R38): the next one, top first, into the
bay the player chooses (``B0``-``B2``); after the last, the Expansion Track advances."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import move as mv
from ..content import COLOUR_NAMES
from ..move import Move
from ..primitives import register_action
from ..track import advance_track
from .base import Action, done

if TYPE_CHECKING:
    from ..state import State
    from ..view import View


@register_action
@dataclass(frozen=True, kw_only=True)
class UnloadBays(Action):
    kind = "unload_bays"

    shards: str = ""  # still to bank, the next one first

    def moves(self, s: State) -> list[Move]:
        return [mv.bay(b) for b in range(len(s.players[s.turn].bays))]

    def prompt(self, view: View) -> str:
        more = len(self.shards) - 1
        tail = f" ({more} more after it)" if more else ""
        return f"Put the {COLOUR_NAMES.get(self.shards[0], '')} Shard into a Cargo Bay{tail}."

    def told(self, before: State, move: Move, after: State, names: list[str]) -> str | None:
        who = names[before.current_player]
        return f"{who} unloads a {COLOUR_NAMES[self.shards[0]]} Shard into Bay {move.number + 1}"

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
