"""Play by links in the page, pure Python: what this device keeps of a game by links, the
game on screen, and what a link that arrives does (docs/LINKS.md, "Fair play by links";
the rules of it are in :mod:`nova.fair`).

Storage: one key a game, ``nova-fair:<game id>``, holding this device's seat, its secret
(which never leaves the device before the end), the game's latest public link, the moves of
its own turn in progress and the link it is to send. Nothing else of another seat is kept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from ..fair import keys, wire
from ..fair.audit import AuditReport, audit, missing
from ..fair.device import Device, abandon, host, join, receive, reveal_secret, send_turn, start
from ..fair.record import SEAT_LETTERS, FairRecord, Stage
from ..fair.table import Refused, Table
from ..record import GameRecord, RecordError
from ..rules import IllegalMove, State, View
from .saves import SaveStore
from .session import Session

STORAGE_PREFIX = "nova-fair:"
STORE_VERSION = 1
CURRENT_KEY = "nova-fair-current"  # the game by links this device had open last

# Where a game by links cannot keep its seat's secret, it is never begun (docs/PAGE.md,
# "Play by links"): in a frame (the publisher's page) the browser blocks its storage or keeps
# it apart for that site, never where the links open (a tab of the game's own page)...
IN_A_FRAME = (
    "A game by links keeps each seat's secret on its device, where the links sent to it "
    "open: in a tab of the game's own page, not in this frame."
)
# ...and where the browser keeps nothing for the page (storage off)
NO_STORAGE = (
    "This browser keeps nothing for this page (storage is off), so it cannot keep your "
    "seat's secret: a game by links cannot begin on this device. Play by links from a "
    "browser window that keeps site data."
)


def storage_key(record: FairRecord) -> str:
    return STORAGE_PREFIX + record.game_id.hex()


@dataclass(frozen=True)
class Kept:
    """What this device keeps of one game by links."""

    device: Device
    draft: tuple[str, ...] = ()  # this seat's turn in progress (not sent yet)
    outbox: str = ""  # the fragment to send now ("" when none)
    outbox_to: tuple[int, ...] = ()  # the seats it must reach

    def to_json(self) -> str:
        d = self.device
        return json.dumps(
            {
                "format": "nova-fair-device",
                "v": STORE_VERSION,
                "seat": d.seat,
                "secret": d.secret.hex(),
                "link": wire.encode(d.record),
                "draft": list(self.draft),
                "outbox": self.outbox,
                "to": list(self.outbox_to),
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Kept:
        """A kept game from this device's storage (RecordError with a message if broken)."""
        try:
            data = json.loads(text)
            if data.get("format") != "nova-fair-device" or data.get("v") != STORE_VERSION:
                raise ValueError
            seat, secret = int(data["seat"]), bytes.fromhex(str(data["secret"]))
            record = wire.decode(str(data["link"])).record
            if seat >= 0 and keys.anchor(secret) != record.anchors[seat]:
                raise ValueError
            draft = tuple(str(m)[:12] for m in data.get("draft", []))[:400]
            to = tuple(int(x) for x in data.get("to", []) if 0 <= int(x) < record.players)
            return cls(Device(record, seat, secret), draft, str(data.get("outbox", "")), to)
        except (ValueError, KeyError, TypeError, AttributeError, RecordError, Refused):
            raise RecordError("this device's copy of a game by links is damaged") from None


def cannot_keep(embed: bool, store: SaveStore) -> str:
    """Why a game by links cannot begin (or be joined) on this page; "" when it can."""
    if embed:
        return IN_A_FRAME
    return "" if store.available else NO_STORAGE


def stored(store: SaveStore, key: str) -> Kept | None:
    """The game by links kept under ``key``; None if there is none or it is damaged (said
    when it is opened, never executed)."""
    raw = store.read(key)
    if not raw:
        return None
    try:
        return Kept.from_json(raw)
    except Exception:
        return None


def opened_games(store: SaveStore) -> list[tuple[str, str]]:
    """The games by links this device keeps: (game id, title), for the start screen."""
    out = []
    for key in store.keys():
        if key.startswith(STORAGE_PREFIX):
            kept = stored(store, key)
            if kept is not None:
                r = kept.device.record
                seat = f" — you are {r.who(kept.device.seat)}" if kept.device.seat >= 0 else ""
                out.append((key[len(STORAGE_PREFIX) :], ", ".join(r.rules.names) + seat))
    return out


