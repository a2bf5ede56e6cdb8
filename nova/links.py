"""Games in links: a whole :class:`~nova.record.GameRecord` packed into a URL fragment.

A link carries the set-up (players, seed, variant, names, colours, bots) and the moves.
The moves are stored compactly as the position of each decision in the sorted list of
that moment's legal decisions, all packed into one mixed-radix number: a forced
decision costs nothing and a choice among 19 costs log2(19) bits, so a whole 4-player
game fits in a few hundred characters. Encoding and decoding replay the game with the
engine to know how many choices there were at each step.

Fragment: ``n<version>.<base64url>``. The bytes are a CRC-32 of everything (so any
edit or truncation is caught), a flags byte and the content, raw-deflated when that is
shorter. A record that does not replay (moves from another rules version) is carried
as its move tokens instead, so the reader sees exactly which move fails.

Decoding never executes anything (no eval, no pickle), bounds every size before
using it and turns every problem into :class:`RecordError` with a message for a player.

A link carries the seed: someone who reads the code could work out the hidden cards.
Links are for friendly play (see docs/LINKS.md).

>>> r = GameRecord(players=2, seed=7)
>>> r.moves = [str(r.state().legal_moves()[0])]
>>> decode(encode(r)) == r
True
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib

from .record import MAX_MOVES, GameRecord, RecordError
from .rules import State

LINK_VERSION = 2  # 2 carries the rules content version; a version-1 link is content 1
PREFIX = "n"  # "n2.…": a Nova Raiders game link, format version 2
MAX_FRAGMENT = 65536  # characters; a whole game is well under 1,000
MAX_CONTENT = 262144  # bytes after inflating: refuse deflate bombs
MAX_VARIANT = 65536  # bytes of variant JSON
MAX_TEXT = 128  # bytes of one name, colour, bot or move token, in UTF-8
CLIP = {"names": 24, "colours": 16, "bots": 16}  # characters, as GameRecord.from_dict clips
MAX_SEED = 2**63

FLAG_DEFLATED = 1
FORM_INDEX = 0  # moves as positions among the sorted legal decisions (compact)
FORM_TOKENS = 1  # moves as their text tokens (any record, even one that does not replay)

# Which optional fields are present (bit set) or left at GameRecord's defaults.
HAS_VARIANT, HAS_NAMES, HAS_COLOURS, HAS_BOTS = 1, 2, 4, 8

BROKEN = "this game link is damaged (cut short or changed); ask for the link again"
OTHER_RULES = (
    "this game link was made with a different version of the rules and does not replay "
    "the same way here"
)


class _Bad(Exception):
    """Internal: malformed bytes; turned into the player-facing BROKEN message."""


# -- byte helpers --------------------------------------------------------------------------
def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def varint(self, limit: int) -> int:
        n = shift = 0
        while True:
            if self.pos >= len(self.data) or shift > 70:
                raise _Bad
            b = self.data[self.pos]
            self.pos += 1
            n |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        if n > limit:
            raise _Bad
        return n

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise _Bad
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def text(self, limit: int) -> str:
        return self.take(self.varint(limit)).decode("utf-8")

    def done(self) -> bool:
        return self.pos == len(self.data)


def _text(s: str) -> bytes:
    b = s.encode("utf-8")
    return _varint(len(b)) + b


def _sorted_legal(s: State) -> list[str]:
    # Sorted tokens rather than the engine's order, so a refactor that only reorders
    # legal_moves() keeps old links working.
    return sorted(str(m) for m in s.legal_moves())


def _moves_crc(moves: list[str]) -> int:
    return zlib.crc32(" ".join(moves).encode("utf-8"))


def _pack_indices(record: GameRecord) -> bytes | None:
    """The moves as one mixed-radix number, or None if the record does not replay."""
    try:
        s = record.initial_state()
    except RecordError:
        return None
    picks: list[tuple[int, int]] = []
    for move in record.moves:
        if s.is_over():
            return None
        legal = _sorted_legal(s)
        try:
            i = legal.index(str(move))
        except ValueError:
            return None
        picks.append((i, len(legal)))
        s = s.apply(move)
    number = 0
    for i, radix in reversed(picks):
        number = number * radix + i
    blob = number.to_bytes((number.bit_length() + 7) // 8, "big")
    return _varint(len(blob)) + blob + _moves_crc(record.moves).to_bytes(4, "big")


# -- encode --------------------------------------------------------------------------------
def encode(record: GameRecord) -> str:
    """The URL fragment (without '#') that carries ``record``."""
    if not 0 <= record.seed < MAX_SEED:
        raise RecordError("the game's seed is out of range")
    if len(record.moves) > MAX_MOVES:
        raise RecordError("the game is too long to share")
    default = GameRecord(players=record.players, seed=record.seed)
    fields = 0
    tail = b""
    if record.variant is not None:
        fields |= HAS_VARIANT
        tail += _text(json.dumps(record.variant, separators=(",", ":"), sort_keys=True))
    for bit, key in ((HAS_NAMES, "names"), (HAS_COLOURS, "colours"), (HAS_BOTS, "bots")):
        mine = [str(x)[: CLIP[key]] for x in getattr(record, key)]
        if mine != getattr(default, key):
            if len(mine) != record.players:
                raise RecordError(f"the game has {len(mine)} {key} for {record.players} players")
            fields |= bit
            tail += b"".join(_text(x) for x in mine)
    packed = _pack_indices(record)
    if packed is None:
        form, moves = FORM_TOKENS, b"".join(_text(str(m)[:12]) for m in record.moves)
    else:
        form, moves = FORM_INDEX, packed
    content = (
        _varint(record.players)
        + _varint(record.seed)
        + _varint(len(record.moves))
        + bytes([form, fields])
        + _varint(record.content)
        + tail
        + moves
    )
    return wrap(f"{PREFIX}{LINK_VERSION}.", content)


def wrap(head: str, content: bytes) -> str:
    """A link's envelope (friendly and fair links alike): ``head``, then base64url of a
    CRC-32 of the head and of the rest, a flags byte and the content, raw-deflated when
    that is shorter."""
    deflater = zlib.compressobj(9, zlib.DEFLATED, -15)
    squeezed = deflater.compress(content) + deflater.flush()
    flags, body = (FLAG_DEFLATED, squeezed) if len(squeezed) < len(content) else (0, content)
    rest = bytes([flags]) + body
    crc = zlib.crc32(rest, zlib.crc32(head.encode("ascii")))
    b64 = base64.urlsafe_b64encode(crc.to_bytes(4, "big") + rest).decode("ascii")
    return head + b64.rstrip("=")


# -- decode --------------------------------------------------------------------------------
def unwrap(head: str, b64: str) -> bytes:
    """The content of a link's envelope (:func:`wrap`); :class:`_Bad` if it is damaged."""
    if not b64.isascii() or len(b64) % 4 == 1:
        raise _Bad
    try:
        raw = base64.urlsafe_b64decode(b64 + "=" * (-len(b64) % 4))
    except (binascii.Error, ValueError):
        raise _Bad from None
    # Only the canonical spelling is accepted: an edit to the unused bits of the last
    # character would otherwise slip past the checksum.
    if base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=") != b64 or len(raw) < 5:
        raise _Bad
    crc, rest = int.from_bytes(raw[:4], "big"), raw[4:]
    if zlib.crc32(rest, zlib.crc32(head.encode("ascii"))) != crc:
        raise _Bad
    flags, body = rest[0], rest[1:]
    if flags & ~FLAG_DEFLATED:
        raise _Bad
    if flags & FLAG_DEFLATED:
        inflater = zlib.decompressobj(-15)
        try:
            body = inflater.decompress(body, MAX_CONTENT)
        except zlib.error:
            raise _Bad from None
        if inflater.unconsumed_tail or not inflater.eof:
            raise _Bad
    return body


