"""Nova Raiders, the rules: a pure-Python game engine with no browser in it.

>>> from nova.rules import new_game
>>> s = new_game(players=3, seed=42)
>>> moves = s.legal_moves()
>>> s2 = s.apply(moves[0])
>>> s2.ply, s.ply
(1, 0)
"""

from .actions import Action
from .content import (
    CONTENT_VERSION,
    CardAction,
    ContentError,
    Layout,
    Step,
    content_variant,
    layout_for,
    load_data,
)
from .move import IllegalMove, Move
from .position import PositionError
from .sampling import determinize
from .serial import StateFormatError
from .state import State, new_game
from .view import SeatView, View

__all__ = [
    "CONTENT_VERSION",
    "Action",
    "CardAction",
    "ContentError",
    "IllegalMove",
    "Layout",
    "Move",
    "PositionError",
    "SeatView",
    "State",
    "StateFormatError",
    "View",
    "Step",
    "content_variant",
    "determinize",
    "layout_for",
    "load_data",
    "new_game",
]
