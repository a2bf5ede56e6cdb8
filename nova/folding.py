"""Several of the engine's decisions in one tap on the board (issue 49: a phone player's
taps per turn).

A player who means "this ship goes there" has to say it in the engine's steps: a card
(and, after an action, a Chain link card before it, R24), the ship, then the place. The
page offers the place itself: at the turn's step every place an action card in hand can
take one of the player's ships to, and at the "choose the ship" step every place one of
the offered ships can go to. A tap there plays the whole way (``Fold.options``: each a
run of the engine's legal decisions, ``"b5s b4u @b0 >b10"``).

Nothing is decided for the player: the ways that reach a place are grouped by the state
they lead to (the same state: the same game, whichever way), and when two ways lead to
different states (another card spent, another ship moved) the tap asks which (the page's
small chooser), one button a way. The page chooses only among the engine's legal moves;
every way ends with a place the player tapped. And the decisions the page takes for a
person (:func:`taken_for_person`: the one option, a moving ship's Shards kept), in a game
(``nova/web/session.py``) as in a lesson (``nova/tutorial/session.py``). Pure: tested in
CPython.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .rules import State
from .rules import move as mv
from .rules.move import Move

# the decisions a tap on a board space finishes (the place itself is the last one)
_LAST = frozenset({mv.DEST, mv.TARGET})
# and those a tap on a Cargo Bay or an Academy card finishes (the key is the decision)
_LAST_OTHER = frozenset({mv.BAY, mv.UPGRADE})
OTHER = True
_WAYS = 400  # at most this many ways are followed (a hand of five, three ships: ~150)


@dataclass(frozen=True)
class Fold:
    """A place on the board one tap reaches: ``options``, the runs of decisions that
    lead there, one per distinct outcome (one: the tap plays it; more: the tap asks)."""

    space: str
    options: tuple[str, ...]

    @property
    def one(self) -> str | None:
        return self.options[0] if len(self.options) == 1 else None


def settle(state: State, leave: int = 0) -> State:
    """What the page plays after a person's decision (``Session.play``): each decision
    with a single option but ending the turn, and a moving ship's Shards kept (or
    ``leave`` of them left)."""
    s = state
    for _ in range(50):
        nxt = taken_for_person(s, leave)
        if nxt is None:
            break
        s = s.apply(nxt)
    return s


def only_choice(state: State) -> str | None:
    """The one legal decision when there is exactly one and it is not ending the turn
    (ending a turn hands the device on: the player does that themselves); else None."""
    if state.is_over():
        return None
    legal = state.legal_moves()
    if len(legal) == 1 and legal[0].kind != mv.END:
        return str(legal[0])
    return None


def leave_asked(state: State) -> int | None:
    """The most Shards the deciding player may leave behind when that is the only question
    now (R33: a moving ship carrying Shards); None when something else is asked. The page
    answers it for a person ("keep them all", or what they set on the ship's control
    before moving, :meth:`Session.pick_leave`): a question whose answer is almost always
    the same costs a tap on every move of a loaded ship."""
    if state.is_over() or state.spawn_shard or state.pending is None:
        return None
    legal = state.legal_moves()
    if len(legal) < 2 or any(m.kind != mv.LEAVE for m in legal):
        return None
    return max(m.number for m in legal)


def taken_for_person(state: State, leave: int = 0) -> str | None:
    """The decision the page takes for a person now, if any: the one option
    (:func:`only_choice`), or a moving ship's Shards kept (``leave`` of them left,
    :func:`leave_asked`)."""
    nxt = only_choice(state)
    most = leave_asked(state)
    if nxt is None and most is not None:
        nxt = str(mv.leave(min(leave, most)))
    return nxt


def _starts(s: State) -> list[tuple[tuple[Move, ...], State]]:
    """Each action card the player may play now (after a Chain link card when one is
    needed first, R24), with the state it leads to."""
    lay = s.layout
    out: list[tuple[tuple[Move, ...], State]] = []
    for m in s.legal_moves():
        if m.kind != mv.PLAY:
            continue
        if m.mode in "ur":
            out.append(((m,), s.apply(m)))
        elif s.need_link and m.mode in "sl":
            linked = s.apply(m)
            for m2 in linked.legal_moves():
                if m2.kind == mv.PLAY and m2.mode in "ur" and m2.card in lay.basic:
                    out.append(((m, m2), linked.apply(m2)))
    return out


def folds(s: State) -> dict[str, Fold]:
    """space -> :class:`Fold` for the person deciding in ``s``: at the turn's step (no
    action under way) and at a "choose the ship" step; {} at any other step. Places the
    step offers itself (a Launch's gate, a ship to choose) are left out: a tap there is
    that decision."""
    if s.is_over() or s.spawn_shard:
        return {}
    legal = s.legal_moves()
    seat = s.current_player
    direct = {m.space for m in legal if m.space}
    if s.pending is None:
        starts = _starts(s)
    elif len(legal) > 1 and all(m.kind == mv.SHIP for m in legal):
        starts = [((), s)]
    else:
        return {}
    reach: dict[str, dict[str, tuple[Move, ...]]] = {}
    budget = [_WAYS]

    def walk(way: tuple[Move, ...], st: State) -> None:
        for _ in range(8):  # the steps with one option, played as the page would
            if budget[0] <= 0 or st.is_over() or st.spawn_shard or st.current_player != seat:
                return
            if st.pending is None:
                return  # the action ended with no place to tap (Disrupt, ...)
            nxt = st.legal_moves()
            if len(nxt) != 1 or nxt[0].kind in _LAST | _LAST_OTHER:
                break  # a choice, or the one place: the player taps it
            way, st = way + (nxt[0],), st.apply(nxt[0])
        nxt = st.legal_moves()
        kinds = {m.kind for m in nxt}
        if kinds == {mv.SHIP}:
            for m in nxt:
                walk(way + (m,), st.apply(m))
        elif len(kinds) == 1 and kinds <= _LAST | _LAST_OTHER:
            for m in nxt:
                budget[0] -= 1
                if m.space in direct or (OTHER is False and m.kind in _LAST_OTHER):
                    continue
                outcome = settle(st.apply(m)).position()
                reach.setdefault(m.space or str(m), {}).setdefault(outcome, way + (m,))

    for way, st in starts:
        walk(way, st)
    return {
        space: Fold(space, tuple(" ".join(way) for way in ways.values()))
        for space, ways in reach.items()
    }


def check_way(s: State, way: str) -> list[tuple[State, Move, State]]:
    """The steps of ``way`` (space-separated decisions) from ``s``: (before, move, after)
    each; IllegalMove if one is not legal where it comes."""
    steps = []
    for token in way.split():
        move = s.parse_move(token)
        if move not in s.legal_moves():
            raise mv.IllegalMove(f"{token} is not a choice there any more")
        after = s.apply(move)
        steps.append((s, move, after))
        s = after
    return steps


def first_action(s: State, turn: Sequence[str]) -> tuple[Move, ...]:
    """The decisions of ``turn`` (a bot's whole turn from ``s``: the hint's) up to the place
    its first action ends at (a space, a Cargo Bay, an Academy card), if it begins with a
    card (or a Launch, then a card) and reaches one; () otherwise (a Disrupt, a deal it was
    weighed on that the real one differs from)."""
    first = [Move(t).kind for t in turn[:2]]
    launched = first == [mv.LAUNCH, mv.PLAY]  # a ship launched for the card (every one docked)
    if not turn or (first[0] not in (mv.PLAY, mv.SHIP) and not launched):
        return ()
    st, out = s, []
    for token in turn:
        move = st.parse_move(token)
        if move not in st.legal_moves():
            return ()
        out.append(move)
        st = st.apply(move)
        if move.kind in _LAST | _LAST_OTHER:
            return tuple(out)
        if st.current_player != s.current_player:
            return ()
    return ()


def place_of(s: State, turn: Sequence[str], found: Mapping[str, Fold]) -> str | None:
    """The folded place (a key of ``found``) where a tap plays the first action of
    ``turn`` (:func:`first_action`), so the hint can say "tap there" on a board that plays
    cards by their places; None when that action is not one the board offers."""
    action = first_action(s, turn)
    if not action:
        return None
    key = action[-1].space or str(action[-1])
    fold = found.get(key)
    if fold is None:
        return None
    want = settle(_play(s, action)).position()
    for way in fold.options:
        if settle(_play(s, way.split())).position() == want:
            return key
    return None


def _play(s: State, moves: Sequence[str]) -> State:
    for m in moves:
        s = s.apply(m)
    return s