def decode(fragment: str) -> GameRecord:
    """The game a link carries; :class:`RecordError` with a player's message otherwise.

    Accepts the fragment with or without its leading '#'. The returned record replays.
    """
    if not isinstance(fragment, str):
        raise RecordError("this is not a Nova Raiders game link")
    text = fragment.strip()
    if text.startswith("#"):
        text = text[1:]
    if not text:
        raise RecordError("this link holds no game")
    if len(text) > MAX_FRAGMENT:
        raise RecordError("this game link is far too long to be a real game")
    head, dot, b64 = text.partition(".")
    version = head[len(PREFIX) :]
    if not head.startswith(PREFIX) or not dot or not version.isascii() or not version.isdigit():
        raise RecordError("this is not a Nova Raiders game link")
    if len(version) > 6 or int(version) > LINK_VERSION:
        raise RecordError(
            "this game link was made by a newer version of Nova Raiders; reload the page to update"
        )
    if int(version) < 1:
        raise RecordError("this is not a Nova Raiders game link")
    try:
        return _decode(head + ".", b64, int(version))
    except _Bad:
        raise RecordError(BROKEN) from None


def _decode(head: str, b64: str, version: int) -> GameRecord:
    body = unwrap(head, b64)
    try:
        return _read_content(_Reader(body), version)
    except UnicodeDecodeError:
        raise _Bad from None


