"""A game by links replayed on one device: the engine's state as far as this device may
know it (docs/LINKS.md, "Fair play by links").

Every device replays the same public record with the same engine. What differs is only
how each seat's undrawn cards are split between its hand and its draw pile: a device knows
that split for its own seat (from its secret) and, in the audit, for every seat; for the
others the engine holds stand-in cards, the right number, drawn from the right pool. Every
public fact (the board, the counts, the discard piles, the Academy, the bag) is the same on
every device.

The chance of a turn is fixed when it starts (:func:`keys.turn_value` of every seat's
latest reveal): the bag's generator, the order of the Academy's unseen cards, and the mover's
cards to draw. Moves never feed it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..rules import IllegalMove, State, View, new_game
from ..rules.chance import (
    Refill,
    apply_with_pool,
    in_card_order,
    refill_plan,
    undrawn,
    with_academy,
    with_generator,
    with_hand,
    with_pool_in_hand,
)
from ..rules.rng import Rng
from . import keys
from .record import FairRecord


class Refused(ValueError):
    """A link this device will not take; the message names what is wrong (for a player)."""


@dataclass
class TurnInfo:
    index: int
    seat: int
    start: int  # index of its first move in the record
    end: int  # one past its last move
    reveal_count: int
    chance: bytes  # P_t
    digest: bytes  # the history digest after this turn
    drawn: tuple[str, ...] = ()  # the cards the mover drew as it began (when known here)


@dataclass
class Table:
    record: FairRecord
    state: State
    turns: list[TurnInfo]
    # what each seat draws when its next turn starts (R14-R16, fixed when its turn ended);
    # a seat this device does not know has its hidden piles left empty in it
    pending: list[Refill | None]
    known: frozenset[int]  # seats whose hands this device knows
    seen: set[str]  # Academy cards anyone has seen (face up or taken face up)
    counts: list[int]  # reveals each seat has made so far in the replay
    digest: bytes
    last_digest: list[bytes]  # the history digest each seat's latest turn sealed
    prepared: bool = False  # the next turn's chance is applied (its mover's device)
    drawn: tuple[str, ...] = ()  # the cards the turn under way drew as it began
    faults: list[str] = field(default_factory=list)
    # the state after the set-up and after every move, as this device knows them (the page's
    # replay and undo use them: opening a link replays the game once)
    states: list[State] = field(default_factory=list)

    @property
    def next_seat(self) -> int:
        return self.state.turn

    @property
    def over(self) -> bool:
        return self.state.over or self.record.abandoned >= 0

    def to_draw(self, seat: int) -> int:
        p = self.pending[seat]
        return p.count if p is not None else 0

    def hand(self, seat: int) -> list[str] | None:
        """The seat's hand as this device knows it (None: not known here); cards still to
        draw are not in it (:meth:`to_draw`)."""
        if seat not in self.known:
            return None
        p = self.pending[seat]
        if p is not None:
            return list(p.kept)
        return list(self.state.players[seat].hand)

    def view(self, seat: int) -> View:
        """``state.view(seat)``, with the seat's cards still to draw shown as such."""
        v = self.state.view(seat)
        p = self.pending[seat]
        if p is None or seat not in self.known:
            return v
        pool = Counter(undrawn(self.state, seat))
        pool.subtract(p.kept)
        me = replace(
            v.seats[seat],
            hand=tuple(p.kept),
            draw_cards=tuple(in_card_order(self.state.layout, list(pool.elements()))),
            to_draw=p.count,
        )
        return v.but(seats=v.seats[:seat] + (me,) + v.seats[seat + 1 :])


def is_card_move(s: State, move: str) -> str | None:
    """The card a move plays, or None."""
    cid, mode = move[:-1], move[-1:]
    if mode in ("u", "r", "s", "l") and (cid in s.layout.basic or cid in s.layout.special):
        return cid
    return None


def pool_state(s: State) -> State:
    """``s`` with the deciding seat's hand made of its whole undrawn pool: the state whose
    legal decisions are the same on every device (docs/LINKS.md, "Decisions in bits")."""
    return with_pool_in_hand(s, s.turn)


def public_choices(s: State) -> list[str]:
    """The sorted decisions of :func:`pool_state`: what a move's index in a link counts in."""
    return sorted(str(m) for m in pool_state(s).legal_moves())


def _stand_ins(s: State, seat: int, kept: tuple[str, ...], count: int) -> State:
    """The hand ``kept`` plus ``count`` stand-in cards, the first of the rest of the pool."""
    rest = Counter(undrawn(s, seat))
    rest.subtract(kept)
    return with_hand(s, seat, list(kept) + in_card_order(s.layout, list(rest.elements()))[:count])


