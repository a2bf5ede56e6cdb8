"""The content as data (R2-R9, R18-R21): what the default data holds, and that broken data or
variants are refused with a ContentError naming each bad field."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from nova.rules import ContentError, IllegalMove, layout_for, new_game
from nova.rules.content import SPECIAL_ACTIONS, action_label, parse_action

DATA = Path(__file__).resolve().parent.parent / "nova" / "data"


# -- the default content -------------------------------------------------------------------
def test_r2_board_is_double_sided_by_player_count():
    """R2: one side for two or three players, the other for four."""
    assert layout_for(2).board_name == layout_for(3).board_name != layout_for(4).board_name
    assert layout_for(4).ring_sizes != layout_for(2).ring_sizes


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r3_r9_set_up(players):
    """R3, R9: three ships in each Dock; five cards each; three face-up Academy cards; one
    Shard drawn onto each Asteroid. Our set-up's answers to the early seats' edge
    (docs/CALIBRATION.md): the second of two players opens with a sixth basic card, the
    third of three and the third and fourth of four with the Academy Deck's top card."""
    s = new_game(players=players, seed=17)
    lay = s.layout
    assert all(p.dock == 3 for p in s.players) and all(o == -1 for o in s.ship)
    extra = lay.opening_extra  # by turn order: the second of two players gets one more
    assert extra == ([0, 1] if players == 2 else [0] * players)
    specials = lay.opening_specials
    assert specials == {2: [0, 0], 3: [0, 0, 1], 4: [0, 0, 1, 1]}[players]
    for k, (x, sp) in enumerate(zip(extra, specials, strict=True)):
        p = s.players[(s.first + k) % players]
        assert len(p.draw) == 6 - x and len(p.hand) == 5 + x + sp
        assert sum(c.startswith("s") for c in p.hand) == sp
    assert len([c for c in s.face_up if c]) == 3 and len(s.academy) == 21 - sum(specials)
    assert all(len(s.pile[a]) == 1 for a in lay.asteroids)
    assert sum(len(x) for x in s.pile) == len(lay.asteroids)


def test_r9_a_set_up_may_bank_shards_for_a_turn_position_from_the_bag():
    """R9 (set-up card lost): ``opening_bay_shards`` draws Shards from the bag into a
    player's first Cargo Bay before the first turn, by turn order; they score (R50) and
    power that colour's Specials (R70) like any banked Shard."""
    variant = {"setup": {"players": {"2": {"opening_bay_shards": [0, 1]}}}}
    for seed in range(6):
        plain = new_game(players=2, seed=seed)
        s = new_game(players=2, seed=seed, variant=variant)
        first, second = s.players[s.first], s.players[1 - s.first]
        assert s.first == plain.first and first.bays == ["", "", ""]
        assert len(second.bays[0]) == 1 and second.bays[1:] == ["", ""]
        assert sum(s.bag) == sum(plain.bag) - 1
        assert s.scores()[1 - s.first] == 1 and s.scores()[s.first] == 0
        assert second.bays[0] in "".join(s.players[1 - s.first].bays)  # R70: powers its Specials
        assert [p.hand for p in s.players] == [p.hand for p in plain.players]


def test_r9_a_set_up_may_deal_a_special_card_to_a_turn_position():
    """R9 (set-up card lost): ``opening_special_cards`` deals the Academy Deck's top card(s)
    into a player's opening hand, by turn order, as Upgrade from the deck would (R43); the
    face-up cards and the bag are untouched, and the card scores with the Specials (R55, R56)."""

    def dealt(specials: list[int]) -> dict:
        return {"setup": {"players": {"3": {"opening_special_cards": specials}}}}

    for seed in range(6):
        plain = new_game(players=3, seed=seed, variant=dealt([0, 0, 0]))
        s = new_game(players=3, seed=seed, variant=dealt([0, 0, 1]))
        third = (s.first + 2) % 3
        assert s.first == plain.first and s.face_up == plain.face_up and s.bag == plain.bag
        assert s.players[third].hand == plain.players[third].hand + [plain.academy[0]]
        assert s.academy == plain.academy[1:]
        assert [p.hand for k, p in enumerate(s.players) if k != third] == [
            p.hand for k, p in enumerate(plain.players) if k != third
        ]
        assert s.scores()[third] == plain.scores()[third] + 1  # a single Special scores 1
        assert sorted(s.scores()[k] for k in range(3) if k != third) == [0, 0]


def test_r4_eleven_card_basic_deck_each():
    """R4: each player's deck is the same 11 basic cards, each with two basic actions."""
    s = new_game(players=4, seed=2)
    for p in s.players:
        basic = [c for c in p.hand + p.draw if c in s.layout.basic]  # not an opening Special
        assert sorted(basic) == sorted(s.layout.basic)
    assert len(s.layout.basic) == 11
    assert all(top and bottom for top, bottom in s.layout.basic.values())


