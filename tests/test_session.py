"""The page's controller (nova/web/session.py) and saves (nova/web/saves.py), in CPython."""

from __future__ import annotations

import json
import random

import pytest

from nova.bots import choose_move
from nova.record import GameRecord, RecordError
from nova.render.words import describe
from nova.rules import IllegalMove, new_game
from nova.web.saves import PREFIX, MemoryStorage, SaveStore
from nova.web.session import Session


def first_card_action(s):
    """A card played upright/rotated now (a basic action), or None."""
    for m in s.state.legal_moves():
        if m[0] == "b" and m[-1] in "ur":
            return str(m)
    return None


def test_pass_and_play_hides_the_hand_until_ready():
    """Between two humans the device is passed: no hand or move until "I'm ready"."""
    se = Session.new(2, seed=4)
    assert se.needs_pass()
    assert not se.view().legal
    with pytest.raises(IllegalMove):
        se.play("E")
    se.ready()
    first = se.state.current_player
    assert se.viewer() == first and se.view().legal
    se.play("E")
    assert se.needs_pass()  # the other human must take the device
    assert se.viewer() == first  # still the previous holder's own view, not the next hand
    se.ready()
    assert se.viewer() == 1 - first


def test_no_pass_screen_against_bots():
    """With one human and bots, the human's own view is always on screen."""
    se = Session.new(2, seed=4, bots=["", "random"])
    assert not se.needs_pass()
    assert se.viewer() == 0
    if se.state.current_player == 1:
        assert se.bot_to_move()


def test_undo_within_the_turn_until_something_is_revealed():
    """Undo takes back this turn's decisions but never a card draw or a new turn."""
    se = Session.new(2, seed=12)
    se.ready()
    before = se.state.to_json()
    launches = [m for m in se.state.legal_moves() if m[0] == "L"]
    se.play(str(launches[0]))
    assert se.can_undo()
    assert se.undo()
    assert se.state.to_json() == before and se.moves == 0
    se.play("E")  # a new turn: cards drawn, the device passes
    se.ready()
    assert not se.can_undo() and not se.undo()


def test_undo_stops_at_an_academy_draw():
    """Taking an Academy card reveals a new face-up card: it cannot be undone."""
    for seed in range(60):
        se = Session.new(2, seed=seed)
        se.ready()
        ups = [m for m in se.state.legal_moves() if m[0] == "b" and m[-1] in "ur"]
        upgrade = [m for m in ups if se.state.action_label(m[:-1], m[-1]) == "Upgrade"]
        if not upgrade:
            continue
        se.play(str(upgrade[0]))
        assert se.can_undo()
        se.play(str(se.state.legal_moves()[0]))  # U1 / UD: a card is revealed
        assert not se.can_undo()
        return
    pytest.skip("no opening Upgrade in 60 seeds")


def test_log_lines_in_plain_words():
    se = Session.new(2, seed=12, names=["Ada", "Bo"])
    se.ready()
    seat = se.state.current_player
    who = ["Ada", "Bo"][seat]
    launch = next(m for m in se.state.legal_moves() if m[0] == "L")
    se.play(str(launch))
    assert se.log[-1] == f"{who} launches a ship to {launch[1:]}"
    card = first_card_action(se)
    if card:
        se.play(card)
        assert se.log[-1].startswith(f"{who} plays ")
    n = len(se.log)
    se.undo()
    assert len(se.log) == n - (1 if card else 0)


def test_describe_orbit_and_unload_words():
    s = new_game(players=2, seed=1)
    lay = s.layout
    seat = s.turn
    g = lay.seat_gates[seat][2]
    s.ship[g] = seat
    s.pile[g] = "rk"
    s.players[seat].hand = ["b3", "b8"]
    s._legal = None
    names = ["Ada", "Bo"]
    # b8 rotated = Unload (R36-R38)
    s1 = s.apply("b8r")
    assert describe(s, "b8r", s1, names) == f"{names[seat]} plays Unload (rotated)"
    gate = lay.space_names[g]
    s2 = s1.apply("@" + gate)
    assert "unloads the ship on" in describe(s1, "@" + gate, s2, names)
    s3 = s2.apply("B1")
    assert describe(s2, "B1", s3, names).startswith(
        f"{names[seat]} unloads a black Shard into Bay 2"
    )


def test_replay_of_a_session_rebuilds_log_and_state():
    se = Session.new(3, seed=8)
    for _ in range(40):
        if se.needs_pass():
            se.ready()
        se.play(str(se.state.legal_moves()[-1 if se.moves % 5 == 4 else 0]))
    again = Session(GameRecord.from_dict(json.loads(json.dumps(se.record.to_dict()))))
    assert again.state == se.state
    assert again.log == se.log


# -- saves ---------------------------------------------------------------------------------
def test_saves_round_trip_and_list():
    store = SaveStore(MemoryStorage())
    se = Session.new(2, seed=3, names=["Ada", "Bo"])
    se.ready()
    se.play("E")
    assert store.save("abc1", se.record)
    assert store.current() == "abc1"
    assert Session(store.load("abc1")).state == se.state
    [entry] = store.entries()
    assert entry.title.startswith("Ada, Bo") and entry.moves == 1 and not entry.error


