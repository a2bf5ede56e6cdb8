"""The screen of a game by links (docs/LINKS.md, "Fair play by links"; the page's contract
in docs/PAGE.md, "Play by links"): the invitation, the seats joining, the game on this
device's seat, the link to send and to whom, whose link it waits for, the end audit.
Pure Python; the game's rules and checks are :mod:`nova.fair`'s, what the device keeps is
:mod:`nova.web.by_links`'s."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from html import escape
from typing import TYPE_CHECKING, ClassVar

from ...fair import SEAT_LETTERS, Refused, wire
from ...fair.wire import is_fair
from ...render.board import static_layer
from ...render.by_links import LinksPanel, links_panel_html
from ...render.game import GamePage, game_html
from ...render.screens import scores_html
from ...rules import IllegalMove
from .. import by_links
from ..by_links import (
    CURRENT_KEY,
    IN_A_FRAME,
    NO_STORAGE,
    Kept,
    LinkSession,
    cannot_keep,
    opened_games,
    stored,
)
from ..effects import ALL, NONE, ClearAddress, Offer, OwnPage, Render
from ..share import full_page_address, links_page_address
from .base import (
    Drawing,
    Intent,
    Page,
    Play,
    Result,
    ScreenDef,
    WhyNot,
    choice_key,
    safe_colours,
    say,
    say_why_not,
)
from .game import Undo
from .start import NewGameScreen, StartByLinks, read_form

if TYPE_CHECKING:
    from ..session import Session
    from ..state import UiState

AUDIT = {True: "passed", False: "failed"}  # data-nova-audit
OPENED_ELSEWHERE = (
    "Play by links opened in a new tab, the game's own page: go on there. Your seat's "
    "secret is kept there, where your friends' links will open."
)


def refused_tab(address: str) -> str:
    """What a frame that may not open a tab says instead (the address to open)."""
    return f"{IN_A_FRAME} This frame may not open a tab: open {address} to play by links."


def page_of_its_own(ui: UiState, here: str) -> str:
    """The address that opens play by links in a page of its own: the invitation (or the
    game) on screen, else the by-links form (``?links``)."""
    screen = ui.screen
    if isinstance(screen, LinksScreen):
        return f"{full_page_address(here)}#{wire.encode(screen.kept.device.record)}"
    return links_page_address(here)


@dataclass(frozen=True)
class LinksScreen:
    """A game by links on this device: what it keeps (``kept``), the game on screen once
    it has begun (``session``), and the private move code once asked for."""

    name: ClassVar[str] = "links"
    needs_game: ClassVar[bool] = False
    holds_game: ClassVar[bool] = True  # UiState.session is this screen's
    kept: Kept = field(compare=False)
    session: LinkSession | None = field(default=None, compare=False)
    invitation: bool = False  # opened from an invitation, no seat here yet
    move_code: str = ""
    offered: str = ""  # what offering the link to send did ("shared", "copied")
    confirm_abandon: bool = False  # "has not answered?" pressed: the ending, to confirm

    def shown_as(self, session: Session | None) -> str:
        return self.name


# -- its intents --------------------------------------------------------------------------
@dataclass(frozen=True)
class Join(Intent):
    """Take the next free seat of the invitation on screen."""


@dataclass(frozen=True)
class SendLink(Intent):
    """Offer the link to send (the device's share menu, else the clipboard)."""


@dataclass(frozen=True)
class SendOffered(Intent):
    how: str


@dataclass(frozen=True)
class OpenKept(Intent):
    """Open a game by links this device keeps (from the start screen)."""

    game_id: str


@dataclass(frozen=True)
class Abandon(Intent):
    """End the game as abandoned by the seat whose link this device waits for (once
    confirmed: :class:`AskAbandon` first)."""


@dataclass(frozen=True)
class AskAbandon(Intent):
    """The awaited seat has not answered: show the ending, to confirm (or keep waiting)."""

    ask: bool = True


@dataclass(frozen=True)
class ShowMoveCode(Intent):
    pass


# -- keeping ------------------------------------------------------------------------------
def _key(kept: Kept) -> str:
    return by_links.storage_key(kept.device.record)


def keep(page: Page, ui: UiState, kept: Kept) -> tuple[UiState, bool]:
    """Write what this device keeps of the game (a device keeps only its own secret);
    False (and said) if the storage refused it."""
    store = page.store
    if not store.write(_key(kept), kept.to_json()):
        return ui.but(save_error=store.error or "This device's storage refused the game."), False
    store.write(CURRENT_KEY, _key(kept))
    return ui, True


def begin(page: Page, ui: UiState, kept: Kept) -> UiState:
    """Keep a seat taken now (the host's, or a joiner's) and show it; if its secret could
    not be kept, nothing is begun and the reason is said (no invitation is sent from here)."""
    ui, kept_ok = keep(page, ui, kept)
    if kept_ok:
        return show(ui, kept)
    page.store.remove(_key(kept))
    return ui.but(message="Your seat's secret could not be kept on this device (its storage "
                  "refused it): no game by links was begun.", save_error="")  # fmt: skip


def show(ui: UiState, kept: Kept, invitation: bool = False, message: str = "") -> UiState:
    session = None
    if kept.device.record.started:
        try:
            session = LinkSession(kept)
        except Refused as exc:
            message = message or f"This game by links could not be replayed: {exc}"
    return ui.but(screen=LinksScreen(kept, session, invitation), message=message, game=None,
                  help_open=False)  # fmt: skip


def url(page: Page, fragment: str) -> str:
    return f"{full_page_address(page.page_url)}#{fragment}" if fragment else ""


def shown(page: Page, ui: UiState) -> UiState:
    """The game by links this device had open last, on screen (the page opens: ``ui``
    unchanged if there is none)."""
    key = page.store.read(CURRENT_KEY)
    kept = stored(page.store, key) if key else None
    return show(ui, kept) if kept is not None else ui


# -- how each changes the state -----------------------------------------------------------
def start_by_links(page: Page, ui: UiState, intent: StartByLinks) -> Result:
    ui, form = read_form(ui, intent.form)
    if form is None:
        return ui, ALL
    if page.embed:  # begun in a page of its own, where the links will open
        return ui, (Render(), OwnPage(links=True))
    if not page.store.available:
        return ui.but(message=NO_STORAGE), ALL
    kept = by_links.new_game(
        form.players, form.names[: form.players], safe_colours(form.colours[: form.players])
    )
    return begin(page, ui, kept), ALL


def open_fair(page: Page, ui: UiState, fragment: str) -> Result:
    """A fair link opened in this tab: merged into what this device keeps of that game."""
    try:
        record = wire.decode(fragment).record
        existing = stored(page.store, by_links.storage_key(record))
    except Exception:
        existing = None
    arrival = by_links.arrive(existing, fragment)
    if arrival.kept is None:  # it cannot name its game: the start screen shows this device's
        ui = ui.but(message=f"This game link could not be opened: {arrival.message}")
        if isinstance(ui.screen, NewGameScreen):  # games by links with it, in view
            ui = ui.but(screen=NewGameScreen(refused_link=True))
        return ui, (ClearAddress(), Render())
    if arrival.kept is not existing and not arrival.invitation:
        ui, _ = keep(page, ui, arrival.kept)
    message = f"This link was refused: {arrival.message}" if arrival.message else ""
    if arrival.invitation and not message:  # said before the seat is taken
        message = cannot_keep(page.embed, page.store)
    return show(ui, arrival.kept, arrival.invitation, message), (ClearAddress(), Render())


def join(page: Page, ui: UiState, screen: LinksScreen, intent: Join) -> Result:
    if not screen.invitation:
        return ui, NONE
    if page.embed:  # the seat is taken in a page of its own, where the links will open
        return ui, (Render(), OwnPage(links=True))
    if not page.store.available:
        return ui.but(message=NO_STORAGE), ALL
    try:
        kept = by_links.take_seat(screen.kept.device.record)
    except Refused as exc:
        return ui.but(message=str(exc)), ALL
    return begin(page, ui, kept), ALL


def play(page: Page, ui: UiState, screen: LinksScreen, intent: Play) -> Result:
    s = screen.session
    if s is None or ui.help_open:
        return ui, NONE
    try:
        s.play(intent.token)
    except IllegalMove as exc:
        return ui.but(message=str(exc)), ALL
    if s.turn_done():
        kept = by_links.send(s)
        ui, _ = keep(page, ui, kept)
        return show(ui, kept), ALL
    return _draft(page, ui, screen, s), ALL


def _draft(page: Page, ui: UiState, screen: LinksScreen, s: LinkSession) -> UiState:
    """Keep this seat's turn in progress (a reload goes on from it)."""
    kept = replace(screen.kept, draft=tuple(s.draft))
    ui, _ = keep(page, ui, kept)
    return ui.but(screen=replace(screen, kept=kept))


def undo(page: Page, ui: UiState, screen: LinksScreen, intent: Undo) -> Result:
    s = screen.session
    if s is not None and s.undo():
        return _draft(page, ui, screen, s), ALL
    return ui, ALL


def why_not(page: Page, ui: UiState, screen: LinksScreen, intent: WhyNot) -> Result:
    s = screen.session
    if s is None or s.over():
        return ui, NONE
    return say_why_not(ui, s, intent)


def send_link(page: Page, ui: UiState, screen: LinksScreen, intent: SendLink) -> Result:
    if not screen.kept.outbox:
        return ui, NONE
    offer = Offer(url(page, screen.kept.outbox), SendOffered, title=outbox_title(screen))
    return ui, (Render(), offer)


def send_offered(page: Page, ui: UiState, intent: SendOffered) -> Result:
    screen = ui.screen
    if not isinstance(screen, LinksScreen):
        return ui, NONE
    return ui.but(screen=replace(screen, offered=intent.how)), ALL


def ask_abandon(page: Page, ui: UiState, screen: LinksScreen, intent: AskAbandon) -> Result:
    return ui.but(screen=replace(screen, confirm_abandon=intent.ask)), ALL


def abandon(page: Page, ui: UiState, screen: LinksScreen, intent: Abandon) -> Result:
    if not screen.confirm_abandon:  # never at one press: asked first (ask_abandon)
        return ask_abandon(page, ui, screen, AskAbandon())
    try:
        kept = by_links.end_abandoned(screen.kept)
    except Refused as exc:
        return ui.but(message=str(exc)), ALL
    ui, _ = keep(page, ui, kept)
    return show(ui, kept), ALL


def move_code(page: Page, ui: UiState, screen: LinksScreen, intent: ShowMoveCode) -> Result:
    code = url(page, by_links.move_code(screen.kept))
    return ui.but(screen=replace(screen, move_code=code)), ALL


def keys(ui: UiState, screen: LinksScreen, key: str, focused_move: str | None,
         on_button: bool) -> Play | Undo | None:  # fmt: skip
    s = screen.session
    if s is None or ui.help_open:
        return None
    if key == "u":
        return Undo()
    return choice_key(key, focused_move, on_button, [str(m) for m in s.view().legal])


def open_kept(page: Page, ui: UiState, intent: OpenKept) -> Result:
    kept = stored(page.store, by_links.STORAGE_PREFIX + intent.game_id)
    if kept is None:
        return say(ui, "This game by links could not be read from this device's storage.")
    page.store.write(CURRENT_KEY, _key(kept))
    return show(ui, kept), ALL


# -- what it shows ------------------------------------------------------------------------
def outbox_title(screen: LinksScreen) -> str:
    """The words that go with the link to send: whom it is for, in plain words."""
    if not screen.kept.outbox:
        return ""
    r = screen.kept.device.record
    to = " and ".join(r.who(s) for s in screen.kept.outbox_to)
    if not r.started:
        return f"Nova Raiders by links: an invitation for {to}"
    return f"Nova Raiders by links: for {to}"


def panel(page: Page, screen: LinksScreen) -> LinksPanel:
    kept = screen.kept
    d = kept.device
    r = d.record
    s = screen.session
    over = s is not None and s.over()
    report = by_links.audit_of(kept) if over else None
    waiting = by_links.waiting_for(kept)
    return LinksPanel(
        names=r.rules.names,
        seat=d.seat,
        joined=len(r.anchors),
        started=r.started,
        over=over,
        send_url=url(page, kept.outbox),
        send_to=kept.outbox_to,
        waiting=waiting,
        invitation=screen.invitation,
        audit=tuple(report.lines()) if report else (),
        audit_passed=report.passed if report else None,
        can_abandon=bool(r.started and not over and waiting is not None),
        confirm_abandon=screen.confirm_abandon,
        move_code=screen.move_code,
        abandoned=r.abandoned,
        first_turn=r.started and not r.moves,
    )


def body_attributes(page: Page, ui: UiState) -> dict[str, str | None]:
    """The contract of a game by links on ``<body>`` (docs/PAGE.md, "Play by links")."""
    screen = ui.screen
    none: dict[str, str | None] = {
        "data-nova-seat": None, "data-nova-send": None, "data-nova-send-to": None,
        "data-nova-waiting": None, "data-nova-audit": None,
    }  # fmt: skip
    if not isinstance(screen, LinksScreen):
        return none
    p = panel(page, screen)
    send = p.send_url if p.send_url else None
    return none | {
        "data-nova-seat": SEAT_LETTERS[p.seat] if p.seat >= 0 else None,
        "data-nova-send": send,
        "data-nova-send-to": by_links.letters(p.send_to) if send else None,
        "data-nova-waiting": SEAT_LETTERS[p.waiting] if p.waiting is not None else None,
        "data-nova-audit": None if p.audit_passed is None else AUDIT[p.audit_passed],
    }


def markup(page: Page, ui: UiState, screen: LinksScreen, known: frozenset[str]) -> Drawing:
    info = panel(page, screen)
    said = " ".join(x for x in (ui.message, ui.save_error) if x)
    alert = f'<div class="notice" role="alert">{escape(said)}</div>' if said else ""
    side = links_panel_html(info)
    s = screen.session
    if s is None:  # the invitations are going round: no board yet
        return Drawing(
            '<div class="start by-links-setup"><header class="hero"><h1>Nova Raiders</h1>'
            "<p>A game by links: each player on their own device.</p></header>"
            f"{alert}{side}"
            '<p><button type="button" data-ui="menu" class="secondary">Menu</button></p></div>'
        )
    names = list(s.record.names)
    colours = safe_colours(list(s.record.colours))
    view = s.view()
    static = static_layer(view, colours)
    thinking = ""
    if not s.over() and not s.my_turn():
        who = s.kept.device.record.who(s.state.current_player)
        thinking = f"Waiting for {who} to play: the link of their turn comes to you."
    shown = GamePage(
        tuple(names), tuple(colours), log_turns=tuple(s.log_turns()), can_undo=s.can_undo(),
        undo_why=s.undo_block(), notice=ui.message, status=ui.save_error, thinking=thinking,
        static_slot=True, embed=page.embed, marks=s.marks(), known=known, shareable=False,
    )  # fmt: skip
    html = game_html(view, shown)
    if s.over():
        html += scores_html(view, names, colours)
    return Drawing(side + html, static)


SCREEN = ScreenDef(
    state=LinksScreen,
    markup=markup,
    steps={
        Join: join,
        Play: play,
        WhyNot: why_not,
        Undo: undo,
        SendLink: send_link,
        Abandon: abandon,
        AskAbandon: ask_abandon,
        ShowMoveCode: move_code,
    },
    anywhere={StartByLinks: start_by_links, SendOffered: send_offered, OpenKept: open_kept},
    body=body_attributes,
    quiet=frozenset({SendOffered}),
    ui={
        "join": lambda arg, form: Join(),
        "send-link": lambda arg, form: SendLink(),
        "abandon": lambda arg, form: Abandon(),
        "abandon-ask": lambda arg, form: AskAbandon(),
        "abandon-cancel": lambda arg, form: AskAbandon(False),
        "move-code": lambda arg, form: ShowMoveCode(),
        "links-open": lambda arg, form: OpenKept(arg),
    },
    keys=keys,
)

__all__ = [
    "CURRENT_KEY", "IN_A_FRAME", "LinksScreen", "NO_STORAGE", "OPENED_ELSEWHERE", "SCREEN",
    "cannot_keep", "is_fair", "open_fair", "opened_games", "outbox_title", "page_of_its_own",
    "refused_tab", "shown",
]  # fmt: skip
