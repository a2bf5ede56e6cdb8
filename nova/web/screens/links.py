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
from ..by_links import Kept, LinkSession
from ..share import full_page_address, links_page_address
from .base import (
    ALL,
    NONE,
    Effect,
    FormInput,
    Intent,
    Play,
    ScreenDef,
    WhyNot,
    choice_key,
    safe_colours,
    say_why_not,
)
from .game import Undo
from .start import NewGameScreen

if TYPE_CHECKING:
    from ..controller import Controller
    from ..session import Session

CURRENT_KEY = "nova-fair-current"  # the game by links this device had open last
AUDIT = {True: "passed", False: "failed"}  # data-nova-audit

# Where a game by links cannot keep its seat's secret, it is never begun (docs/PAGE.md,
# "Play by links"): in a frame (the publisher's page) the browser blocks its storage or keeps
# it apart for that site, never where the links open (a tab of the game's own page)...
IN_A_FRAME = (
    "A game by links keeps each seat's secret on its device, where the links sent to it "
    "open: in a tab of the game's own page, not in this frame."
)
OPENED_ELSEWHERE = (
    "Play by links opened in a new tab, the game's own page: go on there. Your seat's "
    "secret is kept there, where your friends' links will open."
)
# ...and where the browser keeps nothing for the page (storage off)
NO_STORAGE = (
    "This browser keeps nothing for this page (storage is off), so it cannot keep your "
    "seat's secret: a game by links cannot begin on this device. Play by links from a "
    "browser window that keeps site data."
)


def cannot_keep(c: Controller) -> str:
    """Why a game by links cannot begin (or be joined) on this page; "" when it can."""
    if c.embed:
        return IN_A_FRAME
    return "" if c.store.available else NO_STORAGE


def refused_tab(address: str) -> str:
    """What a frame that may not open a tab says instead (the address to open)."""
    return f"{IN_A_FRAME} This frame may not open a tab: open {address} to play by links."


def page_of_its_own(c: Controller, here: str) -> str:
    """The address that opens play by links in a page of its own: the invitation (or the
    game) on screen, else the by-links form (``?links``)."""
    screen = c.ui.screen
    if isinstance(screen, LinksScreen):
        return f"{full_page_address(here)}#{wire.encode(screen.kept.device.record)}"
    return links_page_address(here)


@dataclass(frozen=True)
class LinksScreen:
    """A game by links on this device: what it keeps (``kept``), the game on screen once
    it has begun (``session``), and the private move code once asked for."""

    name: ClassVar[str] = "links"
    needs_game: ClassVar[bool] = False
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
class StartByLinks(Intent):
    """The start screen's New game in by-links mode: this device is seat A."""

    form: FormInput = FormInput()


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


def stored(c: Controller, key: str) -> Kept | None:
    raw = c.store.read(key)
    if not raw:
        return None
    try:
        return Kept.from_json(raw)
    except Exception:  # a damaged copy: said when it is opened, never executed
        return None


def keep(c: Controller, kept: Kept) -> bool:
    """Write what this device keeps of the game (a device keeps only its own secret);
    False (and said) if the storage refused it."""
    if not c.store.write(_key(kept), kept.to_json()):
        c.set(save_error=c.store.error or "This device's storage refused the game.")
        return False
    c.store.write(CURRENT_KEY, _key(kept))
    return True


def begin(c: Controller, kept: Kept) -> bool:
    """Keep a seat taken now (the host's, or a joiner's): False, nothing begun and the
    reason said, if its secret could not be kept (no invitation is sent from here)."""
    if keep(c, kept):
        return True
    c.store.remove(_key(kept))
    c.set(message="Your seat's secret could not be kept on this device (its storage refused "
          "it): no game by links was begun.", save_error="")  # fmt: skip
    return False


def show(c: Controller, kept: Kept, invitation: bool = False, message: str = "") -> None:
    session = None
    if kept.device.record.started:
        try:
            session = LinkSession(kept)
        except Refused as exc:
            message = message or f"This game by links could not be replayed: {exc}"
    c.set(screen=LinksScreen(kept, session, invitation), message=message, game=None,
          help_open=False)  # fmt: skip


def url(c: Controller, fragment: str) -> str:
    return f"{full_page_address(c.page_url)}#{fragment}" if fragment else ""


