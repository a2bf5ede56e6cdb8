"""The rulebook's own worked examples, played on the engine.

Seat 0 is "Red", seat 1 "Blue". On the two/three-player board Red's Jump-Gates are
a0 b0 c0 d0, Blue's a4 b4 c4 d4, and a8 b8 c8 d8 belong to the unused base (neutral).
"""

from __future__ import annotations

from helpers_rules import CONTENT_1_BOARD, blank_state, give_hand, ok, play, setup, sp

from nova.rules import content_variant, new_game
from nova.rules.scoring import score_bay, score_specials

RED, BLUE = 0, 1


def test_r28_r32_r34_orbit_example_red_onto_blue_gate_then_blue_passes_black_lands_yellow():
    """R28-R34, the Orbit example: the Red stack orbits TWO spaces onto the Blue Jump-Gate;
    Blue orbits THREE, passes over a Black Shard, lands on a Yellow one, which joins the
    bottom of its stack."""
    s = blank_state(2, seat=RED)
    setup(s, shards={"c2": "k", "d3": "r", "d5": "k", "d6": "y"}, ships={"c2": RED, "d3": BLUE})
    give_hand(s, RED, ["b3", "b1", "b2", "b4", "b6"])  # b3: Orbit Two
    s = play(s, "b3u", "@c2")
    assert ">c4" in s.legal_moves(), "two spaces clockwise is the Blue Jump-Gate"
    s = play(s, ">c4", "x0", "E")
    assert s.ship[sp(s, "c4")] == RED and s.pile[sp(s, "c4")] == "k"
    assert s.ship[sp(s, "c2")] == -1 and s.pile[sp(s, "c2")] == ""

    give_hand(s, BLUE, ["b5", "b1", "b2", "b4", "b6"])  # b5: Orbit Three
    s = play(s, "b5u", "@d3", ">d6", "x0")
    assert s.pile[sp(s, "d5")] == "k", "the Black Shard passed over stays (R34)"
    assert s.ship[sp(s, "d6")] == BLUE
    assert s.pile[sp(s, "d6")] == "yr", "the Yellow Shard is now the bottom of Blue's stack (R32)"


def test_r39_r41_hijack_example_three_high_stack():
    """R39-R41, the Hijack example: Red with a three-high stack (ship included) hijacks the
    adjacent Blue stack: Blue is pushed three spaces, its bottom (Yellow) Shard is left
    behind, and Red orbits onto it, claiming it."""
    s = blank_state(2, seat=RED)
    setup(s, shards={"c2": "kr", "c3": "yk"}, ships={"c2": RED, "c3": BLUE})
    give_hand(s, RED, ["b11", "b1", "b2", "b4", "b6"])  # b11: Hijack
    s = play(s, "b11u", "@c2")
    assert s.legal_moves() == ["!c3"]
    s = play(s, "!c3")
    assert s.legal_moves() == ["x0", "x1", "x2"], "Red may leave Shards behind (R33)"
    s = play(s, "x0")
    assert s.pending is None
    assert s.ship[sp(s, "c6")] == BLUE and s.pile[sp(s, "c6")] == "k", "pushed three spaces"
    assert s.ship[sp(s, "c3")] == RED
    assert s.pile[sp(s, "c3")] == "ykr", "Red sits on the Yellow Shard, now its bottom"
    assert s.ship[sp(s, "c2")] == -1 and s.pile[sp(s, "c2")] == ""


def test_r23_r24_card_play_example_jump_chain_unload_chain_orbit_four():
    """R23, R24: "Jump, Chain, Unload, Chain, Orbit Four": three actions from five basic
    cards, each pair of actions joined by a card played sideways."""
    s = blank_state(2, seat=RED, variant=CONTENT_1_BOARD)  # a blank first track space
    setup(s, shards={"c8": "ky"}, ships={"c8": RED, "d5": RED})
    give_hand(s, RED, ["b8", "b2", "b10", "b5", "b7"])
    s = play(s, "b8u", "@c8", ">c0", "x0")  # Jump from the neutral gate home
    assert "b10u" not in s.legal_moves(), "Unload straight after Jump needs a chain link (R24)"
    s = play(s, "b2s", "b10u", "@c0")  # Unload: the ship goes to the Dock first (R37)
    assert s.players[RED].dock == 2
    s = play(s, "B1", "B0")  # Yellow (top) first, then Black (R38)
    assert s.players[RED].bays == ["k", "y", ""]
    assert s.track_pos == 1, "the Unload advanced the Expansion Track (R45)"
    assert "b7u" not in s.legal_moves()
    s = play(s, "b5s", "b7u", "@d5", ">d9")
    assert s.ship[sp(s, "d9")] == RED
    assert s.players[RED].hand == []
    actions = [m for c, m in s.players[RED].played if m in "ur"]
    assert len(actions) == 3


