"""Disrupt (R60): advance the Expansion Track one space, at once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..content import Step
from ..track import advance_track
from .base import IMMEDIATE

if TYPE_CHECKING:
    from ..state import State


def disrupt(s: State, step: Step) -> None:
    advance_track(s)


IMMEDIATE["disrupt"] = disrupt
