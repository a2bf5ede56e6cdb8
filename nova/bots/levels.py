"""Opponents named for a player, each a bot at a fixed setting with its measured rating.

A level is what the new-game screen offers, what saves and links name for a computer
seat, and what ``python -m nova lab --levels`` plays. Each level is one bot at a fixed
number of simulations (``stepwise:96``), so the lab plays exactly what the page plays and
the rating on the 2-player ladder (docs/BOTS.md, "Levels") belongs to it. In the page a
level ignores the think-time setting; :class:`Capped` only bounds a search that runs far
past what the page measured (a slow device), as a safety.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..rules import View

# A level's search in the page stops here at the latest and greedy decides instead: far
# above the 95th percentile measured in the page's worker (docs/BOTS.md, "Levels"), so on
# the machines measured it never acts and the level plays exactly its rated bot.
SAFETY_MS = 10_000.0


@dataclass(frozen=True)
class Level:
    """One opponent level: its name, the bot it plays, its rating on the ladder."""

    name: str  # lower case, as saves, links and the lab write it
    title: str  # as a player reads it
    bot: str  # a bot for make_bot: "greedy", "raider:48", ...
    elo: int  # on the 2-player ladder, greedy = 0 (docs/BOTS.md)
    ci95: tuple[int, int]  # its 95% interval
    words: str  # one line for the new-game screen


# Ratings on the 2-player ladder, greedy = 0: a refit of the kept games (docs/BOTS.md,
# "Levels", gives the command; tests/test_levels.py checks these figures against it). The
# first game's level is the first one (the page offers it first).
LEVELS: tuple[Level, ...] = (
    Level(
        "cadet",
        "Cadet",
        "novice",
        -386,
        (-550, -291),
        "plays sensibly, slips often: for a first game",
    ),
    Level("pilot", "Pilot", "greedy", 0, (0, 0), "plans each turn for the most it can carry home"),
    Level("ace", "Ace", "search:8", 206, (150, 267), "weighs its turns on the cards you may hold"),
    Level("captain", "Captain", "raider:48", 454, (377, 539), "weighs more ways to play each turn"),
    Level(
        "admiral",
        "Admiral",
        "stepwise:96",
        623,
        (512, 741),
        "weighs each step of its turn: the strongest",
    ),
)
LEVEL_NAMES = tuple(level.name for level in LEVELS)


def level_named(name: str) -> Level:
    """The level called ``name`` (as saves and the lab write it)."""
    for level in LEVELS:
        if level.name == name:
            return level
    raise ValueError(f"unknown level {name!r}: choose one of {', '.join(LEVEL_NAMES)}")


class Capped:
    """A level's bot as the page runs it: its fixed budget (the bot the ladder rated), with
    a time cap as a safety only. Past ``cap_ms`` the search is dropped and greedy decides.

    The same ``start``/``step``/``done``/``best``/``choose`` as every bot of ``make_bot``;
    ``positions`` and ``searched`` for the page's figures. ``time_ms`` is None: the page's
    think-time setting does not reach a level.
    """

    time_ms = None

    def __init__(self, bot: Any, fallback: Any, cap_ms: float = SAFETY_MS) -> None:
        self.bot, self.fallback, self.cap_ms = bot, fallback, cap_ms
        self.name = bot.name
        self.capped = 0  # decisions the cap cut short (greedy decided)
        self._move: str | None = None

    @property
    def positions(self) -> int:
        return getattr(self.bot, "positions", 0)

    @property
    def done(self) -> bool:
        return self._move is not None or self.bot.done

    def start(self, view: View, seed: int) -> None:
        self._view, self._seed, self._move = view, seed, None
        self._t0 = time.perf_counter()
        self.bot.start(view, seed)

    def step(self, ms: float = 30.0) -> None:
        if self.done:
            return
        left = self.cap_ms - (time.perf_counter() - self._t0) * 1000.0
        if left <= 0:
            self.capped += 1
            self._move = self.fallback.choose(self._view, self._seed)
            return
        self.bot.step(min(ms, left))

    def best(self) -> str:
        while not self.done:
            self.step(1000.0)
        return self._move if self._move is not None else self.bot.best()

    def choose(self, view: View, seed: int) -> str:
        self.start(view, seed)
        return self.best()