@pytest.mark.parametrize(
    "raw, words",
    [
        ("{not json", "damaged"),
        ('{"format": "nova-save", "v": 99, "record": {}}', "newer version"),
        ('{"format": "other"}', "not a Nova Raiders save"),
        ('{"format": "nova-save", "v": 1, "record": {"format": "nova-game", "v": 1}}', "players"),
        ('"<img src=x onerror=alert(1)>"', "not a Nova Raiders save"),
    ],
)
def test_a_damaged_save_is_listed_with_a_message_and_others_survive(raw, words):
    backend = MemoryStorage()
    store = SaveStore(backend)
    store.save("good1", GameRecord(players=2, seed=1))
    backend.setItem(PREFIX + "bad1", raw)
    entries = {e.id: e for e in store.entries()}
    assert words in entries["bad1"].error
    assert not entries["good1"].error
    with pytest.raises(RecordError):
        store.load("bad1")
    store.delete("bad1")
    assert [e.id for e in store.entries()] == ["good1"]


def test_a_save_with_an_illegal_move_fails_cleanly_on_replay():
    store = SaveStore(MemoryStorage())
    store.save("x1", GameRecord(players=2, seed=1, moves=["E", "zz"]))
    with pytest.raises(RecordError, match="move 2"):
        Session(store.load("x1"))


class Throwing:
    def __getattr__(self, name):
        def fail(*a):
            raise RuntimeError("SecurityError: storage is disabled")

        return fail


def test_storage_that_throws_turns_saving_off_and_the_game_plays():
    store = SaveStore(Throwing())
    assert not store.available and "Saving is off" in store.error
    assert store.entries() == [] and store.current() is None
    assert not store.save("a1", GameRecord())
    assert not SaveStore(None).available


def test_a_bots_decision_offers_no_choice_on_screen():
    """While a bot decides nobody at the screen does: the board shows no targets and no
    buttons for it (a watcher of a bots-only game sees from seat 0, whose options were
    shown, pulsing, and looked like the watcher's to take)."""
    from render_helpers import game_page

    from nova.render.game import game_html

    watched = Session.new(2, seed=3, bots=["greedy", "greedy"])
    while watched.state.current_player != 0:
        watched.play(str(watched.state.legal_moves()[0]))
    assert watched.bot_to_move() and watched.viewer() == 0
    assert len(watched.state.legal_moves()) > 1  # seat 0's bot has choices...
    view = watched.view()
    assert not view.legal  # ...none of them is on screen
    html = game_html(view, game_page(watched.record.names, watched.record.colours))
    assert "data-move=" not in html
    # against a person: the person's choices are back as soon as it is their turn
    se = Session.new(2, seed=3, bots=["", "greedy"])
    while se.bot_to_move():
        assert not se.view().legal
        se.play(str(se.state.legal_moves()[0]))
    assert se.view().legal and "data-move=" in game_html(
        se.view(), game_page(se.record.names, se.record.colours, se.record.bots)
    )


def _to_a_loaded_ship_move(seed: int = 3) -> Session:
    """A game (person against greedy, the person random) at a decision of the person that
    moves a ship carrying Shards (the rules then ask how many it leaves behind, R33)."""
    s = Session.new(bots=["", "greedy"], seed=seed)
    rng = random.Random(1)
    for i in range(3000):
        st = s.state
        assert not st.is_over()
        if s.bot_to_move():
            s.play(choose_move("greedy", st.view(st.current_player), i))
        elif s.leave_choice() is not None:
            return s
        else:
            s.play(str(rng.choice(st.legal_moves())))
    raise AssertionError("no loaded ship moved")


def test_a_moving_ship_keeps_its_shards_unless_the_person_sets_some_to_leave():
    """R33's question after every move of a loaded ship is answered by the page: keep them
    all, or what the person set on the ship's control before tapping where it goes; one
    Undo takes back the move and the answer together."""
    s = _to_a_loaded_ship_move()
    before, moves = s.state, s.moves
    most, picked = s.leave_choice() or (0, 0)
    assert most >= 1 and picked == 0
    dest = next(str(m) for m in before.legal_moves() if m.kind == "dest")
    s.play(dest)
    assert s.record.moves[moves:] == [dest, "x0"] and s.taken_count() >= 1
    assert s.state.pending is None or s.state.pending.kind != before.pending.kind
    assert s.undo() and s.moves == moves and s.state.to_json() == before.to_json()
    s.pick_leave(most)
    assert s.leave_choice() == (most, most)
    s.play(dest)
    assert s.record.moves[moves:] == [dest, f"x{most}"]
    after = s.state
    ship = before.pending.ship
    assert after.pile[ship] == before.pile[ship][:most]  # left from the bottom (R33)
    assert s.undo() and s.moves == moves
    assert s.leave_choice() == (most, 0)  # the setting was for that move only
