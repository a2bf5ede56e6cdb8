"""Disrupt (R60): advance the Expansion Track one space, at once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..content import Step
from ..primitives import Primitive, register_primitive
from ..track import advance_track

if TYPE_CHECKING:
    from ..state import State


def disrupt(s: State, step: Step) -> None:
    advance_track(s)


PRIMITIVE = register_primitive(
    Primitive(
        name="disrupt",
        word="Disrupt",
        rules="R60",
        text=("Advance the Expansion Track one space"),
        help=("Advance the Expansion Track one space."),
        act=disrupt,
    )
)
