"""What every action in progress shares: its kind, how it starts from a card's step, how
a finished one hands over to the card's next step, and its JSON.

An action in progress is a frozen dataclass (one module per kind in this package). It
lists its legal moves, says why a move is not one, and applies a move to a state that
:meth:`~nova.rules.state.State.apply` has just cloned, replacing ``s.pending`` with the
next value of itself, with the card's next step, or with None. It also says, in a
player's words, what is asked now (:meth:`Action.prompt`) and what a choice did
(:meth:`Action.told`), and what moved on the board when the board alone cannot tell
(:meth:`Action.motions`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .. import move as mv
from ..content import Step
from ..move import Move
from ..primitives import ACTIONS, IMMEDIATE, unregister_primitive

if TYPE_CHECKING:
    from ..content import Layout
    from ..state import State
    from ..view import View

# the state and the spaces of the player's ships -> whether a card's action can start
StartCheck = Callable[["State", list[int]], bool]


A = TypeVar("A", bound="Action")
# kind -> its class (a primitive's name finds its class too): filled by the registrations
REGISTRY = ACTIONS


def unregister(kind: str) -> None:
    """Forget the action ``kind`` and the primitive of that name (a test's own)."""
    unregister_primitive(kind)


@dataclass(frozen=True, kw_only=True)
class Action:
    kind: ClassVar[str]
    # the player's words for a choice that is not one now, naming the rule (None: generic)
    why_ship: ClassVar[str | None] = None
    why_target: ClassVar[str | None] = None
    why_dest: ClassVar[str | None] = None

    then: tuple[Step, ...] = ()  # the card's steps still to come (a composed card)

    # -- starting ------------------------------------------------------------------------
    @classmethod
    def from_step(cls, step: Step, then: tuple[Step, ...], ship: int | None) -> Action:
        """The action a card's step starts (``ship``: the ship the step before used)."""
        return cls.make(then=then)

    def possible(self, s: State) -> bool:
        """Whether this action has at least one complete way to be carried out now."""
        return bool(self.moves(s))

    @classmethod
    def can_start(cls, step: Step, lay: Layout) -> StartCheck:
        """Whether a card whose action begins with ``step`` can be played now (R11: that
        step has a complete way to be carried out), as a function of the state and the
        spaces of the player's ships. Legal-move generation asks it of every card in hand,
        so the commonest kinds answer from the board directly."""
        possible = cls.from_step(step, (), None).possible
        return lambda s, ships: possible(s)

    def begin(self, s: State) -> None:
        """Put the action under way (some resolve at once once their ship is known)."""
        s.pending = self

    # -- deciding ------------------------------------------------------------------------
    def moves(self, s: State) -> list[Move]:
        raise NotImplementedError

    def choose(self, s: State, move: Move) -> None:
        raise NotImplementedError

    @classmethod
    def make(cls: type[A], **fields: Any) -> A:
        """A new action of this kind, unset fields at their defaults: the frozen dataclass's
        ``__init__`` without its per-field ``object.__setattr__`` (every card played starts
        one, so it is on the hot path). Only our own code calls it, with our own fields."""
        new = object.__new__(cls)
        d = new.__dict__
        d.update(_defaults(cls))
        d.update(fields)
        return new

    def but(self: A, **changes: Any) -> A:
        """A copy with ``changes`` (``dataclasses.replace`` without its checks: it runs at
        every choice, and the changes are our own fields)."""
        new = object.__new__(type(self))
        d = new.__dict__
        d.update(self.__dict__)
        d.update(changes)
        return new

    @property
    def word(self) -> str:
        return str(self.kind).replace("_", " ")

    # -- in words and on the board ------------------------------------------------------
    def prompt(self, view: View) -> str:
        """What the deciding player is asked now (``view``: the deciding seat's view)."""
        raise NotImplementedError

    def told(self, before: State, move: Move, after: State, names: list[str]) -> str | None:
        """The log's line for ``move``, played in ``before`` and giving ``after`` (None: a
        half-made choice that the line of the finished action tells)."""
        raise NotImplementedError

    def motions(self, before: State, move: Move, after: State) -> list[dict[str, Any]] | None:
        """What moved on the board in ``move``, as ``nova.render.marks.motions`` gives it;
        None: the board's change tells it (a ship that left one space for another)."""
        return None

    @classmethod
    def notation_forms(cls, forms: dict[str, str]) -> dict[str, str]:
        """How each field is written in the position notation: ``forms`` by name, and a
        field's own ``notation`` metadata (nova.rules.position)."""
        own = {
            f.name: f.metadata["notation"]
            for f in dataclasses.fields(cls)
            if "notation" in f.metadata
        }
        return {**forms, **own} if own else forms

    def why_not(self, s: State, move: Move) -> str:
        """Why ``move`` is not a choice of this action now (R11: an action is finished at
        once), in a player's words naming the rule."""
        kind = move.kind
        if kind in (mv.SHIP, mv.DEST, mv.TARGET) and move.space in s.layout.name_to_space:
            if kind == mv.SHIP:
                return self.why_ship or f"choose one of the highlighted ships for the {self.word}"
            if kind == mv.TARGET:
                return self.why_target or (
                    "choose an opponent's ship next to yours on the same ring (R39)"
                )
            if getattr(self, "ship", 0) is None:
                return f"first choose the ship for the {self.word}"
            return self.why_dest or f"not a place the {self.word} can reach"
        return f"first finish the {self.word} under way (R11)"

    # -- saving --------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The kind and every field that is not at its default, JSON-ready."""
        out: dict[str, Any] = {"kind": str(self.kind)}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if v == f.default:
                continue
            if f.name == "then":
                out["then"] = [step.text() for step in v]
            elif isinstance(v, tuple):
                out[f.name] = list(v)
            else:
                out[f.name] = v
        return out

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))


