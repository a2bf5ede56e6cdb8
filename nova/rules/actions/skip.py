"""Skip (R66): play any number of Orbit cards without chaining them (``b3u``, ...), then
``done``: one ship orbits the sum (with range cards such as Orbit 1-3, any total the cards
make, chosen with the destination)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import move as mv
from ..board import orbit_ships
from ..content import CardAction
from ..move import Move
from ..primitives import Primitive, register_primitive
from .base import Action, done
from .orbit import Orbit

if TYPE_CHECKING:
    from ..state import State
    from ..view import View


def skip_cards(s: State) -> list[tuple[Move, tuple[int, ...]]]:
    """(move, distances) for every way a card in hand can go into a Skip.

    "Play any number of Orbit cards": a basic card's Orbit action, upright or rotated,
    and (setting ``skip_takes_special_orbits``) a Special's Orbit action, which needs a
    Shard of its colour in a bay like any Special action (R70). A composed action counts
    when it is a single Orbit.
    """
    lay = s.layout
    specials = lay.settings.skip_takes_special_orbits
    needs_colour = lay.settings.special_action_needs_colour
    colours = set("".join(s.players[s.turn].bays))
    out = []
    for cid in s.players[s.turn].hand:
        pair: tuple[CardAction | None, CardAction | None]
        basic = lay.basic.get(cid)
        if basic is not None:
            pair = basic
        elif specials:
            card = lay.special[cid]
            if needs_colour and card["colour"] not in colours:
                continue
            pair = (card["action"], card["alternate"])
        else:
            continue
        for mode, action in zip("ur", pair, strict=True):
            if action is not None and action.names() == ("orbit",):
                out.append((mv.play(cid, mode), action.dists))
    return out


def skip_sums(cards: list[tuple[Move, tuple[int, ...]]], without: str = "") -> set[int]:
    """Every total some of ``cards`` can add up to (0 included): each card at most once,
    one of its distances; a range card (Orbit 1-3) counts as any one of its distances."""
    per_card: dict[str, set[int]] = {}
    for move, dists in cards:
        if move.card != without:
            per_card.setdefault(move.card, set()).update(dists)
    sums = {0}
    for ds in per_card.values():
        sums |= {t + d for t in sums for d in ds}
    return sums


def skip_total(totals: Iterable[int]) -> str:
    """A Skip's total: '7', or '5, 6 or 7' when range cards left a choice (R66)."""
    words = [str(t) for t in totals]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def skip_movable(s: State, total: int) -> bool:
    return total > 0 and bool(orbit_ships(s, (total,)))


def skip_possible(s: State, skip_card: str | None) -> bool:
    """Whether a Skip played from hand (``skip_card``) can end in a ship orbiting the sum:
    the engine offers no choice that leads nowhere (setting ``skip_must_move``)."""
    if not s.layout.settings.skip_must_move:
        return True
    cards = skip_cards(s)
    return any(skip_movable(s, t) for t in skip_sums(cards, skip_card or ""))


@dataclass(frozen=True, kw_only=True)
class Skip(Action):
    kind = "skip"

    totals: tuple[int, ...] = (0,)  # every sum the cards added so far can make

    def possible(self, s: State) -> bool:
        return skip_possible(s, None)

    def prompt(self, view: View) -> str:
        then = ", then Done" if any(m.kind == mv.DONE for m in view.legal) else ""
        return f"Skip: add Orbit cards (so far {skip_total(self.totals)}){then}."

    def told(self, before: State, move: Move, after: State, names: list[str]) -> str | None:
        who = names[before.current_player]
        if move.kind == mv.DONE:
            totals = [t for t in self.totals if t > 0]
            return f"{who} stops the Skip: orbit {skip_total(totals)}" if totals else None
        label = before.action_label(move.card, move.mode)
        assert isinstance(after.pending, Skip)
        return f"{who} adds {label} to the Skip (total {skip_total(after.pending.totals)})"

    def moves(self, s: State) -> list[Move]:
        cards = skip_cards(s)
        if not s.layout.settings.skip_must_move:
            return [m for m, _ in cards] + [mv.done()]
        movable: dict[int, bool] = {}

        def ok(t: int) -> bool:
            if t not in movable:
                movable[t] = skip_movable(s, t)
            return movable[t]

        moves = []
        for move, dists in cards:
            rest = skip_sums(cards, move.card)
            if any(ok(t + d + r) for t in self.totals for d in dists for r in rest):
                moves.append(move)
        if any(ok(t) for t in self.totals):
            moves.append(mv.done())
        return moves

    def choose(self, s: State, move: Move) -> None:
        if move.kind == mv.DONE:
            totals = tuple(t for t in self.totals if t > 0)
            dists = tuple(t for t in totals if skip_movable(s, t))
            if totals and s.layout.settings.skip_counts_as_basic_action:
                s.need_link = True
            if dists:
                s.pending = Orbit.make(then=self.then, dists=dists)
            else:
                done(s, self, None)
            return
        p = s.players[s.turn]
        cid, mode = move.card, move.mode
        p.hand.remove(cid)
        p.played.append((cid, mode))
        dists = _orbit_dists(s, cid, mode)
        totals = tuple(sorted({t + d for t in self.totals for d in dists}))
        s.pending = self.but(totals=totals)


def _orbit_dists(s: State, cid: str, mode: str) -> tuple[int, ...]:
    """The distances of the card just played into the Skip (its Orbit action)."""
    lay = s.layout
    if cid in lay.basic:
        action = lay.basic[cid][0 if mode == "u" else 1]
    else:
        card = lay.special[cid]
        action = card["action"] if mode == "u" else card["alternate"]
    assert action is not None
    return action.dists


PRIMITIVE = register_primitive(
    Primitive(
        name="skip",
        word="Skip",
        rules="R66",
        text=(
            "Play any number of Orbit cards without chaining them, then move the sum of their "
            "distances"
        ),
        help=("Play any number of Orbit cards without chaining them, then move the sum."),
        action=Skip,
    )
)