def letters(seats: tuple[int, ...] | list[int]) -> str:
    return ",".join(SEAT_LETTERS[s] for s in seats)


class LinkSession(Session):
    """The game on screen for a device in a game by links: always this device's seat's view
    (no pass screen), its own hand only, undo back to the start of its turn; the turn in
    progress (``draft``) is kept on the device until it is sent."""

    def __init__(self, kept: Kept) -> None:  # noqa: D107 (Session's fields)
        self.kept = kept
        device = kept.device
        self.table: Table = device.table()
        states: list[State] = list(self.table.states)  # this session's own, to go on with
        r = device.record
        record = GameRecord(
            players=r.players,
            seed=0,
            names=list(r.rules.names),
            colours=list(r.rules.colours),
            bots=[""] * r.players,
            moves=list(r.moves),
        )
        # Session's fields, from the fair replay rather than GameRecord.states()
        self.record = record
        self.states = states
        self.log = []
        self._log_index = []
        self.barrier = 0
        self.barrier_why = ""
        self._diffs = {}
        for i, move in enumerate(record.moves):
            self._after_move(i, states[i], move, states[i + 1])
        if self.table.prepared:
            self.states[-1] = self.table.state  # this seat's turn, its cards drawn
            self.barrier = len(record.moves)
            self.barrier_why = "your turn began (your cards were drawn)"
        self.shown = device.seat if device.seat >= 0 else None
        self.notice = ""
        for move in kept.draft:  # the turn in progress, as it was played (forced moves too)
            if not self.my_turn():
                break
            before = self.state
            try:
                self._push(before, move, before.apply(move))
            except IllegalMove:
                break  # a draft that no longer fits (it cannot happen): the rest is dropped

    @property
    def seat(self) -> int:
        return self.kept.device.seat

    def my_turn(self) -> bool:
        s = self.state
        return self.seat >= 0 and not self.over() and s.current_player == self.seat

    def over(self) -> bool:
        return self.state.is_over() or self.kept.device.record.abandoned >= 0

    @property
    def draft(self) -> list[str]:
        return self.record.moves[len(self.kept.device.record.moves) :]

    def needs_pass(self) -> bool:
        return False

    def viewer(self) -> int:
        return self.seat if self.seat >= 0 else self.state.turn

    def view(self) -> View:
        s = self.state
        if self.draft or self.table.prepared:
            v = s.view(self.viewer())
        else:
            v = self.table.view(self.viewer())
        if self.seat < 0:  # a device with no seat: the board, no hand
            me = replace(v.me, hand=None, draw_cards=None, to_draw=0)
            seats = v.seats[: v.seat] + (me,) + v.seats[v.seat + 1 :]
            return v.but(seats=seats, legal=(), spectator=True)
        if not self.my_turn():
            return v.but(legal=())
        return v

    def why_not(self, token: str) -> str:
        if self.seat < 0:
            return "This device watches the game: it holds no seat."
        if not self.my_turn() and not self.over():
            who = self.kept.device.record.who(self.state.current_player)
            return f"Wait for {who}'s link: it is their turn."
        return super().why_not(token)

    def play(self, token: str) -> State:
        if not self.my_turn():
            raise IllegalMove("it is not your turn on this device")
        return super().play(token)

    def turn_done(self) -> bool:
        """This seat's turn is played out (ended, or the game ended in it): time to send."""
        draft = self.draft
        return bool(draft) and (draft[-1] == "E" or self.state.is_over())


@dataclass(frozen=True)
class Arrival:
    """What opening a fair link did: the game kept (and whether it changed), or why not."""

    kept: Kept | None
    message: str = ""  # a refusal, for the alert
    invitation: bool = False  # an invitation this device may take a seat from


def outbox_after(device: Device, table: Table) -> tuple[str, tuple[int, ...]]:
    """The link this device is to send now and the seats it must reach."""
    r = device.record
    me = device.seat
    if me < 0:
        return "", ()
    stage = r.stage(table.over if r.started else False)
    others = tuple(s for s in range(r.players) if s != me)
    if stage is Stage.JOINING:
        return wire.encode(r), (len(r.anchors),)
    if stage is Stage.READY:  # the last to join sends back to the host
        return (wire.encode(r), (0,)) if me != 0 else ("", ())
    if stage is Stage.OVER:
        if r.secret_of(me):
            return wire.encode(r), tuple(s for s in others if not r.secret_of(s)) or others
        return "", ()
    return "", ()


