"""Bots: legal decisions only, no peeking at hidden cards, deterministic, sliceable search."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from nova.bots import BOT_NAMES, LAB_ONLY, LEVEL_ONLY, TRIAL, SearchBot, choose_move, make_bot
from nova.links import decode
from nova.rules import View, determinize, new_game

SMALL = 4  # a search budget small enough for tests
# every bot a seat may play: the page's by name and by level only (the Cadet's novice), and
# the lab's bots on trial (a level's bot to be); a trial's simulation costs a few of the
# raider's, so it plays fewer
PLAYERS = BOT_NAMES + LEVEL_ONLY + TRIAL
TRIAL_SMALL = 2


def _states(players: int, seed: int, every: int = 37, limit: int = 8):
    """States met along a random game (actions half done, Spawns, turn starts...)."""
    rng = random.Random(seed)
    s = new_game(players=players, seed=seed)
    out = []
    while not s.is_over() and len(out) < limit:
        if s.ply % every == 5:
            out.append(s)
        s = s.apply(rng.choice(s.legal_moves()))
    return out


def _name(bot: str) -> str:
    if bot in TRIAL:
        return f"{bot}:{TRIAL_SMALL}"
    return bot if bot in ("random", "greedy", "novice") else f"{bot}:{SMALL}"


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bot", PLAYERS)
def test_bots_only_choose_legal_moves(players, bot):
    """Whatever the position, a bot's decision is one the rules allow (R22-R49)."""
    for s in _states(players, seed=players * 11):
        view = s.view(s.current_player)
        move = make_bot(_name(bot)).choose(view, seed=s.ply)
        assert move in s.legal_moves()


def test_bots_play_whole_games_legally():
    """Bots of every kind finish a game together; every decision is applied by the rules."""
    s = new_game(players=3, seed=5)
    bots = [make_bot("random"), make_bot("greedy"), make_bot(f"search:{SMALL}")]
    k = 0
    while not s.is_over() and s.round < 5:
        seat = s.current_player
        s = s.apply(bots[seat].choose(s.view(seat), k))  # apply raises on an illegal move
        k += 1
    assert s.round >= 5 or s.is_over()


def test_view_given_to_bots_hides_other_hands():
    """A view holds the seat's own hand only; others are counts (R14: hands are private)."""
    s = _states(3, seed=2)[2]
    view = s.view(s.current_player)
    for i, seat in enumerate(view.seats):
        assert (seat.hand is not None) == (i == view.seat)
    data = view.to_json()  # what crosses to the bots' worker
    assert "academy" not in data and "rng" not in data
    for i, d in enumerate(data["seats"]):
        assert ("hand" in d) == (i == view.seat)
        assert "draw" not in d  # no seat's draw order


def _hidden(s, seat: int) -> tuple:
    """What ``seat`` cannot see: the other hands, every draw pile's order, the Academy Deck
    and the bag's draws to come."""
    others = tuple(tuple(p.hand) for i, p in enumerate(s.players) if i != seat)
    return others, tuple(tuple(p.draw) for p in s.players), tuple(s.academy), s.rng


def _two_deals(players: int, seed: int, limit: int):
    """(view, state, other state) at positions of a random game: the two states show the
    deciding seat the same view and differ in what it cannot see."""
    for s in _states(players, seed=seed, every=23, limit=limit):
        seat = s.current_player
        view = s.view(seat)
        other = determinize(view, seed=12345 + s.ply)  # other hidden cards and bag order
        other_view = other.view(seat)
        other_view = other_view.but(last_event=view.last_event)  # a caption, blank when dealt
        assert other_view == view
        assert _hidden(other, seat) != _hidden(s, seat)
        yield view, s, other


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bot", PLAYERS)
def test_bots_cannot_tell_hidden_deals_apart(bot, players):
    """Two games that differ only in cards the seat cannot see get the same decision: every
    bot the page offers (by name or as a level), and every bot on trial for a level, sees
    ``state.view(seat)`` and nothing else (the lab's path: a fresh view of each of the two
    states, as ``nova.lab.core.game.play_game`` hands it)."""
    for _, s, other in _two_deals(players, seed=9 + players, limit=6):
        seat = s.current_player
        a = make_bot(_name(bot)).choose(s.view(seat), seed=3)
        b = make_bot(_name(bot)).choose(other.view(seat), seed=3)
        assert a == b


