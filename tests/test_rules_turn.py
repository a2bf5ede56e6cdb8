"""The turn (R10-R17, R22-R24), the Expansion Track (R45-R49) and the end of the game."""

from __future__ import annotations

import pytest
from helpers_rules import (
    CONTENT_1_BOARD,
    blank_state,
    give_hand,
    ok,
    play,
    rebalance,
    setup,
    sp,
    to_move,
)

from nova.rules import IllegalMove, new_game
from nova.rules.track import expand


# -- the turn ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_r10_every_seat_starts_with_five_cards_and_may_play_none(players):
    """R10: five cards in hand; ending the turn at once (playing none) is legal."""
    s = new_game(players=players, seed=3)
    # R9: with two players the second opens with one more basic card; with three the third,
    # and with four the third and fourth, open with a Special card too
    extra, specials = s.layout.opening_extra, s.layout.opening_specials
    assert [len(s.players[(s.first + k) % players].hand) for k in range(players)] == [
        5 + x + sp for x, sp in zip(extra, specials, strict=True)
    ]
    assert "E" in s.legal_moves()
    s2 = s.apply("E")
    assert s2.players[s.turn].hand == s.players[s.turn].hand


def test_r22_upright_is_the_top_action_rotated_the_bottom():
    """R22: b7 is Orbit 4 upright and Upgrade rotated."""
    s = blank_state(2, seat=0)
    setup(s, ships={"c0": 0})
    give_hand(s, 0, ["b7", "b1", "b2", "b3", "b4"])
    assert s.apply("b7u").pending.kind == "orbit"
    assert s.apply("b7u").pending.dists == (4,)
    assert s.apply("b7r").pending.kind == "upgrade"


def test_r24_two_actions_need_a_chain_link_between_them():
    """R12, R24: after a basic action, another needs a link first; the refusal says why."""
    s = blank_state(2, seat=0)
    setup(s, ships={"c0": 0, "d0": 0})
    give_hand(s, 0, ["b1", "b2", "b3", "b4", "b5"])
    s = play(s, "b1u", "@c0", ">c1")
    assert not any(m.endswith(("u", "r")) for m in s.legal_moves() if m[0] == "b")
    with pytest.raises(IllegalMove, match="chain link"):
        s.apply("b2u")
    s = play(s, "b2s")
    assert "b3u" in s.legal_moves()


def test_r24_several_links_may_stand_next_to_each_other():
    """R24: links may follow links with no action between them."""
    s = blank_state(2, seat=0)
    setup(s, ships={"c0": 0})
    give_hand(s, 0, ["b1", "b2", "b3", "b4", "b5"])
    s = play(s, "b1s", "b2s", "b3s", "b4u", "@c0", ">c2")
    assert [m for _, m in s.players[0].played] == ["s", "s", "s", "u"]


def test_r23_basic_cards_alone_give_at_most_three_actions():
    """R23: five basic cards: action, link, action, link, action is the most; any order with
    more actions is refused."""
    s = blank_state(2, seat=0)
    setup(s, ships={"c0": 0, "d0": 0, "b6": 0})
    give_hand(s, 0, ["b1", "b2", "b3", "b4", "b5"])
    s = play(s, "b1u", "@c0", ">c1", "b2s", "b3u", "@d0", ">d2", "b4s", "b5u", "@b6", ">b9")
    assert sum(1 for _, m in s.players[0].played if m in "ur") == 3
    s = blank_state(2, seat=0)
    setup(s, ships={"c0": 0, "d0": 0, "b6": 0})
    give_hand(s, 0, ["b1", "b2", "b3", "b4", "b5"])
    s = play(s, "b1u", "@c0", ">c1", "b2s", "b3u", "@d0", ">d2")
    assert all(not m.endswith(("u", "r")) for m in s.legal_moves() if m[0] == "b")


def test_r14_r15_end_of_turn_discards_the_row_and_draws_to_five():
    """R14, R15: the played cards go to the discard pile (visible to all); draw to five."""
    s = blank_state(2, seat=0)
    setup(s, ships={"c0": 0})
    give_hand(s, 0, ["b1", "b2", "b3", "b4", "b5"])
    draw = list(s.players[0].draw)
    s = play(s, "b1s", "b2u", "@c0", ">c1", "E")
    p = s.players[0]
    assert sorted(p.discard) == ["b1", "b2"] and p.played == []
    assert len(p.hand) == 5 and sorted(p.hand[3:]) == sorted(draw[-2:])
    assert s.view(1).seats[0].discard == tuple(p.discard)


def test_r16_empty_draw_pile_reshuffles_the_discard():
    """R16: when the draw pile runs out, the discard pile is shuffled into a new one."""
    s = blank_state(2, seat=0)
    p = s.players[0]
    p.hand = ["b1", "b2", "b3", "b4", "b5"]
    p.draw = ["b6"]
    p.discard = ["b7", "b8", "b9", "b10", "b11"]
    s = ok(to_move(s, 0))
    s = play(s, "b1s", "b2s", "b3s", "E")
    q = s.players[0]
    assert len(q.hand) == 5 and q.hand[:3] == ["b4", "b5", "b6"]
    assert q.discard == [] and len(q.draw) == 6, "the discard (with the row) became the draw"
    assert sorted(q.hand + q.draw) == sorted(s.layout.basic)