def new_game(players: int, names: list[str], colours: list[str]) -> Kept:
    d = host(players, names, colours)
    return Kept(d, (), wire.encode(d.record), (1,))


def take_seat(record: FairRecord) -> Kept:
    """This device takes the next free seat; its link goes to the next free seat, or back
    to the host once every seat is taken."""
    d = join(record)
    r = d.record
    to = (len(r.anchors),) if len(r.anchors) < r.players else (0,)
    return Kept(d, (), wire.encode(r), to)


def arrive(kept: Kept | None, fragment: str) -> Arrival:
    """A fair link opened on this device (``kept``: what it holds of that game, if any)."""
    try:
        link = wire.decode(fragment)
    except (RecordError, Refused) as exc:
        return Arrival(None, str(exc))
    record = link.record
    if link.seat >= 0:  # a private move code: this device takes over the seat
        return Arrival(Kept(Device(record, link.seat, link.secret)))
    if kept is None:
        if record.stage(False) is Stage.JOINING:
            return Arrival(Kept(Device(record)), invitation=True)
        try:
            return Arrival(Kept(receive(None, record)))
        except Refused as exc:
            return Arrival(None, str(exc))
    try:
        device = receive(kept.device, record)
    except Refused as exc:
        return Arrival(kept, str(exc))
    if device.seat == 0 and device.record.stage(False) is Stage.READY:
        device = start(device)  # every seat has joined: the host starts the game
        return Arrival(
            Kept(device, (), wire.encode(device.record), tuple(range(1, device.record.players)))
        )
    table = device.table()
    if table.over and device.seat >= 0 and not device.record.secret_of(device.seat):
        device = reveal_secret(device)
    out, to = outbox_after(device, table)
    if not out and kept.outbox and device.record == kept.device.record:
        out, to = kept.outbox, kept.outbox_to  # nothing new: still to send what it was
    return Arrival(Kept(device, kept.draft if device.record == kept.device.record else (), out, to))


def send(session: LinkSession) -> Kept:
    """The seat's turn is done: the link with it, to every other seat."""
    kept = session.kept
    device = send_turn(kept.device, session.draft)
    table = device.table()
    if table.over:
        device = reveal_secret(device)
    others = tuple(s for s in range(device.record.players) if s != device.seat)
    return Kept(device, (), wire.encode(device.record), others)


def end_abandoned(kept: Kept) -> Kept:
    device = abandon(kept.device)
    others = tuple(s for s in range(device.record.players) if s != device.seat)
    return Kept(device, (), wire.encode(device.record), others)


_AUDITS: dict[bytes, AuditReport] = {}


def audit_of(kept: Kept) -> AuditReport | None:
    """The end audit, once the game is over and every secret it needs is on this device;
    None before that. (Worked out once per game and set of secrets.)"""
    record = kept.device.record
    if not record.started or missing(record) or not kept.device.table().over:
        return None
    key = keys.history_next(record.game_id, [*record.moves, *(s.hex() for s in record.secrets)])
    report = _AUDITS.get(key)
    if report is None:
        report = _AUDITS[key] = audit(record)
    return report


def move_code(kept: Kept) -> str:
    """This seat's private code to move it to another device (never sent to others)."""
    d = kept.device
    return wire.encode(d.record, d.seat, d.secret)


def waiting_for(kept: Kept) -> int | None:
    """The seat whose link this device waits for, if any."""
    d = kept.device
    r = d.record
    if d.seat < 0:
        return None
    if not r.started:  # the host waits for the invitations to come round; the others, the start
        return r.players - 1 if d.seat == 0 else 0
    table = d.table()
    if table.over:
        left = missing(r)
        return left[0] if left and d.seat not in left else None
    return None if table.next_seat == d.seat else table.next_seat


__all__ = [
    "CURRENT_KEY",
    "IN_A_FRAME",
    "NO_STORAGE",
    "Arrival",
    "Kept",
    "LinkSession",
    "arrive",
    "audit_of",
    "cannot_keep",
    "end_abandoned",
    "letters",
    "move_code",
    "new_game",
    "opened_games",
    "send",
    "storage_key",
    "stored",
    "take_seat",
    "waiting_for",
]
