"""The game state of Nova Raiders, its legal decisions and how a decision changes it.

A :class:`State` is a value: :meth:`State.apply` returns a new state and leaves the old
one alone. Every decision is one atomic choice with a short text notation, and the whole
state is text too, its position (see ``docs/NOTATION.md``)::

    >>> s = new_game(players=2, seed=1)
    >>> s.current_player in (0, 1)
    True
    >>> "E" in s.legal_moves()
    True
    >>> s.apply("E").current_player != s.current_player
    True
    >>> State.from_position(s.position()) == s
    True

The fields of :class:`State` and :class:`Player` are the one list of what a position
holds: cloning, saving, loading, the position notation and what a seat's view shows are
derived from them (each field's ``metadata`` says how it is copied and shown).

Rule numbers (R1-R70) refer to ``shared/rulebook/RULE-INDEX.md``; ``docs/RULES.md``
lists every reading of ours.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import invariants, serial, turn, view
from . import position as notation
from .actions import Action
from .board import NO_SHIP, in_play
from .content import CardAction, Layout, action_label, layout_for
from .move import IllegalMove, Move
from .rng import Rng
from .scoring import best_bay_split, special_groups
from .track import draw_shard, track_can_move

FORMAT_VERSION = 1


def _f(copy: str = "same", *, save: bool = True, shown: str | None = "same", **kw: Any) -> Any:
    """A field: how a clone copies it (``same``: immutable, shared; ``list``: a shallow
    copy; ``players``; ``reset``: back to its default), whether a save holds it, and under
    which name a seat's view shows it (None: hidden or shown its own way)."""
    return field(metadata={"copy": copy, "save": save, "shown": shown}, **kw)


@dataclass(eq=False, slots=True)
class Player:
    """One seat's private and public holdings."""

    dock: int = 0
    bays: list[str] = field(default_factory=lambda: ["", "", ""])
    hand: list[str] = field(default_factory=list)
    draw: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    played: list[tuple[str, str]] = field(default_factory=list)
    ships_lost: int = 0

    def copy(self) -> Player:  # replaced below by one written out from the fields
        raise NotImplementedError

    def cards(self) -> list[str]:
        """Every card the seat owns: hand, draw pile, discard pile and cards in play."""
        return self.hand + self.draw + self.discard + [c for c, _ in self.played]

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["played"] = [list(x) for x in self.played]
        return {k: list(v) if isinstance(v, list) else v for k, v in out.items()}


def new_game(
    players: int = 2,
    seed: int = 0,
    variant: str | Path | dict[str, Any] | None = None,
    first_player: int | None = None,
) -> State:
    """Set up a new game (R9 and the set-up of docs/RULES.md)."""
    if isinstance(variant, Path):
        variant = str(variant)
    layout = layout_for(players, variant)
    return _setup(layout, variant, int(seed), first_player)


