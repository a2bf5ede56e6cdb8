"""The game open in this tab and its save: saving it without losing another tab's line
(:func:`nova.web.saves.reconcile`), and what another tab's save means for it. Pure Python;
each function takes the page's services and the state and returns the new state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .effects import ALL, NONE
from .saves import PREFIX, Verdict, new_id
from .screens.base import Elsewhere, Game, Page, Result

if TYPE_CHECKING:
    from .state import UiState


def autosave(page: Page, ui: UiState) -> UiState:
    """Save the tab's game; what the save says (another tab went on, storage full) is in the
    state returned."""
    game = ui.game
    store = page.store
    if game is None or not store.available:
        return ui
    s = game.session
    done = store.commit(
        game.game_id, s.record, game.synced, s.state.is_over(),
        fork_id=new_id(page.rng.randrange(4096)),
        settings={"pace": ui.form.pace, "think_ms": ui.form.think_ms},
    )  # fmt: skip
    ours = tuple(s.record.moves)
    if done.verdict is Verdict.BEHIND:
        stored = store.stored_moves(game.game_id) or ()
        return ui.but(elsewhere=Elsewhere(game.game_id, len(stored)))
    if done.verdict is Verdict.FORK:
        stored = store.stored_moves(game.game_id) or ()
        elsewhere = Elsewhere(game.game_id, len(stored), forked=True)
        if not done.written:  # not even the fork fits: said, nothing overwritten
            return ui.but(save_error=done.error, elsewhere=elsewhere)
        return ui.but(game=Game(s, done.game_id, ours), elsewhere=elsewhere, save_error="")
    if done.verdict is Verdict.WRITE and not done.written:
        return ui.but(save_error=done.error)
    return ui.but(game=Game(s, game.game_id, ours), save_error="")


def saves_changed(page: Page, ui: UiState, key: str | None, on_start: bool) -> Result:
    """Another tab saved (``key``; None: storage cleared): the saved games' list changes
    (drawn again on the start screen: ``on_start``); if it was this tab's game and the
    stored line is not this tab's, say so (and offer the newest)."""
    game = ui.game
    if game is None or (key is not None and key != PREFIX + game.game_id):
        return ui, ALL if on_start else NONE
    stored = page.store.stored_moves(game.game_id)
    ours = tuple(game.session.record.moves)
    if stored is None or stored == game.synced or stored == ours:
        return ui, NONE
    return ui.but(elsewhere=Elsewhere(game.game_id, len(stored))), ALL
