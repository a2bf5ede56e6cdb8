"""A lesson being played: the pure API the tutorial screen drives.

>>> from nova.tutorial import LESSONS, start
>>> session = start(LESSONS[1])              # Launch
>>> [t.token for t in session.offered()]
['La0', 'Ld0']
>>> step = session.try_move("Lc0")           # a Shard sits on c0
>>> step.refused
'Launch needs a ship in your Dock and your own open Jump-Gate (R44)'
>>> session = session.try_move("La0").session.try_move("Ld0").session
>>> session.done
True

Every state a lesson can reach with the moves it teaches is worked out when it starts
(at most a few hundred states), so the session knows which of those moves still lead to the goal:
a move that would not is refused with the lesson's hint instead of leaving the player
stuck. Nothing here knows the page: it names targets by the engine's move tokens, which
the page's elements carry as ``data-move``.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field

from ..folding import Fold, folds, taken_for_person
from ..rules import Move, State
from ..rules import move as mv
from .lesson import RULE_NUMBER, Lesson

MAX_STATES = 1000  # a lesson is small: its search must fit in one task of the page (~100 ms)


class LessonTooBig(ValueError):
    """A lesson whose offered moves reach more states than a lesson should."""


@dataclass(frozen=True)
class Target:
    """An element the lesson expects next: the one carrying ``data-move="<token>"``.

    ``kind`` says what it is on the screen (``space``, ``card``, ``bay``, ``academy``,
    ``choice``, ``end-turn``) and ``name`` which one (``d3``, ``b5``, ``1``...).
    """

    token: str
    kind: str
    name: str

    @property
    def selector(self) -> str:
        return f'[data-move="{self.token}"]'


def target_of(token: str) -> Target:
    """What a move token points at on the screen."""
    m = Move(token)
    kind = m.kind
    if kind == mv.END:
        return Target(token, "end-turn", "")
    if kind in (mv.LAUNCH, mv.SHIP, mv.DEST, mv.TARGET, mv.SPAWN):
        return Target(token, "space", m.space)
    if kind == mv.BAY:
        return Target(token, "bay", str(m.number))
    if kind == mv.UPGRADE:
        return Target(token, "academy", str(m.number) if m.number else "D")
    if kind == mv.PLAY and m.mode in ("u", "r", "s", "l"):
        return Target(token, "card", m.card)
    return Target(token, "choice", token)


def _is_link(token: str) -> bool:
    """A card played as a chain link (sideways, or a Special as a link only)."""
    m = Move(token)
    return m.kind == mv.PLAY and m.mode in ("s", "l")


@dataclass
class _Plan:
    """Every state the lesson's moves reach from its start, and which reach the goal."""

    nodes: dict[str, State] = field(default_factory=dict)
    edges: dict[str, dict[str, str]] = field(default_factory=dict)
    good: set[str] = field(default_factory=set)


def state_key(s: State) -> str:
    """The position, less what no later rule depends on: the decision count and the order
    the turn's cards were played in. States that differ only there are one state for the
    search (playing the same cards in another order leads to the same place)."""
    text = re.sub(r" ply=\d+", "", s.position())
    return re.sub(r"played=(\S+)", lambda m: "played=" + ",".join(sorted(m[1].split(","))), text)


def settle(lesson: Lesson, s: State) -> State:
    """Play the other seats' decisions (a Shard placed by the opponent, R47), and the
    player's own that the game's page takes for a person (a decision with one option, a
    moving ship's Shards kept: nova/folding.py), until the player has a question to
    answer, the goal is met or the game is over: a lesson asks what the game asks."""
    for before, move in settled(lesson, s):
        s = before.apply(move)
    return s


def settled(lesson: Lesson, s: State) -> list[tuple[State, str]]:
    """The decisions :func:`settle` plays from ``s``, each with the state it is taken in."""
    steps: list[tuple[State, str]] = []
    for _ in range(200):
        if s.is_over():
            break
        nxt = lesson.reply(s) if s.current_player != lesson.seat else None
        if nxt is None and not lesson.done(s):
            nxt = taken_for_person(s)
        if nxt is None:
            break
        steps.append((s, nxt))
        s = s.apply(nxt)
    return steps


