"""The turns a bot weighed, in words and as markup: the hint's three turns and, on request,
what a bot weighed for the turn it just played. Pure Python.

The bots' worker sends each turn as data (``nova.bots.explain.Weighed.as_json``: the
decisions, the chance of winning, the simulations); :func:`weighed_turns` checks them
against the real position (a turn whose first decision is not legal there is dropped) and
tells each in the game log's words (:mod:`nova.render.words`), from public facts only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from html import escape

from ..rules import IllegalMove, Move, State
from ..rules import move as mv
from .words import describe

MOST_WORDS = 3  # lines told for a turn at most (its first actions; the rest is "…")


@dataclass(frozen=True)
class WeighedTurn:
    """A whole turn a bot weighed, as the page shows it."""

    moves: tuple[str, ...]  # its decisions, the first legal where it was weighed
    percent: int  # its estimated chance of winning, in percent
    sims: int  # the simulations that estimate rests on
    words: str  # what it does, in the log's words, and the points it scores

    @property
    def first(self) -> str:
        return self.moves[0]


def turn_words(state: State, moves: Sequence[str], names: list[str], most: int = MOST_WORDS) -> str:
    """What the turn ``moves`` does from ``state``, in a few of the log's words: the lines
    that tell what an action did (not the card played for it, a chain link or the turn's
    end, unless nothing else happens), then the points the seat scores by it ("+7 points").

    Played on the real position while it can be (a turn weighed on the search's sampled
    deal may draw another card than the real deck holds: the words stop there)."""
    seat = state.current_player
    told: list[str] = []
    plain: list[str] = []  # the card plays, chain links and the end: said if nothing else
    s = state
    for token in moves:
        if s.over or s.current_player != seat:
            break
        try:
            after = s.apply(token)
        except (IllegalMove, ValueError, KeyError, IndexError):
            break
        line = describe(s, token, after, names)
        opener = s.pending is None and not s.spawn_shard and Move(token).kind in (mv.PLAY, mv.END)
        if line:
            (plain if opener else told).append(line)
        s = after
    lines = told or plain
    text = "; ".join(lines[:most]) + ("; …" if len(lines) > most else "")
    gain = s.scores()[seat] - state.scores()[seat]
    if gain:
        text += f": {gain:+d} point{'s' * (abs(gain) != 1)}"
    return text


def weighed_turns(state: State, data: object, names: list[str]) -> tuple[WeighedTurn, ...]:
    """The turns in the worker's answer (a list of ``{"moves", "win", "sims"}``), each whose
    first decision is legal in ``state``, in words; () for anything else."""
    if not isinstance(data, list) or state.is_over():
        return ()
    legal = {str(m) for m in state.legal_moves()}
    out = []
    for item in data:
        if not isinstance(item, dict):
            continue
        moves, win, sims = item.get("moves"), item.get("win"), item.get("sims")
        if not isinstance(moves, list) or not moves or not all(isinstance(m, str) for m in moves):
            continue
        if moves[0] not in legal or isinstance(win, bool) or not isinstance(win, int | float):
            continue
        if not 0.0 <= win <= 1.0 or isinstance(sims, bool) or not isinstance(sims, int):
            continue
        words = turn_words(state, moves, names, MOST_WORDS)
        out.append(WeighedTurn(tuple(moves), round(100 * win), max(sims, 0), words))
    # two turns told alike at first differ later on: tell those whole
    told = [t.words for t in out]
    return tuple(
        replace(t, words=turn_words(state, t.moves, names, len(t.moves)))
        if told.count(t.words) > 1
        else t
        for t in out
    )


def turns_html(turns: Sequence[WeighedTurn], heading: str, part: str) -> str:
    """The turns as a list: each ``data-hint-turn`` (its decisions) with ``data-win`` (its
    chance in percent). ``part``: the element's class (``hint-turns``, ``bot-why``)."""
    if not turns:
        return ""
    items = "".join(
        f'<li data-hint-turn="{escape(" ".join(t.moves), quote=True)}" data-win="{t.percent}">'
        f'<span class="win">{t.percent}%</span> '
        f'<span class="turn-words">{escape(t.words)}</span>'
        f'<span class="sims muted"> ({t.sims} simulation{"s" * (t.sims != 1)})</span></li>'
        for t in turns
    )
    label = escape(heading, quote=True)
    return (
        f'<section class="weighed {escape(part, quote=True)}" aria-label="{label}">'
        f"<h3>{escape(heading)}</h3><ol>{items}</ol></section>"
    )
