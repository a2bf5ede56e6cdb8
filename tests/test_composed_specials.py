"""Special cards composed from the rulebook's primitives (docs/RULES.md, "Composed
actions"): a new card is a data change. The variant nova/data/variants/new-specials.json
holds four; each is played here from a position written in the notation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_rules import play

from nova.bots import make_bot
from nova.rules import State, new_game
from nova.rules.content import SPECIAL_ACTIONS, parse_action
from nova.rules.invariants import problems
from nova.rules.position import variant_tag

VARIANT_FILE = Path(__file__).resolve().parent.parent / "nova/data/variants/new-specials.json"
VARIANT = json.loads(VARIANT_FILE.read_text())
HEAD = f"nova 2p variant={variant_tag(VARIANT)}"


def position(board: str, bays: str, card: str) -> State:
    return State.from_position(
        f"""{HEAD}
        board {board}
        A bays={bays} hand={card},b1,b2,b3,b4 draw=*
        B hand=b1,b2,b3,b4,b5 draw=*""",
        VARIANT,
    )


def test_the_variant_composes_four_new_cards_no_card_of_the_default_makes():
    cards = {c["name"]: c for c in VARIANT["academy"]["cards"]}
    composed = {
        name: parse_action(c["action"], name, [], SPECIAL_ACTIONS).names()
        for name, c in cards.items()
        if "+" in c["action"]
    }
    assert composed == {
        "Smuggler's Run": ("jump", "unload"),
        "Ram": ("push", "orbit"),
        "Phase Raid": ("phase_shift", "hijack"),
        "Slingshot": ("orbit", "jump"),
    }
    default = new_game(players=2).layout.special.values()
    assert {c["action"].names() for c in default if len(c["action"].steps) > 1} == {
        ("hijack", "orbit")
    }


def test_ram_pushes_then_the_pusher_orbits_1_to_2():
    """R67 then R28: Push the adjacent opponent (one space: a stack of one), then the same
    ship orbits 1-2 spaces; the page shows the card's words."""
    s = position("12/12/3,A,B,7/12", "r,-,-", "s10")
    assert s.action_label("s10", "u") == "Push + Orbit 1-2"
    s = play(s, "s10u", "@c3", "!c4")
    assert s.ship[s.layout.name_to_space["c5"]] == 1, "pushed one space, away from the pusher"
    assert sorted(s.legal_moves()) == [">c1", ">c2", ">c4"], "then the pusher orbits 1-2"
    s = play(s, ">c1")
    assert s.pending is None and s.ship[s.layout.name_to_space["c1"]] == 0


def test_a_later_step_that_cannot_be_carried_out_is_passed_over():
    """Phase Raid's ship lands with no opponent beside it: there is no Hijack to make, so
    the action ends after the Phase Shift (and the card was still offered: its first
    step could be carried out)."""
    s = position("12/3,A,8/8,B,3/12", "y,-,-", "s18")
    assert "s18u" in s.legal_moves()
    s = play(s, "s18u", "@b3", ">c3")
    assert s.pending is None and s.ship[s.layout.name_to_space["c3"]] == 0


def test_phase_raid_phase_shifts_then_hijacks_from_the_new_space():
    """R62 then R39-R41: hop to the next ring, then Hijack the opponent next to it there:
    the target is pushed away, its bottom Shard left behind and claimed."""
    s = position("12/3,A,8/4,ryB,7/12", "y,-,-", "s18")
    s = play(s, "s18u", "@b3", ">c3")
    assert s.legal_moves() == ["!c4"], "the Hijack is made by the ship that phase-shifted"
    s = play(s, "!c4")
    name = s.layout.name_to_space
    assert (s.ship[name["c4"]], s.pile[name["c4"]]) == (0, "r")
    assert (s.ship[name["c5"]], s.pile[name["c5"]]) == (1, "y")


def test_smugglers_run_jumps_home_and_unloads_at_once():
    """R35 then R36-R38: the ship that jumped onto its own gate unloads there, top first."""
    s = position("12/12/8,kryA,3/12", "k,-,-", "s8")
    s = play(s, "s8u", "@c8", ">c0", "x0")
    assert s.pending is not None and s.pending.kind == "unload_bays"
    assert s.pending.shards == "yrk" and s.players[0].dock == 3
    s = play(s, "B1", "B1", "B2")
    assert s.players[0].bays == ["k", "yr", "k"] and s.track_pos == 1


def test_slingshot_orbits_to_a_gate_then_jumps_and_not_from_an_orbit_space():
    s = position("12/12/10,A,1/12", "y,-,-", "s22")
    jumped = play(s, "s22u", "@c10", ">c0")
    assert ">c8" in jumped.legal_moves() and all(m[0] == ">" for m in jumped.legal_moves())
    jumped = play(jumped, ">d8")
    assert jumped.ship[jumped.layout.name_to_space["d8"]] == 0 and jumped.pending is None
    stayed = play(s, "s22u", "@c10", ">c11")
    assert stayed.pending is None, "no Jump from an orbit space: the step is passed over"


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["random", "greedy", "search"])
def test_every_bot_plays_games_with_the_new_cards_to_the_end(bot):
    """The bots know no card by name: they play the composed cards like any other."""
    played_new = 0
    for seed in range(2 if bot == "search" else 4):
        s = new_game(players=3, seed=seed, variant=VARIANT)
        agents = [make_bot(bot, budget=4) if bot == "search" else make_bot(bot)] * 3
        k = 0
        while not s.is_over():
            move = agents[s.current_player].choose(s.view(s.current_player), seed * 1000 + k)
            if move[:-1] in ("s8", "s10", "s18", "s22") and move[-1] in "ur":
                played_new += 1
            s = s.apply(move)
            k += 1
        assert problems(s) == [], s.position()
    if bot == "greedy":  # random bots seldom bank a colour; search games here are few
        assert played_new > 0, "greedy bots played none of the new cards as actions"


def test_a_hijack_1_3_saved_before_composed_actions_reads_as_hijack_then_orbit():
    """Saves made when Hijack 1-3 was one action ("hijack_orbit") still load (R68)."""
    s = State.from_position(
        """nova 2p
        board 12/12/3,A,B,7/12
        A bays=r,-,- hand=s11,b1,b2,b3,b4 draw=*
        B hand=b1,b2,b3,b4,b5 draw=*"""
    )
    s = play(s, "s11u", "@c3")
    assert s.pending is not None and s.pending.kind == "hijack"
    saved = s.to_dict()
    assert saved["pending"] == {"kind": "hijack", "ship": 27, "then": ["orbit:1-3"]}
    saved["pending"] = {"kind": "hijack_orbit", "ship": 27, "dists": [1, 2, 3]}
    assert State.from_dict(saved) == s
