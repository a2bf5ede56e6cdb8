"""The Expansion Track (R45-R49): Spawn Energy, Star Expansion, Super-Nova, and our end
for a game the rulebook cannot end (docs/RULES.md, R49)."""

from __future__ import annotations

from .content import COLOURS
from .turn import NO_SHIP

COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}


class ExpansionTrack:
    """Mixin of :class:`~nova.rules.state.State`: the track and the end of the game."""

    __slots__ = ()

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
                if cid in p.cards() or (can_upgrade and cid in academy):
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
