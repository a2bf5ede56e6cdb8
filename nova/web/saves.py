"""Saved games in a key-value store shaped like ``localStorage``, pure and testable.

Each game is its own key (``nova:save:<id>``), so one damaged save never hides the
others. The store may be missing or throw on every call (private mode, a partitioned
iframe): then :attr:`SaveStore.available` is False and the game plays unsaved.
Nothing read from a save is executed; records are checked by ``GameRecord.from_dict``.

Nothing is lost when one game is open in several tabs (or a tab is weeks old): a tab
remembers the moves it last read or wrote (``synced``) and :func:`reconcile` decides, before
each write, whether the stored game is still the one it knows. A tab that is behind never
overwrites; a continuation that diverges from the stored line is saved as a game of its
own. Storage that is full is said (``SaveResult.error``), never made room for by deleting.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from enum import Enum
from typing import Any  # the backend: localStorage (a JS object) or a test double

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


class Verdict(Enum):
    """What a tab's save does, given the stored game (see :func:`reconcile`)."""

    WRITE = "write"  # the stored game is the one this tab knows, or behind it
    SAME = "same"  # the stored game already has exactly these moves
    BEHIND = "behind"  # the game went on elsewhere and this tab added nothing to it
    FORK = "fork"  # this tab's line diverges from the stored one: a game of its own


Moves = tuple[str, ...]


def reconcile(stored: Moves | None, synced: Moves | None, ours: Moves) -> Verdict:
    """Whether this tab may write ``ours`` over ``stored`` (the moves in storage now).

    ``synced`` is what this tab last read or wrote under the same id. Storage unchanged
    since then: this tab owns the game, and may write anything (an undo shortens it).
    Changed by another tab: this tab writes only a line that extends the stored one; a
    line the stored one already contains is behind, any other is a fork.
    """
    if stored is None or stored == synced:
        return Verdict.WRITE
    if stored == ours:
        return Verdict.SAME
    if ours[: len(stored)] == stored:
        return Verdict.WRITE
    if stored[: len(ours)] == ours:
        return Verdict.BEHIND
    return Verdict.FORK


@dataclass(frozen=True)
class SaveResult:
    """What a save did: the verdict, the id written under (a fork's is new), any error."""

    verdict: Verdict
    game_id: str
    written: bool
    error: str = ""


FULL = (
    "Saving failed: the browser's storage is full. This game plays on unsaved; "
    "delete saved games you no longer need (menu) to save again."
)


BLOCKED = "Saving failed: the browser blocked storage."


def is_full(exc: BaseException) -> bool:
    """A quota error (``QuotaExceededError``, code 22), as opposed to storage switched off."""
    text = f"{getattr(exc, 'name', '')} {exc}"
    return "QuotaExceeded" in text or "quota" in text.lower()


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
    def __init__(self, backend: Any) -> None:
        self.backend = backend
        probe = self._probe() if backend is not None else "off"
        # full storage still reads: the saved games are listed, and a later save may fit
        self.available = probe != "off"
        self.full = probe == "full"
        self.error = {
            "off": "Saving is off: this browser blocks storage here.",
            "full": FULL,
        }.get(probe, "")

    def _probe(self) -> str:
        try:
            self.backend.setItem("nova:probe", "1")
            self.backend.removeItem("nova:probe")
            return "ok"
        except Exception as exc:  # any other storage failure means: play without saving
            return "full" if is_full(exc) else "off"

    def _get(self, key: str) -> str | None:
        try:
            value = self.backend.getItem(key)
        except Exception:
            return None
        return value if isinstance(value, str) else None  # JS null is not None

    def read(self, key: str) -> str | None:
        """The text stored under ``key`` beside the saved games (the tutorial's progress)."""
        return self._get(key) if self.backend is not None else None

    def write(self, key: str, text: str) -> bool:
        """Store ``text`` under ``key``; False when storage is off or full (nothing else is
        touched: never a saved game)."""
        if not self.available or key.startswith(PREFIX) or key == CURRENT:
            return False
        try:
            self.backend.setItem(key, text)
        except Exception:
            return False
        return True

    def remove(self, key: str) -> None:
        """Forget what is stored under ``key`` (never a saved game: :meth:`delete` is)."""
        if self.available and not key.startswith(PREFIX) and key != CURRENT:
            try:
                self.backend.removeItem(key)
            except Exception:
                pass

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

    def save(
        self, game_id: str, record: GameRecord, over: bool = False, current: bool = True,
        settings: dict | None = None,
    ) -> bool:  # fmt: skip
        """Write ``record`` under ``game_id`` whatever is stored (see :meth:`commit`)."""
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
        if settings:
            payload["settings"] = settings
        try:
            self.backend.setItem(PREFIX + game_id, json.dumps(payload, separators=(",", ":")))
            if current:
                self.backend.setItem(CURRENT, game_id)
        except Exception as exc:  # quota exceeded or storage revoked: keep playing
            self.full = is_full(exc)
            self.error = FULL if self.full else BLOCKED
            return False
        self.full, self.error = False, ""
        return True

    def stored_moves(self, game_id: str) -> Moves | None:
        """The moves saved under ``game_id`` now (None: no readable save there)."""
        try:
            return tuple(self.load(game_id).moves)
        except RecordError:
            return None

    def commit(
        self, game_id: str, record: GameRecord, synced: Moves | None, over: bool = False,
        fork_id: str = "", settings: dict | None = None,
    ) -> SaveResult:  # fmt: skip
        """Save a tab's game without losing another tab's: :func:`reconcile` decides.

        A fork is written under ``fork_id`` (a new id) and does not become the game a
        reload opens (``nova:current``): the line that went on elsewhere stays that.
        """
        ours = tuple(record.moves)
        stored = self.stored_moves(game_id)
        verdict = reconcile(stored, synced, ours)
        if stored is None and self._get(PREFIX + game_id) is not None:
            # there but unreadable here (a newer release's save, say): never written over
            verdict = Verdict.FORK
        if verdict in (Verdict.SAME, Verdict.BEHIND):
            return SaveResult(verdict, game_id, False)
        target = fork_id if verdict is Verdict.FORK else game_id
        written = self.save(target, record, over, current=verdict is Verdict.WRITE,
                            settings=settings)  # fmt: skip
        return SaveResult(verdict, target, written, "" if written else self.error)

    def settings(self, game_id: str) -> dict:
        """The page's settings saved with a game (the bots' pace and thinking time)."""
        try:
            data = _parse_json(self._get(PREFIX + game_id))
        except RecordError:
            return {}
        got = data.get("settings")
        return got if isinstance(got, dict) else {}

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