def test_the_peeking_ceiling_does_tell_hidden_deals_apart():
    """The lab's ceiling bot thinks on the true state, so the test above would catch a page
    bot that did: over the same positions it decides differently for some of the pairs."""
    # every other bot a seat may play is in the test above: the page's and those on trial
    assert set(LAB_ONLY) - set(TRIAL) == {"peek"} and "peek" not in BOT_NAMES
    differ = 0
    for players in (2, 3, 4):
        for view, s, other in _two_deals(players, seed=9 + players, limit=6):
            decisions = []
            for truth in (s, other):
                bot = make_bot(f"peek:{SMALL}")
                bot.see(truth)
                decisions.append(bot.choose(view, seed=3))
            differ += decisions[0] != decisions[1]
    assert differ > 0


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_choose_move_needs_only_plain_json(bot):
    """The page hands its worker's bots a view as plain JSON (no State object to reach
    into): the view read back from it is all a bot needs."""
    s = _states(2, seed=4)[3]
    view = View.from_json(json.loads(json.dumps(s.view(s.current_player).to_json())))
    assert choose_move(bot, view, seed=1, budget=SMALL) in s.legal_moves()


@pytest.mark.parametrize("bot", PLAYERS)
def test_same_seed_same_move(bot):
    for s in _states(2, seed=6, limit=4):
        view = s.view(s.current_player)
        first = make_bot(_name(bot)).choose(view, seed=77)
        assert make_bot(_name(bot)).choose(view, seed=77) == first
        assert choose_move(bot, view, 77, budget=SMALL) == choose_move(bot, view, 77, SMALL)


def test_choose_move_rejects_a_view_without_a_decision():
    s = new_game(players=2, seed=1)
    watcher = 1 - s.current_player
    with pytest.raises(ValueError):
        choose_move("greedy", s.view(watcher), seed=1)
    with pytest.raises(ValueError):
        make_bot("deep-blue")


def _turn_start(seed: int):
    s = new_game(players=2, seed=seed)
    bots = [make_bot("greedy"), make_bot("greedy")]
    k = 0
    while s.round < 4:
        seat = s.current_player
        s = s.apply(bots[seat].choose(s.view(seat), k))
        k += 1
    return s


def test_search_works_in_slices_and_agrees_with_one_go():
    """The page's incremental API: start, step in short slices until done, best."""
    s = _turn_start(3)
    view = s.view(s.current_player)
    whole = SearchBot(budget=8).choose(view, seed=5)
    bot = SearchBot(budget=8)
    bot.start(view, seed=5)
    steps = 0
    while not bot.done:
        bot.step(ms=0.001)  # one unit of work per call
        steps += 1
    assert steps > 1
    assert bot.best() == whole
    assert whole in s.legal_moves()


def test_search_follows_its_plan_through_the_turn():
    """After searching a turn, the rest of its decisions answer from the plan."""
    s = _turn_start(8)
    bot = SearchBot(budget=6)
    seat = s.current_player
    bot.choose(s.view(seat), seed=1)
    s = s.apply(bot.best())
    if s.current_player == seat and not s.is_over():
        bot.start(s.view(seat), seed=2)
        assert bot.done  # remembered: no search needed


def test_greedy_beats_random():
    """Greedy banks Shards (R36-R38, R50) that a random player leaves in space."""
    wins = 0.0
    short = {"settings": {"max_rounds": 12}}  # a short game is enough to tell them apart
    for g in range(4):
        s = new_game(players=2, seed=100 + g, variant=short)
        bots = [make_bot("greedy"), make_bot("random")]
        if g % 2:
            bots.reverse()
        k = 0
        while not s.is_over():
            seat = s.current_player
            s = s.apply(bots[seat].choose(s.view(seat), k))
            k += 1
        wins += s.returns()[g % 2]
    assert wins >= 3


