"""The basic actions (R28-R44): Orbit, Jump, Unload, Hijack, Upgrade, Launch, and the
stack moves they share (R29-R34, R39-R41)."""

from __future__ import annotations

from .turn import NO_SHIP


class BasicActions:
    """Mixin of :class:`~nova.rules.state.State`: the basic actions."""

    __slots__ = ()

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
        if self.layout.settings.get("end_check_on_upgrade", True):
            # the last Disrupt anyone could power may just have gone to a hand that cannot
            # (R70): with no Shard in play, nothing can move the track any more (R49)
            self._end_if_track_stuck()
