"""The hashes of fair play by links (docs/LINKS.md, "Fair play by links"): a seat's secret,
its hash chain of reveals, its draw key, and the public chance values. SHA-256 and HMAC
from the standard library only; every input is spelled out here so that a second program
can audit a game from the docs alone.

>>> k = bytes(32)
>>> a = anchor(k)
>>> reveal(k, 3) == a or chain_down(reveal(k, 3), 3) == a
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from functools import lru_cache

SECRET_BYTES = 32
VALUE_BYTES = 16  # a reveal, an anchor, a seal
CHAIN_LENGTH = 256  # reveals a seat can make: the set-up, its turns and more
GAME_ID_BYTES = 8


def new_secret() -> bytes:
    """A seat's secret, made on its own device (Pyodide maps this to getRandomValues)."""
    return secrets.token_bytes(SECRET_BYTES)


def _hmac(key: bytes, *parts: bytes) -> bytes:
    return hmac.new(key, b"".join(parts), hashlib.sha256).digest()


def _sha(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def step_down(value: bytes) -> bytes:
    """One link down the chain: ``y[i-1]`` from ``y[i]``."""
    return _sha(b"nova-fair/link", value)[:VALUE_BYTES]


@lru_cache(maxsize=4096)
def chain_from(value: bytes, count: int) -> tuple[bytes, ...]:
    """``y[0] … y[count]`` from ``y[count] = value`` (a replay asks for them again and again)."""
    out = [value]
    for _ in range(count):
        out.append(step_down(out[-1]))
    return tuple(reversed(out))


def chain_down(value: bytes, times: int) -> bytes:
    return chain_from(value, times)[0]


def reveal(secret: bytes, j: int) -> bytes:
    """The seat's ``j``-th reveal ``y[j]`` (``y[0]`` is its anchor)."""
    if not 0 <= j <= CHAIN_LENGTH:
        raise ValueError(f"reveal {j} is outside the chain (0..{CHAIN_LENGTH})")
    top = _hmac(secret, b"nova-fair/chain")[:VALUE_BYTES]
    return chain_from(top, CHAIN_LENGTH)[j]


def anchor(secret: bytes) -> bytes:
    return reveal(secret, 0)


def draw_key(secret: bytes) -> bytes:
    return _hmac(secret, b"nova-fair/draw")


def game_id(host_anchor: bytes) -> bytes:
    return _sha(b"nova-fair/game", host_anchor)[:GAME_ID_BYTES]


def setup_value(anchors: list[bytes], host_reveal: bytes) -> bytes:
    """``P0``: the public set-up's chance, from every anchor and the host's first reveal."""
    return _sha(b"nova-fair/setup", *anchors, host_reveal)


def setup_seed(p0: bytes) -> int:
    return int.from_bytes(_hmac(p0, b"nova-fair/seed")[:8], "big") % (2**63)


def turn_value(turn: int, reveals: list[tuple[int, bytes]]) -> bytes:
    """``P_t``: turn ``turn``'s public chance, from each seat's latest (count, reveal)."""
    parts = [b"nova-fair/turn", u32(turn)]
    for count, value in reveals:
        parts += [u32(count), value]
    return _sha(*parts)


def stream(p: bytes, name: str) -> int:
    """A 64-bit seed for one public source (``bag``, ``academy``) of a turn."""
    return int.from_bytes(_hmac(p, b"nova-fair/" + name.encode())[:8], "big")


def draw_index(key: bytes, p: bytes, i: int, size: int) -> int:
    """The ``i``-th private draw of a turn: a position in the sorted draw pile of ``size``."""
    u = int.from_bytes(_hmac(key, b"nova-fair/draw", p, u32(i))[:8], "big")
    return u % size


def history_start(setup_bytes: bytes) -> bytes:
    return _sha(b"nova-fair/history", setup_bytes)


def history_next(h: bytes, moves: list[str]) -> bytes:
    return _sha(h, " ".join(moves).encode())


def seal(next_reveal: bytes, h: bytes) -> bytes:
    return _hmac(next_reveal, h)[:VALUE_BYTES]