def test_the_seat_ahead_wants_the_star_to_go_super_nova_and_the_seat_behind_does_not():
    """R49: the game ends only at Super-Nova, so a leader gains from every track step and the
    seat behind loses by it; without this a leader sat on a won position, parked on the
    opponent's gate, and the game ran to the round limit (issue 9)."""
    from helpers_rules import blank_state, setup

    from nova.bots.evaluate import evaluate

    s = setup(blank_state(players=2, seed=3, seat=0), shards={"d6": "r"}, bays={0: ["kkk", "yyy"]})
    s.track_pos = 2  # seat 0 well ahead, a Shard in play
    later = s.clone()
    later.track_pos = 3  # a blank step on the way: only the end comes nearer
    assert s.layout.track[3] in ("blank", "spawn")
    assert evaluate(later, 0) > evaluate(s, 0)
    assert evaluate(later, 1) < evaluate(s, 1)


def test_near_the_round_limit_every_seat_wants_the_track_to_move():
    """The round limit is our safety net, not an ending of the rulebook: bots count it as a
    draw and, as it nears, value each step the star still has to go (issue 9)."""
    from helpers_rules import blank_state, setup

    from nova.bots.evaluate import evaluate

    s = setup(blank_state(players=2, seed=3, seat=0), shards={"d6": "r"})
    s.round = s.layout.settings.max_rounds - 2
    later = s.clone()
    later.track_pos = s.track_pos + 1
    assert evaluate(later, 0) > evaluate(s, 0)
    assert evaluate(later, 1) > evaluate(s, 1)


def _standoff(round_: int):
    """2-player lab game 257 (seed 1) in its 16th round: each seat carries Shards next to
    its own Jump-Gate (seat 0 yr on d11 beside d0; seat 1 kk on d5 beside d4) with its own
    ship parked on that gate, and both had passed since the 10th round with full hands."""
    from helpers_rules import blank_state, give_hand, setup

    s = blank_state(players=2, seed=3, seat=0)
    ships = {"c0": 0, "d0": 0, "d11": 0, "b11": 1, "d4": 1, "d5": 1}
    bays = {0: ["rkr", "ryr", "rr"], 1: ["yk", "yk", "y"]}
    s = setup(s, shards={"d11": "yr", "d5": "kk"}, ships=ships, bays=bays)
    give_hand(s, 0, ["b8", "b4", "s21", "b9", "b10"])
    give_hand(s, 1, ["b3", "b1", "b2", "b5", "b6"])
    s.track_pos, s.removed, s.round = 6, 1, round_
    return s


def _play_turn(s, bot):
    seat = s.current_player
    k = 0
    while not s.is_over() and s.current_player == seat:
        s = s.apply(bot.choose(s.view(seat), 100 + k))
        k += 1
    return s


def test_a_stand_off_in_a_game_that_drags_is_broken_by_looking_two_actions_ahead():
    """A stand-off from a real game that ran to the round limit (issue 9): no single action
    improves seat 0's position (its gate is blocked by its own ship; the Jump home needs an
    Orbit to a gate first), so a one-action planner passes turn after turn. Once the game
    drags (16 rounds for 6 track steps) the bot looks two actions ahead and brings its
    cargo to an own open gate or banks it; early in a game, the same position is left be."""
    from nova.bots.evaluate import dragging

    s = _standoff(16)
    assert dragging(s) > 0
    banked = sum(map(len, s.players[0].bays))
    after = _play_turn(s, make_bot("greedy"))
    gates = after.layout.seat_gates[0]
    home = any(after.ship[g] == 0 and after.pile[g] for g in gates)
    assert home or sum(map(len, after.players[0].bays)) > banked, "the cargo came no nearer"
    early = _standoff(8)
    assert dragging(early) == 0
    quiet = _play_turn(early, make_bot("greedy"))
    assert quiet.ship == early.ship and quiet.pile == early.pile


ENDGAMES = json.loads((Path(__file__).parent / "data" / "dragging_endgames.json").read_text())


