"""Rules-engine speed: random playouts, next to python-chess's in the same run.

Bots search thousands of positions a move, so the engine must be fast; the reference
is python-chess's random playouts (legal move generation + push + game-over test), a
mature pure-Python engine measured on the same machine, in the same process.
"""

from __future__ import annotations

import random
import time

from nova.rules import new_game


def nova_playouts(seconds: float = 3.0, seed: int = 0) -> tuple[int, int, float]:
    """(decisions, whole games, elapsed) of random games for 2, 3 and 4 players."""
    rng = random.Random(seed)
    decisions = games = 0
    start = time.perf_counter()
    g = 0
    while time.perf_counter() - start < seconds:
        s = new_game(players=2 + g % 3, seed=g)
        g += 1
        while not s.is_over():
            s = s.apply(rng.choice(s.legal_moves()))
            decisions += 1
        games += 1
    return decisions, games, time.perf_counter() - start


def chess_playouts(seconds: float = 3.0, seed: int = 0) -> tuple[int, int, float] | None:
    """(moves, games, elapsed) of python-chess random playouts, or None without chess."""
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(seed)
    moves = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False):
            board.push(rng.choice(list(board.legal_moves)))
            moves += 1
        games += 1
    return moves, games, time.perf_counter() - start


def bench_engine(seconds: float = 3.0) -> list[str]:
    d, g, t = nova_playouts(seconds)
    lines = [
        f"nova engine, random playouts: {d / t:,.0f} decisions/s, {g / t * 60:,.0f} games/min "
        f"({d} decisions, {g} games in {t:.1f} s; avg {d / max(g, 1):.0f} decisions/game)"
    ]
    ref = chess_playouts(seconds)
    if ref is None:
        lines.append("reference python-chess not installed (pip install -e '.[test]')")
    else:
        m, cg, ct = ref
        lines.append(f"reference python-chess random playouts: {m / ct:,.0f} moves/s ({cg} games)")
        lines.append(
            f"ratio nova/python-chess: {(d / t) / (m / ct):.2f}x (aim: at least 2.9x, issue 22)"
        )
    return lines
