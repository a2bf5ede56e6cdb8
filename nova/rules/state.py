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

from .content import COLOURS, Layout, action_label, layout_for
from .rng import Rng
from .scoring import best_bay_split, special_groups

FORMAT_VERSION = 1
NO_SHIP = -1
COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
# Actions that move one of the player's own ships and let it leave Shards behind (R33).
LEAVING_ACTIONS = {"orbit", "jump", "hyper_jump", "phase_shift", "jump_push"}


class IllegalMove(ValueError):
    """A decision that is not legal now; the message says why."""


class Move(str):
    """One decision in text notation, e.g. ``b7u`` (play card b7 upright) or ``>c5``."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Move:
        return cls(text.strip())


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


class State:
    """A position: the board, every player's cards, the track and whose decision it is."""

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
        raise IllegalMove(self._why_illegal(move))

    def apply(self, move: str) -> State:
        """The state after ``move``; this state is unchanged."""
        if move not in self.legal_moves():
            raise IllegalMove(self._why_illegal(str(move)))
        s = self.clone()
        s._do(str(move))
        s.ply += 1
        return s

    apply_action = apply

    def __repr__(self) -> str:
        return (
            f"<State {self.num_players}p seed={self.seed} ply={self.ply} round={self.round} "
            f"turn={self.turn} decider={self.decider} over={self.over}>"
        )

    # -- scoring (R50-R59) ----------------------------------------------------------------
    def special_symbols(self, seat: int) -> list[str]:
        """Shard symbols of every Special card the seat holds anywhere (R55)."""
        p = self.players[seat]
        cards = p.hand + p.draw + p.discard + [c for c, _ in p.played]
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
    def _ring_step(self, s: int, d: int, direction: int) -> int:
        lay = self.layout
        r = lay.space_ring[s]
        n = lay.ring_sizes[r]
        start = lay.ring_start[r]
        return start + (s - start + direction * d) % n

    def _orbit_targets(self, s: int, dists) -> list[int]:
        """Spaces an orbit of any of ``dists`` reaches from ``s``, either way, not on a ship."""
        out = []
        ship = self.ship
        for d in dists:
            for direction in (1, -1):
                t = self._ring_step(s, d, direction)
                if t != s and ship[t] == NO_SHIP and t not in out:
                    out.append(t)
        return out

    def _push_destination(self, target: int, direction: int, dist: int) -> int | None:
        """Where a stack pushed from ``target`` ends (R39, R40); None if the ring is full."""
        lay = self.layout
        n = lay.ring_sizes[lay.space_ring[target]]
        # R40's "first open spot": no ship and, read as "open" is for gates, no Shard
        # (setting push_needs_open_space; false: Shards there go under the pushed stack)
        shards_block = lay.settings.get("push_needs_open_space", True)
        t = self._ring_step(target, dist, direction)
        for _ in range(n):
            if t != target and self.ship[t] == NO_SHIP and not (shards_block and self.pile[t]):
                return t
            t = self._ring_step(t, 1, direction)
        return None

    def _open_gate(self, g: int) -> bool:
        return self.in_play(g) and self.ship[g] == NO_SHIP and not self.pile[g]

    def _launch_gate(self, g: int) -> bool:
        """R44: "any of your own open Jump-Gates": open is no ship and no Shard, as for Jump
        (setting ``launch_to_open_gate``; false: no ship, and Shards there join the stack)."""
        if self.layout.settings.get("launch_to_open_gate", True):
            return self._open_gate(g)
        return self.in_play(g) and self.ship[g] == NO_SHIP

    def _height(self, s: int) -> int:
        return 1 + len(self.pile[s])

    def _adjacent_opponents(self, s: int, seat: int) -> list[tuple[int, int]]:
        """(target space, push direction) for opponents next to ``s`` on its ring (R39)."""
        lay = self.layout
        out = []
        for t, direction in ((lay.next_space[s], 1), (lay.prev_space[s], -1)):
            if t != s and self.ship[t] not in (NO_SHIP, seat):
                out.append((t, direction))
        return out

    # -- move generation ------------------------------------------------------------------
    def _generate(self) -> list[Move]:
        if self.over:
            return []
        if self.spawn_shard:
            return [
                Move("*" + self.space_name(a)) for a in self.layout.asteroids if self.in_play(a)
            ]
        if self.pending is not None:
            return self._pending_moves()
        return self._main_moves()

    def _main_moves(self) -> list[Move]:
        seat = self.turn
        p = self.players[seat]
        lay = self.layout
        moves: list[Move] = []
        if p.dock:
            for g in lay.seat_gates[seat]:
                if self._launch_gate(g):
                    moves.append(Move("L" + lay.space_names[g]))
        colours = None
        memo: dict = {None: False}  # several cards share an action: decide each once

        def can(action, cid: str) -> bool:
            if action is not None and action[0] == "skip":
                return self._skip_possible(cid)  # depends on the rest of the hand
            ok = memo.get(action)
            if ok is None:
                ok = memo[action] = self._executable(action)
            return ok

        for cid in p.hand:
            basic = lay.basic.get(cid)
            if basic is not None:
                if not self.need_link:
                    if can(basic[0], cid):
                        moves.append(Move(cid + "u"))
                    if can(basic[1], cid):
                        moves.append(Move(cid + "r"))
                moves.append(Move(cid + "s"))
            else:
                card = lay.special[cid]
                moves.append(Move(cid + "l"))
                if colours is None:
                    colours = self.bay_colours(seat)
                if card["colour"] in colours or not lay.settings.get(
                    "special_action_needs_colour", True
                ):
                    if can(card["action"], cid):
                        moves.append(Move(cid + "u"))
                    if can(card["alternate"], cid):
                        moves.append(Move(cid + "r"))
        moves.append(Move("E"))
        return moves

    def _executable(self, action) -> bool:
        """Whether ``action`` has at least one complete way to be carried out now."""
        if action is None:
            return False
        name, dists = action
        seat = self.turn
        if name == "orbit":
            return bool(self._orbit_ships(dists))
        if name in ("jump", "jump_push", "hyper_jump", "phase_shift"):
            return bool(self._mover_ships(name))
        if name == "unload":
            return bool(self._unload_ships())
        if name in ("hijack", "hijack_orbit", "push"):
            return bool(self._attackers(name))
        if name == "upgrade":
            return bool(self.academy) or any(c is not None for c in self.face_up)
        if name == "disrupt":
            return True
        if name == "reorder":
            return bool(self._reorder_modes(seat))
        if name == "sabotage":
            return bool(self._sabotage_targets())
        if name == "skip":
            return self._skip_possible(None)
        raise AssertionError(name)

    def _orbit_ships(self, dists) -> list[int]:
        seat = self.turn
        return [s for s, o in enumerate(self.ship) if o == seat and self._orbit_targets(s, dists)]

    def _mover_targets(self, name: str, s: int) -> list[int]:
        lay = self.layout
        seat = self.turn
        if name == "jump":
            if lay.gate_owner[s] == -2:
                return []
            return [g for g in lay.gates if g != s and self._open_gate(g)]
        if name == "hyper_jump":
            return [g for g in lay.gates if g != s and self._open_gate(g)]
        if name == "phase_shift":
            return [t for t in lay.phase_adjacent[s] if self.in_play(t) and self.ship[t] == NO_SHIP]
        if name == "jump_push":
            if lay.gate_owner[s] == -2:
                return []
            out = []
            for g in lay.gates:
                if g == s or not self.in_play(g):
                    continue
                o = self.ship[g]
                if o == NO_SHIP:
                    out.append(g)
                elif o != seat and self._jump_push_dirs(s, g):
                    out.append(g)
            return out
        raise AssertionError(name)

    def _jump_push_dirs(self, s: int, g: int) -> list[int]:
        """Directions the occupant of gate ``g`` can be pushed when the ship on ``s`` jumps in."""
        owner = self.ship[s]
        self.ship[s] = NO_SHIP  # the jumper has left its space; restored below
        dist = 1 + len(self.pile[s])
        out = [d for d in (1, -1) if self._push_destination(g, d, dist) is not None]
        self.ship[s] = owner
        return out

    def _mover_ships(self, name: str) -> list[int]:
        seat = self.turn
        return [s for s, o in enumerate(self.ship) if o == seat and self._mover_targets(name, s)]

    def _unload_ships(self) -> list[int]:
        seat = self.turn
        need = self.layout.settings.get("unload_requires_shard", True)
        return [
            g
            for g in self.layout.seat_gates[seat]
            if self.ship[g] == seat and (self.pile[g] or not need)
        ]

    def _attack_targets(self, s: int) -> list[int]:
        seat = self.turn
        dist = self._height(s)
        return [
            t
            for t, direction in self._adjacent_opponents(s, seat)
            if self._push_destination(t, direction, dist) is not None
        ]

    def _attackers(self, name: str) -> list[int]:
        seat = self.turn
        return [s for s, o in enumerate(self.ship) if o == seat and self._attack_targets(s)]

    def _sabotage_targets(self) -> list[int]:
        seat = self.turn
        return [
            s
            for s, o in enumerate(self.ship)
            if o not in (NO_SHIP, seat) and self._orbit_targets(s, (1, 2, 3))
        ]

    def _reorder_modes(self, seat: int) -> list[str]:
        bays = self.players[seat].bays
        modes = []
        if sum(1 for b in bays if b) >= 2 and len({b[-1] for b in bays if b}) >= 2:
            modes.append("Rt")
        for i, b in enumerate(bays):
            if len(set(b)) >= 2:
                modes.append(f"R{i}")
        return modes

    # -- Skip (R66) -------------------------------------------------------------------------
    def _skip_cards(self) -> list[tuple[str, tuple[int, ...]]]:
        """(move, distances) for every way a card in hand can go into a Skip.

        "Play any number of Orbit cards": a basic card's Orbit action, upright or rotated,
        and (setting ``skip_takes_special_orbits``) a Special's Orbit action, which needs a
        Shard of its colour in a bay like any Special action (R70).
        """
        lay = self.layout
        seat = self.turn
        specials = lay.settings.get("skip_takes_special_orbits", True)
        needs_colour = lay.settings.get("special_action_needs_colour", True)
        colours = self.bay_colours(seat)
        out = []
        for cid in self.players[seat].hand:
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
                if action is not None and action[0] == "orbit":
                    out.append((cid + mode, action[1]))
        return out

    @staticmethod
    def _skip_sums(cards: list[tuple[str, tuple[int, ...]]], without: str = "") -> set[int]:
        """Every total some of ``cards`` can add up to (0 included): each card at most once,
        one of its distances; a range card (Orbit 1-3) counts as any one of its distances."""
        per_card: dict[str, set[int]] = {}
        for move, dists in cards:
            if move[:-1] != without:
                per_card.setdefault(move[:-1], set()).update(dists)
        sums = {0}
        for dists in per_card.values():
            sums |= {t + d for t in sums for d in dists}
        return sums

    def _skip_movable(self, total: int) -> bool:
        return total > 0 and bool(self._orbit_ships((total,)))

    def _skip_possible(self, skip_card: str | None) -> bool:
        """Whether a Skip played from hand (``skip_card``) can end in a ship orbiting the sum:
        the engine offers no choice that leads nowhere (setting ``skip_must_move``)."""
        if not self.layout.settings.get("skip_must_move", True):
            return True
        cards = self._skip_cards()
        return any(self._skip_movable(t) for t in self._skip_sums(cards, skip_card or ""))

    def _skip_moves(self, totals: tuple[int, ...]) -> list[Move]:
        cards = self._skip_cards()
        if not self.layout.settings.get("skip_must_move", True):
            return [Move(m) for m, _ in cards] + [Move("done")]
        movable: dict[int, bool] = {}

        def ok(t: int) -> bool:
            if t not in movable:
                movable[t] = self._skip_movable(t)
            return movable[t]

        moves = []
        for move, dists in cards:
            rest = self._skip_sums(cards, move[:-1])
            if any(ok(t + d + r) for t in totals for d in dists for r in rest):
                moves.append(Move(move))
        if any(ok(t) for t in totals):
            moves.append(Move("done"))
        return moves

    def _pending_moves(self) -> list[Move]:
        pd = self.pending
        kind = pd["kind"]
        name = self.space_name
        if kind == "unload_bays":
            return [Move("B0"), Move("B1"), Move("B2")]
        if kind == "upgrade":
            moves = [Move(f"U{i + 1}") for i, c in enumerate(self.face_up) if c is not None]
            if self.academy:
                moves.append(Move("UD"))
            return moves
        if kind == "reorder":
            if pd["mode"] is None:
                return [Move(m) for m in self._reorder_modes(self.turn)]
            return [Move("c" + c) for c in sorted(set(pd["pool"]))]
        if kind == "skip":
            return self._skip_moves(pd["totals"])
        ship = pd.get("ship")
        if kind == "orbit":
            if ship is None:
                return [Move("@" + name(s)) for s in self._orbit_ships(pd["dists"])]
            if pd.get("dest") is None:
                moves = [Move(">" + name(t)) for t in self._orbit_targets(ship, pd["dists"])]
                if pd.get("optional"):
                    moves.append(Move("done"))  # stay put (R68 with the optional reading)
                return moves
            return self._leave_moves(ship)
        if kind in ("jump", "hyper_jump", "phase_shift", "jump_push"):
            if ship is None:
                return [Move("@" + name(s)) for s in self._mover_ships(kind)]
            dest = pd.get("dest")
            if dest is None:
                return [Move(">" + name(t)) for t in self._mover_targets(kind, ship)]
            if kind == "jump_push" and self.ship[dest] != NO_SHIP and pd.get("dir") is None:
                return [Move("d+" if d == 1 else "d-") for d in self._jump_push_dirs(ship, dest)]
            return self._leave_moves(ship)
        if kind == "unload":
            return [Move("@" + name(s)) for s in self._unload_ships()]
        if kind in ("hijack", "hijack_orbit", "push"):
            if ship is None:
                return [Move("@" + name(s)) for s in self._attackers(kind)]
            if pd.get("target") is None:
                return [Move("!" + name(t)) for t in self._attack_targets(ship)]
            return self._leave_moves(ship)  # the Hijack's orbit onto the target's space (R33)
        if kind == "sabotage":
            target = pd.get("target")
            if target is None:
                return [Move("!" + name(s)) for s in self._sabotage_targets()]
            return [Move(">" + name(t)) for t in self._orbit_targets(target, (1, 2, 3))]
        raise AssertionError(kind)

    def _leave_moves(self, ship: int) -> list[Move]:
        return [Move(f"x{k}") for k in range(len(self.pile[ship]) + 1)]

    # -- why a move is illegal ------------------------------------------------------------
    def _why_illegal(self, move: str) -> str:
        if self.over:
            return f"{move!r}: the game is over"
        legal = self.legal_moves()
        if self.spawn_shard:
            return (
                f"{move!r}: seat {self.decider} must place the drawn Shard on an Asteroid "
                f"(one of {', '.join(legal)})"
            )
        if self.pending is not None:
            return (
                f"{move!r}: finish the {self.pending['kind'].replace('_', ' ')} first "
                f"(legal: {', '.join(legal)})"
            )
        p = self.players[self.turn]
        cid, mode = move[:-1], move[-1:]
        if cid in self.layout.basic or cid in self.layout.special:
            if cid not in p.hand:
                return f"{move!r}: card {cid} is not in your hand"
            if mode not in "urls":
                return f"{move!r}: play a card u (upright), r (rotated), s/l (as a chain link)"
            if cid in self.layout.basic and mode in "ur" and self.need_link:
                return f"{move!r}: two actions must be joined by a chain link (R24)"
            if cid in self.layout.special and mode in "ur":
                colour = self.layout.special[cid]["colour"]
                if colour not in self.bay_colours(self.turn):
                    return f"{move!r}: no {colour} Shard in your Cargo Bays for this action (R70)"
            return f"{move!r}: that action cannot be carried out now"
        if move.startswith("L"):
            return f"{move!r}: Launch needs a ship in your Dock and your own open Jump-Gate (R44)"
        return f"{move!r}: not a legal decision now (legal: {', '.join(legal)})"

    # -- applying -------------------------------------------------------------------------
    def _do(self, move: str) -> None:
        if self.spawn_shard:
            self._place_spawn(self.layout.name_to_space[move[1:]])
            return
        if self.pending is not None:
            self._do_pending(move)
            return
        seat = self.turn
        p = self.players[seat]
        if move == "E":
            self._end_turn()
            return
        if move[0] == "L":
            g = self.layout.name_to_space[move[1:]]
            p.dock -= 1
            self.ship[g] = seat
            self.last_event = f"launch {move[1:]}"
            return
        cid, mode = move[:-1], move[-1]
        p.hand.remove(cid)
        p.played.append((cid, mode))
        if cid in self.layout.basic:
            if mode == "s":
                self.need_link = False
                return
            self.need_link = True
            self._start_action(self.card_action(cid, mode))
            return
        self.need_link = False  # a Special played upright is always a chain link (R25)
        if mode in "ur":
            self._start_action(self.card_action(cid, mode))

    def _start_action(self, action) -> None:
        name, dists = action
        if name == "disrupt":
            self._advance_track()
            return
        if name == "upgrade":
            self.pending = {"kind": "upgrade"}
            return
        if name == "reorder":
            self.pending = {"kind": "reorder", "mode": None}
            return
        if name == "skip":
            self.pending = {"kind": "skip", "totals": (0,)}
            return
        pd = {"kind": name, "ship": None}
        if name == "orbit":
            pd["dists"] = dists
        if name == "hijack_orbit":
            pd["dists"] = dists
        if name == "sabotage":
            pd = {"kind": name, "target": None}
        self.pending = pd

    def _do_pending(self, move: str) -> None:
        """One choice inside the action under way: each action's own method, or a choice of
        ship (``@``), destination (``>``), target (``!``), direction (``d``) or Shards to
        leave (``x``), recorded until the action has all it needs."""
        pd = dict(self.pending)
        kind = pd["kind"]
        if kind == "unload_bays":
            self._bank_shard(pd, int(move[1]))
            return
        if kind == "upgrade":
            self._do_upgrade(move)
            return
        if kind == "reorder":
            self._do_reorder(pd, move)
            return
        if kind == "skip":
            self._do_skip(pd, move)
            return
        if kind == "orbit" and move == "done":
            self.pending = None
            return
        code, arg = move[0], move[1:]
        if code in "@>!":
            space = self.layout.name_to_space[arg]
            pd[{"@": "ship", "!": "target", ">": "dest"}[code]] = space
        elif code == "d":
            pd["dir"] = 1 if arg == "+" else -1
        elif code == "x":
            pd["leave"] = int(arg)
        self.pending = pd
        self._maybe_resolve()

    def _bank_shard(self, pd: dict, bay: int) -> None:
        """R38: the next Shard of an Unload, top first, into the chosen bay; R45 after the last."""
        shards = pd["shards"]
        self.players[self.turn].bays[bay] += shards[0]
        if shards[1:]:
            pd["shards"] = shards[1:]
            self.pending = pd
        else:
            self.pending = None
            self._advance_track()

    def _do_upgrade(self, move: str) -> None:
        """R42 (``U1``-``U3``: a face-up card) and R43 (``UD``: the top of the Academy Deck)."""
        p = self.players[self.turn]
        self.pending = None
        if move == "UD":
            p.hand.append(self.academy.pop(0))
            old = [c for c in self.face_up if c is not None]
            self.academy.extend(old)
            self.face_up = [self.academy.pop(0) if self.academy else None for _ in self.face_up]
            self.last_event = "upgrade from the Academy Deck"
        else:
            i = int(move[1]) - 1
            p.hand.append(self.face_up[i])
            self.face_up[i] = self.academy.pop(0) if self.academy else None
            self.last_event = "upgrade"

    def _do_reorder(self, pd: dict, move: str) -> None:
        """R61: the mode (``Rt`` tops, ``R0``-``R2`` one bay), then one colour at a time."""
        p = self.players[self.turn]
        if pd["mode"] is None:
            pd["mode"] = move
            if move == "Rt":
                targets = tuple(i for i, b in enumerate(p.bays) if b)
                pd["targets"] = targets
                pd["pool"] = "".join(sorted(p.bays[i][-1] for i in targets))
            else:
                i = int(move[1])
                pd["targets"] = (i,)
                pd["pool"] = "".join(sorted(p.bays[i]))
            pd["picked"] = ""
        else:
            c = move[1]
            pool = pd["pool"]
            k = pool.index(c)
            pd["pool"] = pool[:k] + pool[k + 1 :]
            pd["picked"] += c
        if pd["pool"]:
            self.pending = pd
            return
        if pd["mode"] == "Rt":
            for i, c in zip(pd["targets"], pd["picked"], strict=True):
                p.bays[i] = p.bays[i][:-1] + c
        else:
            p.bays[pd["targets"][0]] = pd["picked"]
        self.pending = None

    def _do_skip(self, pd: dict, move: str) -> None:
        """R66: an Orbit card into the Skip, or ``done``: one ship then orbits a total."""
        if move == "done":
            totals = tuple(t for t in pd["totals"] if t > 0)
            self.pending = None
            dists = tuple(t for t in totals if self._skip_movable(t))
            if dists:
                self.pending = {"kind": "orbit", "ship": None, "dists": dists}
            if totals and self.layout.settings.get("skip_counts_as_basic_action", True):
                self.need_link = True
            return
        p = self.players[self.turn]
        cid, mode = move[:-1], move[-1]
        p.hand.remove(cid)
        p.played.append((cid, mode))
        dists = self.card_action(cid, mode)[1]
        pd["totals"] = tuple(sorted({t + d for t in pd["totals"] for d in dists}))
        self.pending = pd

    def _maybe_resolve(self) -> None:
        """Carry out the pending action once every choice it needs is made."""
        pd = self.pending
        kind = pd["kind"]
        if kind == "unload":
            self._resolve_unload(pd["ship"])
            return
        if kind in ("hijack", "hijack_orbit", "push"):
            if pd.get("target") is None:
                return
            if kind != "push" and "leave" not in pd and self._hijack_may_leave(pd["ship"]):
                return  # the attacker orbits onto the target's space: which Shards stay (R33)
            self._resolve_attack(kind, pd)
            return
        if kind == "sabotage":
            if pd.get("dest") is not None:
                self.pending = None
                self._move_stack(pd["target"], pd["dest"], leave=0)
                self.last_event = f"sabotage to {self.space_name(pd['dest'])}"
            return
        ship, dest = pd.get("ship"), pd.get("dest")
        if ship is None or dest is None:
            return
        occupied = self.ship[dest] != NO_SHIP
        if kind == "jump_push" and occupied and "dir" not in pd:
            return
        if "leave" not in pd and self.pile[ship]:
            return  # the ship carries Shards: which to leave behind is the next choice (R33)
        leave = pd.get("leave", 0)
        self.pending = None
        if kind == "jump_push" and occupied:
            # The jumper leaves its space first, then the occupant is pushed x spaces, x = the
            # jumper's stack height as it jumps (R69): the push may end on the space the jumper
            # just left (it is open now), so the jumper is lifted off before anything moves.
            owner, carried = self.ship[ship], self.pile[ship][leave:]
            self.ship[ship] = NO_SHIP
            self.pile[ship] = self.pile[ship][:leave]
            to = self._push_destination(dest, pd["dir"], 1 + len(carried))
            self._move_stack(dest, to, leave=0)
            self.ship[dest] = owner
            self.pile[dest] += carried
        else:
            self._move_stack(ship, dest, leave=leave)
        self.last_event = f"{kind.replace('_', ' ')} to {self.space_name(dest)}"

    def _move_stack(self, src: int, dst: int, leave: int) -> None:
        """Move the ship on ``src`` with its Shards to ``dst`` (R29-R33).

        ``leave`` Shards stay behind, from the bottom; Shards already on ``dst`` go under
        the arriving stack (R32). Passing over ships and Shards changes nothing (R34).
        """
        owner = self.ship[src]
        pile = self.pile[src]
        self.ship[src] = NO_SHIP
        self.pile[src] = pile[:leave]
        self.ship[dst] = owner
        self.pile[dst] = self.pile[dst] + pile[leave:]

    def _hijack_may_leave(self, ship: int) -> bool:
        """Setting ``hijack_leave_behind``: the Hijack's orbit is a move like any other, so
        a loaded attacker may leave Shards behind on the space it leaves (R33)."""
        return bool(self.pile[ship]) and self.layout.settings.get("hijack_leave_behind", True)

    def _resolve_attack(self, kind: str, pd: dict) -> None:
        ship, target = pd["ship"], pd["target"]
        lay = self.layout
        direction = 1 if lay.next_space[ship] == target else -1
        dist = self._height(ship)
        dest = self._push_destination(target, direction, dist)
        self.pending = None
        if kind == "push":
            self._move_stack(target, dest, leave=0)
            self.last_event = f"push {self.space_name(target)} to {self.space_name(dest)}"
            return
        # Hijack: the bottom Shard stays behind, the attacker orbits onto it (R39-R41),
        # leaving Shards of its own behind if the player chose so (R33)
        leave = 1 if self.pile[target] else 0
        self._move_stack(target, dest, leave=leave)
        self._move_stack(ship, target, leave=pd.get("leave", 0))
        self.last_event = f"hijack {self.space_name(target)}"
        if kind == "hijack_orbit":
            if self._orbit_targets(target, pd["dists"]):
                self.pending = {"kind": "orbit", "ship": target, "dists": pd["dists"]}
                if self.layout.settings.get("hijack_orbit_is_optional", False):
                    self.pending["optional"] = True

    def _resolve_unload(self, gate: int) -> None:
        """Ship to the Dock, Shards one at a time from the top into chosen bays (R36-R38)."""
        seat = self.turn
        p = self.players[seat]
        shards = self.pile[gate]
        self.ship[gate] = NO_SHIP
        self.pile[gate] = ""
        p.dock += 1
        self.last_event = f"unload {self.space_name(gate)}"
        if shards:
            self.pending = {"kind": "unload_bays", "shards": shards[::-1]}
        else:
            self.pending = None
            self._advance_track()

    # -- the Expansion Track (R45-R49) ----------------------------------------------------
    def _advance_track(self) -> None:
        track = self.layout.track
        if self.track_pos < len(track) - 1:
            self.track_pos += 1
        kind = track[self.track_pos]
        if kind == "supernova":
            self._finish("supernova")
        elif kind == "expansion":
            self._expand()
        elif kind == "spawn":
            n = self.num_players
            self.spawn_queue = tuple((self.turn + k) % n for k in range(n))
            self._next_spawn()
        if not self.over and not self.spawn_shard:
            self._end_if_track_stuck()

    def _next_spawn(self) -> None:
        while self.spawn_queue:
            seat, self.spawn_queue = self.spawn_queue[0], self.spawn_queue[1:]
            if not any(self.in_play(a) for a in self.layout.asteroids):
                self.spawn_queue = ()
                break
            shard = self._draw_shard()
            if not shard:
                self.spawn_queue = ()
                break
            self.spawn_shard = shard
            self.decider = seat
            return
        self.spawn_shard = ""
        self.decider = self.turn
        if not self.over:
            self._end_if_track_stuck()

    def _place_spawn(self, asteroid: int) -> None:
        # the new Shard goes to the bottom of whatever is on the Asteroid (R47)
        self.pile[asteroid] = self.spawn_shard + self.pile[asteroid]
        self.last_event = f"spawn {self.spawn_shard} on {self.space_name(asteroid)}"
        self.spawn_shard = ""
        self._next_spawn()

    def _expand(self) -> None:
        """Cover the innermost remaining ring; all on it is consumed (R48)."""
        lay = self.layout
        ring = self.removed
        if ring >= lay.ring_count - 1:
            return
        start, size = lay.ring_start[ring], lay.ring_sizes[ring]
        for s in range(start, start + size):
            for c in self.pile[s]:
                self.consumed[COLOUR_INDEX[c]] += 1
            self.pile[s] = ""
            if self.ship[s] != NO_SHIP:
                self.players[self.ship[s]].ships_lost += 1
                self.ship[s] = NO_SHIP
        self.removed += 1
        self.last_event = "star expansion"
        if self.layout.settings.get("end_when_no_ships", False) and not any(
            p.dock for p in self.players
        ):
            if all(o == NO_SHIP for o in self.ship):
                self._finish("no ships left")

    def track_can_move(self) -> bool:
        """Whether an Unload can still ever happen, so that the track can still move on.

        An Unload needs a ship (in play or in a Dock; lost ships never come back) and a
        Shard in play, on a space or under a ship: any ship can reach its own gate, since
        every ring in play has one. With no Shard in play, Shards can enter play only by
        Spawn Energy, which needs Shards in the bag, a Spawn space ahead on the track with
        an Asteroid still in play when it is reached, and, as no Unload can move the track
        there, a Disrupt that someone can play. Without all that, a Disrupt could only
        hurry the star to its end, so the end comes at once.
        """
        lay = self.layout
        if not any(p.dock for p in self.players) and all(o == NO_SHIP for o in self.ship):
            return False
        if any(self.pile) or not lay.settings.get("unload_requires_shard", True):
            return True
        return bool(sum(self.bag)) and self._spawn_ahead() and self._disrupt_playable()

    def _spawn_ahead(self) -> bool:
        """A Spawn space ahead on the track, reached while an Asteroid is still in play."""
        lay = self.layout
        removed = self.removed
        for kind in lay.track[self.track_pos + 1 :]:
            if kind == "supernova":
                return False
            if kind == "expansion":
                removed = min(removed + 1, lay.ring_count - 1)
            elif kind == "spawn" and any(lay.space_ring[a] >= removed for a in lay.asteroids):
                return True
        return False

    def _disrupt_playable(self) -> bool:
        """A Disrupt held by a player with a Shard of its colour in a bay (R70), or still in
        the Space Academy for such a player who can Upgrade. Bays never lose Shards."""
        lay = self.layout
        needs_colour = lay.settings.get("special_action_needs_colour", True)
        can_upgrade = any(
            a is not None and a[0] == "upgrade" for pair in lay.basic.values() for a in pair
        )
        academy = set(self.academy) | {c for c in self.face_up if c is not None}
        for cid, card in lay.special.items():
            if all(a is None or a[0] != "disrupt" for a in (card["action"], card["alternate"])):
                continue
            for p in self.players:
                if needs_colour and card["colour"] not in "".join(p.bays):
                    continue
                held = cid in p.hand or cid in p.draw or cid in p.discard
                held = held or any(c == cid for c, _ in p.played)
                if held or (can_upgrade and cid in academy):
                    return True
        return False

    def _end_if_track_stuck(self) -> None:
        """Our end for a game the rulebook cannot end (setting ``end_when_track_stuck``): the
        star goes Super-Nova at once when nothing can ever move the track again."""
        if self.layout.settings.get("end_when_track_stuck", True) and not self.track_can_move():
            self.track_pos = len(self.layout.track) - 1
            self._finish("stalled")

    def _finish(self, reason: str) -> None:
        self.over = True
        self.end_reason = reason
        self.pending = None
        self.spawn_queue = ()
        self.spawn_shard = ""

    def _end_turn(self) -> None:
        seat = self.turn
        p = self.players[seat]
        p.discard.extend(c for c, _ in p.played)  # R14
        p.played = []
        self._refill_hand(p)  # R15, R16
        self.need_link = False
        n = self.num_players
        self.turn = self.decider = (seat + 1) % n  # R17
        if self.turn == self.first:
            self.round += 1
            limit = self.layout.settings.get("max_rounds")
            if limit and self.round >= limit:
                self._finish("round limit")

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

    def information_state_string(self, seat: int) -> str:
        return json.dumps(self.view(seat), sort_keys=True, separators=(",", ":"))

    def action_label(self, cid: str, mode: str) -> str:
        return action_label(self.card_action(cid, mode))


def _pending_to_json(pd: dict | None) -> dict | None:
    if pd is None:
        return None
    out = {}
    for k, v in pd.items():
        out[k] = list(v) if isinstance(v, tuple) else v
    return out
