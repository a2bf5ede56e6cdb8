"""The basic actions (R28-R44): Orbit, Jump, Unload, Hijack, Upgrade and Launch.

Seat 0 moves; seat 0's gates are a0 b0 c0 d0, seat 1's a4 b4 c4 d4, a8-d8 are neutral
(two players on the two/three-player board).
"""

from __future__ import annotations

import pytest
from helpers_rules import NO_SHIP, blank_state, give_hand, ok, play, setup, sp

from nova.rules import IllegalMove

HAND = ["b1", "b2", "b3", "b4", "b5"]  # Orbit 1, Orbit 1, Orbit 2, Orbit 2, Orbit 3 upright


def start(hand=HAND, **kw):
    s = blank_state(2, seat=0)
    setup(s, **kw)
    give_hand(s, 0, list(hand))
    return ok(s)


def dests(s):
    return sorted(m[1:] for m in s.legal_moves() if m.startswith(">"))


# -- Orbit ---------------------------------------------------------------------------------
def test_r28_orbit_moves_exactly_n_spaces_forward_or_backward():
    """R28: Orbit Two reaches the spaces two away either way along the same ring."""
    s = start(ships={"c6": 0})
    s = play(s, "b3u", "@c6")
    assert dests(s) == ["c4", "c8"]


def test_r11_an_action_moves_one_of_your_own_ships():
    """R11: only the mover's own ships are offered for its action."""
    s = start(ships={"c6": 0, "b6": 0, "d6": 1})
    s = play(s, "b3u")
    assert sorted(s.legal_moves()) == ["@b6", "@c6"]


def test_r29_ship_carries_its_stack():
    """R29: the Shards under a ship travel with it."""
    s = start(shards={"c6": "kry"}, ships={"c6": 0})
    s = play(s, "b3u", "@c6", ">c8", "x0")
    assert s.pile[sp(s, "c8")] == "kry" and s.pile[sp(s, "c6")] == ""


def test_r30_cannot_land_on_a_ship_but_may_pass_over_one():
    """R30, R34: a space with a ship is never a destination; ships in between do not block."""
    s = start(ships={"c6": 0, "c8": 1, "c7": 1})
    s = play(s, "b3u", "@c6")
    assert dests(s) == ["c4"]
    with pytest.raises(IllegalMove):
        s.apply(">c8")
    s = play(s, ">c4")
    assert s.ship[sp(s, "c4")] == 0


def test_r30_orbit_card_not_offered_when_every_destination_holds_a_ship():
    """R30: with both landing spaces taken, Orbit Two has nowhere to go and is not offered."""
    s = start(ships={"c6": 0, "c8": 1, "c4": 1})
    assert "b3u" not in s.legal_moves() and "b4u" not in s.legal_moves()
    assert "b1u" in s.legal_moves()


def test_r31_r32_landing_on_shards_adds_them_to_the_bottom():
    """R31, R32: landing on Shards is allowed; they go under the stack."""
    s = start(shards={"c6": "r", "c8": "ky"}, ships={"c6": 0})
    s = play(s, "b3u", "@c6", ">c8", "x0")
    assert s.pile[sp(s, "c8")] == "kyr"


def test_r33_leave_shards_behind_from_the_bottom():
    """R33: the player may leave any number of Shards behind; they come off the bottom."""
    s = start(shards={"c6": "kry"}, ships={"c6": 0})
    s = play(s, "b3u", "@c6", ">c8")
    assert sorted(s.legal_moves()) == ["x0", "x1", "x2", "x3"]
    s = play(s, "x2")
    assert s.pile[sp(s, "c6")] == "kr" and s.pile[sp(s, "c8")] == "y"


def test_r34_passing_over_shards_does_not_pick_them_up():
    """R34: Shards on the spaces passed over stay where they are."""
    s = start(shards={"c7": "k", "c5": "r"}, ships={"c6": 0})
    s = play(s, "b3u", "@c6", ">c8")
    assert s.pile[sp(s, "c7")] == "k" and s.pile[sp(s, "c8")] == ""


# -- Jump ----------------------------------------------------------------------------------
def test_r35_jump_from_a_gate_to_any_unoccupied_gate():
    """R35: Jump goes from a Jump-Gate to any other gate with no ship and no Shard."""
    s = start(
        hand=["b8", "b1", "b2", "b3", "b4"],
        shards={"b4": "y", "c4": "k"},
        ships={"a0": 0, "d4": 1, "c7": 0},
    )
    s = play(s, "b8u")
    assert s.legal_moves() == ["@a0"], "only a ship on a Jump-Gate can Jump"
    s = play(s, "@a0")
    assert dests(s) == sorted(["b0", "c0", "d0", "a4", "a8", "b8", "c8", "d8"])
    s = play(s, ">c8")
    assert s.ship[sp(s, "c8")] == 0 and s.ship[sp(s, "a0")] == -1