@dataclass(eq=False, slots=True)
class State:
    """A position: the board, every player's cards, the track and whose decision it is.

    The rules are functions of a state, split the way the rulebook is: :mod:`.turn` (the
    turn, chaining, decisions), :mod:`.actions` (each action under way, one module a
    kind), :mod:`.board` (spaces and stacks) and :mod:`.track` (the Expansion Track and
    the end of the game). This class holds the position and the public API.
    """

    layout: Layout = _f(save=False, shown=None)
    variant: Any = _f()
    seed: int = _f(shown=None)
    rng: int = _f(shown=None)  # the random generator's state: the draws to come
    pile: list[str] = _f("list")  # each space's Shards, bottom first
    ship: list[int] = _f("list")  # each space's ship: a seat, or NO_SHIP
    removed: int = _f()  # rings under the Expansion Rings (R48)
    track_pos: int = _f()
    bag: list[int] = _f("list")  # Shards in the bag, per colour (k r y)
    consumed: list[int] = _f("list")  # Shards the star took, per colour
    players: list[Player] = _f("players", shown=None)
    face_up: list[str | None] = _f("list")
    academy: list[str] = _f("list", shown=None)  # the Academy Deck, top first
    turn: int = _f()
    decider: int = _f(shown="current")  # whose decision: the turn's player, or a Spawn's
    first: int = _f()
    need_link: bool = _f()  # the last card played was a basic action (R24)
    pending: Action | None = _f(shown=None)  # the action under way (nova.rules.actions)
    spawn_queue: tuple[int, ...] = _f()
    spawn_shard: str = _f()  # the Shard being placed in a Spawn Energy (R47)
    round: int = _f()
    ply: int = _f()
    over: bool = _f()
    end_reason: str = _f()
    last_event: str = _f("reset", save=False, default="")  # what the last move did, in words
    _legal: list[Move] | None = _f("reset", save=False, shown=None, default=None)

    # -- the public API -------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.layout.players

    @property
    def current_player(self) -> int:
        """The seat whose decision it is now (during Spawn Energy, the seat placing a Shard)."""
        return self.decider

    def is_over(self) -> bool:
        return self.over

    def legal_moves(self) -> list[Move]:
        """Every legal decision now, and nothing else."""
        if self._legal is None:
            self._legal = turn.generate(self)
        return self._legal

    def why_illegal(self, move: str) -> str:
        """Why ``move`` is not a legal decision now, naming the rule; "" if it is legal."""
        return turn.why_illegal(self, Move(move))

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text``, or :class:`IllegalMove` saying why not."""
        if not isinstance(text, str):
            raise IllegalMove(f"a move is text, not {type(text).__name__}")
        move = text.strip()
        if move in self.legal_moves():
            return Move(move)
        raise IllegalMove(f"{move!r}: {self.why_illegal(move)}")

    def apply(self, move: str) -> State:
        """The state after ``move`` (a :class:`Move` or its token); this state is unchanged."""
        if move not in self.legal_moves():
            raise IllegalMove(f"{str(move)!r}: {self.why_illegal(str(move))}")
        s = self.clone()
        turn.do(s, Move(move))
        s.ply += 1
        return s

    def clone(self) -> State:  # replaced below by one written out from the fields
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"State.from_position({' | '.join(self.position().splitlines())!r})"

    # -- the position notation (docs/NOTATION.md) -----------------------------------------
    def position(self) -> str:
        """This state as text: ``State.from_position(s.position(), s.variant) == s``."""
        return notation.write(self)

    @classmethod
    def from_position(cls, text: str, variant: Any = None, check: bool = True) -> State:
        """The state written ``text`` (made with ``variant``), checked like a save: a
        position the rules cannot reach raises :class:`~.position.PositionError`
        (``check=False``: only the text is checked, for positions this program wrote)."""
        s = _from_fields(notation.read(text, variant))
        if not check:
            return s
        wrong = checked(s)
        if wrong:
            raise notation.PositionError("not a position of the game: " + "; ".join(wrong[:3]))
        return s

    # -- scoring (R50-R59) ----------------------------------------------------------------
    def special_symbols(self, seat: int) -> list[str]:
        """Shard symbols of every Special card the seat holds anywhere (R55)."""
        special = self.layout.special
        return [special[c]["colour"] for c in self.players[seat].cards() if c in special]

    def score_breakdown(self, seat: int) -> dict[str, Any]:
        """How each bay and each set of Special cards scores, for the score screen."""
        lay = self.layout
        bays = []
        for bay in self.players[seat].bays:
            points, groups = best_bay_split(bay, lay.bay_sets)
            bays.append({"shards": bay, "groups": groups, "points": points})
        specials = [
            {"colour": c, "size": n, "points": pts}
            for c, n, pts in special_groups(self.special_symbols(seat), lay.special_sets)
        ]
        total = sum(b["points"] for b in bays) + sum(g["points"] for g in specials)
        return {"bays": bays, "specials": specials, "total": total}

    def scores(self) -> list[int]:
        """Points per seat now (final once :meth:`is_over`)."""
        return [self.score_breakdown(p)["total"] for p in range(self.num_players)]

    def winners(self) -> list[int]:
        """Seats with the highest score; ties broken by the setting ``tie_break`` (R59)."""
        scores = self.scores()
        best = max(scores)
        tied = [p for p, sc in enumerate(scores) if sc == best]
        if len(tied) > 1 and self.layout.settings.tie_break == "bay_shards":
            most = max(sum(len(b) for b in self.players[p].bays) for p in tied)
            tied = [p for p in tied if sum(len(b) for b in self.players[p].bays) == most]
        return tied

    def returns(self) -> list[float]:
        """OpenSpiel-style returns: 1 for a sole winner, split evenly on a tie, else 0."""
        if not self.over:
            return [0.0] * self.num_players
        w = self.winners()
        return [1.0 / len(w) if p in w else 0.0 for p in range(self.num_players)]

    # -- questions the page and the bots ask ----------------------------------------------
    def space_name(self, sp: int) -> str:
        return self.layout.space_names[sp]

    def in_play(self, sp: int) -> bool:
        return in_play(self, sp)

    def card_action(self, cid: str, mode: str) -> CardAction | None:
        return turn.card_action(self, cid, mode)

    def action_label(self, cid: str, mode: str) -> str:
        return action_label(self.card_action(cid, mode))

    def track_can_move(self) -> bool:
        return track_can_move(self)

    # -- saving ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": "nova-state",
            "version": FORMAT_VERSION,
            "players": self.num_players,
        }
        for f in _SAVED:
            v = getattr(self, f.name)
            if f.name == "players":
                out["seats"] = [p.to_dict() for p in v]
            elif f.name == "pending":
                out["pending"] = None if v is None else v.to_json()
            else:
                out[f.name] = list(v) if isinstance(v, (list, tuple)) else v
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> State:
        """A saved state, checked field by field: :class:`StateFormatError` says what is wrong."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"not a saved state: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> State:
        s = _from_fields(serial.fields_from_dict(data, FORMAT_VERSION))
        wrong = checked(s)
        if wrong:
            problem = "; ".join(wrong[:3])
            raise serial.StateFormatError(f"the saved state is inconsistent: {problem}")
        return s

    def __eq__(self, other: object) -> bool:
        """Equal when their saves are equal. Fields equal one by one are enough (the
        cheap test, as the property tests compare every state of many games); otherwise
        the saves decide, where a tuple and a list of the same items are the same."""
        if not isinstance(other, State):
            return False
        return _same_fields(self, other) or self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    # -- views ----------------------------------------------------------------------------
    def view(self, seat: int) -> view.View:
        """What ``seat`` may see (boardgame.io's playerView): a typed value."""
        return view.make_view(self, seat, _SHOWN)


