"""Nova Raiders, the rules: a pure-Python game engine with no browser in it.

>>> from nova.rules import new_game
>>> s = new_game(players=3, seed=42)
>>> moves = s.legal_moves()
>>> s2 = s.apply(moves[0])
>>> s2.ply, s.ply
(1, 0)
"""

from .content import CONTENT_VERSION, ContentError, Layout, content_variant, layout_for, load_data
from .position import PositionError
from .serial import StateFormatError
from .state import IllegalMove, Move, State, new_game
from .view import determinize

__all__ = [
    "CONTENT_VERSION",
    "ContentError",
    "IllegalMove",
    "Layout",
    "Move",
    "PositionError",
    "State",
    "StateFormatError",
    "content_variant",
    "determinize",
    "layout_for",
    "load_data",
    "new_game",
]
