"""A decision as a value (as python-chess's ``Move``), and the error for one not legal.

A :class:`Move` is read once from its text notation (docs/NOTATION.md) into typed fields
and is still that text: ``str(move)`` is the token, a move equals and hashes as its token,
and everything that takes a token takes a move. Nothing else reads a move's characters:
code asks ``move.kind``, ``move.space``, ``move.card``... and builds moves with the
functions below (:func:`ship`, :func:`play`, ...), which write the token.

Each distinct token is read once per process and kept: the engine hands out the same
object every time (legal-move generation makes thousands a second).
"""

from __future__ import annotations

from typing import Any

# What a decision is (``Move.kind``)
END = "end"  # E: end the turn
LAUNCH = "launch"  # Lc0: a ship from the Dock onto a gate (``space``)
PLAY = "play"  # b7u: a card (``card``) played a way (``mode``: u r s l)
SHIP = "ship"  # @c3: the ship that acts (``space``)
DEST = "dest"  # >c5: where it goes (``space``)
TARGET = "target"  # !c4: the opponent's ship (``space``)
SPAWN = "spawn"  # *b3: the Asteroid for a drawn Shard (``space``)
LEAVE = "leave"  # x2: Shards left behind (``number``)
BAY = "bay"  # B0: the Cargo Bay for an unloaded Shard (``number``)
UPGRADE = "upgrade"  # U1-U3, UD: a face-up Academy card (``number`` 1-3) or the deck (0)
REORDER = "reorder"  # Rt, R0: a Re-order of the tops (``number`` -1) or of one bay
COLOUR = "colour"  # ck: the next Shard's colour (``colour``)
DIR = "dir"  # d+ d-: a push's direction along the ring (``number`` +1 / -1)
DONE = "done"  # done: stop (a Skip), or stay put (an optional Orbit)
UNKNOWN = "unknown"  # not a decision of this game

_SPACE_HEADS = {"L": LAUNCH, "@": SHIP, ">": DEST, "!": TARGET, "*": SPAWN}
_NUMBER_HEADS = {"x": LEAVE, "B": BAY, "R": REORDER}
_CACHE: dict[str, Move] = {}


class Move(str):
    """One decision: its token (the string itself) and its parts, read once.

    ``kind`` says what it is (the constants above); ``space`` (a space's name), ``card``,
    ``mode``, ``number`` and ``colour`` hold its parts ("" or 0 where it has none)."""

    kind: str
    space: str
    card: str
    mode: str
    number: int
    colour: str

    def __new__(cls, text: str) -> Move:
        move = _CACHE.get(text)
        if move is None:
            move = _read(str(text))
        return move

    @classmethod
    def parse(cls, text: str) -> Move:
        return cls(text.strip())

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Move is a value")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Move, (str(self),))


def _read(text: str) -> Move:
    move = str.__new__(Move, text)
    kind, space, card, mode, number, colour = UNKNOWN, "", "", "", 0, ""
    head, rest = text[:1], text[1:]
    if text == "E":
        kind = END
    elif text == "done":
        kind = DONE
    elif text in ("d+", "d-"):
        kind, number = DIR, 1 if text == "d+" else -1
    elif head in _SPACE_HEADS:  # the space may be no space: the layout says
        kind, space = _SPACE_HEADS[head], rest
    elif head == "U":  # UD (or anything else after U): 0, the deck
        kind, number = UPGRADE, int(rest) if _is_number(rest) else 0
    elif text == "Rt":
        kind, number = REORDER, -1
    elif head in _NUMBER_HEADS and _is_number(rest):
        kind, number = _NUMBER_HEADS[head], int(rest)
    elif head == "c" and rest in ("k", "r", "y"):
        kind, colour = COLOUR, rest
    elif head in ("b", "s") and len(text) >= 3 and _is_number(text[1:-1]):
        # the way it is played may be no way (b7q): the rules say why not
        kind, card, mode = PLAY, text[:-1], text[-1]
    d = move.__dict__
    d["kind"], d["space"], d["card"], d["mode"], d["number"], d["colour"] = (
        kind,
        space,
        card,
        mode,
        number,
        colour,
    )
    if kind != UNKNOWN:  # anything may be asked about; only decisions are kept
        _CACHE[text] = move
    return move


def _is_number(text: str) -> bool:
    return text.isdigit() and text.isascii()


# -- writing: a move from its parts -------------------------------------------------------
def end() -> Move:
    return Move("E")


def launch(space: str) -> Move:
    return Move("L" + space)


def play(card: str, mode: str) -> Move:
    return Move(card + mode)


def ship(space: str) -> Move:
    return Move("@" + space)


def dest(space: str) -> Move:
    return Move(">" + space)


def target(space: str) -> Move:
    return Move("!" + space)


def spawn(space: str) -> Move:
    return Move("*" + space)


def leave(n: int) -> Move:
    return Move(f"x{n}")


def bay(b: int) -> Move:
    return Move(f"B{b}")


def upgrade(i: int) -> Move:
    """Face-up Academy card ``i`` (1-3), or the Academy Deck's top card (0)."""
    return Move(f"U{i}" if i else "UD")


def reorder(b: int) -> Move:
    """Re-order bay ``b`` (0-2), or the tops of the bays (-1)."""
    return Move(f"R{b}" if b >= 0 else "Rt")


def colour(c: str) -> Move:
    return Move("c" + c)


def direction(d: int) -> Move:
    return Move("d+" if d == 1 else "d-")


def done() -> Move:
    return Move("done")


class IllegalMove(ValueError):
    """A decision that is not legal now; the message says why."""
