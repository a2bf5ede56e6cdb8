"""The Special actions' own rules (R60-R69, page 16 of the rulebook's OCR): Re-order,
Sabotage, Skip and Jump-Push's push. Phase Shift, Hyper-Jump and Push share the basic
actions' moves (:mod:`.actions`)."""

from __future__ import annotations

from .turn import NO_SHIP, Move


class SpecialActions:
    """Mixin of :class:`~nova.rules.state.State`: what only the Special cards do."""

    __slots__ = ()

    def _jump_push_dirs(self, s: int, g: int) -> list[int]:
        """Directions the occupant of gate ``g`` can be pushed when the ship on ``s`` jumps in."""
        owner = self.ship[s]
        self.ship[s] = NO_SHIP  # the jumper has left its space; restored below
        dist = 1 + len(self.pile[s])
        out = [d for d in (1, -1) if self._push_destination(g, d, dist) is not None]
        self.ship[s] = owner
        return out

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
