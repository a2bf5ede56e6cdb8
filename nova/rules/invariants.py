"""Checks that hold in every reachable state; used by the tests and when loading a save."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .actions.unload_bays import UnloadBays
from .board import NO_SHIP, in_play
from .content import COLOURS

if TYPE_CHECKING:
    from .state import State


def problems(s: State) -> list[str]:
    """Everything wrong with ``s``; empty when it is a state the rules can reach."""
    lay = s.layout
    out: list[str] = []
    # R5: all Shards accounted for: bag + board + bays + consumed (+ one drawn, being placed)
    count: Counter[str] = Counter()
    for i, c in enumerate(COLOURS):
        count[c] += s.bag[i] + s.consumed[i]
    for pile in s.pile:
        count.update(pile)
    for p in s.players:
        for bay in p.bays:
            count.update(bay)
    if isinstance(s.pending, UnloadBays):
        count.update(s.pending.shards)  # an Unload's Shards on their way to the bays
    count.update(s.spawn_shard)
    for i, c in enumerate(COLOURS):
        if count[c] != lay.shard_supply[i]:
            out.append(f"{c} Shards: {count[c]} accounted for, {lay.shard_supply[i]} in the game")
    if set(count) - set(COLOURS):
        out.append(f"unknown Shard colours {sorted(set(count) - set(COLOURS))}")
    # every card exactly once
    specials = Counter(c for c in s.face_up if c is not None)
    specials.update(s.academy)
    for seat, p in enumerate(s.players):
        cards = p.cards()
        basics = Counter(c for c in cards if c in lay.basic)
        if basics != Counter(list(lay.basic)):
            out.append(f"seat {seat}: basic cards {sorted(basics.elements())} are not its deck")
        specials.update(c for c in cards if c in lay.special)
        strange = [c for c in cards if c not in lay.basic and c not in lay.special]
        if strange:
            out.append(f"seat {seat}: unknown cards {strange}")
    if specials != Counter(list(lay.special)):
        out.append("Special cards: some missing or doubled")
    # ships: three per player, in play, in Dock or consumed (R3); never on a removed ring
    for seat, p in enumerate(s.players):
        on_board = sum(1 for o in s.ship if o == seat)
        if on_board + p.dock + p.ships_lost != lay.ships:
            out.append(f"seat {seat}: {on_board}+{p.dock}+{p.ships_lost} ships, not {lay.ships}")
    for sp, o in enumerate(s.ship):
        if not in_play(s, sp) and (o != NO_SHIP or s.pile[sp]):
            out.append(f"space {lay.space_names[sp]} is under an Expansion Ring but not empty")
        if o != NO_SHIP and not 0 <= o < s.num_players:
            out.append(f"space {lay.space_names[sp]}: ship of unknown seat {o}")
    if not 0 <= s.track_pos < len(lay.track):
        out.append("track token off the track")
    if not 0 <= s.turn < s.num_players or not 0 <= s.decider < s.num_players:
        out.append("turn or decider is not a seat")
    return out
