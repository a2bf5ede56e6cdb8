"""Special Action cards (R25-R27, R60-R70): links, colours, and every action upright and rotated."""

from __future__ import annotations

import pytest
from helpers_rules import blank_state, give_hand, ok, play, setup, sp

from nova.rules import layout_for
from nova.rules.invariants import problems

LAY = layout_for(2)
SPECIALS = sorted(LAY.special, key=lambda c: int(c[1:]))
FILLER = ["b1", "b3", "b7", "b9"]  # Orbit cards, so Skip has something to add up


def rich(card: str):
    """A position where nearly every action can be carried out by seat 0."""
    s = blank_state(2, seat=0)
    setup(
        s,
        shards={"c0": "ky", "c5": "r", "c6": "k", "b7": "y"},
        ships={"c0": 0, "c5": 0, "c6": 1, "a4": 1},
        bays={0: ["kry", "rk", ""], 1: ["y", "", ""]},
    )
    give_hand(s, 0, [card, *FILLER])
    return ok(s)


def finish(s, limit: int = 40):
    """Make the first legal choice until the action in progress is over."""
    while s.pending is not None or s.spawn_shard:
        limit -= 1
        assert limit > 0, "an action that never ends"
        s = play(s, s.legal_moves()[0])
    return s


def _cases():
    out = []
    for cid in SPECIALS:
        card = LAY.special[cid]
        for mode, key in (("u", "action"), ("r", "alternate")):
            if card[key] is not None:
                out.append(pytest.param(cid, mode, id=f"{cid}{mode}-{card['name']}-{key}"))
    return out


@pytest.mark.parametrize(("cid", "mode"), _cases())
def test_r25_r26_r27_every_special_acts_upright_and_rotated_and_is_a_link(cid, mode):
    """R25, R26, R27: each Special, played for its upright or its rotated alternate action
    (a matching Shard is in a bay), is offered, carries out its action to the end, and
    counts as a chain link."""
    s = rich(cid)
    s = play(s, "b9r", "@c5")  # Orbit 2 first: a basic action, so a link is now needed
    s = play(s, s.legal_moves()[0])
    s = finish(s)
    assert s.need_link
    move = cid + mode
    assert move in s.legal_moves(), f"{move} not offered: {s.legal_moves()}"
    before = s.to_dict()
    s = finish(play(s, move))
    assert (cid, mode) in s.players[0].played
    assert s.to_dict() != before
    name = LAY.special[cid]["action" if mode == "u" else "alternate"].name
    if name != "skip":
        assert not s.need_link, "a Special is a chain link: a basic action may follow"


def test_r25_special_is_always_a_chain_link_even_without_its_colour():
    """R25: with no Shard of its colour, a Special can still be played as a link."""
    s = blank_state(2, seat=0)
    setup(s, ships={"c5": 0, "d5": 0})
    give_hand(s, 0, ["s1", "b3", "b4", "b5", "b1"])
    assert "s1l" in s.legal_moves() and "s1u" not in s.legal_moves()
    s = play(s, "b3u", "@c5", ">c7")
    assert "b4u" not in s.legal_moves()
    s = play(s, "s1l")
    assert "b4u" in s.legal_moves()


def test_r70_special_action_needs_a_matching_shard_in_any_bay():
    """R70, R26: the action (upright or rotated) is offered only with a Shard of the card's
    colour in one of your Cargo Bays; another seat's bays do not count."""
    s = blank_state(2, seat=0)
    setup(s, ships={"c5": 0}, bays={0: ["", "", "rk"], 1: ["y", "", ""]})
    give_hand(s, 0, ["s21", "s9", "b1", "b2", "b3"])  # yellow Orbit 1-3, red Push
    legal = s.legal_moves()
    assert "s21u" not in legal and "s21r" not in legal and "s21l" in legal
    setup(s, bays={0: ["", "y", "rk"]})
    assert "s21u" in s.legal_moves()


def test_r26_five_actions_in_a_turn_with_specials():
    """R26: with Specials as links that also act, five cards give five actions."""
    s = blank_state(2, seat=0)
    setup(s, ships={"c5": 0, "d5": 0}, bays={0: ["y", "", ""]})
    give_hand(s, 0, ["b3", "s21", "b4", "s22", "b7"])
    s = play(s, "b3u", "@c5", ">c7")
    s = play(s, "s21u", "@c7", ">c8")
    s = play(s, "b4u", "@d5", ">d7")
    s = play(s, "s22u", "@d7", ">d8")
    s = play(s, "b7u", "@c8", ">c0")
    assert [m for _, m in s.players[0].played] == ["u"] * 5