def test_r15_upgrade_keeps_the_hand_and_a_hand_over_five_is_kept():
    """R15, R42: the Upgraded card stays in hand; a hand of more than five is not cut down
    at the end of the turn (and nothing is drawn)."""
    s = blank_state(2, seat=0)
    # a Shard in play: an empty board could never move the track again, and the game
    # would end at the Upgrade (R49, checked after an Upgrade since content 3)
    s.pile[sp(s, "c4")] = "k"
    rebalance(s)
    give_hand(s, 0, ["b6", "b1", "b2", "b3", "b4"])
    card = s.face_up[0]
    s = play(s, "b6r", "U1")
    assert card in s.players[0].hand and len(s.players[0].hand) == 5
    s = play(s, "E")
    assert card in s.players[0].hand and len(s.players[0].hand) == 5
    s = blank_state(2, seat=0)
    give_hand(s, 0, ["b1", "b2", "b3", "b4", "b5", "s1"])
    draw = len(s.players[0].draw)
    s = play(ok(s), "E")
    assert len(s.players[0].hand) == 6 and len(s.players[0].draw) == draw


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r17_play_passes_to_the_next_seat(players):
    """R17: seats take turns in order, wrapping round."""
    s = new_game(players=players, seed=11)
    first = s.turn
    order = []
    for _ in range(players + 1):
        order.append(s.turn)
        s = s.apply("E")
    assert order == [(first + k) % players for k in range(players + 1)]
    assert s.round == 1


