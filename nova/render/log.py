"""The game's log: each player's turn, newest first, its lines in the order they happened."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape

from .keep import keyed


@dataclass(frozen=True)
class LogTurn:
    """One player's turn in the log: its lines in the order they happened."""

    round: int
    seat: int
    lines: tuple[str, ...]


def log_turns_html(
    turns: Sequence[LogTurn],
    names: list[str],
    colours: list[str],
    known: frozenset[str] = frozenset(),
) -> str:
    """The log, newest turn first, each turn's lines in the order they happened (a turn
    the page already shows, by its key in ``known``, comes back elided: see keep.py)."""
    out = []
    for g in turns:
        item = _log_turn(g.round, g.lines, colours[g.seat], names[g.seat])
        out.append(keyed(item, f"log-{g.round}-{g.seat}", known))
    return "".join(out)


@lru_cache(maxsize=64)
def _log_turn(rnd: int, lines: tuple[str, ...], colour: str, name: str) -> str:
    # a past turn's lines no longer change: each turn is drawn once, not at every update
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    return (
        f'<li class="log-turn" style="--seat:{escape(colour, quote=True)}">'
        f'<h4><span class="swatch"></span>Round {rnd + 1} · {escape(name)}</h4>'
        f'<ol class="log-lines">{items}</ol></li>'
    )


def log_list(
    log: list[str] | None,
    log_turns: Sequence[LogTurn] | None,
    names: list[str],
    colours: list[str],
    known: frozenset[str],
) -> str:
    """The log, grouped by turn when ``log_turns`` is given, else its last 40 lines."""
    if log_turns is not None:
        return f'<ol class="log-turns">{log_turns_html(log_turns, names, colours, known)}</ol>'
    return (
        "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in (log or [])[-40:][::-1]) + "</ul>"
    )
