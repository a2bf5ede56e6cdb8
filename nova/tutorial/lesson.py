"""What a lesson is: a small real position, a goal, the moves it teaches, and the rule.

A lesson is data. The moves it offers are written as patterns over the engine's move
tokens (docs/NOTATION.md), e.g. ``("b5u", "@d0", ">*", "x*")``: a legal move that matches
is the lesson's to offer, a legal move that does not is "not now" (legal in the game, not
part of the lesson), and an illegal move is refused with the engine's own reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fnmatch import fnmatchcase

from ..rules import State

RULE_NUMBER = re.compile(r"\bR\d+\b")
Goal = Callable[[State], bool]


@dataclass(frozen=True)
class Lesson:
    """One lesson of the tutorial.

    ``position`` is in the position notation (``State.from_position``); the player plays
    seat ``seat`` and any decision of another seat is answered by :meth:`reply`, the first
    legal move (in these positions: where a drawn Shard is placed, R47). ``goal`` is the
    sentence shown, ``done`` its check; ``solution`` is one way to reach it, played by the
    tests. ``rule`` and ``quote`` are the rulebook's own sentence and its number in
    RULE-INDEX.md; ``rules`` every rule the lesson teaches, for the list in docs/TUTORIAL.md.
    """

    id: str
    title: str
    intro: str
    goal: str
    position: str
    offers: tuple[str, ...]
    teaches: str
    done: Goal
    solution: tuple[str, ...]
    after: str
    rule: str
    quote: str
    rules: tuple[str, ...]
    hint: str = ""
    # a sentence read before the goal, heading the board (the first lesson's: what the game
    # is about); the intro is in the lesson's panel with the rule
    lead: str = ""
    seat: int = 0
    # the data the position is played under when not today's (a variant: a lesson of a card
    # that only a variant has; the position's header names it)
    variant: dict | None = None

    def state(self) -> State:
        """The lesson's starting state, read from its position."""
        return State.from_position(self.position, self.variant)

    def offers_move(self, move: str) -> bool:
        """Whether ``move`` is one of the kinds of move this lesson teaches."""
        return any(fnmatchcase(move, pattern) for pattern in self.offers)

    @staticmethod
    def reply(s: State) -> str:
        """Another seat's decision inside a lesson: the first legal one, so that a lesson
        plays the same way every time."""
        return s.legal_moves()[0]