def test_r35_jump_may_leave_shards_behind():
    """R35: a jumping stack may leave Shards behind on the gate it leaves."""
    s = start(hand=["b8", "b1", "b2", "b3", "b4"], shards={"c8": "kr"}, ships={"c8": 0})
    s = play(s, "b8u", "@c8", ">c0", "x1")
    assert s.pile[sp(s, "c8")] == "k" and s.pile[sp(s, "c0")] == "r"


# -- Unload --------------------------------------------------------------------------------
def test_r36_unload_only_from_your_own_gate():
    """R36: a loaded ship on someone else's or a neutral gate cannot Unload."""
    s = start(
        hand=["b10", "b1", "b2", "b3", "b4"],
        shards={"c4": "k", "c8": "r", "c0": "y"},
        ships={"c4": 0, "c8": 0, "c0": 0},
    )
    s = play(s, "b10u")
    assert s.legal_moves() == ["@c0"]


def test_r36_unload_needs_a_shard_to_unload():
    """R36 ("Unload a Shard or Stack of Shards"), setting unload_requires_shard: an empty
    ship on its own gate has nothing to Unload."""
    s = start(hand=["b10", "b1", "b2", "b3", "b4"], ships={"c0": 0, "b0": 0})
    assert "b10u" not in s.legal_moves()


def test_r37_r38_unload_docks_the_ship_and_unloads_top_down_into_chosen_bays():
    """R37, R38: the ship goes to the Dock; each Shard, top first, goes to the bay chosen."""
    s = start(hand=["b10", "b1", "b2", "b3", "b4"], shards={"c0": "kry"}, ships={"c0": 0})
    dock = s.players[0].dock
    s = play(s, "b10u", "@c0")
    assert s.players[0].dock == dock + 1 and s.ship[sp(s, "c0")] == -1
    assert s.legal_moves() == ["B0", "B1", "B2"]
    assert s.pending.shards == "yrk", "top first: yellow, red, black"
    s = play(s, "B2", "B2", "B0")
    assert s.players[0].bays == ["k", "", "yr"]
    assert s.pending is None


# -- Hijack --------------------------------------------------------------------------------
def test_r39_hijack_pushes_away_by_stack_height_either_side():
    """R39: an adjacent opponent on either side is pushed away from the attacker, x spaces,
    x = the attacker's height including the ship."""
    s = start(hand=["b2", "b1", "b3", "b4", "b5"], shards={"c5": "k"}, ships={"c5": 0, "c4": 1})
    s = play(s, "b2r", "@c5", "!c4", "x0")
    assert s.ship[sp(s, "c2")] == 1, "height 2: pushed two spaces anticlockwise"
    assert s.ship[sp(s, "c4")] == 0 and s.pile[sp(s, "c4")] == "k"


def test_r39_hijack_needs_an_adjacent_opponent():
    """R39: with no opponent next to any ship on its ring, Hijack is not offered."""
    s = start(hand=["b2", "b1", "b3", "b4", "b5"], ships={"c5": 0, "c7": 1, "b5": 1})
    assert "b2r" not in s.legal_moves() and "b5r" not in s.legal_moves()


def test_r40_hijack_push_skips_occupied_spaces_to_the_first_open_one():
    """R40: if the landing space holds a ship, keep moving to the first open space."""
    s = start(
        hand=["b2", "b1", "b3", "b4", "b5"],
        ships={"c2": 0, "c3": 1, "c4": 0, "c5": 1},
    )
    s = play(s, "b2r", "@c2", "!c3")
    assert s.ship[sp(s, "c6")] == 1, "c4 (height 1 lands there) and c5 taken: first open c6"
    assert s.ship[sp(s, "c3")] == 0


def test_r40_pushed_stack_stops_only_on_an_open_space():
    """R40: "the first open spot" is open as the rulebook uses the word for gates: no ship
    and no Shard (setting push_needs_open_space), so a pushed stack passes loose Shards."""
    s = start(hand=["b2", "b1", "b3", "b4", "b5"], shards={"c4": "y"}, ships={"c2": 0, "c3": 1})
    s = play(s, "b2r", "@c2", "!c3")
    assert s.ship[sp(s, "c5")] == 1 and s.pile[sp(s, "c5")] == ""
    assert s.pile[sp(s, "c4")] == "y" and s.ship[sp(s, "c4")] == NO_SHIP


def test_r40_setting_off_pushed_stack_landing_on_shards_stacks_on_them():
    """R40 with R32, push_needs_open_space off: a pushed stack that stops on Shards takes
    them under it (the reading of rules content 1)."""
    s = blank_state(2, seat=0, variant={"settings": {"push_needs_open_space": False}})
    setup(s, shards={"c4": "y"}, ships={"c2": 0, "c3": 1})
    give_hand(s, 0, ["b2", "b1", "b3", "b4", "b5"])
    s = play(s, "b2r", "@c2", "!c3")
    assert s.ship[sp(s, "c4")] == 1 and s.pile[sp(s, "c4")] == "y"


