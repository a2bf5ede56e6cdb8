"""Opponents named for a player, each a bot at a fixed setting with its measured rating.

A level is what the new-game screen offers, what saves and links name for a computer
seat, and what ``python -m nova lab --levels`` plays. Each level is one bot at a fixed
number of simulations (``raider:48``), so the lab plays exactly what the page plays and
the rating on the 2-player ladder (docs/BOTS.md, "Levels") belongs to it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """One opponent level: its name, the bot it plays, its rating on the ladder."""

    name: str  # lower case, as saves, links and the lab write it
    title: str  # as a player reads it
    bot: str  # a bot for make_bot: "greedy", "raider:48", ...
    elo: int  # on the 2-player ladder, greedy = 0 (docs/BOTS.md)
    ci95: tuple[int, int]  # its 95% interval
    words: str  # one line for the new-game screen


# Ratings from the ladder of docs/BOTS.md (2-player games, greedy = 0).
LEVELS: tuple[Level, ...] = (
    Level("cadet", "Cadet", "random", -529, (-618, -382), "moves at random"),
    Level("pilot", "Pilot", "greedy", 0, (0, 0), "plans each turn for the most it can carry home"),
    Level("ace", "Ace", "search:16", 251, (159, 382), "weighs its turns on the cards you may hold"),
    Level("admiral", "Admiral", "raider:48", 523, (350, 730), "the strongest bot we have"),
)
LEVEL_NAMES = tuple(level.name for level in LEVELS)


def level_named(name: str) -> Level:
    """The level called ``name`` (as saves and the lab write it)."""
    for level in LEVELS:
        if level.name == name:
            return level
    raise ValueError(f"unknown level {name!r}: choose one of {', '.join(LEVEL_NAMES)}")
