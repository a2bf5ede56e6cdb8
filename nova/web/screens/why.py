"""Why the bot played its last turn, on request: the whole turns it weighed when it searched
(``nova.bots.explain``), each with its chance of winning, shown on the game screen under
"Why did NAME play that?" (``data-ui="bot-why"``). Pure Python.

What a bot weighed names cards from its hand (the turns it did not play, and the rest of the
turn it plays, which may hold cards it has not shown yet), and a hand is private (R14). So
while the game goes on, each turn shows its chance of winning and its simulations with only
what the game has shown (the turn it played pointed to the log, the others "kept hidden");
once the game is over every turn is told in full. Shown only when asked, closed by the same button.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from html import escape
from typing import TYPE_CHECKING

from ...render.hint import WeighedTurn, turns_html
from .base import ALL, NONE, Intent, Page, Result

if TYPE_CHECKING:
    from ..state import UiState


@dataclass(frozen=True)
class BotWhy:
    """What the bot in ``seat`` weighed for the decision after ``at`` decisions of game
    ``game_id`` (the last one it searched for), and whether it is shown."""

    game_id: str
    at: int
    seat: int
    turns: tuple[WeighedTurn, ...]
    shown: bool = False


@dataclass(frozen=True)
class AskWhy(Intent):
    """Show (or hide again) what the bot weighed for its last turn."""


def bot_weighed(ui: UiState, seat: int, at: int, turns: tuple[WeighedTurn, ...]) -> UiState:
    """A bot searched for its decision after ``at`` decisions: keep what it weighed."""
    return ui.but(why=BotWhy(ui.game_id, at, seat, turns)) if turns else ui


def why_shown(ui: UiState) -> BotWhy | None:
    """The bot's last weighed turn of the game on screen, once played (not after an undo
    of it)."""
    w, s = ui.why, ui.session
    if w is None or s is None or w.game_id != ui.game_id or w.at >= s.moves:
        return None
    return w


def ask_why(page: Page, ui: UiState, screen: object, intent: AskWhy) -> Result:
    w = why_shown(ui)
    if w is None:
        return ui, NONE
    return ui.but(why=replace(w, shown=not w.shown)), ALL


def why_html(ui: UiState) -> str:
    """The button, and under it what the bot weighed once asked."""
    w = why_shown(ui)
    s = ui.session
    if w is None or s is None:
        return ""
    name = s.record.names[w.seat]
    label = f"Hide why {name} played that" if w.shown else f"Why did {name} play that?"
    button = (
        f'<button type="button" class="secondary why-button" data-ui="bot-why" '
        f'aria-expanded="{"true" if w.shown else "false"}">{escape(label)}</button>'
    )
    if not w.shown:
        return f'<div class="bot-why-slot">{button}</div>'
    heading = f"What {name} weighed for its last turn (chance of winning)"
    turns = w.turns if s.state.is_over() else public_turns(w.turns)
    return f'<div class="bot-why-slot">{button}{turns_html(turns, heading, "bot-why")}</div>'


def public_turns(turns: tuple[WeighedTurn, ...]) -> tuple[WeighedTurn, ...]:
    """The turns with nothing the game has not shown: each by its chance and simulations, the
    one it plays pointed to the log (a decision's notation can name a card still hidden, as a
    Re-order's new order does, so none is shown)."""
    if not turns:
        return ()
    played, *others = turns
    return (
        replace(played, moves=(), words="the turn it played (the log tells what it showed)"),
        *(replace(t, moves=(), words="another turn, its cards kept hidden") for t in others),
    )
