"""The bytes of a fair link, ``f1.<base64url>`` (docs/LINKS.md, "Fair play by links: the
bytes"). Like a friendly link (:mod:`nova.links`): a CRC-32 over everything, a flags byte,
the body raw-deflated when that is shorter; sizes bounded before use; nothing executed.

Moves are stored as positions among the decisions of the state in which the mover's hand is
its whole undrawn pool (:func:`table.public_choices`), packed into one mixed-radix number:
the bits are the same whatever the hidden cards are.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass

from ..links import (
    MAX_CONTENT,
    MAX_FRAGMENT,
    MAX_VARIANT,
    _Bad,
    _read_variant,
    _Reader,
    _text,
    _varint,
    unwrap,
    wrap,
)
from ..record import MAX_MOVES, RecordError
from ..rules import CONTENT_VERSION, State
from . import keys
from .device import Device, keep_table
from .record import FairRecord, Reveal, Rules
from .table import ListedMoves, Refused, public_choices, replay

PREFIX = "f"
VERSION = 1
HEAD = f"{PREFIX}{VERSION}."
# what follows the rules (bit set: present)
HAS_VARIANT, HAS_STARTED, HAS_SEALS, HAS_ABANDONED, HAS_SECRETS, HAS_MOVE_CODE = 1, 2, 4, 8, 16, 32

BROKEN = "this game link is damaged (cut short or changed); ask for the link again"


@dataclass(frozen=True)
class Link:
    """What a fair link holds: the record, and, in a private move code only, a seat's secret."""

    record: FairRecord
    seat: int = -1
    secret: bytes = b""


def is_fair(fragment: str) -> bool:
    return isinstance(fragment, str) and fragment.lstrip("#").startswith(PREFIX)


class _Packed:
    """Moves unpacked from the mixed-radix number while the game replays."""

    def __init__(self, number: int, count: int):
        self.number = number
        self.count = count

    def __len__(self) -> int:
        return self.count

    def move(self, i: int, s: State) -> str:
        options = public_choices(s)
        if not options:
            raise _Bad
        self.number, k = divmod(self.number, len(options))
        return options[k]


# The last few links made and read: a page writes and reads the same game's link several
# times per move (its storage, the link to send), and each means a replay.
_MADE: dict[tuple, str] = {}
_READ: dict[str, Link] = {}


def forget() -> None:
    """Drop the links remembered (a benchmark times the work itself)."""
    _MADE.clear()
    _READ.clear()


def _remember(cache: dict, key, value):
    if len(cache) >= 16:
        cache.pop(next(iter(cache)))
    cache[key] = value
    return value


def _made_key(r: FairRecord, seat: int, secret: bytes) -> tuple:
    return (r.rules.canonical(), r.anchors, r.reveals, r.seals, r.moves, r.abandoned,
            r.abandoned_by, r.secrets, seat, secret)  # fmt: skip


def encode(record: FairRecord, seat: int = -1, secret: bytes = b"") -> str:
    """The fragment (without '#'); with ``seat`` and ``secret``, a private move code."""
    key = _made_key(record, seat, secret)
    made = _MADE.get(key)
    if made is None:
        made = _remember(_MADE, key, _encode(record, seat, secret))
    return made