def test_r41_hijack_leaves_bottom_shard_and_attacker_claims_it():
    """R41: the target's bottom Shard stays; the attacker moves onto it and takes it."""
    s = start(
        hand=["b2", "b1", "b3", "b4", "b5"],
        shards={"c3": "ryk"},
        ships={"c2": 0, "c3": 1},
    )
    s = play(s, "b2r", "@c2", "!c3")
    assert s.pile[sp(s, "c4")] == "yk" and s.ship[sp(s, "c4")] == 1
    assert s.pile[sp(s, "c3")] == "r" and s.ship[sp(s, "c3")] == 0


def test_r41_hijack_of_an_empty_ship_still_pushes_and_moves_in():
    """R41: a target with no Shards is still pushed and the attacker moves in."""
    s = start(hand=["b2", "b1", "b3", "b4", "b5"], ships={"c2": 0, "c3": 1})
    s = play(s, "b2r", "@c2", "!c3")
    assert s.ship[sp(s, "c3")] == 0 and s.ship[sp(s, "c4")] == 1 and s.pile[sp(s, "c3")] == ""


# -- Upgrade -------------------------------------------------------------------------------
def test_r42_upgrade_takes_a_face_up_card_and_refills_the_gap():
    """R42: take face-up card n into the hand; the top of the Academy Deck fills its place."""
    s = start(hand=["b6", "b1", "b2", "b3", "b4"])
    face, top = list(s.face_up), s.academy[0]
    s = play(s, "b6r")
    assert set(s.legal_moves()) == {"U1", "U2", "U3", "UD"}
    s = play(s, "U2")
    assert face[1] in s.players[0].hand
    assert s.face_up == [face[0], top, face[2]]


def test_r43_upgrade_from_the_deck_replaces_the_face_up_cards():
    """R43: draw the Academy Deck's top card; the three face-up cards go to the bottom of the
    deck and three new ones are turned up."""
    s = start(hand=["b6", "b1", "b2", "b3", "b4"])
    face, deck = list(s.face_up), list(s.academy)
    s = play(s, "b6r", "UD")
    assert deck[0] in s.players[0].hand
    assert s.face_up == deck[1:4]
    assert s.academy[-3:] == face
    assert len(s.academy) == len(deck) - 4 + 3


# -- Launch --------------------------------------------------------------------------------
def test_r44_launch_to_your_own_open_gates_only():
    """R44: a ship from the Dock to any of your own *open* Jump-Gates: open as Jump (R35)
    and Hyper-Jump use the word, no ship and no Shard (setting launch_to_open_gate)."""
    s = start(ships={"a0": 1}, shards={"b0": "k"})
    launches = sorted(m for m in s.legal_moves() if m.startswith("L"))
    assert launches == ["Lc0", "Ld0"], "a0 holds a ship, b0 a Shard: neither is open"
    assert "R44" in s.why_illegal("Lb0")


def test_r44_setting_off_launch_onto_shards_collects_them():
    """R44 with launch_to_open_gate off (rules content 1): a gate with Shards but no ship
    takes a Launch, and the Shards join the new stack."""
    s = blank_state(2, seat=0, variant={"settings": {"launch_to_open_gate": False}})
    setup(s, ships={"a0": 1}, shards={"b0": "k"})
    launches = sorted(m for m in s.legal_moves() if m.startswith("L"))
    assert launches == ["Lb0", "Lc0", "Ld0"]
    s = play(s, "Lb0")
    assert s.ship[sp(s, "b0")] == 0 and s.pile[sp(s, "b0")] == "k"


def test_r13_r44_launch_is_free_repeatable_and_allowed_between_actions():
    """R13, R44: any number of Launches, no card, in the middle of a chain too."""
    s = start(ships={"c6": 0})
    hand = list(s.players[0].hand)
    s = play(s, "Lc0")
    assert s.players[0].hand == hand and s.players[0].played == []
    assert "Ld0" in s.legal_moves()
    s = play(s, "b3u", "@c6", ">c8")
    assert "Lb0" in s.legal_moves(), "Launch between actions, even while a link is needed"
    s = play(s, "Lb0")
    assert s.need_link, "a Launch is not a chain link"
    assert s.players[0].dock == 0
    assert not any(m.startswith("L") for m in s.legal_moves()), "the Dock is empty"


def test_r13_no_launch_in_another_players_turn():
    """R13: Launch is during your own turn only."""
    s = start()
    s = play(s, "E")
    assert s.turn == 1
    assert all(m[1:] in ("a4", "b4", "c4", "d4") for m in s.legal_moves() if m[0] == "L")
