"""Saved games in a key-value store shaped like ``localStorage``, pure and testable.

Each game is its own key (``nova:save:<id>``), so one damaged save never hides the
others. The store may be missing or throw on every call (private mode, a partitioned
iframe): then :attr:`SaveStore.available` is False and the game plays unsaved.
Nothing read from a save is executed; records are checked by ``GameRecord.from_dict``.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass

from ..record import GameRecord, RecordError

PREFIX = "nova:save:"
CURRENT = "nova:current"
SAVE_FORMAT = "nova-save"
SAVE_VERSION = 1
ID_RE = re.compile(r"^[a-z0-9]{1,32}$")
MAX_SAVE_CHARS = 400_000


@dataclass
class SaveEntry:
    id: str
    title: str = ""
    saved: float = 0.0
    moves: int = 0
    over: bool = False
    error: str = ""  # a player's message when the save cannot be opened


class MemoryStorage:
    """A dict with localStorage's methods (tests, and the fallback when storage is off)."""

    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def getItem(self, key: str) -> str | None:  # noqa: N802 - the Web Storage names
        return self.data.get(key)

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        self.data[key] = str(value)

    def removeItem(self, key: str) -> None:  # noqa: N802
        self.data.pop(key, None)

    def key(self, i: int) -> str | None:
        keys = list(self.data)
        return keys[i] if 0 <= i < len(keys) else None

    @property
    def length(self) -> int:
        return len(self.data)


def new_id(seed: int = 0) -> str:
    return f"{int(time.time() * 1000):x}{seed % 4096:03x}"


class SaveStore:
    def __init__(self, backend: object | None) -> None:
        self.backend = backend
        self.available = backend is not None and self._probe()
        self.error = "" if self.available else "Saving is off: this browser blocks storage here."

    def _probe(self) -> bool:
        try:
            self.backend.setItem("nova:probe", "1")
            self.backend.removeItem("nova:probe")
            return True
        except Exception:  # any storage failure means: play without saving
            return False

    def _get(self, key: str) -> str | None:
        try:
            value = self.backend.getItem(key)
        except Exception:
            return None
        return value if isinstance(value, str) else None  # JS null is not None

    def keys(self) -> list[str]:
        if not self.available:
            return []
        out = []
        try:
            n = int(self.backend.length)
            for i in range(n):
                k = self.backend.key(i)
                if isinstance(k, str):
                    out.append(k)
        except Exception:
            return out
        return out

    def save(self, game_id: str, record: GameRecord, over: bool = False) -> bool:
        if not self.available or not ID_RE.match(game_id):
            return False
        payload = {
            "format": SAVE_FORMAT,
            "v": SAVE_VERSION,
            "id": game_id,
            "saved": time.time(),
            "over": bool(over),
            "record": record.to_dict(),
        }
        try:
            self.backend.setItem(PREFIX + game_id, json.dumps(payload, separators=(",", ":")))
            self.backend.setItem(CURRENT, game_id)
            return True
        except Exception:  # quota exceeded or storage revoked: keep playing
            self.error = "Saving failed: the browser's storage is full or blocked."
            return False

    def load(self, game_id: str) -> GameRecord:
        """The record saved under ``game_id``; RecordError (a player's message) if unusable."""
        if not ID_RE.match(game_id or ""):
            raise RecordError("no such saved game")
        raw = self._get(PREFIX + game_id)
        if raw is None:
            raise RecordError("this saved game is gone")
        return parse_save(raw)

    def delete(self, game_id: str) -> None:
        if not self.available or not ID_RE.match(game_id or ""):
            return
        try:
            self.backend.removeItem(PREFIX + game_id)
            if self._get(CURRENT) == game_id:
                self.backend.removeItem(CURRENT)
        except Exception:
            pass

    def current(self) -> str | None:
        cid = self._get(CURRENT) if self.available else None
        return cid if cid and ID_RE.match(cid) else None

    def clear_current(self) -> None:
        try:
            if self.available:
                self.backend.removeItem(CURRENT)
        except Exception:
            pass

    def entries(self) -> list[SaveEntry]:
        """Every saved game, newest first; a damaged one is listed with its error."""
        out = []
        for key in self.keys():
            if not key.startswith(PREFIX):
                continue
            gid = key[len(PREFIX) :]
            if not ID_RE.match(gid):
                continue
            entry = SaveEntry(gid)
            raw = self._get(key)
            try:
                data = _parse_json(raw)
                record = GameRecord.from_dict(data.get("record"))
                entry.title = ", ".join(record.names) + f" ({record.players} players)"
                entry.moves = len(record.moves)
                saved = data.get("saved", 0)
                entry.saved = float(saved) if isinstance(saved, int | float) else 0.0
                entry.over = data.get("over") is True
            except RecordError as exc:
                entry.error = str(exc)
            out.append(entry)
        out.sort(key=lambda e: e.saved, reverse=True)
        return out


def _parse_json(raw: str | None) -> dict:
    if raw is None:
        raise RecordError("this saved game is empty")
    if len(raw) > MAX_SAVE_CHARS:
        raise RecordError("this saved game is too large to be real")
    try:
        data = json.loads(raw)
    except ValueError:
        raise RecordError("this saved game is damaged (not readable)") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise RecordError("this is not a Nova Raiders save")
    v = data.get("v")
    if not isinstance(v, int) or isinstance(v, bool):
        raise RecordError("this save has no version number")
    if v > SAVE_VERSION:
        raise RecordError("this save was made by a newer version of Nova Raiders")
    return data


def parse_save(raw: str) -> GameRecord:
    data = _parse_json(raw)
    return GameRecord.from_dict(data.get("record"))