def test_r60_disrupt_advances_the_track():
    """R60: Disrupt moves the Expansion Track token one space, with its event."""
    s = rich("s1")
    s = play(s, "s1u")
    assert s.track_pos == 1


def test_r60_r49_disrupt_onto_supernova_ends_the_game():
    """R60, R49: a Disrupt that reaches Super-Nova ends the game at once."""
    s = rich("s1")
    s.track_pos = len(s.layout.track) - 2
    s = play(s, "s1u")
    assert s.is_over() and s.end_reason == "supernova" and s.legal_moves() == []


def test_r61_reorder_the_top_shard_of_each_bay():
    """R61: rearrange the top Shards of the bays among them."""
    s = blank_state(2, seat=0)
    setup(s, bays={0: ["kr", "y", "rk"]})
    give_hand(s, 0, ["s3", "b1", "b2", "b3", "b4"])
    s = play(s, "s3u")
    assert sorted(s.legal_moves()) == ["R0", "R2", "Rt"]
    s = play(s, "Rt", "ck", "cr", "cy")
    assert s.players[0].bays == ["kk", "r", "ry"]


def test_r61_reorder_one_whole_bay():
    """R61: or reorder one whole bay (the new order chosen bottom first)."""
    s = blank_state(2, seat=0)
    setup(s, bays={0: ["kry", "", ""]})
    give_hand(s, 0, ["s3", "b1", "b2", "b3", "b4"])
    s = play(s, "s3u", "R0", "cy", "ck", "cr")
    assert s.players[0].bays == ["ykr", "", ""]


def test_r61_reorder_not_offered_when_nothing_can_change():
    """R61: with one Shard in the bays there is nothing to re-order."""
    s = blank_state(2, seat=0)
    setup(s, bays={0: ["k", "", ""]})
    give_hand(s, 0, ["s3", "b1", "b2", "b3", "b4"])
    assert "s3u" not in s.legal_moves() and "s3l" in s.legal_moves()


def test_r62_phase_shift_hops_to_the_four_adjacent_spaces_on_the_next_rings():
    """R62: one of the four overlapping spaces on the rings inside and outside; never onto a
    ship; Shards there join the stack."""
    s = blank_state(2, seat=0)
    setup(s, shards={"a4": "k"}, ships={"b3": 0, "c4": 1}, bays={0: ["y", "", ""]})
    assert [s.layout.space_names[t] for t in s.layout.phase_adjacent[sp(s, "b3")]] == [
        "a3",
        "a4",
        "c3",
        "c4",
    ]
    give_hand(s, 0, ["s17", "b1", "b2", "b3", "b4"])
    s = play(s, "s17u", "@b3")
    assert sorted(m for m in s.legal_moves()) == [">a3", ">a4", ">c3"]
    s = play(s, ">a4")
    assert s.ship[sp(s, "a4")] == 0 and s.pile[sp(s, "a4")] == "k"


def test_r62_r48_phase_shift_not_under_an_expansion_ring():
    """R62, R48: spaces under an Expansion Ring are out of play."""
    s = blank_state(2, seat=0)
    s.removed = 1
    setup(s, ships={"b3": 0}, bays={0: ["y", "", ""]})
    give_hand(s, 0, ["s17", "b1", "b2", "b3", "b4"])
    s = play(s, "s17u", "@b3")
    assert sorted(s.legal_moves()) == [">c3", ">c4"]


def test_r63_hyper_jump_from_any_orbit_space_to_any_open_gate():
    """R63: from a space that is not a gate, to any gate with no ship and no Shard."""
    s = blank_state(2, seat=0)
    setup(s, shards={"b0": "k"}, ships={"c2": 0, "a4": 1}, bays={0: ["y", "", ""]})
    give_hand(s, 0, ["s19", "b1", "b2", "b3", "b4"])
    s = play(s, "s19u", "@c2")
    open_gates = "a0 c0 d0 b4 c4 d4 a8 b8 c8 d8".split()  # a4 has a ship, b0 a Shard
    assert sorted(m[1:] for m in s.legal_moves()) == sorted(open_gates)
    s = play(s, ">d8")
    assert s.ship[sp(s, "d8")] == 0


