"""Readings of rules content 2 where a careful reading found the first content wrong or
silent: Skip (R66), leaving Shards on a Hijack (R33, R41), neutral or closed gates of an
unused base (R9, R19), and the end of a game nothing can move on (R49).

Each reading is a setting (``nova/data/settings.json``, docs/RULES.md); content 1 is
``nova/data/variants/content-1.json``. Launch to open gates (R44) and pushes onto open
spaces (R40) are tested beside the other basic actions in ``test_rules_actions.py``.
"""

from __future__ import annotations

from helpers_rules import NO_SHIP, blank_state, give_hand, ok, play, setup, sp

from nova.rules.track import advance_track

TRACK = {"tracks": {"two_three": ["start", "blank", "blank", "blank", "supernova"]}}


def specials_state(hand, bays, ships, variant=None, players=2):
    s = blank_state(players, seat=0, variant=variant)
    setup(s, ships=ships, bays={0: bays})
    give_hand(s, 0, hand)
    return ok(s)


# -- Skip (R66) ----------------------------------------------------------------------------
def test_r66_skip_is_not_offered_when_no_ship_could_orbit_the_sum():
    """R66: Skip spends cards to move a ship; with no ship that could orbit any sum of the
    Orbit cards in hand it leads nowhere, and the engine offers no such choice."""
    hand = ["s7", "b1", "b10", "b8", "b6"]  # b1u, b10r: Orbit 1 each; b6 top Orbit 3 too
    s = specials_state(hand, ["k", "", ""], {})  # every ship in the Dock
    assert "s7u" not in s.legal_moves() and "s7l" in s.legal_moves()
    old = specials_state(hand, ["k", "", ""], {}, {"settings": {"skip_must_move": False}})
    assert "s7u" in old.legal_moves(), "content 1 offered it"


def test_r66_skip_offers_only_cards_and_done_that_can_still_end_in_a_move():
    """R66: the ship on c0 (a ring of 12) is boxed in one and two spaces away either side,
    so totals of 1, 2, 10 and 11 cannot move it. Done at 1 is not offered, and with
    Orbit 4 + Orbit 3 down, the second Orbit 3 (to 10, or 11 with the Orbit 1) is not."""
    boxed = {"c0": 0, "c1": 1, "c11": 1, "c2": 2, "c10": 2}
    hand = ["s7", "b7", "b5", "b6", "b1"]  # Orbit 4, 3, 3, 1 upright
    s = specials_state(hand, ["k", "", ""], boxed, players=3)
    s = play(s, "s7u")
    assert sorted(s.legal_moves()) == ["b1u", "b5u", "b6u", "b7u"], "no Done at 0"
    assert "done" not in play(s, "b1u").legal_moves(), "1 space is boxed in"
    s = play(s, "b7u", "b5u")
    assert sorted(s.legal_moves()) == ["b1u", "done"]
    s = play(s, "done", "@c0")
    assert sorted(s.legal_moves()) == [">c5", ">c7"]


def test_r66_skip_takes_the_orbit_actions_of_special_cards_a_range_counting_any_distance():
    """R66 "play any number of Orbit cards": a Special's Orbit action counts (it needs a
    Shard of its colour, R70); a range (Orbit 1-3) adds any one of its distances and the
    player picks the total when the ship moves."""
    s = specials_state(["s7", "s21", "b1", "b8", "b11"], ["k", "y", ""], {"c0": 0})
    s = play(s, "s7u")
    assert "s21u" in s.legal_moves()
    s = play(s, "s21u", "b1u")
    assert s.pending.totals == (2, 3, 4)
    s = play(s, "done", "@c0")
    assert sorted(s.legal_moves()) == [">c10", ">c2", ">c3", ">c4", ">c8", ">c9"]
    s = play(s, ">c9")
    assert s.ship[sp(s, "c9")] == 0 and s.need_link
    no_yellow = specials_state(["s7", "s21", "b1", "b8", "b11"], ["k", "", ""], {"c0": 0})
    assert "s21u" not in play(no_yellow, "s7u").legal_moves(), "R70: no yellow Shard"
    basic_only = specials_state(
        ["s7", "s21", "b1", "b8", "b11"],
        ["k", "y", ""],
        {"c0": 0},
        {"settings": {"skip_takes_special_orbits": False}},
    )
    assert "s21u" not in play(basic_only, "s7u").legal_moves()


