"""Markup shown before Python is up: the build inserts it into index.html, so a board is
on screen while Pyodide starts (the page replaces it on start)."""

from __future__ import annotations

from ..record import DEFAULT_COLOURS
from ..rules import new_game
from .board import board_svg


def start_screen_html(players: int = 2, seed: int = 1) -> str:
    """The start board of a 2-player game (seed 1) under a 'Loading…' banner."""
    s = new_game(players=players, seed=seed)
    view = s.view(s.current_player)
    names = [f"Player {i + 1}" for i in range(players)]
    board = board_svg(view, names, DEFAULT_COLOURS[:players], interactive=False)
    return (
        '<div id="nova-prerender" class="prerender" aria-busy="true">'
        '<div class="loading-banner" role="status"><strong>Nova Raiders</strong> '
        'Loading… <span class="muted">(starting Python in your browser, a few seconds '
        "the first time)</span></div>"
        f'<div class="board-wrap">{board}</div></div>'
    )


if __name__ == "__main__":
    print(start_screen_html())