def _read_content(r: _Reader, version: int) -> GameRecord:
    players = r.varint(4)
    if players not in (2, 3, 4):
        raise RecordError("a game needs 2 to 4 players")
    seed = r.varint(MAX_SEED - 1)
    count = r.varint(MAX_MOVES)
    form, fields = r.take(1)[0], r.take(1)[0]
    if form not in (FORM_INDEX, FORM_TOKENS) or fields & ~15:
        raise _Bad
    content = r.varint(1 << 20) if version >= 2 else 1  # links before content 2 had none
    variant = None
    if fields & HAS_VARIANT:
        variant = _read_variant(r.text(MAX_VARIANT))
    default = GameRecord(players=players, seed=seed)
    lists = {}
    for bit, key in ((HAS_NAMES, "names"), (HAS_COLOURS, "colours"), (HAS_BOTS, "bots")):
        if fields & bit:
            lists[key] = [r.text(MAX_TEXT) for _ in range(players)]
        else:
            lists[key] = list(getattr(default, key))
    if form == FORM_TOKENS:
        moves = [r.text(MAX_TEXT) for _ in range(count)]
        if not r.done():
            raise _Bad
        record = _record(players, seed, variant, lists, moves, content)
        _safe_replay(record)  # names the first move that is not legal here
        return record
    blob = r.take(r.varint(MAX_CONTENT))
    moves_crc = int.from_bytes(r.take(4), "big")
    if not r.done():
        raise _Bad
    record = _record(players, seed, variant, lists, [], content)
    record.moves = _unpack_indices(record, int.from_bytes(blob, "big"), count)
    if _moves_crc(record.moves) != moves_crc:
        raise RecordError(OTHER_RULES)
    return record


def _read_variant(text: str) -> dict:
    try:
        variant = json.loads(text)
    except (ValueError, RecursionError):
        raise _Bad from None
    if not isinstance(variant, dict):
        raise _Bad
    return variant


def _record(
    players: int, seed: int, variant, lists: dict, moves: list[str], content: int
) -> GameRecord:
    # from_dict applies the same checks and clipping as a save, so links and saves agree.
    return GameRecord.from_dict(
        {
            "format": "nova-game",
            "v": 2,
            "content": content,
            "players": players,
            "seed": seed,
            "variant": variant,
            "moves": moves,
            **lists,
        }
    )


def _initial(record: GameRecord) -> State:
    try:
        return record.initial_state()
    except RecordError:
        raise
    except Exception:  # a variant the engine's checks missed must not crash the page
        raise RecordError("this game's variant is not valid") from None


def _safe_replay(record: GameRecord) -> State:
    if record.variant is not None:
        _initial(record)
    try:
        return record.state()
    except RecordError:
        raise
    except Exception:
        raise RecordError("this game link's moves cannot be replayed") from None


def _unpack_indices(record: GameRecord, number: int, count: int) -> list[str]:
    s = _initial(record)
    moves: list[str] = []
    for n in range(count):
        if s.is_over():
            raise RecordError(f"move {n + 1} comes after the end of the game: {OTHER_RULES}")
        legal = _sorted_legal(s)
        number, i = divmod(number, len(legal))
        moves.append(legal[i])
        s = s.apply(legal[i])
    if number:  # the checksum held, so the choices were fewer here than where it was made
        raise RecordError(OTHER_RULES)
    return moves
