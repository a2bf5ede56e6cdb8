"""The game state of Nova Raiders, its legal decisions and how a decision changes it.

A :class:`State` is a value: :meth:`State.apply` returns a new state and leaves the old
one alone. Every decision is one atomic choice with a short text notation (see
``docs/NOTATION.md``)::

    >>> s = new_game(players=2, seed=1)
    >>> s.current_player in (0, 1)
    True
    >>> "E" in s.legal_moves()
    True
    >>> s.apply("E").current_player != s.current_player
    True

Rule numbers (R1-R70) refer to ``shared/rulebook/RULE-INDEX.md``; ``docs/RULES.md``
lists every reading of ours.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import position as notation
from .actions import BasicActions
from .content import COLOURS, Layout, action_label, layout_for
from .rng import Rng
from .scoring import best_bay_split, special_groups
from .specials import SpecialActions
from .track import ExpansionTrack
from .turn import NO_SHIP, Move, TurnRules

FORMAT_VERSION = 1


class IllegalMove(ValueError):
    """A decision that is not legal now; the message says why."""


class Player:
    """One seat's private and public holdings."""

    __slots__ = ("dock", "bays", "hand", "draw", "discard", "played", "ships_lost")

    def __init__(self) -> None:
        self.dock = 0
        self.bays = ["", "", ""]
        self.hand: list[str] = []
        self.draw: list[str] = []
        self.discard: list[str] = []
        self.played: list[tuple[str, str]] = []
        self.ships_lost = 0

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.dock = self.dock
        p.bays = self.bays[:]
        p.hand = self.hand[:]
        p.draw = self.draw[:]
        p.discard = self.discard[:]
        p.played = self.played[:]
        p.ships_lost = self.ships_lost
        return p

    def cards(self) -> list[str]:
        """Every card the seat owns: hand, draw pile, discard pile and cards in play."""
        return self.hand + self.draw + self.discard + [c for c, _ in self.played]

    def to_dict(self) -> dict:
        return {
            "dock": self.dock,
            "bays": list(self.bays),
            "hand": list(self.hand),
            "draw": list(self.draw),
            "discard": list(self.discard),
            "played": [list(x) for x in self.played],
            "ships_lost": self.ships_lost,
        }


def new_game(
    players: int = 2,
    seed: int = 0,
    variant: str | Path | dict | None = None,
    first_player: int | None = None,
) -> State:
    """Set up a new game (R9 and the set-up of docs/RULES.md)."""
    if isinstance(variant, Path):
        variant = str(variant)
    layout = layout_for(players, variant)
    return State._setup(layout, variant, int(seed), first_player)


