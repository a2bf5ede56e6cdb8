"""What Hijack and Push share (R39, R40, R67): your ship (``@``) next to an opponent's on
the same ring (``!``) pushes it away along the ring, as many spaces as your stack is high
(ship included), on to the first open space."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from .. import move as mv
from ..board import attack_targets, attackers, height, push_destination
from ..content import COLOUR_NAMES, Step
from ..move import Move
from .base import Action, StartCheck, leave_moves
from .telling import moved_to, shards

if TYPE_CHECKING:
    from ..content import Layout
    from ..state import State
    from ..view import View


@dataclass(frozen=True, kw_only=True)
class Attack(Action):
    verb: ClassVar[str]  # the player's words for it: "push" ...
    verbs: ClassVar[str]  # ... and "pushes"
    leaves_shard: ClassVar[bool] = False  # the target leaves its bottom Shard behind (R39)

    ship: int | None = None
    target: int | None = None
    leave: int | None = None  # Shards the attacker leaves behind as it moves in (R33)

    @classmethod
    def from_step(cls, step: Step, then: tuple[Step, ...], ship: int | None) -> Attack:
        return cls.make(then=then, ship=ship)

    @classmethod
    def can_start(cls, step: Step, lay: Layout) -> StartCheck:
        return lambda s, ships: any(attack_targets(s, sp) for sp in ships)

    def possible(self, s: State) -> bool:
        if self.ship is not None:
            return s.ship[self.ship] == s.turn and bool(attack_targets(s, self.ship))
        return bool(attackers(s))

    def prompt(self, view: View) -> str:
        word = self.verb.capitalize()
        if self.ship is None:
            return f"{word}: choose your ship next to an opponent's."
        if self.target is None:
            return f"{word}: choose the opponent's ship to push away."
        return f"{word}: take all your Shards along, or leave the bottom ones?"

    def told(self, before: State, move: Move, after: State, names: list[str]) -> str | None:
        """Told once the attack is done (after the target, or after the attacker's
        leave-behind choice when it has one), with where the pushed ship went."""
        if move.kind == mv.TARGET:
            t = before.layout.name_to_space[move.space]
        elif move.kind == mv.LEAVE and self.target is not None:
            t = self.target
        else:
            return None
        nxt = after.pending
        if isinstance(nxt, Attack) and nxt.target is not None and after.turn == before.turn:
            return None  # the leave-behind choice follows: its line tells the attack
        assert self.ship is not None
        who, victim = names[before.current_player], names[before.ship[t]]
        dest = moved_to(before, after, before.ship[t], t)
        line = f"{who}'s ship on {before.space_name(self.ship)} {self.verbs} {victim}'s ship"
        line += f" on {before.space_name(t)}"
        if dest is not None:
            line += f" to {before.space_name(dest)}"
        if self.leaves_shard and before.pile[t]:
            colour = COLOUR_NAMES[before.pile[t][0]]
            line += f", leaving its bottom {colour} Shard behind"
        if move.kind == mv.LEAVE and move.number:
            line += f" (leaving {shards(move.number)} of its own on {before.space_name(self.ship)})"
        return line

    def asks_leave(self, s: State) -> bool:
        return False

    def moves(self, s: State) -> list[Move]:
        names = s.layout.space_names
        if self.ship is None:
            return [mv.ship(names[sp]) for sp in attackers(s)]
        if self.target is None:
            return [mv.target(names[t]) for t in attack_targets(s, self.ship)]
        return leave_moves(s, self.ship)

    def choose(self, s: State, move: Move) -> None:
        kind = move.kind
        if kind == mv.SHIP:
            nxt = self.but(ship=s.layout.name_to_space[move.space])
        elif kind == mv.TARGET:
            nxt = self.but(target=s.layout.name_to_space[move.space])
        else:
            nxt = self.but(leave=move.number)
        if nxt.target is not None and (nxt.leave is not None or not nxt.asks_leave(s)):
            nxt.resolve(s)
        else:
            s.pending = nxt

    def destination(self, s: State) -> int:
        """Where the target is pushed: away from the attacker (R39, R40)."""
        assert self.ship is not None and self.target is not None
        direction = 1 if s.layout.next_space[self.ship] == self.target else -1
        dest = push_destination(s, self.target, direction, height(s, self.ship))
        assert dest is not None
        return dest

    def resolve(self, s: State) -> None:
        raise NotImplementedError
