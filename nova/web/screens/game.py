"""The game screen: the game on the table (its pass screen while the device is to be
passed, its score screen over it once the game is over), the hint, the share panel, and
the bots' decisions. Pure Python."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from html import escape as html_escape
from typing import TYPE_CHECKING, ClassVar

from ...folding import first_action, place_of
from ...render.board import static_layer
from ...render.folds import fold_act
from ...render.game import GamePage, game_html
from ...render.hint import WeighedTurn, turns_html, which_card
from ...render.keep import rekeyed
from ...render.prompts import place_words
from ...render.screens import pass_html, scores_html
from ...render.words import describe
from ...rules import IllegalMove, layout_for
from ...rules.move import SHIP, UPGRADE, Move
from ...rules.scoring import best_bay_split
from ...tutorial import narrate
from ..bot_turns import bot_request
from ..by_links import CURRENT_KEY as CURRENT_LINKS_KEY
from ..effects import ALL, NONE, Offer, Refocus, Render, Think
from ..share import link_for, share_panel_html
from ..tab import autosave
from .base import (
    Drawing,
    Game,
    Intent,
    Page,
    Play,
    Result,
    ScreenDef,
    WhyNot,
    choice_key,
    safe_colours,
    saving_off,
    say_why_not,
)
from .why import AskWhy, ask_why, bot_weighed, why_html

if TYPE_CHECKING:
    from ..saves import Moves
    from ..session import Session
    from ..state import UiState

HINT_BOT = "best"  # the strongest bot the page offers (docs/BOTS.md) gives the hints
# the hint thinks this long at least, whatever the form's thinking time (which reaches no
# level): at a quarter or one second a phone simulated each turn it showed 4 times (issue 49)
HINT_MS = 2500


@dataclass(frozen=True)
class GameScreen:
    """The game (its pass screen while the device is to be passed, its score screen over it
    once the game is over, until closed)."""

    name: ClassVar[str] = "game"
    needs_game: ClassVar[bool] = True
    scores_closed: bool = False

    def shown_as(self, session: Session | None) -> str:
        if session is not None and session.needs_pass():
            return "pass"
        if session is not None and session.state.is_over() and not self.scores_closed:
            return "scores"
        return self.name


@dataclass(frozen=True)
class Hint:
    """A hint for the person's decision after ``at`` decisions of game ``game_id``: the
    strongest bot's choice (``token``, "" while it thinks) and what it gains in words, and
    the whole turns it weighed (``turns``: best first, with their chances)."""

    game_id: str
    at: int
    token: str = ""
    text: str = ""
    turns: tuple[WeighedTurn, ...] = ()
    place: str = ""  # the board's place a tap plays its first action at (folding.place_of)


@dataclass(frozen=True)
class SharePanel:
    """The share dialog, open over the game: the game's link, and what offering it did
    ("shared" to the device's menu, "copied", or "": the player copies it by hand)."""

    url: str
    how: str | None = None  # None while the link is being offered


# -- its intents --------------------------------------------------------------------------
@dataclass(frozen=True)
class Ready(Intent):
    """The pass screen's "I'm ready"."""


@dataclass(frozen=True)
class Undo(Intent):
    pass


@dataclass(frozen=True)
class CloseScores(Intent):
    pass


@dataclass(frozen=True)
class PickLeave(Intent):
    """The moving ship's control: how many of its Shards it leaves behind (0: keeps all)."""

    n: int = 0


@dataclass(frozen=True)
class PickFold(Intent):
    """A tap on a board place that several ways reach ("": the chooser's Cancel)."""

    space: str = ""


@dataclass(frozen=True)
class BotPlayed(Intent):
    """A bot's decision, already checked by the engine (``note``: a bot's failure said)."""

    token: str
    note: str = ""
    turns: tuple[WeighedTurn, ...] = ()  # what it weighed, if it searched (screens/why.py)


@dataclass(frozen=True)
class AskHint(Intent):
    """The person asks for a hint (the adapter asks the strongest bot, in the worker)."""


@dataclass(frozen=True)
class HintReady(Intent):
    """The bot's choice for the decision after ``at`` decisions (checked by the engine)."""

    token: str
    at: int
    turns: tuple[WeighedTurn, ...] = ()  # the turns it weighed, best first


@dataclass(frozen=True)
class Share(Intent):
    """Open the share panel: ``page_url`` is the page's address (the link is made from it)."""

    page_url: str = ""


@dataclass(frozen=True)
class Shared(Intent):
    """What offering the link did (``SharePanel.how``), said in the panel."""

    how: str


@dataclass(frozen=True)
class CloseShare(Intent):
    """Close the share panel (its Close, Escape, a tap beside it)."""


# -- how each changes the state -----------------------------------------------------------
def open_game(
    page: Page, ui: UiState, session: Session, game_id: str, synced: Moves | None = None
) -> UiState:
    """``session`` on screen as the tab's game."""
    page.store.remove(CURRENT_LINKS_KEY)  # a reload resumes this game, not one by links
    return ui.but(
        screen=GameScreen(), game=Game(session, game_id, synced), help_open=False,
        elsewhere=None,
    )  # fmt: skip


def _on_game(ui: UiState) -> Session | None:
    """The game's session when a person's moves and keys count (nothing over it)."""
    return None if ui.help_open else ui.session


def play(page: Page, ui: UiState, screen: GameScreen, intent: Play) -> Result:
    s = _on_game(ui)
    if s is None or s.bot_to_move():
        return ui, NONE
    try:
        s.play(intent.token)
    except IllegalMove as exc:
        return ui.but(message=str(exc)), ALL
    return autosave(page, ui), ALL


def why_not(page: Page, ui: UiState, screen: GameScreen, intent: WhyNot) -> Result:
    s = _on_game(ui)
    if s is None or s.state.is_over() or s.needs_pass():
        return ui, NONE
    return say_why_not(ui, s, intent)


def ready(page: Page, ui: UiState, screen: GameScreen, intent: Ready) -> Result:
    s = _on_game(ui)
    if s is not None:
        s.ready()
    return ui, ALL


def undo(page: Page, ui: UiState, screen: GameScreen, intent: Undo) -> Result:
    s = _on_game(ui)
    if s is not None and s.undo():
        return autosave(page, ui), ALL
    return ui, ALL


def pick_leave(page: Page, ui: UiState, screen: GameScreen, intent: PickLeave) -> Result:
    s = _on_game(ui)
    if s is None or s.leave_choice() is None:
        return ui, NONE
    s.pick_leave(intent.n)
    return ui, ALL


def pick_fold(page: Page, ui: UiState, screen: GameScreen, intent: PickFold) -> Result:
    s = _on_game(ui)
    if s is None or s.bot_to_move():
        return ui, NONE
    s.pick_fold(intent.space if intent.space in s.folded_moves() else "")
    return ui, ALL


def close_scores(page: Page, ui: UiState, screen: GameScreen, intent: CloseScores) -> Result:
    return ui.but(screen=GameScreen(scores_closed=True)), ALL


def ask_hint(page: Page, ui: UiState, screen: GameScreen, intent: AskHint) -> Result:
    s = _on_game(ui)
    if s is None:
        return ui, ALL
    if s.state.is_over() or s.needs_pass() or s.bot_to_move():
        return ui.but(message="A hint is for your own decision: none is asked of you now."), ALL
    if hint_shown(ui) is not None:
        return ui, NONE  # asked already for this decision
    ui = ui.but(hint=Hint(ui.game_id, s.moves))
    return ui, (Render(), Think(hint_request(ui) or ""))


def hint_ready(page: Page, ui: UiState, intent: HintReady) -> Result:
    s, h = ui.session, ui.hint
    if s is None or h is None or h.token or h.at != intent.at or s.moves != intent.at:
        return ui, NONE  # stale: the game moved on while the bot thought
    text = hint_text(s, intent.token)
    turns, place = intent.turns, ""
    if turns and turns[0].first == intent.token:  # where its first action goes
        place = place_of(s.state, turns[0].moves, s.folded_moves()) or ""
        action = first_action(s.state, turns[0].moves)
        ship = next((m.space for m in action if m.kind == SHIP), "")
        if place and Move(place).kind == UPGRADE:  # the Academy's cards over the hand
            n = Move(place).number
            cid = s.state.face_up[n - 1] if n else None
            name = s.state.layout.special[cid]["name"] if cid else "Deck"
            text += f" (tap {name} after Upgrade:)"
        elif place:  # one tap plays it all
            text += f" (tap {place_words(place)} on the board)"
        elif ship and action[-1].space:
            text += f" (the ship on {ship} to {action[-1].space})"
    s.note(f"Hint shown: {text}")
    hint = replace(h, token=intent.token, text=text, turns=turns, place=place)
    return ui.but(hint=hint), ALL


def bot_played(page: Page, ui: UiState, intent: BotPlayed) -> Result:
    s = ui.session
    if s is None:
        return ui, NONE
    ui = bot_weighed(ui, s.state.current_player, s.moves, intent.turns)
    s.play(intent.token)
    if intent.note:
        ui = ui.but(message=intent.note)
    return autosave(page, ui), ALL


def share(page: Page, ui: UiState, screen: GameScreen, intent: Share) -> Result:
    s = ui.session
    if s is None:
        return ui, ALL
    url = link_for(s.record, intent.page_url)
    offer = Offer(url, Shared, focus="[data-nova-share-panel] button")
    return ui.but(share=SharePanel(url)), (Render(), offer)


def shared(page: Page, ui: UiState, intent: Shared) -> Result:
    if ui.share is None:
        return ui, NONE  # closed meanwhile
    return ui.but(share=replace(ui.share, how=intent.how)), ALL


def close_share(page: Page, ui: UiState, screen: GameScreen, intent: CloseShare) -> Result:
    return ui.but(share=None), (Render(), Refocus('[data-ui="share"]'))


def keys(ui: UiState, screen: GameScreen, key: str, focused_move: str | None,
         on_button: bool) -> Play | Ready | Undo | None:  # fmt: skip
    s = _on_game(ui)
    if s is None:
        return None
    if s.needs_pass():
        return Ready() if key in ("Enter", " ") else None
    if key == "u":
        return Undo()
    return choice_key(key, focused_move, on_button, [str(m) for m in s.view().legal])


# -- the hint -----------------------------------------------------------------------------
def hint_shown(ui: UiState) -> Hint | None:
    """The hint for the decision on screen (asked or ready), if any."""
    h, s = ui.hint, ui.session
    if h is None or s is None or h.game_id != ui.game_id or h.at != s.moves:
        return None
    return h


def hint_request(ui: UiState) -> str | None:
    """The worker's request for the hint asked now: the strongest bot in the person's
    seat, on what that seat may see (``bot_turns.bot_request``); None if none asked."""
    s = ui.session
    if s is None or hint_shown(ui) is None or s.state.is_over():
        return None
    seat = s.state.current_player
    bots = list(s.record.bots)
    bots[seat] = HINT_BOT
    seed = s.record.seed * 1_000_003 + s.moves
    think = max(ui.form.think_ms, HINT_MS)
    return bot_request(s.state, seat, bots, seed, think, f"hint:{ui.game_id}", True)


def hint_text(s: Session, token: str) -> str:
    """One line of what the hinted decision does and gains (public facts only: the log's
    words for it and the Cargo Bays' points)."""
    before = s.state
    seat = before.current_player
    after = before.apply(token)
    line = describe(before, token, after, s.record.names)
    lay = layout_for(s.record.players, s.record.variant)

    def bays(state) -> int:
        seat_view = state.view(seat).seats[seat]
        return sum(best_bay_split(b, lay.bay_sets)[0] for b in seat_view.bays)

    gain = bays(after) - bays(before)
    words = (line or "this decision") + which_card(before, token)
    return f"{words}: Cargo Bays +{gain} pts" if gain > 0 else words


def mark_hint(html: str, token: str, place: str = "", ways: Sequence[str] = ()) -> str:
    """Mark the element that plays ``token`` with ``data-hint`` (the hint, never played),
    and the board's ``place`` whose tap plays it with its action (its ``ways``)."""
    attr = f'data-move="{html_escape(token, quote=True)}"'
    html = html.replace(attr, attr + " data-hint", 1)
    if place and ways:
        act = fold_act(place, ways)
        html = html.replace(act, act + " data-hint", 1)
    return html


# -- its markup ---------------------------------------------------------------------------
def markup(page: Page, ui: UiState, screen: GameScreen, known: frozenset[str]) -> Drawing:
    s = ui.session
    assert s is not None  # UiState makes no game screen without a game
    names = s.record.names
    colours = safe_colours(s.record.colours)
    view = s.view()
    # a game under a variant (a playtester's link, the workbench's) says so all along
    variant = s.record.variant_name()
    rules = f"Variant {variant}: not today's rules." if variant else ""
    if s.needs_pass():
        return Drawing(elsewhere_html(ui) + pass_html(
            view, names, colours, s.state.current_player, page.embed, s.marks(),
            " ".join(x for x in (rules, ui.message, ui.save_error) if x),
        ))  # fmt: skip
    thinking = ""
    if s.bot_to_move():
        seat = s.state.current_player
        who = f"{names[seat]} ({s.record.bots[seat]} bot)"
        thinking = f"{who} is thinking…"
        if ui.elsewhere and not ui.elsewhere.forked:
            thinking = f"{who} waits: this game went on in another tab."
    chosen = s.fold_choice() if view.legal else None
    guided = ui.guided and ui.game_id == ui.guided and len(s.states) > 1
    if guided and not thinking and chosen is None:  # its narration (not over the chooser)
        human = s.humans[0] if s.humans else 0
        thinking = narrate(s.states[-2], s.record.moves[-1], s.state, human)
    off = saving_off(page)
    hint = hint_shown(ui)
    said = ""
    if hint is not None:
        said = f"Hint: {hint.text}" if hint.token else "Looking for a hint…"
    status = " ".join(x for x in (rules, said, off, ui.save_error) if x)
    static = static_layer(view, colours)
    panel = share_panel_html(s.record, ui.share.url, ui.share.how) if ui.share else ""
    hinted = hint.token if hint is not None else ""
    weighed = why_html(ui)
    if hint is not None and hinted:
        weighed += turns_html(hint.turns, "Turns the bot weighed (chance of winning)", "hint-turns")
    if hinted:  # the marked choice may be in a part the page shows: send every part
        known = frozenset()
    shown = GamePage(
        tuple(names), tuple(colours), tuple(s.record.bots), log_turns=tuple(s.log_turns()),
        can_undo=s.can_undo(), undo_why=s.undo_block(), notice=ui.message, status=status,
        thinking=thinking, static_slot=True, embed=page.embed, marks=s.marks(), known=known,
        share_panel=panel, weighed=weighed, leave=s.leave_choice(),
        folded={space: f.options for space, f in s.folded_moves().items()} if view.legal else None,
        choosing=chosen.space if chosen is not None else "",
        came=s.came_this_turn() if view.seat == view.turn else (),
    )  # fmt: skip
    html = game_html(view, shown)
    if hinted:  # new keys, or the page's morph keeps its unmarked parts (render/keep.py)
        place = hint.place if hint is not None else ""
        ways = shown.folded.get(place, ()) if shown.folded and place else ()
        html = rekeyed(mark_hint(html, hinted, place, ways), hinted)
    if s.state.is_over() and not screen.scores_closed:
        html += scores_html(view, names, colours)
    return Drawing(elsewhere_html(ui) + html, static)


def body_attributes(page: Page, ui: UiState) -> dict[str, str | None]:
    """On a game under a variant, ``data-nova-variant``: its name, or its data's fingerprint."""
    s = ui.session if isinstance(ui.screen, GameScreen) else None
    return {"data-nova-variant": (s.record.variant_name() or None) if s is not None else None}


def elsewhere_html(ui: UiState) -> str:
    """The notice that this game went on in another tab, with the way to the newest."""
    e = ui.elsewhere
    if e is None:
        return ""
    went_on = f"This game went on in another tab ({e.moves} decisions saved there)."
    if e.forked:
        what = "Your moves here are kept as a saved game of their own."
        keep = ""
    else:
        what = "A move here is kept as a saved game of its own."
        keep = '<button type="button" data-ui="keep-here" class="secondary">Stay here</button>'
    return (
        f'<div class="nova-elsewhere" role="alert"><p>{went_on} {what}</p>'
        '<button type="button" data-ui="open-newest" class="primary">Open the newest</button>'
        f"{keep}</div>"
    )


SCREEN = ScreenDef(
    state=GameScreen,
    markup=markup,
    body=body_attributes,
    steps={
        Play: play,
        WhyNot: why_not,
        Ready: ready,
        Undo: undo,
        CloseScores: close_scores,
        PickLeave: pick_leave,
        PickFold: pick_fold,
        AskHint: ask_hint,
        AskWhy: ask_why,
        Share: share,
        CloseShare: close_share,
    },
    anywhere={BotPlayed: bot_played, HintReady: hint_ready, Shared: shared},
    ui={
        "ready": lambda arg, form: Ready(),
        "undo": lambda arg, form: Undo(),
        "close-scores": lambda arg, form: CloseScores(),
        "leave": lambda arg, form: PickLeave(int(arg) if arg.isdigit() else 0),
        "fold": lambda arg, form: PickFold(arg),
        "share": lambda arg, form: Share(form.here),
        "hint": lambda arg, form: AskHint(),
        "bot-why": lambda arg, form: AskWhy(),
    },
    keys=keys,
    quiet=frozenset({BotPlayed, HintReady, Shared}),
)