class State(TurnRules, BasicActions, SpecialActions, ExpansionTrack):
    """A position: the board, every player's cards, the track and whose decision it is.

    The rules live in the mixins, split the way the rulebook is: :mod:`.turn` (the turn,
    chaining, decisions and applying them), :mod:`.actions` (the basic actions and
    Launch), :mod:`.specials` (the Special actions' own rules) and :mod:`.track` (the
    Expansion Track and the end of the game). This module holds the position itself.
    """

    __slots__ = (
        "layout",
        "variant",
        "seed",
        "rng",
        "pile",
        "ship",
        "removed",
        "track_pos",
        "bag",
        "consumed",
        "players",
        "face_up",
        "academy",
        "turn",
        "decider",
        "first",
        "need_link",
        "pending",
        "spawn_queue",
        "spawn_shard",
        "round",
        "ply",
        "over",
        "end_reason",
        "last_event",
        "_legal",
    )

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def _setup(cls, layout: Layout, variant, seed: int, first_player: int | None) -> State:
        s = cls.__new__(cls)
        s.layout = layout
        s.variant = variant
        s.seed = seed
        rng = Rng(seed)
        n = layout.players
        s.pile = [""] * layout.space_count
        s.ship = [NO_SHIP] * layout.space_count
        s.removed = 0
        s.track_pos = 0
        s.bag = list(layout.shard_supply)
        s.consumed = [0, 0, 0]
        s.players = []
        for _ in range(n):
            p = Player()
            p.dock = layout.ships_in_dock
            deck = list(layout.basic)
            rng.shuffle(deck)
            p.draw = deck
            s.players.append(p)
        academy = list(layout.special)
        rng.shuffle(academy)
        s.face_up = [academy.pop() if academy else None for _ in range(layout.face_up)]
        s.academy = academy
        s.rng = rng.state
        for a in layout.asteroids:
            for _ in range(layout.shard_per_asteroid):
                c = s._draw_shard()
                if c:
                    s.pile[a] += c
        for p in s.players:
            s._refill_hand(p)
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
                c = s._draw_shard()
                if c:
                    p.bays[0] += c
        for k, specials in enumerate(layout.opening_specials):
            p = s.players[(s.first + k) % n]
            for _ in range(specials):  # the Academy Deck's top card, as Upgrade takes it
                p.hand.append(s.academy.pop(0))
        s.turn = s.decider = s.first
        s.need_link = False
        s.pending = None
        s.spawn_queue = ()
        s.spawn_shard = ""
        s.round = 0
        s.ply = 0
        s.over = False
        s.end_reason = ""
        s.last_event = ""
        s._legal = None
        return s

    def clone(self) -> State:
        s = State.__new__(State)
        s.layout = self.layout
        s.variant = self.variant
        s.seed = self.seed
        s.rng = self.rng
        s.pile = self.pile[:]
        s.ship = self.ship[:]
        s.removed = self.removed
        s.track_pos = self.track_pos
        s.bag = self.bag[:]
        s.consumed = self.consumed[:]
        s.players = [p.copy() for p in self.players]
        s.face_up = self.face_up[:]
        s.academy = self.academy[:]
        s.turn = self.turn
        s.decider = self.decider
        s.first = self.first
        s.need_link = self.need_link
        s.pending = self.pending
        s.spawn_queue = self.spawn_queue
        s.spawn_shard = self.spawn_shard
        s.round = self.round
        s.ply = self.ply
        s.over = self.over
        s.end_reason = self.end_reason
        s.last_event = ""
        s._legal = None
        return s

    # -- public API -----------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.layout.players

    @property
    def current_player(self) -> int:
        """The seat whose decision it is now (during Spawn Energy, the seat placing a Shard)."""
        return self.decider

    def is_over(self) -> bool:
        return self.over

    def is_terminal(self) -> bool:
        return self.over

    def legal_moves(self) -> list[Move]:
        """Every legal decision now, and nothing else."""
        if self._legal is None:
            self._legal = self._generate()
        return self._legal

    legal_actions = legal_moves

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text``, or :class:`IllegalMove` saying why not."""
        if not isinstance(text, str):
            raise IllegalMove(f"a move is text, not {type(text).__name__}")
        move = text.strip()
        if move in self.legal_moves():
            return Move(move)
        raise IllegalMove(f"{move!r}: {self.why_illegal(move)}")

    def apply(self, move: str) -> State:
        """The state after ``move``; this state is unchanged."""
        if move not in self.legal_moves():
            raise IllegalMove(f"{str(move)!r}: {self.why_illegal(str(move))}")
        s = self.clone()
        s._do(str(move))
        s.ply += 1
        return s

    apply_action = apply

    def __repr__(self) -> str:
        return f"State.from_position({' | '.join(self.position().splitlines())!r})"

    # -- the position notation (docs/NOTATION.md) -------------------------------------------
    def position(self) -> str:
        """This state as text: ``State.from_position(s.position(), s.variant) == s``."""
        return notation.write(self)

    @classmethod
    def from_position(cls, text: str, variant=None) -> State:
        """The state written ``text`` (made with ``variant``), checked like a save: a
        position the rules cannot reach raises :class:`~.position.PositionError`."""
        s = cls._from_fields(notation.read(text, variant))
        wrong = checked(s)
        if wrong:
            raise notation.PositionError("not a position of the game: " + "; ".join(wrong[:3]))
        return s

    @classmethod
    def _from_fields(cls, fields: dict) -> State:
        s = cls.__new__(cls)
        seats = fields.pop("players")
        for key, value in fields.items():
            setattr(s, key, value)
        s.players = []
        for d in seats:
            p = Player()
            for key, value in d.items():
                setattr(p, key, value)
            s.players.append(p)
        s.last_event = ""
        s._legal = None
        return s

    # -- scoring (R50-R59) ----------------------------------------------------------------
    def special_symbols(self, seat: int) -> list[str]:
        """Shard symbols of every Special card the seat holds anywhere (R55)."""
        p = self.players[seat]
        cards = p.cards()
        return [self.layout.special[c]["colour"] for c in cards if c in self.layout.special]

    def score_breakdown(self, seat: int) -> dict:
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
        if len(tied) > 1 and self.layout.settings.get("tie_break") == "bay_shards":
            most = max(sum(len(b) for b in self.players[p].bays) for p in tied)
            tied = [p for p in tied if sum(len(b) for b in self.players[p].bays) == most]
        return tied

    def returns(self) -> list[float]:
        """OpenSpiel-style returns: 1 for a sole winner, split evenly on a tie, else 0."""
        if not self.over:
            return [0.0] * self.num_players
        w = self.winners()
        return [1.0 / len(w) if p in w else 0.0 for p in range(self.num_players)]

    # -- helpers --------------------------------------------------------------------------
    def space_name(self, s: int) -> str:
        return self.layout.space_names[s]

    def in_play(self, s: int) -> bool:
        return self.layout.space_ring[s] >= self.removed

    def ships_of(self, seat: int) -> list[int]:
        return [s for s, o in enumerate(self.ship) if o == seat]

    def bay_colours(self, seat: int) -> set[str]:
        return set("".join(self.players[seat].bays))

    def card_action(self, cid: str, mode: str):
        lay = self.layout
        if cid in lay.basic:
            top, bottom = lay.basic[cid]
            return top if mode == "u" else bottom if mode == "r" else None
        card = lay.special[cid]
        return card["action"] if mode == "u" else card["alternate"] if mode == "r" else None

    def _draw_shard(self) -> str:
        total = sum(self.bag)
        if total == 0:
            return ""
        rng = Rng(self.rng)
        k = rng.below(total)
        self.rng = rng.state
        for i, n in enumerate(self.bag):
            if k < n:
                self.bag[i] -= 1
                return COLOURS[i]
            k -= n
        raise AssertionError("unreachable")

    def _refill_hand(self, p: Player) -> None:
        """Draw up to the hand size (R15), reshuffling the discard when needed (R16)."""
        while len(p.hand) < self.layout.hand_size:
            if not p.draw:
                if not p.discard:
                    return
                p.draw = p.discard
                p.discard = []
                rng = Rng(self.rng)
                rng.shuffle(p.draw)
                self.rng = rng.state
            p.hand.append(p.draw.pop())

    # Geometry -------------------------------------------------------------------------

    # -- serialisation --------------------------------------------------------------------
    def to_dict(self) -> dict:
        pd = self.pending
        return {
            "format": "nova-state",
            "version": FORMAT_VERSION,
            "players": self.num_players,
            "variant": self.variant,
            "seed": self.seed,
            "rng": self.rng,
            "pile": list(self.pile),
            "ship": list(self.ship),
            "removed": self.removed,
            "track_pos": self.track_pos,
            "bag": list(self.bag),
            "consumed": list(self.consumed),
            "seats": [p.to_dict() for p in self.players],
            "face_up": list(self.face_up),
            "academy": list(self.academy),
            "turn": self.turn,
            "decider": self.decider,
            "first": self.first,
            "need_link": self.need_link,
            "pending": _pending_to_json(pd),
            "spawn_queue": list(self.spawn_queue),
            "spawn_shard": self.spawn_shard,
            "round": self.round,
            "ply": self.ply,
            "over": self.over,
            "end_reason": self.end_reason,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> State:
        from .serial import state_from_dict

        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"not a saved state: {exc}") from None
        return state_from_dict(data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    # -- views ----------------------------------------------------------------------------
    def view(self, seat: int) -> dict:
        from .view import make_view

        return make_view(self, seat)

    def view_position(self, seat: int) -> str:
        """What ``seat`` sees, in the position notation with hidden parts masked."""
        return notation.write_view(self.view(seat))

    def information_state_string(self, seat: int) -> str:
        return json.dumps(self.view(seat), sort_keys=True, separators=(",", ":"))

    def action_label(self, cid: str, mode: str) -> str:
        return action_label(self.card_action(cid, mode))


def checked(s: State) -> list[str]:
    """What is wrong with a state read from outside (a save, a link, a position)."""
    from .invariants import problems

    try:
        wrong = problems(s)
        if not wrong:
            s.legal_moves()
            s.why_illegal("?")
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        return [f"inconsistent ({type(exc).__name__}: {exc})"]
    return wrong


def _pending_to_json(pd: dict | None) -> dict | None:
    if pd is None:
        return None
    out = {}
    for k, v in pd.items():
        out[k] = list(v) if isinstance(v, tuple) else v
    return out