# -- leaving Shards on a Hijack (R33 with R41) ---------------------------------------------
def test_r33_r41_hijacker_may_leave_shards_on_the_space_it_leaves():
    """R33 "you may leave any number of Shards behind when you move": the Hijack's orbit
    onto the target's space is a move; the push still goes the full stack height."""
    s = specials_state(["b2", "b1", "b3", "b4", "b5"], ["", "", ""], {"c2": 0, "c3": 1})
    setup(s, shards={"c2": "ry", "c3": "k"})
    s = play(s, "b2r", "@c2", "!c3")
    assert sorted(s.legal_moves()) == ["x0", "x1", "x2"]
    s = play(s, "x1")
    assert s.ship[sp(s, "c6")] == 1, "pushed three spaces: the height before leaving"
    assert s.pile[sp(s, "c2")] == "r" and s.ship[sp(s, "c2")] == NO_SHIP
    assert s.ship[sp(s, "c3")] == 0 and s.pile[sp(s, "c3")] == "ky"
    old = specials_state(
        ["b2", "b1", "b3", "b4", "b5"],
        ["", "", ""],
        {"c2": 0, "c3": 1},
        {"settings": {"hijack_leave_behind": False}},
    )
    setup(old, shards={"c2": "ry"})
    assert play(old, "b2r", "@c2", "!c3").pending is None, "content 1: no choice"


def test_r33_r68_the_orbit_after_hijack_1_3_may_leave_shards_behind():
    """R33, R68: after Hijack 1-3 the attacker orbits 1-3 spaces, and may leave Shards on
    the space it orbits away from (here the target's bottom Shard it just took)."""
    s = specials_state(["s11", "b1", "b2", "b3", "b4"], ["r", "", ""], {"c2": 0, "c3": 1})
    setup(s, shards={"c3": "yk"})
    s = play(s, "s11u", "@c2", "!c3", ">c5")
    assert sorted(s.legal_moves()) == ["x0", "x1"]
    s = play(s, "x1")
    assert s.pile[sp(s, "c3")] == "y" and s.ship[sp(s, "c5")] == 0 and s.pile[sp(s, "c5")] == ""


# -- gates of an unused base (R9, R19) -----------------------------------------------------
def test_r9_unused_base_gates_neutral_or_closed():
    """R9, R19: with two players on the 2/3 side the third base's gates are neutral (anyone
    may Jump to and from them) or, setting unused_base_gates = closed, plain spaces."""
    s = specials_state(["b8", "b1", "b2", "b3", "b4"], ["", "", ""], {"c0": 0})
    s = play(s, "b8u", "@c0")
    assert ">c8" in s.legal_moves()
    closed = specials_state(
        ["b8", "b1", "b2", "b3", "b4"],
        ["", "", ""],
        {"c0": 0},
        {"settings": {"unused_base_gates": "closed"}},
    )
    assert closed.layout.gate_owner[sp(closed, "c8")] == -2
    closed = play(closed, "b8u", "@c0")
    assert ">c8" not in closed.legal_moves() and ">c4" in closed.legal_moves()


# -- the end of a game that cannot move on (R49) -------------------------------------------
NO_SPAWN = {"tracks": {"two_three": ["start", "blank", "blank", "blank", "supernova"]}}
SPAWN_AHEAD = {"tracks": {"two_three": ["start", "blank", "spawn", "blank", "supernova"]}}


def last_unload(bays_1=("", "", ""), variant=NO_SPAWN, hand_1=(), disrupts_to_seat_0=False):
    """Seat 0 is about to unload the last Shard in play (yellow); seat 1 has ``bays_1``."""
    s = blank_state(2, seat=0, variant=variant)
    gate = s.layout.space_names[s.layout.seat_gates[0][2]]
    setup(s, shards={gate: "y"}, ships={gate: 0, "c6": 1}, bays={1: list(bays_1)})
    give_hand(s, 0, ["b10", "b1", "b2", "b4", "b5"])
    if hand_1:
        give_hand(s, 1, list(hand_1))
    if disrupts_to_seat_0:  # both Disrupts where seat 1 can never get them
        for cid in ("s1", "s2"):
            if cid in s.face_up:
                s.face_up[s.face_up.index(cid)] = s.academy.pop(0)
            if cid in s.academy:
                s.academy.remove(cid)
            s.players[0].discard.append(cid)
    return ok(s), gate


def test_r49_the_star_goes_super_nova_when_no_shard_can_enter_play_again():
    """R49 (our end, setting end_when_track_stuck): the last Shard in play is unloaded and
    no Spawn Energy space is left on the track, so no Shard can ever enter play and no
    Unload can ever happen: the star goes Super-Nova at once, and says why."""
    s, gate = last_unload()
    s = play(s, "b10u", "@" + gate)
    assert not s.is_over(), "the Shard is still to be placed"
    s = play(s, "B0")
    assert s.is_over() and s.end_reason == "stalled"
    assert s.layout.track[s.track_pos] == "supernova"
    old = blank_state(2, seat=0, variant={**NO_SPAWN, "settings": {"end_when_track_stuck": False}})
    gate = old.layout.space_names[old.layout.seat_gates[0][2]]
    setup(old, shards={gate: "y"}, ships={gate: 0, "c6": 1})
    give_hand(old, 0, ["b10", "b1", "b2", "b4", "b5"])
    assert not play(old, "b10u", "@" + gate, "B0").is_over(), "content 1 played on"


