"""Unload (R36-R38): your ship on one of your own Jump-Gates returns to your Dock; its
Shards go one at a time, top first, into the Cargo Bays you choose (:mod:`.unload_bays`); then
the Expansion Track advances (R45)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import move as mv
from ..board import NO_SHIP, unload_ships
from ..content import Step
from ..move import Move
from ..primitives import Primitive, register_primitive
from ..track import advance_track
from .base import Action, done
from .telling import shards as shards_words
from .unload_bays import UnloadBays

if TYPE_CHECKING:
    from ..state import State
    from ..view import View


@dataclass(frozen=True, kw_only=True)
class Unload(Action):
    kind = "unload"
    why_ship = "Unload needs your ship on one of your own Jump-Gates (R36)"

    ship: int | None = None  # given when the card's step before moved this ship

    @classmethod
    def from_step(cls, step: Step, then: tuple[Step, ...], ship: int | None) -> Unload:
        return cls.make(then=then, ship=ship)

    def possible(self, s: State) -> bool:
        ships = unload_ships(s)
        return self.ship in ships if self.ship is not None else bool(ships)

    def begin(self, s: State) -> None:
        if self.ship is not None:
            self.resolve(s, self.ship)
        else:
            s.pending = self

    def prompt(self, view: View) -> str:
        return "Unload: choose your ship on one of your Jump-Gates."

    def told(self, before: State, move: Move, after: State, names: list[str]) -> str | None:
        n = len(before.pile[before.layout.name_to_space[move.space]])
        who = names[before.current_player]
        return f"{who} unloads the ship on {move.space} ({shards_words(n)}); it returns to the Dock"

    def moves(self, s: State) -> list[Move]:
        return [mv.ship(s.layout.space_names[g]) for g in unload_ships(s)]

    def choose(self, s: State, move: Move) -> None:
        self.resolve(s, s.layout.name_to_space[move.space])

    def resolve(self, s: State, gate: int) -> None:
        p = s.players[s.turn]
        shards = s.pile[gate]
        s.ship[gate] = NO_SHIP
        s.pile[gate] = ""
        p.dock += 1
        s.last_event = f"unload {s.layout.space_names[gate]}"
        if shards:
            s.pending = UnloadBays.make(then=self.then, shards=shards[::-1])
        else:
            s.pending = None
            advance_track(s)
            done(s, self.but(ship=None), None)


PRIMITIVE = register_primitive(
    Primitive(
        name="unload",
        word="Unload",
        rules="R36-R38, R45",
        text=(
            "Your ship on one of your own Jump-Gates returns to your Dock; its Shards go one at a"
            " time, top first, into the Cargo Bays you choose; the Expansion Track advances"
        ),
        help=(
            "Your ship on one of your own Jump-Gates returns to your Dock; its Shards go one at a"
            " time, top first, into the Cargo Bays you choose. The Expansion Track advances."
        ),
        basic=True,
        action=Unload,
    )
)