def lesson_moves(lesson: Lesson, s: State) -> list[str]:
    """The legal moves now that are of a kind the lesson teaches (before the goal check)."""
    if lesson.done(s) or s.is_over():
        return []
    return [m for m in s.legal_moves() if lesson.offers_move(m)]


def explore(lesson: Lesson, start_state: State | None = None) -> _Plan:
    """Breadth-first search over the lesson's moves; the good states are those from which
    the goal can still be reached with them."""
    first = settle(lesson, start_state or lesson.state())
    plan = _Plan()
    key = state_key(first)
    plan.nodes[key] = first
    queue = deque([key])
    while queue:
        key = queue.popleft()
        s = plan.nodes[key]
        out: dict[str, str] = {}
        for m in lesson_moves(lesson, s):
            nxt = settle(lesson, s.apply(m))
            k = state_key(nxt)
            out[m] = k
            if k not in plan.nodes:
                if len(plan.nodes) >= MAX_STATES:
                    raise LessonTooBig(f"lesson {lesson.id}: over {MAX_STATES} states")
                plan.nodes[k] = nxt
                queue.append(k)
        plan.edges[key] = out
    back: dict[str, list[str]] = {k: [] for k in plan.nodes}
    for k, edges in plan.edges.items():
        for target in edges.values():
            back[target].append(k)
    todo = deque(k for k, s in plan.nodes.items() if lesson.done(s))
    plan.good = set(todo)
    while todo:
        k = todo.popleft()
        for prev in back[k]:
            if prev not in plan.good:
                plan.good.add(prev)
                todo.append(prev)
    return plan


_FOCUS: dict[str, tuple[frozenset[int], frozenset[int]]] = {}  # lesson id -> focus()
_FOLDS: dict[tuple[str, str], dict[str, Fold]] = {}  # (lesson id, state key) -> folds()


@dataclass(frozen=True)
class Step:
    """The answer to a tried move: the session after it, and ``refused`` (the reason, naming
    a rule) when the move was not taken, in which case ``session`` is unchanged."""

    session: LessonSession
    refused: str = ""