# -- how each changes the state -----------------------------------------------------------
def start_by_links(c: Controller, intent: StartByLinks) -> frozenset[Effect]:
    from .start import read_form

    form = read_form(c, intent.form)
    if form is None:
        return ALL
    if c.embed:  # begun in a page of its own, where the links will open
        return frozenset({Effect.RENDER, Effect.LINKS_PAGE})
    if not c.store.available:
        c.set(message=NO_STORAGE)
        return ALL
    kept = by_links.new_game(
        form.players, form.names[: form.players], safe_colours(form.colours[: form.players])
    )
    if begin(c, kept):
        show(c, kept)
    return ALL


def open_fair(c: Controller, fragment: str) -> frozenset[Effect]:
    """A fair link opened in this tab: merged into what this device keeps of that game."""
    try:
        record = wire.decode(fragment).record
        existing = stored(c, by_links.storage_key(record))
    except Exception:
        existing = None
    arrival = by_links.arrive(existing, fragment)
    if arrival.kept is None:  # it cannot name its game: the start screen shows this device's
        c.set(message=f"This game link could not be opened: {arrival.message}")
        if isinstance(c.ui.screen, NewGameScreen):  # games by links with it, in view
            c.set(screen=NewGameScreen(refused_link=True))
        return frozenset({Effect.RENDER, Effect.CLEAR_LINK})
    if arrival.kept is not existing and not arrival.invitation:
        keep(c, arrival.kept)
    message = f"This link was refused: {arrival.message}" if arrival.message else ""
    if arrival.invitation and not message:  # said before the seat is taken
        message = cannot_keep(c)
    show(c, arrival.kept, arrival.invitation, message)
    return frozenset({Effect.RENDER, Effect.CLEAR_LINK})


def join(c: Controller, screen: LinksScreen, intent: Join) -> frozenset[Effect]:
    if not screen.invitation:
        return NONE
    if c.embed:  # the seat is taken in a page of its own, where the links will open
        return frozenset({Effect.RENDER, Effect.LINKS_PAGE})
    if not c.store.available:
        c.set(message=NO_STORAGE)
        return ALL
    try:
        kept = by_links.take_seat(screen.kept.device.record)
    except Refused as exc:
        c.set(message=str(exc))
        return ALL
    if begin(c, kept):
        show(c, kept)
    return ALL


def play(c: Controller, screen: LinksScreen, intent: Play) -> frozenset[Effect]:
    s = screen.session
    if s is None or c.ui.help_open:
        return NONE
    try:
        s.play(intent.token)
    except IllegalMove as exc:
        c.set(message=str(exc))
        return ALL
    if s.turn_done():
        kept = by_links.send(s)
        keep(c, kept)
        show(c, kept)
    else:
        kept = replace(screen.kept, draft=tuple(s.draft))
        keep(c, kept)
        c.set(screen=replace(screen, kept=kept))
    return ALL


def undo(c: Controller, screen: LinksScreen, intent: Undo) -> frozenset[Effect]:
    s = screen.session
    if s is not None and s.undo():
        kept = replace(screen.kept, draft=tuple(s.draft))
        keep(c, kept)
        c.set(screen=replace(screen, kept=kept))
    return ALL


def why_not(c: Controller, screen: LinksScreen, intent: WhyNot) -> frozenset[Effect]:
    s = screen.session
    if s is None or s.over():
        return NONE
    return say_why_not(c, s, intent)


def send_link(c: Controller, screen: LinksScreen, intent: SendLink) -> frozenset[Effect]:
    return frozenset({Effect.RENDER, Effect.SEND_LINK}) if screen.kept.outbox else NONE


def send_offered(c: Controller, intent: SendOffered) -> frozenset[Effect]:
    screen = c.ui.screen
    if not isinstance(screen, LinksScreen):
        return NONE
    c.set(screen=replace(screen, offered=intent.how))
    return ALL


def ask_abandon(c: Controller, screen: LinksScreen, intent: AskAbandon) -> frozenset[Effect]:
    c.set(screen=replace(screen, confirm_abandon=intent.ask))
    return ALL


def abandon(c: Controller, screen: LinksScreen, intent: Abandon) -> frozenset[Effect]:
    if not screen.confirm_abandon:  # never at one press: asked first (ask_abandon)
        return ask_abandon(c, screen, AskAbandon())
    try:
        kept = by_links.end_abandoned(screen.kept)
    except Refused as exc:
        c.set(message=str(exc))
        return ALL
    keep(c, kept)
    show(c, kept)
    return ALL


def move_code(c: Controller, screen: LinksScreen, intent: ShowMoveCode) -> frozenset[Effect]:
    c.set(screen=replace(screen, move_code=url(c, by_links.move_code(screen.kept))))
    return ALL


