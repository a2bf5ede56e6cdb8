"""A decision in its text notation (docs/NOTATION.md), and the error for one not legal."""

from __future__ import annotations


class Move(str):
    """One decision in text notation, e.g. ``b7u`` (play card b7 upright) or ``>c5``."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Move:
        return cls(text.strip())


class IllegalMove(ValueError):
    """A decision that is not legal now; the message says why."""
