"""The position notation (docs/NOTATION.md): a state as text, read back exactly.

The property tests (test_properties.py) read back every state of 150 random games; these
tests pin the notation itself: what a hand-written position may leave out, what a view
hides, and that a broken position is refused with the line named.
"""

from __future__ import annotations

import json

import pytest
from helpers_rules import CONTENT_1_BOARD, random_policy

from nova.rules import PositionError, State, new_game
from nova.rules.position import write_view

LESSON = """
nova 2p
board 12/2,kA,9/12/12
A hand=b1,b3,b8,b10,b2 draw=*
B hand=b1,b2,b3,b4,b5 draw=*
"""


def played(players: int, seed: int, plies: int) -> State:
    s = new_game(players=players, seed=seed)
    pick = random_policy(seed)
    for _ in range(plies):
        if s.is_over():
            break
        s = s.apply(pick(s))
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_position_reads_back_to_the_same_state_and_the_same_text(players):
    for plies in (0, 7, 40, 150):
        s = played(players, seed=plies + players, plies=plies)
        text = s.position()
        again = State.from_position(text)
        assert again == s, text
        assert again.position() == text
        assert again.legal_moves() == s.legal_moves()


def test_repr_is_the_position_and_evaluates_to_the_state():
    s = played(3, seed=5, plies=30)
    assert "board " in repr(s) and repr(s).startswith("State.from_position(")
    assert eval(repr(s), {"State": State}) == s


def test_an_action_under_way_is_part_of_the_position():
    """R11: an action is carried out at once, but a position can fall between its choices."""
    s = State.from_position(LESSON)
    s = s.apply("b3u")  # Orbit 2: the ship is the next choice
    text = s.position()
    assert "action orbit dists=2" in text
    again = State.from_position(text)
    assert again == s and again.legal_moves() == ["@b2"]


def test_a_hand_written_position_leaves_out_what_the_rest_fills_in():
    """Left out: start values in the header, the Docks (ships not on the board), the
    Academy (face-up cards then the deck, in card order) and the bag (the Shards not placed:
    R5, 30 in all); ``draw=*`` is the seat's basic cards not elsewhere."""
    s = State.from_position(LESSON)
    assert (s.turn, s.ply, s.track_pos, s.removed) == (0, 0, 0, 0)
    assert s.players[0].dock == 2 and s.players[1].dock == 3
    assert s.players[0].draw == ["b4", "b5", "b6", "b7", "b9", "b11"]
    assert s.face_up == ["s1", "s2", "s3"] and len(s.academy) == 21
    assert sum(s.bag) == 29 and s.pile[s.layout.name_to_space["b2"]] == "k"
    assert s.ship[s.layout.name_to_space["b2"]] == 0


def test_a_view_has_a_position_with_the_hidden_parts_masked():
    s = played(3, seed=11, plies=25)
    for seat in range(3):
        text = write_view(s.view(seat))
        assert f"view={'ABC'[seat]}" in text and "seed=? rng=?" in text
        for i, p in enumerate(s.players):
            if i != seat:
                assert f"hand=#{len(p.hand)}" in text
                hidden = [c for c in p.hand + p.draw if c not in p.discard]
                line = next(ln for ln in text.splitlines() if ln.startswith("ABC"[i] + " "))
                assert not any(f"={c}," in line or f",{c}," in line for c in p.hand)
                assert hidden  # the other seats hold cards this seat may not see
        assert f"deck=#{len(s.academy)}" in text
        assert not any(c in text.split("academy")[1].split("\n")[0] for c in s.academy[:1])


def test_a_variant_position_names_its_variant_and_needs_it_to_be_read():
    s = new_game(players=2, seed=3, variant=CONTENT_1_BOARD)
    text = s.position()
    assert "variant=" in text
    assert State.from_position(text, CONTENT_1_BOARD) == s
    with pytest.raises(PositionError, match="pass that variant"):
        State.from_position(text)
    with pytest.raises(PositionError, match="default content"):
        State.from_position(new_game(players=2, seed=3).position(), CONTENT_1_BOARD)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda t: t.replace("nova 2p", "nova 5p"), "starts 'nova 2p'"),
        (lambda t: t.replace("board 12/", "board 11/"), "ring 1: 12 spaces"),
        (lambda t: t.replace("kA", "kQ"), "not Shards"),
        (lambda t: t.replace("hand=b1,b3", "hand=b1,b99"), "line 4: hand: 'b99'"),
        (lambda t: t + "\nwhat now", "unknown line 'what'"),
        (lambda t: t.replace("A hand", "A dock=x hand"), "dock: expected a number"),
        (lambda t: t.replace("B hand=b1,", "B hand=b1,b1,"), "not a position of the game"),
        (
            lambda t: t.replace("board 12/2,kA,9/12/12", "board 12/2,kkkkkkkkkkkkkA,9/12/12"),
            "k Shards",
        ),
        (lambda t: t.replace("\nboard 12/2,kA,9/12/12", ""), "'board' line is missing"),
        (lambda t: t + "\nA hand=b1", "a second 'A' line"),
    ],
)
def test_a_broken_position_is_refused_naming_what_is_wrong(change, message):
    with pytest.raises(PositionError, match=message):
        State.from_position(change(LESSON))


def test_a_position_is_not_executed_or_trusted():
    """Text from a bug report or a lesson is parsed, never evaluated."""
    for text in ("__import__('os')", json.dumps({"format": "nova-state"}), "", "nova"):
        with pytest.raises(PositionError):
            State.from_position(text)
    with pytest.raises(PositionError, match="is text"):
        State.from_position(None)  # type: ignore[arg-type]


def test_one_line_positions_from_logs_read_too():
    s = played(4, seed=2, plies=60)
    one_line = " | ".join(s.position().splitlines())
    assert State.from_position(one_line) == s
