"""Building hand-made positions for the rules tests, and a fast random policy.

A position is built from a real ``new_game`` whose fields are edited: the board is
cleared, Shards and ships are placed by space name, cards are moved into a hand from
wherever they were. Every edit keeps the game's books balanced (30 Shards, every card
once, three ships a seat), so ``nova.rules.invariants.problems`` stays empty and a test
can check the invariants after the moves it plays too.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from nova.rules import State, new_game
from nova.rules.content import COLOURS
from nova.rules.invariants import problems

NO_SHIP = -1
# The board and tracks of rules content 1, for tests of track mechanics that need a blank
# space first, a Spawn second and Asteroids on ring a (content 2's tracks Spawn at once).
_CONTENT_1 = json.loads(
    (Path(__file__).resolve().parent.parent / "nova/data/variants/content-1.json").read_text()
)
CONTENT_1_BOARD = {k: _CONTENT_1[k] for k in ("boards", "tracks")}


def sp(s: State, name: str) -> int:
    """The space index of a space name like ``c3``."""
    return s.layout.name_to_space[name]


def blank_state(
    players: int = 2, seed: int = 0, seat: int = 0, variant: dict | None = None
) -> State:
    """A fresh game, empty board (Shards back in the bag, ships in Docks), ``seat`` to move;
    hands of basic cards only (an opening Special, R9, goes back on top of the Academy Deck)."""
    s = new_game(players=players, seed=seed, variant=variant, first_player=seat)
    for p in s.players:
        specials = [c for c in p.hand if c not in s.layout.basic]
        p.hand = [c for c in p.hand if c in s.layout.basic]
        s.academy[:0] = specials
    s.pile = [""] * s.layout.space_count
    s.ship = [NO_SHIP] * s.layout.space_count
    for p in s.players:
        p.dock = s.layout.ships
    rebalance(s)
    return s


def rebalance(s: State) -> State:
    """Put back in the bag exactly the Shards not on the board, in bays or consumed."""
    used = Counter()
    for pile in s.pile:
        used.update(pile)
    for p in s.players:
        for bay in p.bays:
            used.update(bay)
    for i, c in enumerate(COLOURS):
        n = s.layout.shard_supply[i] - used[c] - s.consumed[i]
        assert n >= 0, f"more {c} Shards placed than the game has"
        s.bag[i] = n
    for seat, p in enumerate(s.players):
        p.dock = s.layout.ships - p.ships_lost - sum(1 for o in s.ship if o == seat)
        assert p.dock >= 0, f"seat {seat} has more than {s.layout.ships} ships"
    s._legal = None
    return s


def setup(
    s: State,
    shards: dict[str, str] | None = None,
    ships: dict[str, int] | None = None,
    bays: dict[int, list[str]] | None = None,
) -> State:
    """Place Shards (bottom first) and ships by space name, and fill Cargo Bays; rebalance."""
    for name, pile in (shards or {}).items():
        s.pile[sp(s, name)] = pile
    for name, seat in (ships or {}).items():
        s.ship[sp(s, name)] = seat
    for seat, bs in (bays or {}).items():
        s.players[seat].bays = list(bs) + [""] * (3 - len(bs))
    return rebalance(s)


def give_hand(s: State, seat: int, cards: list[str]) -> State:
    """Make ``cards`` the seat's hand; displaced cards go to its draw pile (Specials: Academy)."""
    p = s.players[seat]
    for cid in cards:
        for pile in (p.hand, p.draw, p.discard):
            if cid in pile:
                pile.remove(cid)
                break
        else:
            if cid in s.academy:
                s.academy.remove(cid)
            elif cid in s.face_up:
                s.face_up[s.face_up.index(cid)] = s.academy.pop(0)
            else:
                for other in s.players:
                    for pile in (other.hand, other.draw, other.discard):
                        if cid in pile:
                            pile.remove(cid)
                            if cid in s.layout.basic:
                                raise AssertionError(f"{cid} belongs to another seat")
                            break
    for cid in p.hand:
        if cid in s.layout.special:
            s.academy.append(cid)
        else:
            p.draw.append(cid)
    p.hand = list(cards)
    s._legal = None
    return s


def to_move(s: State, seat: int) -> State:
    """Make it ``seat``'s turn, at the start of a turn."""
    s.turn = s.decider = seat
    s.need_link = False
    s.pending = None
    s._legal = None
    return s


def play(s: State, *moves: str) -> State:
    """Apply moves in order, checking the invariants after each one."""
    for m in moves:
        s = s.apply(m)
        assert problems(s) == [], (m, problems(s), s.position())
    return s


def ok(s: State) -> State:
    assert problems(s) == [], (problems(s), s.position())
    return s


def random_policy(seed: int):
    """A fast random player that leans towards moves that fetch Shards home and Unload.

    Uniform random play almost never Unloads, so the track hardly moves; this bias lets the
    random games reach Spawn Energy, Star Expansions and Super-Nova.
    """
    r = random.Random(seed)

    def pick(s: State) -> str:
        moves = s.legal_moves()
        if len(moves) == 1 or r.random() < 0.1:
            return r.choice(moves)
        lay, seat, pd = s.layout, s.turn, s.pending
        good = []
        for m in moves:
            if m[0] == "L" or m == "x0":
                good.append(m)
            elif pd is None and m[0] in "bs" and m[-1] in "ur":
                action = s.card_action(m[:-1], m[-1])
                if action and action.name in ("unload", "jump", "hyper_jump", "disrupt"):
                    good.append(m)
            elif pd is not None and m[0] == ">":
                t = lay.name_to_space[m[1:]]
                if lay.gate_owner[t] == seat or s.pile[t]:
                    good.append(m)
        if good and r.random() < 0.8:
            return r.choice(good)
        busy = [m for m in moves if m != "E"]
        if busy and r.random() < 0.8:
            return r.choice(busy)
        return r.choice(moves)

    return pick