def test_r64_sabotage_orbits_an_opponents_stack_1_to_3_spaces():
    """R64: take control of an opponent's ship or stack and orbit it 1-3 spaces (not onto a
    ship; it picks up the Shards where it lands)."""
    s = blank_state(2, seat=0)
    setup(
        s,
        shards={"c6": "r", "c9": "y"},
        ships={"c6": 1, "c4": 0},
        bays={0: ["k", "", ""]},
    )
    give_hand(s, 0, ["s5", "b1", "b2", "b3", "b4"])
    s = play(s, "s5u")
    assert s.legal_moves() == ["!c6"], "only an opponent's ship can be sabotaged"
    s = play(s, "!c6")
    assert sorted(s.legal_moves()) == sorted([">c3", ">c5", ">c7", ">c8", ">c9"])
    s = play(s, ">c9")
    assert s.ship[sp(s, "c9")] == 1 and s.pile[sp(s, "c9")] == "yr"
    assert s.ship[sp(s, "c6")] == -1


@pytest.mark.parametrize(
    ("cid", "expected"),
    [
        ("s21", ["c3", "c4", "c5", "c7", "c8", "c9"]),  # Orbit 1-3
        ("s23", ["c1", "c11", "c2", "c3", "c4", "c8", "c9", "c10"]),  # Orbit 2-5
        ("s24", ["c0", "c1", "c10", "c11", "c2"]),  # Orbit 4-6
    ],
)
def test_r65_orbit_any_number_of_spaces_listed(cid, expected):
    """R65: Orbit 1-3, 2-5, 4-6 reach every listed distance, either way."""
    s = blank_state(2, seat=0)
    setup(s, ships={"c6": 0}, bays={0: ["y", "", ""]})
    give_hand(s, 0, [cid, "b1", "b2", "b3", "b4"])
    s = play(s, cid + "u", "@c6")
    assert sorted(m[1:] for m in s.legal_moves()) == sorted(expected)


def test_r66_skip_plays_orbit_cards_without_links_and_moves_the_sum():
    """R66: after Skip, Orbit cards go down with no links between them; one ship then orbits
    the sum of their distances."""
    s = blank_state(2, seat=0)
    setup(s, ships={"c0": 0}, bays={0: ["k", "", ""]})
    give_hand(s, 0, ["s7", "b1", "b3", "b8", "b10"])
    s = play(s, "s7u")
    assert sorted(s.legal_moves()) == ["b10r", "b1u", "b3u"], "no Done before an Orbit card"
    s = play(s, "b1u", "b3u", "b10r", "done", "@c0")
    assert sorted(s.legal_moves()) == [">c4", ">c8"], "1 + 2 + 1 = 4 spaces"
    s = play(s, ">c4")
    assert s.ship[sp(s, "c4")] == 0
    assert s.need_link, "the summed orbit counts as a basic action (skip_counts_as_basic_action)"


def test_r67_push_pushes_an_adjacent_opponent_by_stack_height_attacker_stays():
    """R67: push an adjacent opponent x spaces away, x = your stack height; nothing is left
    behind and the pusher does not move."""
    s = blank_state(2, seat=0)
    setup(
        s,
        shards={"c5": "rk", "c6": "yk"},
        ships={"c5": 0, "c6": 1},
        bays={0: ["r", "", ""]},
    )
    give_hand(s, 0, ["s9", "b1", "b2", "b3", "b4"])
    s = play(s, "s9u", "@c5", "!c6")
    assert s.ship[sp(s, "c9")] == 1 and s.pile[sp(s, "c9")] == "yk"
    assert s.ship[sp(s, "c5")] == 0 and s.pile[sp(s, "c5")] == "rk"
    assert s.pile[sp(s, "c6")] == ""