@pytest.mark.parametrize(
    "game", ENDGAMES["games"], ids=lambda g: "{players}p-seed{seed}-game{game}".format(**g["lab"])
)
def test_a_dragging_endgame_ends_at_super_nova_not_at_the_round_limit(game):
    """Lab games that ran to the round limit (issue 9): one Unload from Super-Nova, the seat
    holding the last Shards was behind and kept them from the seat ahead for 25 rounds, as the
    limit counted as a draw and the end as a loss. Now the limit is a loss for every seat and,
    in a game that drags, a loss at Super-Nova weighs what its margin says: the same games,
    played on by greedy bots from their 16th round, end at Super-Nova."""
    record = decode(game["link"])
    s = record.state()
    assert s.round == 16 and s.track_pos == game["track"] and not s.is_over()
    bots = [make_bot("greedy") for _ in range(record.players)]
    k = len(record.moves)  # the lab's seeds, as if the game had gone on there
    while not s.is_over():
        seat = s.current_player
        s = s.apply(bots[seat].choose(s.view(seat), record.seed * 7_777_777 + k))
        k += 1
    assert s.end_reason == "supernova", f"ended by {s.end_reason} in round {s.round}"


def test_a_search_bot_with_a_hand_it_cannot_use_cycles_it_instead_of_passing_for_ever():
    """A hand of Special cards whose colour the seat has not banked can only be played as chain
    links (R26); unplayed cards stay in hand (R14, R15). A search bot that ended such a turn
    with the bare end-of-turn kept the same five cards for 25 rounds and its 2-player lab
    game (budget 16, seed 1, game 20) ran to the round limit; it now ends a turn as the
    greedy planner does, playing the cards of no use as links so that the next hand is new."""
    from helpers_rules import blank_state, give_hand, setup

    ships = {"d5": 1, "a3": 0, "b3": 0, "c3": 0}  # every ship of seat 0 out: no Launch either
    s = setup(blank_state(players=2, seed=3, seat=0), shards={"d6": "r"}, ships=ships)
    stuck = ["s1", "s23", "s2", "s21", "s12"]
    give_hand(s, 0, stuck)
    assert not any(m[-1] in "ur" for m in s.legal_moves()), "no Special can act"
    bot, k = make_bot("search", 16), 0
    while s.current_player == 0 and not s.is_over():
        s = s.apply(bot.choose(s.view(0), 10 + k))
        k += 1
    assert not set(stuck) & set(s.players[0].hand), "the hand was kept, stuck"


def _candidates(bot: SearchBot, view: View) -> list[list[str]]:
    """The whole-turn plans a search would try from ``view`` (its first unit of work)."""
    bot._view, bot._seat, bot._seed = view, view.seat, 5
    s = bot._deal(5)
    options = bot._options(s, view.seat)
    try:
        while True:
            next(options)
    except StopIteration as done:
        return [moves for _, moves in done.value]


def test_the_raider_also_tries_other_ways_to_carry_out_its_best_actions():
    """Where the search tries one way to carry out each card's action (the one the evaluation
    likes best: where to orbit, whom to Hijack), the raider tries the next best ways of its
    best actions too: plans that start with the same card and go elsewhere."""
    from nova.bots import RaiderBot

    widened = 0
    for seed in range(3, 9):
        s = _turn_start(seed)
        view = s.view(s.current_player)
        ours = _candidates(RaiderBot(budget=8), view)
        theirs = _candidates(SearchBot(budget=8), view)
        assert all(plan in ours for plan in theirs)
        firsts = [plan[0] for plan in ours]
        widened += len(firsts) - len(set(firsts))
        assert all(m in s.legal_moves() for m in firsts)
    assert widened > 0


def test_evaluation_weights_default_to_the_hand_set_constants():
    """``greedy`` and ``search`` play with the hand-set weights; a tuned set is a value that
    names only known weights."""
    from nova.bots import evaluate as ev

    w = ev.Weights()
    assert (w.shard, w.tempo, w.finish, w.threat) == (ev.SHARD, ev.TEMPO, ev.FINISH, ev.THREAT)
    assert ev.Weights.from_dict(w.as_dict()) == w
    with pytest.raises(ValueError, match="unknown evaluation weights: shards"):
        ev.Weights.from_dict({"shards": 1.0})
    s = _turn_start(3)
    assert ev.evaluate(s, 0) == ev.evaluate(s, 0, ev.Weights())
    assert ev.evaluate(s, 0, ev.Weights(shard=9.0)) != ev.evaluate(s, 0)