_FIELDS = dataclasses.fields(State)
_SAVED = [f for f in _FIELDS if f.metadata["save"]]
_SAVED_NAMES = tuple(f.name for f in _SAVED if f.name != "players")
_PLAYER_NAMES = tuple(f.name for f in dataclasses.fields(Player))


def _same_fields(a: State, b: State) -> bool:
    if any(getattr(a, n) != getattr(b, n) for n in _SAVED_NAMES):
        return False
    if len(a.players) != len(b.players):
        return False
    pairs = zip(a.players, b.players, strict=True)
    return all(getattr(p, n) == getattr(q, n) for p, q in pairs for n in _PLAYER_NAMES)


# a seat's view shows these fields as they are, under these names (view.make_view)
_SHOWN = {
    f.name: f.name if f.metadata["shown"] == "same" else f.metadata["shown"]
    for f in _FIELDS
    if f.metadata["shown"]
}


def _make_copier(cls: type) -> Any:
    """A copy function written out from ``cls``'s fields (as dataclasses writes
    ``__init__``): every move clones a state and its seats, the engine's hottest path.
    A field's ``copy`` metadata says how (a Player's lists are copied, the rest shared)."""
    lines = ["def copy(self):", "    s = new(cls)"]
    for f in dataclasses.fields(cls):
        how = f.metadata.get("copy") or ("list" if str(f.type).startswith("list") else "same")
        if how == "same":
            lines.append(f"    s.{f.name} = self.{f.name}")
        elif how == "list":
            lines.append(f"    s.{f.name} = self.{f.name}[:]")
        elif how == "players":
            lines.append(f"    s.{f.name} = [p.copy() for p in self.{f.name}]")
        else:
            lines.append(f"    s.{f.name} = {f.default!r}")
    lines.append("    return s")
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec("\n".join(lines), scope)  # our own field names, never input
    return scope["copy"]


