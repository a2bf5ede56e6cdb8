"""The turn (R10-R17), chaining (R22-R27) and decisions: what may be decided now, why
something may not, and how a decision is applied. Each action's own rules are in
:mod:`.actions`, :mod:`.specials` and :mod:`.track`."""

from __future__ import annotations

NO_SHIP = -1
_COLOUR_WORD = {"k": "black", "r": "red", "y": "yellow"}


class Move(str):
    """One decision in text notation, e.g. ``b7u`` (play card b7 upright) or ``>c5``."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Move:
        return cls(text.strip())


class TurnRules:
    """Mixin of :class:`~nova.rules.state.State`: the turn and its decisions."""

    __slots__ = ()

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

    def why_illegal(self, move: str) -> str:
        """Why ``move`` is not a legal decision now, in a player's words naming the rule
        (for the page's "why not?" and :class:`IllegalMove`); "" when it is legal."""
        move = str(move)
        if move in self.legal_moves():
            return ""
        if self.over:
            return "the game is over (R49)"
        if self.spawn_shard:
            return (
                f"first seat {self.decider + 1} places the drawn Shard on an Asteroid "
                "(Spawn Energy, R47)"
            )
        if self.pending is not None:
            return self._why_not_pending(move)
        p = self.players[self.turn]
        cid, mode = move[:-1], move[-1:]
        if cid in self.layout.basic or cid in self.layout.special:
            if cid not in p.hand:
                return f"card {cid} is not in your hand"
            if mode not in "urls":
                return "play a card u (upright), r (rotated), s/l (as a chain link)"
            if cid in self.layout.basic and mode in "ur" and self.need_link:
                return (
                    "two actions must be joined by a chain link: play a card sideways first (R24)"
                )
            if cid in self.layout.special and mode in "ur":
                colour = self.layout.special[cid]["colour"]
                if colour not in self.bay_colours(self.turn):
                    return (
                        f"no {_COLOUR_WORD[colour]} Shard in your Cargo Bays, so this Special "
                        "can only be a chain link (R70)"
                    )
            if mode in "ur":
                act = self.card_action(cid, mode)
                return f"its action ({act[0].replace('_', ' ')}) has nothing it can do now (R11)"
            return "that card cannot be played that way now"
        if move.startswith("L"):
            return "Launch needs a ship in your Dock and your own open Jump-Gate (R44)"
        if move[:1] == "U":
            return "Space Academy cards are taken with an Upgrade action (R42-R43)"
        if move[:1] and move[:1] in "@>!*":
            return "that space is not a choice now: play a card, launch a ship, or end your turn"
        return f"not a legal decision now (legal: {', '.join(self.legal_moves())})"

    def _why_not_pending(self, move: str) -> str:
        """Why not, while an action is under way (R11: each action is resolved at once)."""
        pd = self.pending
        kind = pd["kind"]
        word = kind.replace("_", " ")
        head = move[:1]
        if kind == "unload_bays":
            return "first put the unloaded Shard into one of your Cargo Bays (R38)"
        if kind == "upgrade":
            return "Upgrade: take one of the face-up Academy cards or the Academy Deck (R42-R43)"
        if head and head in "@>!" and move[1:] in self.layout.name_to_space:
            ship = pd.get("ship")
            if head == "@":
                reasons = {
                    "orbit": "Orbit moves one of your ships that can go that far without "
                    "landing on a ship (R28, R30)",
                    "jump": "Jump starts from one of your ships on a Jump-Gate, to an open "
                    "Jump-Gate (R35)",
                    "jump_push": "Jump-Push starts from one of your ships on a Jump-Gate (R69)",
                    "hyper_jump": "Hyper-Jump moves one of your ships on an orbit space (R63)",
                    "phase_shift": "Phase Shift needs your ship next to a free space on the next "
                    "ring (R62)",
                    "unload": "Unload needs your ship on one of your own Jump-Gates (R36)",
                    "hijack": "Hijack needs your ship next to an opponent's on the same ring (R39)",
                    "hijack_orbit": "Hijack needs your ship next to an opponent's on the same "
                    "ring (R68)",
                    "push": "Push needs your ship next to an opponent's on the same ring (R67)",
                }
                return reasons.get(kind, f"choose one of the highlighted ships for the {word}")
            if head == "!":
                if kind == "sabotage":
                    return "Sabotage takes an opponent's ship that can be moved 1-3 spaces (R64)"
                return "choose an opponent's ship next to yours on the same ring (R39)"
            if head == ">":
                if ship is None and kind != "sabotage":
                    return f"first choose the ship for the {word}"
                reasons = {
                    "orbit": "the ship moves exactly the card's number of spaces along its "
                    "ring, either way, and never lands on a ship (R28, R30)",
                    "jump": "Jump goes to an open Jump-Gate: no ship and no Shard on it (R35)",
                    "jump_push": "Jump-Push goes to another Jump-Gate (R69)",
                    "hyper_jump": "Hyper-Jump goes to an open Jump-Gate (R63)",
                    "phase_shift": "Phase Shift goes to a touching space on the next ring in "
                    "or out, without a ship (R62)",
                    "sabotage": "Sabotage moves that ship 1-3 spaces along its ring, not onto "
                    "a ship (R64)",
                }
                return reasons.get(kind, f"not a place the {word} can reach")
        return f"first finish the {word} under way (R11)"

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