def test_r25_r26_card_play_example_with_special_unload_then_orbit_two():
    """R25, R26, R70: "Orbit One, Chain, Jump, Special, Orbit Two": the Special is played as a
    chain link and, with a Yellow Shard in a Cargo Bay, also Unloads; Orbit Two follows it."""
    s = blank_state(2, seat=RED, variant=CONTENT_1_BOARD)  # a blank first track space
    setup(
        s,
        shards={"c7": "k"},
        ships={"c7": RED, "d5": RED},
        bays={RED: ["y", "", ""]},
    )
    give_hand(s, RED, ["b1", "b2", "b8", "s23", "b4"])  # s23: yellow Orbit 2-5 / Unload
    s = play(s, "b1u", "@c7", ">c8", "x0", "b2s", "b8u", "@c8", ">c0", "x0")
    legal = s.legal_moves()
    assert "b4u" not in legal
    assert {"s23l", "s23r"} <= set(legal), "the yellow Special may act: a Yellow Shard is in a bay"
    s = play(s, "s23r", "@c0", "B2")
    assert s.players[RED].bays == ["y", "", "k"]
    assert s.players[RED].dock == 2
    assert "b4u" in s.legal_moves(), "the Special was the chain link before Orbit Two"
    s = play(s, "b4u", "@d5", ">d7")
    actions = [c for c, m in s.players[RED].played if m in "ur"]
    assert actions == ["b1", "b8", "s23", "b4"]


def test_r70_card_play_example_without_a_yellow_shard_is_only_a_link():
    """R70: the same Special with no Yellow Shard in any bay is only a chain link."""
    s = blank_state(2, seat=RED)
    setup(s, shards={"c0": "k"}, ships={"c0": RED}, bays={RED: ["k", "r", ""]})
    give_hand(s, RED, ["b1", "b2", "b8", "s23", "b4"])
    legal = s.legal_moves()
    assert "s23l" in legal and "s23r" not in legal and "s23u" not in legal


def bays_state(bays: list[str]):
    s = blank_state(2, seat=RED)
    setup(s, bays={RED: bays})
    return ok(s)


def test_r54_shard_scoring_example_6_3_11_is_20():
    """R50-R54, the Shard Scoring Example: three bays score 6 + 3 + 11 = 20."""
    bays = ["krk", "kkk", "kryr"]
    assert [score_bay(b) for b in bays] == [6, 3, 11]
    s = bays_state(bays)
    breakdown = s.score_breakdown(RED)
    assert [b["points"] for b in breakdown["bays"]] == [6, 3, 11]
    assert breakdown["total"] == 20 == s.scores()[RED]


def test_r57_special_card_scoring_examples_6_and_3_1_1():
    """R55-R57: three matching symbols score 6; a pair and two singles 3 + 1 + 1 = 5."""
    assert score_specials(["k", "k", "k"]) == 6
    assert score_specials(["r", "r", "k", "y"]) == 5
    s = blank_state(2, seat=RED)
    give_hand(s, RED, ["s1", "s2", "s3", "b1", "b2"])  # three black Specials
    assert s.score_breakdown(RED)["total"] == 6
    s = blank_state(2, seat=RED)
    give_hand(s, RED, ["s9", "s10", "s1", "s17", "b2"])  # red pair, a black, a yellow
    assert ok(s).scores()[RED] == 5


def test_r1_new_game_starts_at_zero_points():
    """R1: nothing is collected yet at the start (Shards on Asteroids belong to nobody); the
    only points are our set-up's opening Special cards (R9: the third of three players holds
    one, a single Special scoring 1, R56)."""
    s = new_game(players=3, seed=5)
    assert [s.scores()[(s.first + k) % 3] for k in range(3)] == [0, 0, 1]
    assert new_game(players=3, seed=5, variant=content_variant(3)).scores() == [0, 0, 0]