@dataclass(frozen=True)
class LessonSession:
    """One lesson in play. Immutable: :meth:`try_move` returns the next session."""

    lesson: Lesson
    state: State
    plan: _Plan = field(repr=False, compare=False)
    # the state before the last tap (None at the start): the screen marks what it changed
    previous: State | None = field(default=None, repr=False, compare=False)
    taps: int = field(default=0, repr=False, compare=False)  # the lesson's taps so far
    # the last decision of the last tap that finished an action (the place, a Cargo Bay...),
    # with the state it was taken in (None at the start): an action that moves what the
    # board's change cannot tell (two ships changing places) draws its trail from it
    acted: tuple[State, str] | None = field(default=None, repr=False, compare=False)

    @property
    def key(self) -> str:
        return state_key(self.state)

    @property
    def done(self) -> bool:
        return self.lesson.done(self.state)

    @property
    def after(self) -> str:
        """The sentences shown once the goal is met ("" before)."""
        return self.lesson.after if self.done else ""

    @property
    def stuck(self) -> bool:
        """The goal cannot be reached any more (never, when every move was the lesson's)."""
        return not self.done and self.key not in self.plan.good

    def focus(self) -> tuple[frozenset[int], frozenset[int]]:
        """What the lesson is about on the board: the spaces whose stacks change on the
        way to its goal, and the seats whose Star Base (Dock, Cargo Bays) changes, from
        the states its moves reach (the same for the whole lesson)."""
        got = _FOCUS.get(self.lesson.id)
        if got is None:
            first = next(iter(self.plan.nodes.values()))
            spaces: set[int] = set()
            seats: set[int] = set()
            for key in self.plan.good:
                s = self.plan.nodes[key]
                spaces.update(i for i, (a, b) in enumerate(zip(first.pile, s.pile, strict=True))
                              if a != b or first.ship[i] != s.ship[i])  # fmt: skip
                seats.update(p for p, (a, b) in enumerate(zip(first.players, s.players,
                             strict=True)) if a.bays != b.bays or a.dock != b.dock)  # fmt: skip
            got = _FOCUS[self.lesson.id] = (frozenset(spaces), frozenset(seats))
        return got

    def folds(self) -> dict[str, Fold]:
        """The board's places where one tap plays several of the lesson's decisions, as in
        the game (nova/folding.py: a card, the ship, the place): each place whose one
        way there stays on the way to the goal. A place reached by several ways to different
        outcomes (the game's chooser) is left to the cards' own taps."""
        if self.done:
            return {}
        key = (self.lesson.id, self.key)
        got = _FOLDS.get(key)
        if got is None:
            got = {}
            for space, fold in folds(self.state).items():
                ways = [w for w in fold.options if self._on_the_way(w)]
                if len(ways) == 1:
                    got[space] = Fold(space, (ways[0],))
            _FOLDS[key] = got
        return got

    def _on_the_way(self, way: str) -> bool:
        """Every decision of ``way`` is one the lesson teaches (or the page's own, taken for
        the player) and it ends where the goal can still be reached."""
        s = self.state
        for token in way.split():
            if not (self.lesson.offers_move(token) or token == taken_for_person(s)):
                return False
            s = s.apply(token)
        return state_key(settle(self.lesson, s)) in self.plan.good

    def offered(self) -> list[Target]:
        """The moves the lesson offers now, as the elements to mark ``data-lesson-target``."""
        out = self.plan.edges.get(self.key, {})
        return [target_of(m) for m, nxt in out.items() if nxt in self.plan.good]

    def why_not(self, move: str) -> str:
        """Why ``move`` is not taken now, naming the rule; "" if it is offered."""
        lesson, s = self.lesson, self.state
        if self.done:
            return f"this lesson is done: go on to the next one ({lesson.rule})"
        move = " ".join(str(move).split())
        if move in (t.token for t in self.offered()):
            return ""
        teaches = f"this lesson teaches {lesson.teaches}"
        if " " in move:  # a folded place's way (several decisions in one tap)
            if any(move in f.options for f in self.folds().values()):
                return ""
            for token in move.split():
                if token not in s.legal_moves():
                    reason = s.why_illegal(token)
                    return (
                        reason
                        if RULE_NUMBER.search(reason)
                        else f"{reason}; {teaches} ({lesson.rule})"
                    )
                s = s.apply(token)
            hint = lesson.hint or f"The goal: {lesson.goal}"
            return f"that way does not lead to this lesson's goal. {hint} ({lesson.rule})"
        if move not in s.legal_moves():
            reason = s.why_illegal(move)
            if RULE_NUMBER.search(reason):
                return reason
            return f"{reason}; {teaches} ({lesson.rule})"
        if not lesson.offers_move(move):
            links = [t.name for t in self.offered() if t.kind == "card" and _is_link(t.token)]
            if _is_link(move) and links:
                # every card is a link sideways (R23): say which one the lesson has in mind
                return (
                    "in the game any card played sideways is a chain link; this lesson "
                    f"uses {' or '.join(links)} for it (R23)"
                )
            hint = f". {lesson.hint}" if lesson.hint else ""
            return f"not now: {teaches}{hint} ({lesson.rule})"
        hint = lesson.hint or f"The goal: {lesson.goal}"
        return (
            f"legal in the game, but it does not lead to this lesson's goal. {hint} ({lesson.rule})"
        )

    def try_move(self, move: str) -> Step:
        """Play ``move`` if the lesson offers it now (one decision, or a folded place's way
        of several); otherwise say why not. What the page takes for the player after it is
        played too (:func:`settle`)."""
        reason = self.why_not(move)
        if reason:
            return Step(self, reason)
        s, steps = self.state, []
        for token in str(move).split():
            steps.append((s, token))
            s = s.apply(token)
        steps += settled(self.lesson, s)
        mine = [
            (b, t)
            for b, t in steps
            if b.pending is not None and b.current_player == self.lesson.seat
        ]
        end = steps[-1][0].apply(steps[-1][1])
        acted = mine[-1] if mine else None
        return Step(LessonSession(self.lesson, end, self.plan, self.state, self.taps + 1, acted))


def start(lesson: Lesson) -> LessonSession:
    """The lesson at its start (with every state its moves reach worked out)."""
    plan = explore(lesson)
    first = next(iter(plan.nodes.values()))
    return LessonSession(lesson, first, plan)