def test_r17_first_player_comes_from_the_seed():
    """R17 (open: first player): drawn from the seed, the same every time; or given."""
    firsts = {new_game(players=4, seed=k).turn for k in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert new_game(players=3, seed=9).turn == new_game(players=3, seed=9).turn
    assert new_game(players=3, seed=9, first_player=2).turn == 2


# -- the Expansion Track ---------------------------------------------------------------------
def unload_position(players: int = 2, seat: int = 0, track_pos: int = 0, pile: str = "k"):
    s = blank_state(players, seat=seat, variant=CONTENT_1_BOARD)
    gate = s.layout.space_names[s.layout.seat_gates[seat][2]]
    setup(s, shards={gate: pile}, ships={gate: seat})
    give_hand(s, seat, ["b10", "b1", "b2", "b4", "b5"])
    s.track_pos = track_pos
    return ok(s), gate


def test_r45_each_unload_advances_the_track_once():
    """R45: the token moves one space per Unload, however many Shards it carries."""
    s, gate = unload_position(pile="kry")
    s = play(s, "b10u", "@" + gate, "B0", "B0")
    assert s.track_pos == 0, "the track moves when the Unload is complete"
    s = play(s, "B0")
    assert s.track_pos == 1


def test_r46_blank_space_has_no_effect():
    """R46: reaching a blank space changes nothing but the token."""
    s, gate = unload_position()
    assert s.layout.track[1] == "blank"
    board = (list(s.pile), list(s.bag), s.removed)
    s = play(s, "b10u", "@" + gate, "B0")
    assert (s.pile[: sp(s, "c0")], s.bag, s.removed) == (board[0][: sp(s, "c0")], board[1], 0)
    assert s.pending is None and not s.spawn_shard and s.current_player == 0


def test_r47_spawn_energy_in_turn_order_from_the_trigger():
    """R47: each player draws a Shard and puts it on an Asteroid of their choice, in turn
    order starting with the player who triggered it; it goes under what is there."""
    s, gate = unload_position(players=3, seat=1, track_pos=1)
    setup(s, shards={"d2": "r"})
    assert s.layout.track[2] == "spawn"
    bag = sum(s.bag)
    s = play(s, "b10u", "@" + gate, "B0")
    assert s.track_pos == 2
    seen = []
    for target in ("d2", "a6", "d2"):
        assert s.spawn_shard in "kry" and s.spawn_shard
        seen.append(s.current_player)
        assert sorted(m[1:] for m in s.legal_moves()) == sorted(
            s.layout.space_names[a] for a in s.layout.asteroids
        )
        shard = s.spawn_shard
        before = s.pile[sp(s, target)]
        s = play(s, "*" + target)
        assert s.pile[sp(s, target)] == shard + before
    assert seen == [1, 2, 0]
    assert sum(s.bag) == bag - 3
    assert s.current_player == 1 and s.turn == 1 and not s.spawn_shard


def test_r47_by_links_the_trigger_places_every_shard():
    """R47 by links (setting spawn_placed_by = trigger, docs/RULES.md): the player who
    triggered the Spawn Energy places every player's Shard, in turn order from themselves,
    so the turn needs no link to another seat."""
    variant = dict(CONTENT_1_BOARD, settings={"spawn_placed_by": "trigger"})
    s = blank_state(3, seat=1, variant=variant)
    gate = s.layout.space_names[s.layout.seat_gates[1][2]]
    setup(s, shards={gate: "k"}, ships={gate: 1})
    give_hand(s, 1, ["b10", "b1", "b2", "b4", "b5"])
    s.track_pos = 1
    s = play(ok(s), "b10u", "@" + gate, "B0")
    assert s.layout.track[s.track_pos] == "spawn"
    bag = sum(s.bag)
    for target in ("d2", "a6", "d2"):
        assert s.spawn_shard and s.current_player == 1
        s = play(s, "*" + target)
    assert sum(s.bag) == bag - 2 and not s.spawn_shard and s.current_player == 1


def test_r48_star_expansion_consumes_the_innermost_ring():
    """R48: the innermost remaining ring, its ships and its Shards leave the game."""
    s, gate = unload_position(track_pos=3)
    setup(s, shards={"a3": "ky", "a8": "r", "b3": "y"}, ships={"a3": 1, "a5": 0})
    assert s.layout.track[4] == "expansion"
    s = play(s, "b10u", "@" + gate, "B0")
    assert s.removed == 1
    ring_a = [i for i, r in enumerate(s.layout.space_ring) if r == 0]
    assert all(s.pile[i] == "" and s.ship[i] == -1 for i in ring_a)
    assert s.pile[sp(s, "b3")] == "y"
    assert s.consumed == [1, 1, 1]
    assert s.players[1].ships_lost == 1 and s.players[0].ships_lost == 1
    assert not any(m[1:].startswith("a") for m in s.legal_moves() if m[0] == "L")


def test_r48_three_expansions_cover_three_rings_and_the_outer_ring_stays():
    """R48: three Expansion Rings; each covers the next ring in; the outermost never goes."""
    for players in (2, 4):
        track = new_game(players=players).layout.track
        assert track.count("expansion") == 3
    s = blank_state(2, seat=0)
    setup(s, ships={"d1": 0})
    for k in range(3):
        expand(s)
        assert s.removed == k + 1
    expand(s)
    assert s.removed == 3 and s.ship[sp(s, "d1")] == 0 and not s.is_over()


def test_r49_supernova_ends_the_game_at_once_mid_turn():
    """R49, R1: reaching Super-Nova ends the game immediately, even mid-turn; nothing more
    is legal and the score stands."""
    s, gate = unload_position()
    s.track_pos = len(s.layout.track) - 2
    s = play(s, "b10u", "@" + gate, "B1")
    assert s.is_over() and s.end_reason == "supernova"
    assert s.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        s.apply("E")
    assert s.scores()[0] == 1 and s.winners() == [0]
    assert s.returns() == [1.0, 0.0]


def test_r49_game_ends_when_no_ship_is_left_anywhere():
    """R49 (setting end_when_no_ships, rules content 1): an Expansion that leaves no ship in
    play or in any Dock ends the game."""
    s, gate = unload_position(track_pos=3)
    setup(s, ships={"a1": 0, "a2": 0, "a5": 1, "a6": 1, "a7": 1})
    # seat 0: the unloading ship goes to the Dock, so it still has a ship: not the end
    s = play(s, "b10u", "@" + gate, "B0")
    assert not s.is_over()
    t = blank_state(2, seat=0, variant={"settings": {"end_when_no_ships": True}})
    setup(t, ships={"a1": 0, "a2": 0, "a3": 0, "a5": 1, "a6": 1, "a7": 1})
    expand(t)
    assert t.is_over() and t.end_reason == "no ships left"


def test_r49_round_limit_ends_a_stalled_game():
    """R49 (setting max_rounds): a game where nobody Unloads still ends."""
    s = new_game(players=2, seed=1, variant={"settings": {"max_rounds": 3}})
    while not s.is_over():
        s = s.apply("E")
    assert s.round == 3 and s.end_reason == "round limit"


def test_r47_spawn_skips_asteroids_under_an_expansion_ring_and_stops_when_the_bag_is_empty():
    """R47, R48: covered Asteroids are not offered; with the bag empty no Shard spawns."""
    s, gate = unload_position(track_pos=1)
    s.removed = 1
    s = play(s, "b10u", "@" + gate, "B0")
    assert s.spawn_shard
    assert not any(m[1:].startswith("a") for m in s.legal_moves())
    t, gate = unload_position(track_pos=1)
    # every Shard not on the gate or on d3 goes into the bays: the bag is empty (the Shard
    # on d3 keeps the game going: R49's end when nothing can move the track)
    setup(t, shards={"d3": "k"}, bays={1: ["k" * 8, "r" * 10, "y" * 10]})
    assert sum(t.bag) == 0
    t = play(t, "b10u", "@" + gate, "B0")
    assert t.track_pos == 2 and not t.spawn_shard and t.current_player == 0
