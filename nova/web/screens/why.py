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
from ...rules import Move
from ...rules import move as mv
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


# How a bot that does not search chooses (the levels' bots: nova.bots.levels; the test
# keeps these names the same): said above what it weighed, so its chances read right.
HOW = {
    "novice": "{name} scores its next steps as the Pilot does (where each leaves the game), "
    "then takes one of its three best at random, never one far worse than the best.",
    "greedy": "{name} scores its next steps (where each leaves the game) and takes the best; "
    "it does not simulate what follows.",
}
LEVEL_BOTS = {"cadet": "novice", "pilot": "greedy"}


def how_it_chooses(bot: str, name: str) -> str:
    """A sentence on how the bot named ``bot`` chooses, for one that does not search."""
    base = LEVEL_BOTS.get(bot, bot.partition(":")[0])
    how = HOW.get(base)
    return how.format(name=name) if how else ""


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
    how = how_it_chooses(s.record.bots[w.seat], name)
    what = "next step" if how else "last turn"
    heading = f"What {name} weighed for its {what} (chance of winning)"
    turns = w.turns if s.state.is_over() else public_turns(w.turns, "step" if how else "turn")
    said = f'<p class="why-how muted">{escape(how)}</p>' if how else ""
    return f'<div class="bot-why-slot">{button}{said}{turns_html(turns, heading, "bot-why")}</div>'


PUBLIC = frozenset({mv.LAUNCH, mv.END})  # decisions that name no card (a Launch, the end)


def public_turns(turns: tuple[WeighedTurn, ...], what: str = "turn") -> tuple[WeighedTurn, ...]:
    """The turns with nothing the game has not shown: each by its chance and simulations, the
    one it played pointed to the log (a decision's notation can name a card still hidden, as a
    Re-order's new order does, so none is shown); one that plays no card (a Launch, ending the
    turn) is told, since it names nothing secret."""
    out = []
    for t in turns:
        if t.played:
            words = "see the log for what it showed"
        elif all(Move(m).kind in PUBLIC for m in t.moves):
            out.append(replace(t, moves=()))
            continue
        else:
            words = f"another {what}, its cards kept hidden"
        out.append(replace(t, moves=(), words=words))
    return tuple(out)