# the copies themselves are the methods: a wrapper would double the calls on the hot path
State.clone = _make_copier(State)  # type: ignore[method-assign]
Player.copy = _make_copier(Player)  # type: ignore[method-assign]


def _from_fields(fields: dict[str, Any]) -> State:
    """A state from field values (a position's, a save's or a view's): unchecked."""
    s = object.__new__(State)
    for f in _FIELDS:
        if f.name == "players":
            s.players = [Player(**d) for d in fields["players"]]
        elif f.name in fields:
            setattr(s, f.name, fields[f.name])
        else:
            setattr(s, f.name, f.default)
    return s


def checked(s: State) -> list[str]:
    """What is wrong with a state read from outside (a save, a link, a position)."""
    try:
        wrong = invariants.problems(s)
        if not wrong:
            s.legal_moves()
            s.why_illegal("?")
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        return [f"inconsistent ({type(exc).__name__}: {exc})"]
    return wrong


def _setup(layout: Layout, variant: Any, seed: int, first_player: int | None) -> State:
    """R9 and our set-up (docs/RULES.md): decks shuffled, five drawn, the Academy's face-up
    cards, one Shard on each Asteroid, the first player by the seed."""
    rng = Rng(seed)
    n = layout.players
    players = []
    for _ in range(n):
        deck = list(layout.basic)
        rng.shuffle(deck)
        players.append(Player(dock=layout.ships_in_dock, draw=deck))
    academy = list(layout.special)
    rng.shuffle(academy)
    face_up: list[str | None] = [academy.pop() if academy else None for _ in range(layout.face_up)]
    s = _from_fields(
        {
            "layout": layout,
            "variant": variant,
            "seed": seed,
            "rng": rng.state,
            "pile": [""] * layout.space_count,
            "ship": [NO_SHIP] * layout.space_count,
            "removed": 0,
            "track_pos": 0,
            "bag": list(layout.shard_supply),
            "consumed": [0, 0, 0],
            "players": [],
            "face_up": face_up,
            "academy": academy,
            "turn": 0,
            "decider": 0,
            "first": 0,
            "need_link": False,
            "pending": None,
            "spawn_queue": (),
            "spawn_shard": "",
            "round": 0,
            "ply": 0,
            "over": False,
            "end_reason": "",
        }
    )
    s.players = players
    for a in layout.asteroids:
        for _ in range(layout.shard_per_asteroid):
            s.pile[a] += draw_shard(s)
    for p in s.players:
        turn.refill_hand(s, p)
    rng = Rng(s.rng)
    s.first = rng.below(n) if first_player is None else first_player % n
    s.rng = rng.state
    for k, extra in enumerate(layout.opening_extra):
        p = s.players[(s.first + k) % n]
        for _ in range(extra):
            p.hand.append(p.draw.pop())
    for k, banked in enumerate(layout.opening_banked):
        p = s.players[(s.first + k) % n]
        for _ in range(banked):  # into the first bay: the three are alike while empty
            p.bays[0] += draw_shard(s)
    for k, specials in enumerate(layout.opening_specials):
        p = s.players[(s.first + k) % n]
        for _ in range(specials):  # the Academy Deck's top card, as Upgrade takes it
            p.hand.append(s.academy.pop(0))
    s.turn = s.decider = s.first
    return s
