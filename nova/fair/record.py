"""What a fair link carries: the public record of a game played by links.

:class:`Rules` is the game's set-up as the host chose it; :class:`FairRecord` adds every
seat's anchor, the latest reveal and seal of each seat, the moves, and (at the end) the
secrets. Everything here is public: a seat's secret appears only once the game is over
(docs/LINKS.md, "Fair play by links").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from ..rules import CONTENT_VERSION, content_variant
from . import keys

SEAT_LETTERS = "ABCD"
# The readings of the rules that play by links needs (docs/RULES.md, R43 and R47).
BY_LINKS_SETTINGS = {"spawn_placed_by": "trigger", "academy_top_card": "shown"}


class Stage(Enum):
    JOINING = "joining"  # invitations going round, some seats free
    READY = "ready"  # every seat joined; the host has not started it yet
    PLAYING = "playing"
    OVER = "over"


@dataclass(frozen=True)
class Rules:
    players: int
    names: tuple[str, ...]
    colours: tuple[str, ...]
    variant: dict[str, Any] | None = field(default=None, compare=True)
    content: int = CONTENT_VERSION

    def engine_variant(self) -> dict[str, Any]:
        """The variant the engine plays: the game's own, with the by-links readings."""
        variant = json.loads(json.dumps(self.variant)) if self.variant else {}
        settings = dict(variant.get("settings") or {})
        settings.update(BY_LINKS_SETTINGS)
        variant["settings"] = settings
        merged = content_variant(self.content, variant)
        assert merged is not None
        return merged

    def canonical(self) -> bytes:
        """The rules as bytes for the history digest (docs/LINKS.md)."""
        data = {
            "players": self.players,
            "names": list(self.names),
            "colours": list(self.colours),
            "variant": self.variant,
            "content": self.content,
        }
        return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


@dataclass(frozen=True)
class Reveal:
    """A seat's latest reveal: its ``count``-th chain value (count 0: none yet)."""

    count: int = 0
    value: bytes = b""

    def at(self, j: int) -> bytes | None:
        """The seat's ``j``-th reveal, if this one lets anyone compute it."""
        if j > self.count or j < 0:
            return None
        return keys.chain_from(self.value, self.count)[j]


@dataclass(frozen=True)
class FairRecord:
    rules: Rules
    anchors: tuple[bytes, ...]
    reveals: tuple[Reveal, ...] = ()  # one per seat once the game has started
    seals: tuple[bytes, ...] = ()  # each seat's latest seal (b"": none yet)
    moves: tuple[str, ...] = ()
    abandoned: int = -1  # the seat the game was ended without, or -1
    abandoned_by: int = -1
    secrets: tuple[bytes, ...] = ()  # revealed at the end (b"": not yet)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def game_id(self) -> bytes:
        return keys.game_id(self.anchors[0])

    @property
    def started(self) -> bool:
        return bool(self.reveals)

    def stage(self, over: bool) -> Stage:
        if len(self.anchors) < self.players:
            return Stage.JOINING
        if not self.started:
            return Stage.READY
        return Stage.OVER if over or self.abandoned >= 0 else Stage.PLAYING

    def secret_of(self, seat: int) -> bytes:
        return self.secrets[seat] if seat < len(self.secrets) else b""

    def with_secret(self, seat: int, secret: bytes) -> FairRecord:
        out = list(self.secrets) + [b""] * (self.players - len(self.secrets))
        out[seat] = secret
        return replace(self, secrets=tuple(out))

    def name(self, seat: int) -> str:
        return self.rules.names[seat]

    def who(self, seat: int) -> str:
        """A seat in words: its name and letter."""
        return f"{self.rules.names[seat]} ({SEAT_LETTERS[seat]})"