def test_r5_r8_thirty_shards_in_the_bag():
    """R5, R8: 10 Shards of each colour; the set-up draws the Asteroids' Shards from the bag."""
    assert layout_for(2).shard_supply == [10, 10, 10]
    s = new_game(players=2, seed=4)
    assert sum(s.bag) == 30 - len(s.layout.asteroids)


def test_r6_24_special_cards_eight_per_shard_colour():
    """R6: 24 Special cards matching the three Shard types."""
    special = layout_for(2).special
    assert len(special) == 24
    assert Counter(c["colour"] for c in special.values()) == {"k": 8, "r": 8, "y": 8}
    names = {c["name"] for c in special.values()}
    for name in ("Disrupt", "Re-order", "Phase Shift", "Hyper-Jump", "Sabotage", "Skip", "Push"):
        assert name in names
    assert {"Hijack 1-3", "Jump-Push", "Orbit 1-3", "Orbit 2-5", "Orbit 4-6"} <= names


def test_r7_a_track_per_player_count_ending_in_supernova():
    """R7: an Expansion Track for 2/3 players and one for 4; each ends in Super-Nova."""
    t2, t3, t4 = (layout_for(n).track for n in (2, 3, 4))
    assert t2 == t3 != t4
    assert all(t[-1] == "supernova" and t.count("supernova") == 1 for t in (t2, t4))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r18_r19_r20_r21_board_geometry(players):
    """R18-R21: concentric rings (at least four); every seat has one Jump-Gate per ring on its
    base's radial line; Asteroids symmetric between the bases; three bays and a Dock."""
    lay = layout_for(players)
    assert lay.ring_count >= 4
    for seat in range(players):
        gates = lay.seat_gates[seat]
        assert sorted(lay.space_ring[g] for g in gates) == list(range(lay.ring_count))
        base = lay.base_angles[lay.seat_base[seat]]
        for g in gates:
            # on rings offset by half a space no centre lies on the radial line: the gate is
            # the space whose arc touches it
            half = 180.0 / lay.ring_sizes[lay.space_ring[g]]
            diff = (lay.space_angle[g] - base + 180.0) % 360.0 - 180.0
            assert abs(diff) <= half + 1e-6
    per_base = len(lay.asteroids) / len(lay.base_angles)
    assert per_base == int(per_base) and lay.asteroids
    s = new_game(players=players)
    assert all(len(p.bays) == 3 for p in s.players)


def test_r62_every_space_has_four_phase_neighbours_except_edge_rings():
    """R62: middle rings touch two spaces inside and two outside; edge rings only two."""
    lay = layout_for(4)
    for s in range(lay.space_count):
        r = lay.space_ring[s]
        expected = 4 if 0 < r < lay.ring_count - 1 else 2
        assert len(lay.phase_adjacent[s]) == expected
        assert all(s in lay.phase_adjacent[t] for t in lay.phase_adjacent[s])


def test_action_labels():
    """The card texts the page shows come from the data; a composed action (R68's Hijack
    1-3 is the rulebook's own) names each step."""

    def label(text: str) -> str:
        return action_label(parse_action(text, "test", [], SPECIAL_ACTIONS))

    assert label("orbit:1-3") == "Orbit 1-3"
    assert label("orbit:4") == "Orbit 4"
    assert label("hijack_orbit:1-3") == "Hijack + Orbit 1-3"
    assert label("push+orbit:1-2") == "Push + Orbit 1-2"
    assert parse_action("hijack_orbit:1-3", "t", [], SPECIAL_ACTIONS).words() == (
        "Hijack, then Orbit 1-3"
    )
    assert action_label(None) == "-"


# -- broken data ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "named"),
    [
        ({"academy": {"cards": [{"id": "s1", "colour": "blue", "action": "disrupt"}]}}, "colour"),
        ({"basic_deck": {"cards": [{"id": "b1", "top": "fly", "bottom": "jump"}]}}, "b1.top"),
        ({"basic_deck": {"cards": [{"id": "b1", "top": "orbit:x", "bottom": "jump"}]}}, "orbit"),
        ({"basic_deck": {"cards": [{"id": "x1", "top": "jump", "bottom": "jump"}]}}, "id"),
        ({"basic_deck": {"cards": []}}, "basic deck is empty"),
        ({"tracks": {"two_three": ["start", "blank"]}}, "supernova"),
        ({"tracks": {"two_three": ["start", "boom", "supernova"]}}, "boom"),
        ({"tracks": {"two_three": ["start"] + ["expansion"] * 4 + ["supernova"]}}, "cover all"),
        ({"boards": {"two_three": {"rings": []}}}, "rings"),
        ({"boards": {"two_three": {"asteroids": [[9, 9]]}}}, "asteroids"),
        ({"setup": {"hand_size": 0}}, "setup.hand_size"),
        ({"setup": {"shards": {"k": -1}}}, "setup.shards.k"),
        ({"scoring": {"bay_sets": "ten"}}, "scoring.bay_sets"),
        ({"nonsense": {}}, "nonsense"),
        ({"settings": {"launch_to_open_gate": "yes"}}, "settings.launch_to_open_gate"),
        ({"settings": {"unused_base_gates": "open"}}, "settings.unused_base_gates"),
        ({"settings": {"max_rounds": 0}}, "settings.max_rounds"),
        ({"setup": {"players": {"2": {"opening_extra_cards": [0]}}}}, "opening_extra_cards"),
        ({"setup": {"players": {"2": {"opening_extra_cards": [0, 9]}}}}, "opening_extra_cards"),
        ({"setup": {"players": {"2": {"opening_bay_shards": [1]}}}}, "opening_bay_shards"),
        ({"setup": {"players": {"2": {"opening_bay_shards": [0, 40]}}}}, "opening_bay_shards"),
        ({"setup": {"players": {"2": {"opening_bay_shards": [0, True]}}}}, "opening_bay_shards"),
        ({"setup": {"players": {"2": {"opening_special_cards": [2]}}}}, "opening_special_cards"),
        (
            {"setup": {"players": {"2": {"opening_special_cards": [0, 22]}}}},
            "opening_special_cards",
        ),
    ],
)
def test_r9_broken_variant_is_refused_naming_the_field(variant, named):
    """R9 (content as data): a broken variant raises ContentError, its message names the
    bad field; nothing half-built comes out."""
    with pytest.raises(ContentError) as err:
        new_game(players=2, seed=0, variant=variant)
    assert err.value.problems and named in str(err.value)