def _hidden(plan: Refill) -> Refill:
    """A refill as a device that does not know the seat's cards may hold it."""
    return Refill((), (), plan.from_pile, plan.reshuffled, plan.from_reshuffled)


def setup(record: FairRecord, secrets: dict[int, bytes]) -> Table:
    """The table after the set-up: the public set-up from ``P0``, every hand still to draw."""
    rules = record.rules
    host_first = record.reveals[0].at(1)
    if host_first is None:
        raise Refused("this game has not been started by its host")
    p0 = keys.setup_value(list(record.anchors), host_first)
    s = new_game(rules.players, seed=keys.setup_seed(p0), variant=rules.engine_variant())
    lay = s.layout
    pending: list[Refill | None] = []
    for seat, p in enumerate(s.players):
        # the opening hand's basic cards are drawn at the seat's first turn; the Academy
        # cards the set-up gives (R9) stay in hand, face up
        kept = tuple(c for c in p.hand if c in lay.special)
        basics = [c for c in p.hand if c not in lay.special]
        plan = Refill(kept, tuple(p.draw + basics), len(basics))
        pending.append(plan if seat in secrets else _hidden(plan))
    seen = {c for c in s.face_up if c is not None}
    for p in s.players:
        seen.update(c for c in p.hand if c in lay.special)
    counts = [0] * rules.players
    counts[0] = 1  # the host's start reveal
    digest = keys.history_start(p0 + rules.canonical())
    return Table(
        record=record,
        state=s,
        turns=[],
        pending=pending,
        known=frozenset(secrets),
        seen=seen,
        counts=counts,
        digest=digest,
        last_digest=[b""] * rules.players,
    )


def start_turn(t: Table, reveal_value: bytes, secrets: dict[int, bytes]) -> bytes:
    """Apply turn ``len(t.turns)``'s chance (docs/LINKS.md, "Public chance"); its P_t."""
    s = t.state  # a replay keeps the states before: each change below is a new state
    seat = s.turn
    t.counts[seat] += 1
    latest: list[tuple[int, bytes]] = []
    for other in range(s.num_players):
        if other == seat:
            latest.append((t.counts[seat], reveal_value))
            continue
        value = t.record.reveals[other].at(t.counts[other]) if t.counts[other] else b""
        if value is None:
            raise Refused(f"{t.record.who(other)}'s reveals in this link are not in step")
        latest.append((t.counts[other], value))
    p = keys.turn_value(len(t.turns), latest)
    s = with_generator(s, keys.stream(p, "bag"))
    unseen = in_card_order(s.layout, [c for c in s.academy if c not in t.seen])
    Rng(keys.stream(p, "academy")).shuffle(unseen)
    s = with_academy(s, unseen + [c for c in s.academy if c in t.seen])
    pend = t.pending[seat]
    if pend is not None and seat in secrets:
        key = keys.draw_key(secrets[seat])
        hand = pend.drawn(s.layout, lambda i, n: keys.draw_index(key, p, i, n))
        s = with_hand(s, seat, hand)
        t.drawn = tuple(hand[len(pend.kept) :])
    else:
        t.drawn = ()
    t.pending[seat] = None
    t.state = s
    return p


def _end_turn_pending(t: Table, before: State, seat: int) -> None:
    """After ``seat``'s ``E``: what it draws at its next turn, and stand-ins meanwhile."""
    plan = refill_plan(before, seat)
    if seat in t.known:
        t.pending[seat] = plan
        t.state = _stand_ins(t.state, seat, plan.kept, plan.count)
    else:
        t.pending[seat] = _hidden(plan) if plan.count else None


def play_move(t: Table, move: str, index: int, audit: bool) -> None:
    """One move of the current turn, checked as this device can check it."""
    s = t.state
    seat = s.turn
    p = s.players[seat]
    who = t.record.who(seat)
    card = is_card_move(s, move)
    if card is not None and card not in p.hand and card not in p.draw:
        raise Refused(f"move {index + 1} ('{move}'): {who} played {card}, which they do not hold")
    if seat in t.known:
        if card is not None and card not in p.hand:
            fault = (
                f"move {index + 1} ('{move}'): {who} played {card} from the draw pile, "
                "not from the hand"
            )
            if not audit:
                raise Refused(fault)
            t.faults.append(fault)
            hand = list(s.players[seat].hand)
            if not hand:
                raise Refused(f"move {index + 1} ('{move}'): {who} has no card in hand to play")
            hand[-1] = card  # the audit goes on as if it had been in hand
            s = t.state = with_hand(s, seat, hand)
        t.state = _apply(s, move, index)
    elif move == "E":
        t.state = _apply(s, move, index)  # ending a turn does not depend on the hand
    else:
        # a seat whose hand this device does not know: the move is checked and made with its
        # whole undrawn pool as its hand (docs/LINKS.md, "Decisions in bits")
        try:
            t.state = apply_with_pool(s, move)
        except IllegalMove as exc:
            raise Refused(f"move {index + 1} ('{move}') is not legal there: {exc}") from None
    if move == "E":
        _end_turn_pending(t, s, seat)
    for c in t.state.face_up:
        if c is not None:
            t.seen.add(c)


