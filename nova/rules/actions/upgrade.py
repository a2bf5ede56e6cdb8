"""Upgrade (R42, R43): take a face-up Space Academy card (``U1``-``U3``), or the Academy
Deck's top card (``UD``), after which the face-up cards are replaced by three new ones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import move as mv
from ..move import Move
from ..primitives import Primitive, register_primitive
from ..track import end_if_track_stuck
from .base import Action, done

if TYPE_CHECKING:
    from ..state import State
    from ..view import View


@dataclass(frozen=True, kw_only=True)
class Upgrade(Action):
    kind = "upgrade"

    def possible(self, s: State) -> bool:
        return bool(s.academy) or any(c is not None for c in s.face_up)

    def moves(self, s: State) -> list[Move]:
        moves = [mv.upgrade(i + 1) for i, c in enumerate(s.face_up) if c is not None]
        if s.academy:
            moves.append(mv.upgrade(0))
        return moves

    def prompt(self, view: View) -> str:
        return "Upgrade: take an Academy card, face up or from the deck."

    def told(self, before: State, move: Move, after: State, names: list[str]) -> str | None:
        who = names[before.current_player]
        if move.number == 0:
            return f"{who} takes the top card of the Academy Deck; new cards are face up"
        cid = before.face_up[move.number - 1]
        assert cid is not None
        return f"{who} takes {before.layout.special[cid]['name']} from the Space Academy"

    def why_not(self, s: State, move: Move) -> str:
        return "Upgrade: take one of the face-up Academy cards or the Academy Deck (R42-R43)"

    def choose(self, s: State, move: Move) -> None:
        p = s.players[s.turn]
        if move.number == 0:  # the Academy Deck
            p.hand.append(s.academy.pop(0))
            old = [c for c in s.face_up if c is not None]
            s.academy.extend(old)
            s.face_up = [s.academy.pop(0) if s.academy else None for _ in s.face_up]
            s.last_event = "upgrade from the Academy Deck"
        else:
            i = move.number - 1
            card = s.face_up[i]
            assert card is not None
            p.hand.append(card)
            s.face_up[i] = s.academy.pop(0) if s.academy else None
            s.last_event = "upgrade"
        s.pending = None
        if s.layout.settings.end_check_on_upgrade:
            # the last Disrupt anyone could power may just have gone to a hand that cannot
            # (R70): with no Shard in play, nothing can move the track any more (R49)
            end_if_track_stuck(s)
        done(s, self, None)


PRIMITIVE = register_primitive(
    Primitive(
        name="upgrade",
        word="Upgrade",
        rules="R42-R43",
        text=(
            "Take a face-up Space Academy card into your hand, or the top of the Academy Deck "
            "(then three new cards are laid face up)"
        ),
        help=(
            "Take one of the three face-up Space Academy cards into your hand, or the top card of"
            " the Academy Deck (then three new cards are laid face up)."
        ),
        basic=True,
        action=Upgrade,
    )
)
