"""The opponent levels: named for a player, each a bot at a fixed setting, rated in order."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from nova.bots import LEVELS, Capped, NoviceBot, choose_move, level_named, make_bot, novice
from nova.bots.planner import dump_moves, ranked_options
from nova.lab.core.game import parse_bots
from nova.lab.ladder import ladder_result, read_games
from nova.record import GameRecord
from nova.render.screens import LEVEL_CHOICES, elo_text
from nova.rules import determinize, new_game
from nova.web.controller import Controller, FormInput, StartGame, ui_intent
from nova.web.saves import MemoryStorage, SaveStore

LADDER = Path(__file__).resolve().parent.parent / "docs" / "ladder"
# the games behind the levels' ratings (docs/BOTS.md, "Levels")
LADDER_FILES = (
    LADDER / "2026-11-27-2p.jsonl",  # greedy against search:16, search:16 - search:48 - raider:48
    LADDER / "2026-11-27-levels-cadet-pilot-seed5.jsonl",
    LADDER / "2026-11-27-levels-cadet-pilot.jsonl",
    LADDER / "2026-11-27-levels-pilot-ace.jsonl",
    LADDER / "2026-11-27-levels-ace-admiral.jsonl",
    LADDER / "2026-11-27-levels-ace-admiral-seed43.jsonl",
    LADDER / "2026-11-27-levels-ace-admiral-seed44.jsonl",
    LADDER / "2026-11-27-levels-pilot-ace8.jsonl",  # greedy - search:8 - raider:48
    LADDER / "2026-11-27-levels-pilot-ace8-seed50.jsonl",
    LADDER / "2026-11-27-levels-ace8-admiral.jsonl",
    LADDER / "2026-11-29-ladder-stepwise96-raider48.jsonl",  # raider:48 - stepwise:96
)
# the levels' bots, search:16 and search:48 linking greedy to raider:48 in the older games, and
# raider:48 (the Admiral until stepwise:96) linking the Ace to the Admiral
RUNGS = ("novice", "greedy", "search:8", "search:16", "search:48", "raider:48", "stepwise:96")


def test_each_level_is_at_least_100_elo_above_the_one_below() -> None:
    for lower, upper in zip(LEVELS, LEVELS[1:], strict=False):
        assert upper.elo - lower.elo >= 100, (lower.name, upper.name)
        low, high = upper.ci95
        assert low <= upper.elo <= high


def test_a_level_plays_its_bot() -> None:
    state = new_game(2, seed=3)
    view = state.view(state.current_player)
    for level in LEVELS:
        bot = make_bot(level.name)
        assert bot.choose(view, 5) == make_bot(level.bot).choose(view, 5)
        assert state.apply(choose_move(level.name, view, 5))  # legal: apply refuses an illegal move


def test_every_levels_bot_is_shipped_to_the_page() -> None:
    # the page's build ships the modules the page imports: a level's bot loaded by name only
    # (a bot on trial, nova.bots.TRIAL) would be refused in the page
    from tests.build_helpers import build_site

    shipped = set(build_site().page_modules())
    for level in LEVELS:
        bot = make_bot(level.bot)
        module = type(getattr(bot, "bot", bot)).__module__  # the incremental API's wrapper
        assert module in shipped, level.name


def test_an_unknown_level_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="cadet"):
        level_named("general")
    with pytest.raises(ValueError, match="admiral"):
        make_bot("general")


def test_a_save_that_names_a_level_or_an_old_bot_opens() -> None:
    for bots in (["", "ace"], ["", "search"], ["greedy", "admiral"]):
        record = GameRecord(players=2, seed=1, bots=bots)
        assert GameRecord.from_dict(record.to_dict()).bots == bots


def _novice_points(game_seed: int, decisions: int):
    """(view, seed, state) at each of the first ``decisions`` decisions of a greedy game."""
    state = new_game(2, seed=game_seed)
    for n in range(decisions):
        if state.is_over():
            return
        seat = state.current_player
        view = state.view(seat)
        yield view, 1000 * game_seed + n
        state = state.apply(choose_move("greedy", view, n))


def test_the_novice_slips_only_to_steps_nearly_as_good_as_the_best() -> None:
    # Between actions the novice takes one of greedy's TOP best next steps, never one worth
    # more than SLACK less than the best: check its turn against greedy's own ranking of the
    # same dealt state, and that it does not simply play greedy.
    slips = 0
    for view, seed in _novice_points(4, 200):
        s, me = determinize(view, seed), view.seat
        if len(view.legal) == 1 or s.pending is not None or s.spawn_shard:
            continue
        options = ranked_options(s, me)[: novice.TOP]
        near = [moves for v, moves in options if v >= options[0][0] - novice.SLACK]
        # ending the turn starts by cycling the cards of no use, as greedy's does
        near = [[*dump_moves(s, me), *m] if m == ["E"] else m for m in near]
        turn = [str(m) for m in novice.novice_turn(s, me, random.Random(seed))]
        assert any(turn[: len(m)] == [str(x) for x in m] for m in near), (turn, options)
        assert NoviceBot().choose(view, seed) == turn[0]
        slips += turn[: len(options[0][1])] != [str(x) for x in options[0][1]]
    assert slips > 0


def test_the_novice_decides_the_same_for_the_same_view_and_seed() -> None:
    for view, seed in _novice_points(6, 40):
        assert NoviceBot().choose(view, seed) == NoviceBot().choose(view, seed)


def test_a_level_in_the_page_plays_its_rated_bot_whatever_the_think_time() -> None:
    # the page passes its think-time setting; a level keeps its fixed budget (the ladder's
    # bot), so the same decisions as the lab's bot at any setting
    state = new_game(2, seed=9)
    view = state.view(state.current_player)
    for level in LEVELS:
        lab = make_bot(level.bot).choose(view, 3)
        for time_ms in (250, 3000):
            page = make_bot(level.name, None, time_ms)
            assert page.time_ms is None
            assert page.choose(view, 3) == lab


def test_a_capped_level_lets_greedy_decide_past_its_cap() -> None:
    state = new_game(2, seed=9)
    view = state.view(state.current_player)
    capped = Capped(make_bot("raider:48"), make_bot("greedy"), cap_ms=0.0)
    capped.start(view, 3)
    assert capped.best() == make_bot("greedy").choose(view, 3)
    assert capped.capped == 1


def test_the_levels_ratings_are_the_kept_ladder_games_refitted() -> None:
    # docs/BOTS.md ("Levels"): every level's rating and interval come from the games kept
    games, _ = read_games(str(p) for p in LADDER_FILES)
    result = ladder_result(games, 2, RUNGS, anchor="greedy")
    rated = {r.name: r for r in result.ratings}
    for level in LEVELS:
        r = rated[level.bot]
        assert level.elo == round(r.elo), level.name
        assert level.ci95 == (round(r.low), round(r.high)), level.name


def test_the_new_game_form_shows_each_level_with_its_rating() -> None:
    # the form draws the levels without importing the bots: its copy must say what LEVELS say
    assert [(c.name, c.title, c.elo, c.words) for c in LEVEL_CHOICES] == [
        (lv.name, lv.title, lv.elo, lv.words) for lv in LEVELS
    ]
    c = Controller(SaveStore(MemoryStorage()), rng=random.Random(1))
    c.start()
    html = c.markup()
    for level in LEVELS:
        button = re.search(rf'<button[^>]*data-ui="level:{level.name}"[^>]*>(.*?)</button>', html)
        assert button is not None, level.name
        assert elo_text(level.elo) in button.group(1) and level.title in button.group(1)


@pytest.mark.parametrize("players", [2, 4])
def test_a_levels_button_seats_it_everywhere_but_the_first_seat(players: int) -> None:
    c = Controller(SaveStore(MemoryStorage()), rng=random.Random(1))
    c.start()
    c.dispatch(ui_intent(f"players:{players}"))
    c.dispatch(ui_intent("level:ace"))
    assert 'data-ui="level:ace" class="level" aria-pressed="true"' in c.markup()
    assert c.ui.name == "new"  # the game starts with the usual Start button
    c.dispatch(StartGame(FormInput(seed="5")))
    assert c.ui.game is not None
    assert c.ui.game.session.record.bots == ["", *["ace"] * (players - 1)]


def test_a_level_chosen_in_a_seats_list_is_kept_and_a_made_up_one_is_not() -> None:
    c = Controller(SaveStore(MemoryStorage()), rng=random.Random(1))
    c.start()
    c.dispatch(ui_intent("level:general"))  # not a level: nothing changes
    assert c.ui.form.bots[:2] == ["", ""]
    c.dispatch(StartGame(FormInput(bots=("admiral", "general"), seed="5")))
    assert c.ui.game is not None and c.ui.game.session.record.bots == ["admiral", ""]


def test_the_lab_takes_a_levels_bot_by_its_name() -> None:
    # the ladder's games name the bots (novice), so a refit or a new run can pick them out
    assert parse_bots("novice,greedy", 2) == ["novice", "greedy"]
    assert parse_bots("cadet", 2) == ["cadet", "cadet"]