def test_r9_every_fault_of_a_variant_is_listed():
    """R9: several faults at once are all named, not just the first."""
    variant = {
        "academy": {"cards": [{"id": "s1", "colour": "blue", "action": "teleport"}]},
        "setup": {"hand_size": -2},
    }
    with pytest.raises(ContentError) as err:
        layout_for(2, variant)
    text = "\n".join(err.value.problems)
    assert "colour" in text and "teleport" in text and "hand_size" in text


def test_r9_variant_file_that_is_not_json_or_missing(tmp_path):
    """R9: a variant file that cannot be read says so."""
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ContentError, match="not JSON"):
        new_game(players=2, variant=str(bad))
    with pytest.raises(ContentError, match="missing.json"):
        new_game(players=2, variant=str(tmp_path / "missing.json"))


def test_r9_wrong_player_count_is_refused():
    """R9: Nova Raiders is for 2 to 4 players."""
    for n in (1, 5):
        with pytest.raises(ContentError, match="2 to 4"):
            new_game(players=n)


def test_default_data_files_are_valid_and_shipped_variants_load():
    """Every data file parses; every shipped variant builds a game for every count."""
    for f in DATA.glob("*.json"):
        json.loads(f.read_text(encoding="utf-8"))
    for f in (DATA / "variants").glob("*.json"):
        for n in (2, 3, 4):
            assert new_game(players=n, seed=1, variant=str(f)).legal_moves()


def test_variant_overrides_a_setting():
    """A variant changes a rule without code: a hand of six."""
    s = new_game(players=3, seed=1, variant={"setup": {"hand_size": 6}})
    assert all(sum(c in s.layout.basic for c in p.hand) == 6 for p in s.players)


# -- illegal moves and notation --------------------------------------------------------------
@pytest.mark.parametrize(
    ("move", "why"),
    [
        ("b99u", "not a legal decision"),
        ("Lz9", "R44"),
        ("B0", "not a legal decision"),
        ("", "not a legal decision"),
    ],
)
def test_illegal_moves_raise_with_a_reason(move, why):
    """An illegal move raises IllegalMove (a ValueError) saying why; the state is unchanged."""
    s = new_game(players=2, seed=5)
    before = s.to_json()
    with pytest.raises(IllegalMove, match=why):
        s.apply(move)
    with pytest.raises(ValueError):
        s.parse_move(move)
    assert s.to_json() == before


def test_r44_illegal_launch_says_why():
    """R44: a Launch to someone else's gate is refused with the Launch rule."""
    s = new_game(players=2, seed=5, first_player=0)
    with pytest.raises(IllegalMove, match="R44"):
        s.apply("La4")


def test_r70_playing_a_special_without_its_colour_says_why():
    """R70: the refusal names the missing Shard colour."""
    from helpers_rules import blank_state, give_hand

    s = blank_state(2, seat=0)
    give_hand(s, 0, ["s1", "b1", "b2", "b3", "b4"])
    with pytest.raises(IllegalMove, match="R70"):
        s.apply("s1u")


def test_card_not_in_hand_says_so():
    s = new_game(players=2, seed=5, first_player=0)
    missing = next(c for c in s.layout.basic if c not in s.players[0].hand)
    with pytest.raises(IllegalMove, match="not in your hand"):
        s.apply(missing + "s")


def test_parse_move_round_trips_every_legal_move():
    """parse_move(str(move)) gives back the move, for every move of a played-out game."""
    from helpers_rules import random_policy

    s = new_game(players=3, seed=8)
    pick = random_policy(8)
    for _ in range(400):
        if s.is_over():
            break
        for m in s.legal_moves():
            assert s.parse_move(str(m)) == m
            assert s.parse_move(f" {m} ") == m
        s = s.apply(pick(s))
