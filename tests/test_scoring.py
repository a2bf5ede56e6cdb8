"""End-game scoring (R50-R59): Cargo Bays, Special cards, the footnote and ties."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from helpers_rules import blank_state, give_hand, ok, setup
from hypothesis import given, settings
from hypothesis import strategies as st

from nova.rules import new_game
from nova.rules.scoring import best_bay_split, score_bay, score_specials

FOOTNOTE = Path(__file__).resolve().parent.parent / "nova" / "data" / "variants"
FOOTNOTE = FOOTNOTE / "footnote-specials.json"


def brute_force(bay: str) -> int:
    """Best value over every way to cut the bay into consecutive groups (R50-R53)."""
    table = {1: 1, 2: 5, 3: 10}

    @cache
    def best(i: int) -> int:
        if i == len(bay):
            return 0
        out = -(10**9)
        for size in (1, 2, 3):
            group = bay[i : i + size]
            if len(group) == size and len(set(group)) == size:
                out = max(out, table[size] + best(i + size))
        return out

    return best(0)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.text(alphabet="kry", max_size=12))
def test_r50_r53_bay_score_is_the_best_split_into_unique_sets(bay):
    """R50-R53: the bay keeps its order; the best split into groups of 3 different (10),
    2 different (5) and single Shards (1) is the score."""
    points, groups = best_bay_split(bay)
    assert points == brute_force(bay)
    assert "".join(groups) == bay, "the order is kept, every Shard used once"
    assert all(len(set(g)) == len(g) for g in groups)


def test_r50_order_matters():
    """R50: spreading the stack out keeps its order: k k r y is not k r k y."""
    assert score_bay("kkry") == 1 + 10
    assert score_bay("kkyy") == 1 + 5 + 1
    assert score_bay("kyky") == 5 + 5
    assert score_bay("kkkk") == 4


@pytest.mark.parametrize(("bay", "points"), [("kry", 10), ("ry", 5), ("y", 1), ("", 0)])
def test_r51_r52_r53_set_values(bay, points):
    """R51 (three unique 10), R52 (pair of different 5), R53 (single 1)."""
    assert score_bay(bay) == points


def test_r55_specials_count_from_hand_draw_discard_and_played_row():
    """R55: every Special a player owns counts, wherever it is in their cards."""
    s = blank_state(2, seat=0)
    give_hand(s, 0, ["s1", "b1", "b2", "b3", "b4"])
    p = s.players[0]
    for cid in ("s2", "s3", "s9"):
        if cid in s.face_up:
            s.face_up[s.face_up.index(cid)] = s.academy.pop()
        else:
            s.academy.remove(cid)
    p.draw.append("s2")
    p.discard.append("s3")
    p.played.append(("s9", "l"))
    ok(s)
    assert sorted(s.special_symbols(0)) == ["k", "k", "k", "r"]
    assert s.scores()[0] == 6 + 1
    assert s.scores()[1] == 0


def test_r56_four_alike_score_six_plus_one_by_the_table():
    """R56: three matching symbols 6, a pair 3, a single 1; four alike are 6 + 1."""
    assert score_specials("kkkk") == 7
    assert score_specials("kkkkkk") == 12
    assert score_specials("kkrryy") == 9


def test_r58_footnote_variant_scores_four_alike_ten_plus_one():
    """R58: the footnote's reading (a set of three scores 10) is the variant file."""
    s = new_game(players=2, seed=0, variant=str(FOOTNOTE))
    assert s.layout.special_sets[3] == 10
    t = blank_state(2, seat=0, variant={"scoring": {"special_sets": {"1": 1, "2": 3, "3": 10}}})
    give_hand(t, 0, ["s1", "s2", "s3", "s4", "b1"])
    assert ok(t).scores()[0] == 11
    u = blank_state(2, seat=0)
    give_hand(u, 0, ["s1", "s2", "s3", "s4", "b1"])
    assert u.scores()[0] == 7


def test_r59_highest_total_wins():
    """R59, R1: the highest total wins alone."""
    s = blank_state(3, seat=0)
    setup(s, bays={0: ["kr"], 1: ["kry"], 2: ["k"]})
    s.over = True
    assert s.scores() == [5, 10, 1] and s.winners() == [1]
    assert s.returns() == [0.0, 1.0, 0.0]


def test_r59_tie_broken_by_most_shards_in_bays():
    """R59 (open: ties; tie_break = bay_shards): the tied player with more Shards wins."""
    s = blank_state(2, seat=0)
    setup(s, bays={0: ["kry"], 1: ["kr", "r", "kkkk"]})  # 10 vs 5 + 1 + 4, seven Shards
    s.over = True
    assert s.scores() == [10, 10] and s.winners() == [1]
    assert s.returns() == [0.0, 1.0]


def test_r59_full_tie_is_shared():
    """R59: equal points and equal Shards: the win is shared and returns split."""
    s = blank_state(2, seat=0)
    setup(s, bays={0: ["kry"], 1: ["ryk"]})
    s.over = True
    assert s.winners() == [0, 1] and s.returns() == [0.5, 0.5]


def test_r59_tie_break_setting_off_shares_the_win():
    """R59: with tie_break set to anything else, tied players share the win."""
    s = blank_state(2, seat=0, variant={"settings": {"tie_break": "share"}})
    setup(s, bays={0: ["kry"], 1: ["kr", "r", "kkkk"]})
    s.over = True
    assert s.scores() == [10, 10] and s.winners() == [0, 1]


def test_r57_breakdown_matches_the_score_screen():
    """R54, R57: the breakdown shown at the end adds up to the score."""
    s = blank_state(2, seat=0)
    setup(s, bays={0: ["krk", "kkk", "kryr"]})
    give_hand(s, 0, ["s9", "s10", "s1", "s17", "b1"])
    b = ok(s).score_breakdown(0)
    assert [x["points"] for x in b["bays"]] == [6, 3, 11]
    assert sorted(g["points"] for g in b["specials"]) == [1, 1, 3]
    assert b["total"] == 25 == s.scores()[0]
