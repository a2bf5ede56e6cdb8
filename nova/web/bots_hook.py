"""Where the page asks a bot for its decision (``nova.bots`` is written elsewhere).

Until ``nova.bots`` exists, or if it answers something illegal, a seeded random legal
decision is played, so a game with bots always goes on.
"""

from __future__ import annotations

import random

from ..rules import State


def bot_move(name: str, state: State, seat: int, seed: int) -> str:
    legal = [str(m) for m in state.legal_moves()]
    try:
        from ..bots import choose_move  # type: ignore[attr-defined]
    except ImportError:
        choose_move = None
    if choose_move is not None:
        try:
            token = choose_move(name, state.view(seat), seed)
            if token in legal:
                return token
        except Exception:  # a bot failure must not stop the game: fall back below
            pass
    rng = random.Random(seed)
    # prefer doing something over ending the turn at once, so games move along
    non_end = [m for m in legal if m != "E"]
    if non_end and rng.random() < 0.8:
        return rng.choice(non_end)
    return rng.choice(legal)