def keys(c: Controller, screen: LinksScreen, key: str, focused_move: str | None,
         on_button: bool) -> Play | Undo | None:  # fmt: skip
    s = screen.session
    if s is None or c.ui.help_open:
        return None
    if key == "u":
        return Undo()
    return choice_key(key, focused_move, on_button, [str(m) for m in s.view().legal])


# -- what it shows ------------------------------------------------------------------------
def outbox_url(c: Controller) -> str:
    screen = c.ui.screen
    return url(c, screen.kept.outbox) if isinstance(screen, LinksScreen) else ""


def outbox_title(c: Controller) -> str:
    """The words that go with the link to send: whom it is for, in plain words."""
    screen = c.ui.screen
    if not isinstance(screen, LinksScreen) or not screen.kept.outbox:
        return ""
    r = screen.kept.device.record
    to = " and ".join(r.who(s) for s in screen.kept.outbox_to)
    if not r.started:
        return f"Nova Raiders by links: an invitation for {to}"
    return f"Nova Raiders by links: for {to}"


def opened_games(c: Controller) -> list[tuple[str, str]]:
    """The games by links this device keeps: (game id, title), for the start screen."""
    out = []
    for key in c.store.keys():
        if key.startswith(by_links.STORAGE_PREFIX):
            kept = stored(c, key)
            if kept is not None:
                r = kept.device.record
                seat = f" — you are {r.who(kept.device.seat)}" if kept.device.seat >= 0 else ""
                out.append((key[len(by_links.STORAGE_PREFIX) :], ", ".join(r.rules.names) + seat))
    return out


def open_kept(c: Controller, intent: OpenKept) -> frozenset[Effect]:
    kept = stored(c, by_links.STORAGE_PREFIX + intent.game_id)
    if kept is None:
        c.set(message="This game by links could not be read from this device's storage.")
        return ALL
    c.store.write(CURRENT_KEY, _key(kept))
    show(c, kept)
    return ALL


def panel(c: Controller, screen: LinksScreen) -> LinksPanel:
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
        send_url=outbox_url(c),
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


def body_attributes(c: Controller) -> dict[str, str | None]:
    """The contract of a game by links on ``<body>`` (docs/PAGE.md, "Play by links")."""
    screen = c.ui.screen
    none: dict[str, str | None] = {
        "data-nova-seat": None, "data-nova-send": None, "data-nova-send-to": None,
        "data-nova-waiting": None, "data-nova-audit": None,
    }  # fmt: skip
    if not isinstance(screen, LinksScreen):
        return none
    p = panel(c, screen)
    send = p.send_url if p.send_url else None
    return none | {
        "data-nova-seat": SEAT_LETTERS[p.seat] if p.seat >= 0 else None,
        "data-nova-send": send,
        "data-nova-send-to": by_links.letters(p.send_to) if send else None,
        "data-nova-waiting": SEAT_LETTERS[p.waiting] if p.waiting is not None else None,
        "data-nova-audit": None if p.audit_passed is None else AUDIT[p.audit_passed],
    }


def markup(c: Controller, screen: LinksScreen, known: frozenset[str]) -> str:
    ui = c.ui
    info = panel(c, screen)
    said = " ".join(x for x in (ui.message, ui.save_error) if x)
    alert = f'<div class="notice" role="alert">{escape(said)}</div>' if said else ""
    side = links_panel_html(info)
    s = screen.session
    if s is None:  # the invitations are going round: no board yet
        return (
            '<div class="start by-links-setup"><header class="hero"><h1>Nova Raiders</h1>'
            "<p>A game by links: each player on their own device.</p></header>"
            f"{alert}{side}"
            '<p><button type="button" data-ui="menu" class="secondary">Menu</button></p></div>'
        )
    names = list(s.record.names)
    colours = safe_colours(list(s.record.colours))
    view = s.view()
    c.static = static_layer(view, colours)
    thinking = ""
    if not s.over() and not s.my_turn():
        who = s.kept.device.record.who(s.state.current_player)
        thinking = f"Waiting for {who} to play: the link of their turn comes to you."
    page = GamePage(
        tuple(names), tuple(colours), log_turns=tuple(s.log_turns()), can_undo=s.can_undo(),
        undo_why=s.undo_block(), notice=ui.message, status=ui.save_error, thinking=thinking,
        static_slot=True, embed=c.embed, marks=s.marks(), known=known, shareable=False,
    )  # fmt: skip
    html = game_html(view, page)
    if s.over():
        html += scores_html(view, names, colours)
    return side + html


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
    "cannot_keep", "is_fair", "open_fair", "opened_games", "outbox_title", "outbox_url",
    "page_of_its_own", "refused_tab",
]  # fmt: skip