def test_r68_hijack_1_3_hijacks_then_orbits_1_to_3():
    """R68: a Hijack (R39-R41), then the attacker orbits 1-3 spaces."""
    s = blank_state(2, seat=0)
    setup(s, shards={"c6": "yk"}, ships={"c5": 0, "c6": 1}, bays={0: ["r", "", ""]})
    give_hand(s, 0, ["s11", "b1", "b2", "b3", "b4"])
    s = play(s, "s11u", "@c5", "!c6")
    assert s.ship[sp(s, "c7")] == 1 and s.pile[sp(s, "c6")] == "y"
    assert s.pending is not None and s.pending.kind == "orbit"
    assert sorted(m[1:] for m in s.legal_moves()) == sorted(["c3", "c4", "c5", "c8", "c9"])
    s = play(s, ">c9", "x0")
    assert s.ship[sp(s, "c9")] == 0 and s.pile[sp(s, "c9")] == "y"


def test_r69_jump_push_onto_an_occupied_gate_pushes_the_occupant_either_way():
    """R69: jump between gates; an opponent on the gate is pushed x spaces (x = your stack
    height) in the direction you choose."""
    s = blank_state(2, seat=0)
    setup(s, shards={"c0": "k"}, ships={"c0": 0, "a4": 1}, bays={0: ["r", "", ""]})
    give_hand(s, 0, ["s14", "b1", "b2", "b3", "b4"])
    s = play(s, "s14u", "@c0")
    assert ">a4" in s.legal_moves()
    s = play(s, ">a4")
    assert sorted(s.legal_moves()) == ["d+", "d-"]
    s = play(s, "d-", "x0")
    assert s.ship[sp(s, "a2")] == 1, "height 2: two spaces anticlockwise"
    assert s.ship[sp(s, "a4")] == 0 and s.pile[sp(s, "a4")] == "k"


def test_r69_r30_jump_push_may_push_the_occupant_onto_the_space_the_jumper_left():
    """R69, R30: the jumper leaves its gate before the push, so a push that ends there lands
    on that (now open) space; both ships stay in play, nothing lands on a ship. Found by
    the property tests (seed 2572934): the jumper used to vanish."""
    for leave, left_behind in (("x0", ""), ("x1", "k")):
        s = blank_state(2, seat=0)
        setup(s, shards={"d0": "kyy"}, ships={"d0": 0, "d4": 1}, bays={0: ["r", "", ""]})
        give_hand(s, 0, ["s14", "b1", "b2", "b3", "b4"])
        s = play(s, "s14u", "@d0", ">d4", "d-", leave)
        carried = "kyy"[len(left_behind) :]
        # height 1 + len(carried) anticlockwise from d4: d0 when nothing is left behind
        to = sp(s, "d0") if leave == "x0" else sp(s, "d1")
        assert s.ship[sp(s, "d4")] == 0 and s.pile[sp(s, "d4")] == carried
        assert s.ship[to] == 1
        assert s.pile[sp(s, "d0")] == left_behind
        assert sorted(o for o in s.ship if o != -1) == [0, 1]
        assert problems(s) == []


def test_r69_r40_jump_push_passes_loose_shards_to_the_first_open_space():
    """R69, R40: the occupant is pushed on to the first open space, as Hijack's and Push's
    push: no ship and (``push_needs_open_space``, default true) no Shard, so it passes
    loose Shards and never picks them up."""
    s = blank_state(2, seat=0)
    # the push of height 1 from a4 anticlockwise would end on a3: Shards on a3 and a2
    setup(s, shards={"a3": "r", "a2": "y"}, ships={"c0": 0, "a4": 1}, bays={0: ["r", "", ""]})
    give_hand(s, 0, ["s14", "b1", "b2", "b3", "b4"])
    s = play(s, "s14u", "@c0", ">a4", "d-")
    assert s.ship[sp(s, "a4")] == 0
    assert s.ship[sp(s, "a1")] == 1 and s.pile[sp(s, "a1")] == ""
    assert s.pile[sp(s, "a3")] == "r" and s.pile[sp(s, "a2")] == "y"
    assert problems(s) == []


def test_r69_jump_push_to_a_free_gate_is_a_jump():
    """R69: with nobody on the gate, Jump-Push is a plain jump between gates."""
    s = blank_state(2, seat=0)
    setup(s, ships={"c0": 0}, bays={0: ["r", "", ""]})
    give_hand(s, 0, ["s14", "b1", "b2", "b3", "b4"])
    s = play(s, "s14u", "@c0", ">d8")
    assert s.ship[sp(s, "d8")] == 0 and s.pending is None