def test_r49_a_disrupt_that_can_reach_a_spawn_keeps_the_game_going():
    """R47, R49, R60, R70: no Shard in play, but a Spawn space ahead, Shards in the bag and
    a Disrupt that seat 1 can power with its black Shard (held, or Upgraded from the
    Academy): Shards can still enter play. Without the black Shard, with the Disrupts out of
    seat 1's reach, or with the bag empty, they cannot, and the game ends."""
    s, gate = last_unload(["k", "", ""], SPAWN_AHEAD)
    s = play(s, "b10u", "@" + gate, "B0")
    assert not s.is_over() and s.track_can_move()
    held, gate = last_unload(["k", "", ""], SPAWN_AHEAD, hand_1=["s1", "b1", "b2", "b3", "b4"])
    assert not play(held, "b10u", "@" + gate, "B0").is_over()
    for bays, far in ((["r", "", ""], False), (["k", "", ""], True)):
        ended, gate = last_unload(bays, SPAWN_AHEAD, disrupts_to_seat_0=far)
        ended = play(ended, "b10u", "@" + gate, "B0")
        assert ended.is_over() and ended.end_reason == "stalled", (bays, far)
    empty, gate = last_unload(["k", "", ""], SPAWN_AHEAD)
    empty.bag = [0, 0, 0]
    empty.consumed = [9, 10, 9]  # the books still balance: the rest left the game
    assert play(empty, "b10u", "@" + gate, "B0").is_over()


def stranding_upgrade(variant: dict) -> tuple:
    """No Shard in play, a Spawn ahead, the bag full. Seat 1 has a black Shard and could
    Upgrade the face-up Disrupt s1 and play it; seat 0 (no black, the other Disrupt already
    in its discard) is about to take s1 with an Upgrade (b7 turned: Upgrade)."""
    s = blank_state(2, seat=0, variant=variant)
    setup(s, ships={"c0": 0, "c6": 1}, bays={0: ["r", "", ""], 1: ["k", "", ""]})
    give_hand(s, 0, ["b7", "b1", "b2", "b4", "b5"])
    for cid in ("s1", "s2"):
        if cid in s.face_up:
            s.face_up[s.face_up.index(cid)] = s.academy.pop(0)
        if cid in s.academy:
            s.academy.remove(cid)
    s.academy.append(s.face_up[0])
    s.face_up[0] = "s1"
    s.players[0].discard.append("s2")
    return ok(s)


def test_r49_an_upgrade_that_takes_the_last_disrupt_out_of_reach_ends_the_game():
    """R42, R49, R70 (content 3): the Upgrade gives the last Disrupt anyone could power to a
    seat that cannot, so no Shard can ever enter play again and nothing can move the track:
    the star goes Super-Nova at once. Content 2 checked only when the track moved, and such
    games ran on to the round limit (2-player greedy games of the lab, seed 1: games 107
    and 141). A content-2 save still plays on as it did."""
    s = stranding_upgrade(SPAWN_AHEAD)
    assert s.track_can_move(), "seat 1 could still take s1 and Disrupt"
    s = play(s, "b7r", "U1")
    assert s.is_over() and s.end_reason == "stalled"
    assert s.layout.track[s.track_pos] == "supernova"
    old = stranding_upgrade({**SPAWN_AHEAD, "settings": {"end_check_on_upgrade": False}})
    old = play(old, "b7r", "U1")
    assert not old.is_over() and not old.track_can_move(), "content 2 played on"


def test_r49_no_ship_left_ends_the_game():
    """R48, R49: a Star Expansion that takes every ship (none in a Dock) leaves Shards that
    nobody can ever carry home: the game ends at once, by our end rule (content 1 had
    end_when_no_ships for this)."""
    variant = {"tracks": {"two_three": ["start", "expansion", "spawn", "supernova"]}}
    ships = {"a1": 0, "a2": 0, "a3": 0, "a5": 1, "a6": 1, "a7": 1}
    s = blank_state(2, seat=0, variant=variant)
    setup(s, shards={"d3": "r"}, ships=ships, bays={1: ["k"]})
    advance_track(s)
    assert s.removed == 1 and not any(p.dock for p in s.players)
    assert s.is_over() and s.end_reason == "stalled"
