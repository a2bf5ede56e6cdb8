"""What the actions that move one of your ships share (Orbit, Jump, Hyper-Jump, Phase Shift,
Jump-Push): the ship (``@``), then where it goes (``>``), then, if it carries Shards, how
many it leaves behind (``x``, R33)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from .. import move as mv
from ..board import move_stack
from ..content import Step
from ..move import Move
from .base import Action, StartCheck, done, leave_moves
from .telling import shards

if TYPE_CHECKING:
    from ..content import Layout
    from ..state import State
    from ..view import View


# R33's question, when the page asks it (it answers it itself after a move, nova.web.session)
LEAVE_PROMPT = "Take all the Shards along, or leave the bottom ones here?"
SHIP_ASK = "choose the ship to move."


@dataclass(frozen=True, kw_only=True)
class ShipMove(Action):
    told_verb: ClassVar[str] = ""  # the log's verb: "Ada's ship jumps a1 → b2" ("": no verb)

    ship: int | None = None
    dest: int | None = None
    leave: int | None = None

    @classmethod
    def from_step(cls, step: Step, then: tuple[Step, ...], ship: int | None) -> ShipMove:
        return cls.make(then=then, ship=ship)

    @classmethod
    def can_start(cls, step: Step, lay: Layout) -> StartCheck:
        targets = cls.from_step(step, (), None).targets
        return lambda s, ships: any(targets(s, sp) for sp in ships)

    def prompt(self, view: View) -> str:
        # each step's own question, in the words of its buttons and highlighted spaces
        label = Step(self.kind, getattr(self, "dists", ())).label()
        if self.ship is None:
            return f"{label}: {SHIP_ASK}"
        kinds = {m.kind for m in view.legal}
        if self.dest is None:
            stay = " (Done: it stays)" if mv.DONE in kinds else ""
            return f"{label}: choose where the ship goes{stay}."
        if mv.DIR in kinds:
            return f"{label}: push the ship there clockwise or anticlockwise?"
        return LEAVE_PROMPT

    def told(self, before: State, move: Move, after: State, names: list[str]) -> str | None:
        who = names[before.current_player]
        nxt = after.pending
        if nxt is not None and nxt.kind == self.kind and after.turn == before.turn:
            if move.kind == mv.DONE:
                return f"{who} stays put"
            return None  # a half-made choice; the finished move tells it
        if move.kind == mv.DONE:
            return f"{who} stays put"
        src, dest = self.ship, self.dest
        if move.kind == mv.DEST:
            dest = before.layout.name_to_space[move.space]
        if src is None or dest is None:
            return None
        leave = move.number if move.kind == mv.LEAVE else 0
        sp = before.space_name
        line = f"{who}'s ship{self.told_verb} {sp(src)} → {sp(dest)}"
        if leave:
            line += f", leaving {shards(leave)}"
        picked = len(before.pile[dest])
        if picked:
            line += f", picking up {shards(picked)}"
        return line + self.told_more(before, after, names, dest)

    def told_more(self, before: State, after: State, names: list[str], dest: int) -> str:
        """The end of the log's line, for what else the move did."""
        return ""

    def ships(self, s: State) -> list[int]:
        """The player's ships that can make this move."""
        seat = s.turn
        return [sp for sp, o in enumerate(s.ship) if o == seat and self.targets(s, sp)]

    def targets(self, s: State, ship: int) -> list[int]:
        raise NotImplementedError

    def possible(self, s: State) -> bool:
        if self.ship is not None:
            return s.ship[self.ship] == s.turn and bool(self.targets(s, self.ship))
        return bool(self.ships(s))

    def moves(self, s: State) -> list[Move]:
        names = s.layout.space_names
        if self.ship is None:
            return [mv.ship(names[sp]) for sp in self.ships(s)]
        if self.dest is None:
            return [mv.dest(names[t]) for t in self.targets(s, self.ship)]
        return self.more_moves(s) or leave_moves(s, self.ship)

    def more_moves(self, s: State) -> list[Move]:
        """A choice of this kind's own between the destination and leaving Shards."""
        return []

    def choose(self, s: State, move: Move) -> None:
        kind = move.kind
        if kind == mv.SHIP:
            nxt = self.but(ship=s.layout.name_to_space[move.space])
        elif kind == mv.DEST:
            nxt = self.but(dest=s.layout.name_to_space[move.space])
        elif kind == mv.LEAVE:
            nxt = self.but(leave=move.number)
        else:
            nxt = self.choose_more(s, move)
        if nxt.complete(s):
            nxt.resolve(s)
        else:
            s.pending = nxt

    def choose_more(self, s: State, move: Move) -> ShipMove:
        raise AssertionError(move)

    def complete(self, s: State) -> bool:
        if self.ship is None or self.dest is None:
            return False
        # a ship carrying Shards chooses which to leave behind (R33)
        return self.leave is not None or not s.pile[self.ship]

    def resolve(self, s: State) -> None:
        assert self.ship is not None and self.dest is not None
        move_stack(s, self.ship, self.dest, leave=self.leave or 0)
        s.last_event = f"{self.word} to {s.layout.space_names[self.dest]}"
        done(s, self, self.dest)
