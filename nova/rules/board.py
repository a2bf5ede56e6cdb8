"""The board: spaces along the rings, stacks on them, and the moves every action shares
(R29-R34 moving a stack, R39-R40 pushing one, R35 open Jump-Gates, R44 Launch).

Queries here never change the state; :func:`move_stack` is the one change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .content import Layout
    from .state import State

NO_SHIP = -1
NOT_A_GATE = -2  # Layout.gate_owner of a space that is no Jump-Gate


def in_play(s: State, sp: int) -> bool:
    """Not yet under an Expansion Ring (R48)."""
    return s.layout.space_ring[sp] >= s.removed


def ring_step(s: State, sp: int, d: int, direction: int) -> int:
    lay = s.layout
    r = lay.space_ring[sp]
    start = lay.ring_start[r]
    return start + (sp - start + direction * d) % lay.ring_sizes[r]


def own_ships(s: State, seat: int) -> list[int]:
    """The spaces of ``seat``'s ships, in board order."""
    ship = s.ship
    out = []
    sp = -1
    for _ in range(ship.count(seat)):  # list.index scans faster than a loop of ours
        sp = ship.index(seat, sp + 1)
        out.append(sp)
    return out


_REACH: dict[tuple[Layout, tuple[int, ...]], list[tuple[int, ...]]] = {}


def orbit_reach(lay: Layout, dists: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Per space, the other spaces an orbit of any of ``dists`` reaches from it, either
    way, ships not counted, in :func:`orbit_targets`' order (the board alone: made once)."""
    key = (lay, dists)
    reach = _REACH.get(key)
    if reach is None:
        reach = _REACH[key] = []
        for sp in range(lay.space_count):
            r = lay.space_ring[sp]
            start, n = lay.ring_start[r], lay.ring_sizes[r]
            out: list[int] = []
            for d in dists:
                for direction in (1, -1):
                    t = start + (sp - start + direction * d) % n
                    if t != sp and t not in out:
                        out.append(t)
            reach.append(tuple(out))
    return reach


def can_orbit(s: State, ships: list[int], reach: list[tuple[int, ...]]) -> bool:
    """Whether one of the ships on ``ships`` can orbit somewhere in ``reach`` (not onto a ship)."""
    ship = s.ship
    for sp in ships:
        for t in reach[sp]:
            if ship[t] == NO_SHIP:
                return True
    return False


def orbit_targets(s: State, sp: int, dists: tuple[int, ...]) -> list[int]:
    """Spaces an orbit of any of ``dists`` reaches from ``sp``, either way, not on a ship."""
    out = []
    ship = s.ship
    for d in dists:
        for direction in (1, -1):
            t = ring_step(s, sp, d, direction)
            if t != sp and ship[t] == NO_SHIP and t not in out:
                out.append(t)
    return out


def orbit_ships(s: State, dists: tuple[int, ...]) -> list[int]:
    seat = s.turn
    return [sp for sp, o in enumerate(s.ship) if o == seat and orbit_targets(s, sp, dists)]


def push_destination(
    s: State, target: int, direction: int, dist: int, vacated: int = NO_SHIP
) -> int | None:
    """Where a stack pushed from ``target`` ends (R39, R40); None if the ring is full.

    ``vacated`` is a space whose ship counts as gone (a Jump-Push's jumper has left it)."""
    n = s.layout.ring_sizes[s.layout.space_ring[target]]
    # R40's "first open spot": no ship and, read as "open" is for gates, no Shard
    # (setting push_needs_open_space; false: Shards there go under the pushed stack)
    shards_block = s.layout.settings.push_needs_open_space
    t = ring_step(s, target, dist, direction)
    for _ in range(n):
        free = s.ship[t] == NO_SHIP or t == vacated
        if t != target and free and not (shards_block and s.pile[t]):
            return t
        t = ring_step(s, t, 1, direction)
    return None


def open_gate(s: State, g: int) -> bool:
    """R35: an open Jump-Gate has no ship and no Shard on it."""
    return in_play(s, g) and s.ship[g] == NO_SHIP and not s.pile[g]


def any_open_gate(s: State) -> bool:
    """R35: whether some Jump-Gate is open (in play, no ship, no Shard)."""
    ship, pile = s.ship, s.pile
    return any(ship[g] == NO_SHIP and not pile[g] and in_play(s, g) for g in s.layout.gates)


def launch_gate(s: State, g: int) -> bool:
    """R44: "any of your own open Jump-Gates": open is no ship and no Shard, as for Jump
    (setting ``launch_to_open_gate``; false: no ship, and Shards there join the stack)."""
    if s.layout.settings.launch_to_open_gate:
        return open_gate(s, g)
    return in_play(s, g) and s.ship[g] == NO_SHIP


def height(s: State, sp: int) -> int:
    """A stack's height, its ship included (R39: the push distance)."""
    return 1 + len(s.pile[sp])


def adjacent_opponents(s: State, sp: int, seat: int) -> list[tuple[int, int]]:
    """(target space, push direction) for opponents next to ``sp`` on its ring (R39)."""
    lay = s.layout
    out = []
    for t, direction in ((lay.next_space[sp], 1), (lay.prev_space[sp], -1)):
        if t != sp and s.ship[t] not in (NO_SHIP, seat):
            out.append((t, direction))
    return out


def attack_targets(s: State, sp: int) -> list[int]:
    """Opponents next to the ship on ``sp`` that can be pushed away (R39, R40)."""
    dist = height(s, sp)
    return [
        t
        for t, direction in adjacent_opponents(s, sp, s.turn)
        if push_destination(s, t, direction, dist) is not None
    ]


def attackers(s: State) -> list[int]:
    seat = s.turn
    return [sp for sp, o in enumerate(s.ship) if o == seat and attack_targets(s, sp)]


def unload_ships(s: State) -> list[int]:
    """R36: your ships on your own Jump-Gates (carrying Shards, setting unload_requires_shard)."""
    seat = s.turn
    need = s.layout.settings.unload_requires_shard
    return [g for g in s.layout.seat_gates[seat] if s.ship[g] == seat and (s.pile[g] or not need)]


def move_stack(s: State, src: int, dst: int, leave: int) -> None:
    """Move the ship on ``src`` with its Shards to ``dst`` (R29-R33).

    ``leave`` Shards stay behind, from the bottom; Shards already on ``dst`` go under
    the arriving stack (R32). Passing over ships and Shards changes nothing (R34).
    """
    owner = s.ship[src]
    pile = s.pile[src]
    s.ship[src] = NO_SHIP
    s.pile[src] = pile[:leave]
    s.ship[dst] = owner
    s.pile[dst] = s.pile[dst] + pile[leave:]
