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
from .cards import card_title, mode_label
from .words import describe

MOST_WORDS = 3  # lines told for a turn at most (its first actions; the rest is "…")


@dataclass(frozen=True)
class WeighedTurn:
    """A whole turn a bot weighed, as the page shows it."""

    moves: tuple[str, ...]  # its decisions, the first legal where it was weighed
    percent: int  # its estimated chance of winning, in percent
    sims: int  # the simulations that estimate rests on (0: a planned value, not simulated)
    words: str  # what it does, in the log's words, and the points it scores
    played: bool = False  # the turn the bot played (what it weighed for its own decision)

    @property
    def first(self) -> str:
        return self.moves[0]


def turn_lines(
    state: State, moves: Sequence[str], names: list[str], plays: bool = False
) -> tuple[list[str], int]:
    """The log's lines for what the turn ``moves`` does from ``state`` (not the card played
    for an action, a chain link or the turn's end, unless nothing else happens; all of them
    with ``plays``), and the points the seat scores by it.

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
            (plain if opener and not plays else told).append(line)
        s = after
    return told or plain, s.scores()[seat] - state.scores()[seat]


def _joined(lines: Sequence[str], gain: int, most: int) -> str:
    text = "; ".join(lines[:most]) + ("; …" if len(lines) > most else "")
    if gain:
        text += f": {gain:+d} point{'s' * (abs(gain) != 1)}"
    return text


def turn_words(
    state: State, moves: Sequence[str], names: list[str], most: int = MOST_WORDS,
    plays: bool = False,
) -> str:  # fmt: skip
    """What the turn ``moves`` does from ``state`` in a few of the log's words (its first
    ``most`` lines, :func:`turn_lines`), then the points it scores ("+7 points")."""
    return _joined(*turn_lines(state, moves, names, plays), most)


def _apart(lines: Sequence[str], others: Sequence[Sequence[str]]) -> int:
    """Lines to tell so that ``lines`` reads apart from each of ``others``: through the
    first line where they differ (all of them where one is the other's beginning)."""
    n = MOST_WORDS
    for other in others:
        k = next((i for i, (a, b) in enumerate(zip(lines, other, strict=False)) if a != b), None)
        n = max(n, len(lines) if k is None else k + 1)
    return n


def _told_apart(state: State, turns: list[WeighedTurn], names: list[str], plays: bool):
    """Each turn told alike with another, told again through where they differ (with the
    card plays too, if ``plays``)."""
    out = []
    for i, t in enumerate(turns):
        alike = [u for j, u in enumerate(turns) if j != i and u.words == t.words]
        if not alike:
            out.append(t)
            continue
        lines, gain = turn_lines(state, t.moves, names, plays)
        others = [turn_lines(state, u.moves, names, plays)[0] for u in alike]
        out.append(replace(t, words=_joined(lines, gain, _apart(lines, others))))
    return out


def weighed_turns(
    state: State, data: object, names: list[str], played: bool = False
) -> tuple[WeighedTurn, ...]:
    """The turns in the worker's answer (a list of ``{"moves", "win", "sims"}``, the bot's
    own first), each whose first decision is legal in ``state``, in words; () for anything
    else. ``played``: the first is the turn the bot played (marked ``played``).

    Ordered by chance, best first (the bot's own order breaks a tie); a turn told just as a
    better one is merged into it (a player cannot tell them apart: two chain links, say)."""
    if not isinstance(data, list) or state.is_over():
        return ()
    legal = {str(m) for m in state.legal_moves()}
    out = []
    for k, item in enumerate(data):
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
        mine = played and k == 0
        out.append(WeighedTurn(tuple(moves), round(100 * win), max(sims, 0), words, mine))
    # turns told alike in their first lines: told through where they differ, then, if
    # their actions are the same, with the cards played too (two chain links swapped)
    out = _told_apart(state, out, names, plays=False)
    out = _told_apart(state, out, names, plays=True)
    merged: list[WeighedTurn] = []
    for t in sorted(out, key=lambda t: -t.percent):
        same = next((i for i, u in enumerate(merged) if u.words == t.words), None)
        if same is None:
            merged.append(t)
        elif t.played:
            merged[same] = replace(merged[same], played=True)
    return tuple(merged)


def which_card(state: State, token: str) -> str:
    """ ", from the CARD card" when the hinted play's words fit another card in hand too
    (two cards that both Upgrade rotated, say), so the player knows which one."""
    m = Move(token)
    if m.kind != mv.PLAY or m.mode not in ("u", "r"):
        return ""
    lay = state.layout
    label = mode_label(lay, m.card, m.mode)
    title = card_title(lay, m.card)
    alike = {
        card_title(lay, o.card)
        for o in state.legal_moves()
        if o.kind == mv.PLAY and o.card != m.card and o.mode in ("u", "r")
        and mode_label(lay, o.card, o.mode) == label
    }  # fmt: skip
    return f", from the {title} card" if alike - {title} else ""


def on_what(sims: int) -> str:
    """What a chance rests on, in words."""
    if sims == 0:
        return "its planned value, not simulated"
    return f"{sims} simulation{'s' * (sims != 1)}"


def turns_html(turns: Sequence[WeighedTurn], heading: str, part: str) -> str:
    """The turns as a list: each ``data-hint-turn`` (its decisions) with ``data-win`` (its
    chance in percent). ``part``: the element's class (``hint-turns``, ``bot-why``)."""
    if not turns:
        return ""
    items = "".join(
        f'<li data-hint-turn="{escape(" ".join(t.moves), quote=True)}" data-win="{t.percent}"'
        f"{' data-played' if t.played else ''}>"
        f'<span class="win">{t.percent}%</span> '
        f"{'<b>Played:</b> ' if t.played else ''}"
        f'<span class="turn-words">{escape(t.words)}</span>'
        f'<span class="sims muted"> ({on_what(t.sims)})</span></li>'
        for t in turns
    )
    label = escape(heading, quote=True)
    return (
        f'<section class="weighed {escape(part, quote=True)}" aria-label="{label}">'
        f"<h3>{escape(heading)}</h3><ol>{items}</ol></section>"
    )
