"""The opponent levels: named for a player, each a bot at a fixed setting, rated in order."""

from __future__ import annotations

import pytest

from nova.bots import LEVELS, choose_move, level_named, make_bot
from nova.record import GameRecord
from nova.rules import new_game


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


def test_an_unknown_level_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="cadet"):
        level_named("general")
    with pytest.raises(ValueError, match="admiral"):
        make_bot("general")


def test_a_save_that_names_a_level_or_an_old_bot_opens() -> None:
    for bots in (["", "ace"], ["", "search"], ["greedy", "admiral"]):
        record = GameRecord(players=2, seed=1, bots=bots)
        assert GameRecord.from_dict(record.to_dict()).bots == bots
