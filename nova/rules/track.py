"""The Expansion Track (R45-R49): Spawn Energy, Star Expansion, Super-Nova, and our end
for a game the rulebook cannot end (docs/RULES.md, R49); drawing Shards from the bag."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import NO_SHIP, in_play
from .content import COLOURS
from .rng import Rng

if TYPE_CHECKING:
    from .state import State

COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}


def draw_shard(s: State) -> str:
    """A Shard drawn at random from the bag (R5); "" when the bag is empty."""
    total = sum(s.bag)
    if total == 0:
        return ""
    rng = Rng(s.rng)
    k = rng.below(total)
    s.rng = rng.state
    for i, n in enumerate(s.bag):
        if k < n:
            s.bag[i] -= 1
            return COLOURS[i]
        k -= n
    raise AssertionError("unreachable")


def advance_track(s: State) -> None:
    """R45: the track token moves one space on, and that space's event happens."""
    track = s.layout.track
    if s.track_pos < len(track) - 1:
        s.track_pos += 1
    kind = track[s.track_pos]
    if kind == "supernova":
        finish(s, "supernova")
    elif kind == "expansion":
        expand(s)
    elif kind == "spawn":
        n = s.num_players
        s.spawn_queue = tuple((s.turn + k) % n for k in range(n))
        next_spawn(s)
    if not s.over and not s.spawn_shard:
        end_if_track_stuck(s)


def next_spawn(s: State) -> None:
    """R47: the next seat in the queue draws a Shard to place, or the Spawn is over."""
    while s.spawn_queue:
        seat, s.spawn_queue = s.spawn_queue[0], s.spawn_queue[1:]
        if not any(in_play(s, a) for a in s.layout.asteroids):
            s.spawn_queue = ()
            break
        shard = draw_shard(s)
        if not shard:
            s.spawn_queue = ()
            break
        s.spawn_shard = shard
        # R47: each player places their own Shard; by links, the one who triggered it places
        # every Shard (setting spawn_placed_by, docs/RULES.md), so the turn needs no other link
        by_trigger = s.layout.settings.spawn_placed_by == "trigger"
        s.decider = s.turn if by_trigger else seat
        return
    s.spawn_shard = ""
    s.decider = s.turn
    if not s.over:
        end_if_track_stuck(s)


def place_spawn(s: State, asteroid: int) -> None:
    # the new Shard goes to the bottom of whatever is on the Asteroid (R47)
    s.pile[asteroid] = s.spawn_shard + s.pile[asteroid]
    s.last_event = f"spawn {s.spawn_shard} on {s.layout.space_names[asteroid]}"
    s.spawn_shard = ""
    next_spawn(s)


def expand(s: State) -> None:
    """Cover the innermost remaining ring; all on it is consumed (R48)."""
    lay = s.layout
    ring = s.removed
    if ring >= lay.ring_count - 1:
        return
    start, size = lay.ring_start[ring], lay.ring_sizes[ring]
    for sp in range(start, start + size):
        for c in s.pile[sp]:
            s.consumed[COLOUR_INDEX[c]] += 1
        s.pile[sp] = ""
        if s.ship[sp] != NO_SHIP:
            s.players[s.ship[sp]].ships_lost += 1
            s.ship[sp] = NO_SHIP
    s.removed += 1
    s.last_event = "star expansion"
    if s.layout.settings.end_when_no_ships and not any(p.dock for p in s.players):
        if all(o == NO_SHIP for o in s.ship):
            finish(s, "no ships left")


def track_can_move(s: State) -> bool:
    """Whether an Unload can still ever happen, so that the track can still move on.

    An Unload needs a ship (in play or in a Dock; lost ships never come back) and a
    Shard in play, on a space or under a ship: any ship can reach its own gate, since
    every ring in play has one. With no Shard in play, Shards can enter play only by
    Spawn Energy, which needs Shards in the bag, a Spawn space ahead on the track with
    an Asteroid still in play when it is reached, and, as no Unload can move the track
    there, a Disrupt that someone can play. Without all that, a Disrupt could only
    hurry the star to its end, so the end comes at once.
    """
    if not any(p.dock for p in s.players) and all(o == NO_SHIP for o in s.ship):
        return False
    if any(s.pile) or not s.layout.settings.unload_requires_shard:
        return True
    return bool(sum(s.bag)) and _spawn_ahead(s) and _disrupt_playable(s)


def _spawn_ahead(s: State) -> bool:
    """A Spawn space ahead on the track, reached while an Asteroid is still in play."""
    lay = s.layout
    removed = s.removed
    for kind in lay.track[s.track_pos + 1 :]:
        if kind == "supernova":
            return False
        if kind == "expansion":
            removed = min(removed + 1, lay.ring_count - 1)
        elif kind == "spawn" and any(lay.space_ring[a] >= removed for a in lay.asteroids):
            return True
    return False


def _disrupt_playable(s: State) -> bool:
    """A Disrupt held by a player with a Shard of its colour in a bay (R70), or still in
    the Space Academy for such a player who can Upgrade. Bays never lose Shards."""
    lay = s.layout
    needs_colour = lay.settings.special_action_needs_colour
    can_upgrade = any(
        a is not None and "upgrade" in a.names() for pair in lay.basic.values() for a in pair
    )
    academy = set(s.academy) | {c for c in s.face_up if c is not None}
    for cid, card in lay.special.items():
        if all(
            a is None or "disrupt" not in a.names() for a in (card["action"], card["alternate"])
        ):
            continue
        for p in s.players:
            if needs_colour and card["colour"] not in "".join(p.bays):
                continue
            if cid in p.cards() or (can_upgrade and cid in academy):
                return True
    return False


def end_if_track_stuck(s: State) -> None:
    """Our end for a game the rulebook cannot end (setting ``end_when_track_stuck``): the
    star goes Super-Nova at once when nothing can ever move the track again."""
    if s.layout.settings.end_when_track_stuck and not track_can_move(s):
        s.track_pos = len(s.layout.track) - 1
        finish(s, "stalled")


def finish(s: State, reason: str) -> None:
    s.over = True
    s.end_reason = reason
    s.pending = None
    s.spawn_queue = ()
    s.spawn_shard = ""