_DEFAULTS: dict[type, dict[str, Any]] = {}


def _defaults(cls: type) -> dict[str, Any]:
    out = _DEFAULTS.get(cls)
    if out is None:
        out = _DEFAULTS[cls] = {f.name: f.default for f in dataclasses.fields(cls)}
    return out


def from_json(data: dict[str, Any]) -> Action:
    """The action saved as ``data`` (:meth:`Action.to_json`); ValueError if it is not one."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise ValueError("an action in progress needs a 'kind'")
    data = dict(data)
    name = data.pop("kind")
    if name == "hijack_orbit":  # saved before Hijack 1-3 was Hijack, then Orbit 1-3 (R68)
        name = "hijack"
        data["then"] = [Step("orbit", tuple(data.pop("dists", (1, 2, 3)))).text()]
    if name == "skip" and "total" in data:  # a Skip saved before ranges counted
        data["totals"] = [data.pop("total")]
    cls = REGISTRY.get(name)
    if cls is None:
        raise ValueError(f"unknown action {name!r}")
    known = set(cls.field_names())
    unknown = set(data) - known
    if unknown:
        raise ValueError(f"{name}: unknown fields {sorted(unknown)}")
    fields: dict[str, Any] = {}
    for key, v in data.items():
        if key == "then":
            if not isinstance(v, list):
                raise ValueError(f"{name}.then: a list of steps")
            fields[key] = tuple(Step.parse(x) for x in v)
        elif isinstance(v, list):
            fields[key] = tuple(v)
        else:
            fields[key] = v
    return cls(**fields)


def start(s: State, steps: tuple[Step, ...], ship: int | None = None, later: bool = False) -> None:
    """Carry out a card's steps from the first (``later``: the card's first step is done
    already): each step's action is put under way in turn; a step after the card's first
    that cannot be carried out now is passed over."""
    for k, step in enumerate(steps):
        if s.over:
            return
        rest = steps[k + 1 :]
        if step.name in IMMEDIATE:
            IMMEDIATE[step.name](s, step)
            ship = None
            continue
        action = REGISTRY[step.name].from_step(step, rest, ship)
        if later or k > 0:  # the card was offered only if its first step can be carried out
            action = later_step(s, action)
            if not action.possible(s):
                continue
        action.begin(s)
        return
    s.pending = None


def later_step(s: State, action: Action) -> Action:
    """A step that follows another on the same card: an Orbit after it may be declined
    where the setting ``hijack_orbit_is_optional`` says so (R68)."""
    if s.layout.settings.hijack_orbit_is_optional and "optional" in (action.field_names()):
        return action.but(optional=True)
    return action


def done(s: State, action: Action, ship: int | None) -> None:
    """``action`` is finished: the card's next step (if any) starts, from ``ship``."""
    s.pending = None
    if action.then and not s.over:
        start(s, action.then, ship, later=True)


def leave_moves(s: State, ship: int) -> list[Move]:
    """R33: how many Shards to leave behind, from the bottom (``x0``: take them all)."""
    return [mv.leave(k) for k in range(len(s.pile[ship]) + 1)]