def _apply(s: State, move: str, index: int) -> State:
    try:
        return s.apply(move)
    except IllegalMove as exc:
        raise Refused(f"move {index + 1} ('{move}') is not legal there: {exc}") from None


def end_turn(t: Table, seat: int, start: int, moves: list[str], count: int, chance: bytes) -> None:
    """A turn's moves into the history digest (docs/LINKS.md, "Seals")."""
    t.digest = keys.history_next(t.digest, moves)
    t.last_digest[seat] = t.digest
    t.turns.append(
        TurnInfo(len(t.turns), seat, start, start + len(moves), count, chance, t.digest, t.drawn)
    )


class MoveSource(Protocol):
    """Where a replay takes its moves: the record's list, or a link's packed choices."""

    def __len__(self) -> int: ...

    def move(self, i: int, s: State) -> str: ...


class ListedMoves:
    def __init__(self, moves: tuple[str, ...], choices: list[tuple[int, int]] | None = None):
        self.moves = moves
        self.choices = choices  # filled with (position, out of) when a link is being made

    def __len__(self) -> int:
        return len(self.moves)

    def move(self, i: int, s: State) -> str:
        move = self.moves[i]
        if self.choices is not None and not s.over:
            options = public_choices(s)
            if move not in options:
                raise Refused(f"move {i + 1} ('{move}') is not legal there")
            self.choices.append((options.index(move), len(options)))
        return move


def replay(
    record: FairRecord,
    secrets: dict[int, bytes],
    audit: bool = False,
    prepare: bool = True,
    source: MoveSource | None = None,
    states: list[State] | None = None,
) -> Table:
    """The record replayed with ``secrets`` (this device's seat, or every seat in the audit).

    Raises :class:`Refused` naming the first move that breaks a rule (in the audit, a card
    not in hand is a fault and the replay goes on). With ``prepare``, the next turn's chance
    is applied when this device holds the next mover's secret, ready for it to play.
    ``source`` gives the moves (default: the record's own); the table's record then holds
    the moves played. ``states`` (if given) receives the table's ``states``.
    """
    t = setup(record, secrets)
    t.states.append(t.state)
    src: MoveSource = source if source is not None else ListedMoves(record.moves)
    moves: list[str] = []
    count = len(src)
    i = 0
    while i < count:
        seat = t.state.turn
        if t.state.over:
            raise Refused(f"move {i + 1} comes after the end of the game")
        n = t.counts[seat] + 1
        value = record.reveals[seat].at(n)
        if value is None:
            raise Refused(
                f"turn {len(t.turns) + 1} (move {i + 1}) claims to be {record.who(seat)}'s, but "
                f"does not carry {record.name(seat)}'s key: it was not made on their device"
            )
        chance = start_turn(t, value, secrets)
        start = i
        while i < count:
            move = src.move(i, t.state)
            moves.append(move)
            play_move(t, move, i, audit)
            t.states.append(t.state)
            i += 1
            if move == "E" or t.state.over:
                break
        else:
            if not t.state.over:
                raise Refused("this link ends in the middle of a turn")
        end_turn(t, seat, start, moves[start:i], n, chance)
    if source is not None:
        t.record = replace(record, moves=tuple(moves))
    for seat, r in enumerate(record.reveals):
        if r.count != t.counts[seat]:
            raise Refused(
                f"{record.who(seat)}'s key in this link does not match their turns "
                f"({r.count} reveals for {t.counts[seat]})"
            )
    if states is not None:
        states.extend(t.states)
    mover = t.state.turn
    if prepare and not t.over and mover in secrets:
        start_turn(t, keys.reveal(secrets[mover], t.counts[mover] + 1), secrets)
        t.counts[mover] -= 1  # the reveal is made when the turn is sent
        t.prepared = True
    return t