def _encode(record: FairRecord, seat: int, secret: bytes) -> str:
    rules = record.rules
    fields = 0
    body = _varint(rules.players) + _varint(rules.content)
    tail = b""
    if rules.variant is not None:
        fields |= HAS_VARIANT
        tail += _text(json.dumps(rules.variant, separators=(",", ":"), sort_keys=True))
    tail += b"".join(_text(n) for n in rules.names) + b"".join(_text(c) for c in rules.colours)
    tail += _varint(len(record.anchors)) + b"".join(record.anchors)
    if record.started:
        fields |= HAS_STARTED
        for r in record.reveals:
            tail += _varint(r.count) + (r.value if r.count else b"")
        choices: list[tuple[int, int]] = []
        replay(record, {}, prepare=False, source=ListedMoves(record.moves, choices))
        number = 0
        for k, radix in reversed(choices):
            number = number * radix + k
        blob = number.to_bytes((number.bit_length() + 7) // 8, "big")
        crc = zlib.crc32(" ".join(record.moves).encode())
        tail += _varint(len(record.moves)) + _varint(len(blob)) + blob + crc.to_bytes(4, "big")
        if any(record.seals):
            fields |= HAS_SEALS
            tail += bytes([sum(1 << i for i, s in enumerate(record.seals) if s)])
            tail += b"".join(s for s in record.seals if s)
    if record.abandoned >= 0:
        fields |= HAS_ABANDONED
        tail += bytes([record.abandoned, record.abandoned_by])
    if any(record.secrets):
        fields |= HAS_SECRETS
        tail += bytes([sum(1 << i for i, s in enumerate(record.secrets) if s)])
        tail += b"".join(s for s in record.secrets if s)
    if seat >= 0:
        fields |= HAS_MOVE_CODE
        tail += bytes([seat]) + secret
    return wrap(HEAD, body + bytes([fields]) + tail)


def decode(fragment: str) -> Link:
    """The game a fair link carries; :class:`RecordError` with a player's message otherwise
    (a link that decodes but breaks a rule raises :class:`Refused`, also a message)."""
    text = fragment.strip().lstrip("#") if isinstance(fragment, str) else ""
    if not text.startswith(PREFIX):
        raise RecordError("this is not a Nova Raiders game link")
    if len(text) > MAX_FRAGMENT:
        raise RecordError("this game link is far too long to be a real game")
    head, dot, b64 = text.partition(".")
    version = head[len(PREFIX) :]
    if not dot or not version.isascii() or not version.isdigit():
        raise RecordError("this is not a Nova Raiders game link")
    if len(version) > 6 or int(version) > VERSION:
        raise RecordError(
            "this game link was made by a newer version of Nova Raiders; reload the page to update"
        )
    read = _READ.get(text)
    if read is not None:
        return read
    try:
        link = _remember(_READ, text, _decode(b64))
    except (_Bad, UnicodeDecodeError, ValueError) as exc:
        if isinstance(exc, (RecordError, Refused)):
            raise
        raise RecordError(BROKEN) from None
    # the link is this record's spelling: making it again would replay the game once more
    _remember(_MADE, _made_key(link.record, link.seat, link.secret), text)
    return link


def _decode(b64: str) -> Link:
    body = unwrap(HEAD, b64)
    r = _Reader(body)
    players = r.varint(4)
    if players not in (2, 3, 4):
        raise _Bad
    content = r.varint(1 << 20)
    if content != CONTENT_VERSION:
        raise RecordError(
            "this game by links uses other rules content than this version of Nova Raiders; "
            "reload the page to update"
        )
    fields = r.take(1)[0]
    if fields & ~63:
        raise _Bad
    variant = _read_variant(r.text(MAX_VARIANT)) if fields & HAS_VARIANT else None
    names = tuple(r.text(96)[:24] for _ in range(players))
    colours = tuple(r.text(64)[:16] for _ in range(players))
    rules = Rules(players, names, colours, variant, content)
    joined = r.varint(players)
    if joined < 1:
        raise _Bad
    anchors = tuple(r.take(keys.VALUE_BYTES) for _ in range(joined))
    record = FairRecord(rules, anchors)
    number, count = 0, 0
    if fields & HAS_STARTED:
        if joined != players:
            raise _Bad
        reveals = []
        for _ in range(players):
            n = r.varint(keys.CHAIN_LENGTH)
            reveals.append(Reveal(n, r.take(keys.VALUE_BYTES)) if n else Reveal())
        count = r.varint(MAX_MOVES)
        number = int.from_bytes(r.take(r.varint(MAX_CONTENT)), "big")
        moves_crc = int.from_bytes(r.take(4), "big")
        seals = [b""] * players
        if fields & HAS_SEALS:
            mask = r.take(1)[0]
            seals = [r.take(keys.VALUE_BYTES) if mask >> i & 1 else b"" for i in range(players)]
        record = FairRecord(rules, anchors, tuple(reveals), tuple(seals))
    elif fields & HAS_SEALS:
        raise _Bad
    abandoned, by = -1, -1
    if fields & HAS_ABANDONED:
        abandoned, by = r.take(1)[0], r.take(1)[0]
        if abandoned >= players or by >= players or abandoned == by:
            raise _Bad
    secrets: tuple[bytes, ...] = ()
    if fields & HAS_SECRETS:
        mask = r.take(1)[0]
        secrets = tuple(r.take(keys.SECRET_BYTES) if mask >> i & 1 else b"" for i in range(players))
    seat, secret = -1, b""
    if fields & HAS_MOVE_CODE:
        seat = r.take(1)[0]
        secret = r.take(keys.SECRET_BYTES)
        if seat >= joined:
            raise _Bad
    if not r.done():
        raise _Bad
    record = FairRecord(rules, anchors, record.reveals, record.seals, (), abandoned, by, secrets)
    if record.started:
        for seat_, rv in enumerate(record.reveals):
            if rv.count and keys.chain_down(rv.value, rv.count) != anchors[seat_]:
                raise Refused(
                    f"this link carries a turn for {record.who(seat_)} that was not made on "
                    f"{record.name(seat_)}'s device (its key is wrong)"
                )
        packed = _Packed(number, count)
        table = replay(record, {}, prepare=False, source=packed)
        if packed.number:
            raise _Bad
        if table.record.moves and zlib.crc32(" ".join(table.record.moves).encode()) != moves_crc:
            raise _Bad
        if not table.record.moves and moves_crc != zlib.crc32(b""):
            raise _Bad
        record = table.record
        if seat < 0:  # the replay a device watching this game would make: keep it
            keep_table(Device(record), table)
    return Link(record, seat, secret)
