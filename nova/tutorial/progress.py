"""Which lessons are done, kept in the browser's localStorage as JSON.

A save may be damaged, come from an older tutorial (lessons renamed or gone) or from a
newer one: :meth:`TutorialProgress.from_json` never raises, it keeps what it can and says
in one sentence what it dropped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

PROGRESS_VERSION = 1
STORAGE_KEY = "nova:tutorial"


@dataclass(frozen=True)
class TutorialProgress:
    """The lessons done (finished or skipped), in the tutorial's order.

    ``lesson_ids`` is the tutorial's list (the lessons, then the first game); a lesson can
    be replayed at any time, whether done or not.
    """

    lesson_ids: tuple[str, ...]
    done: frozenset[str] = frozenset()
    skipped: frozenset[str] = frozenset()

    def complete(self, lesson_id: str) -> TutorialProgress:
        self._known(lesson_id)
        return TutorialProgress(
            self.lesson_ids, self.done | {lesson_id}, self.skipped - {lesson_id}
        )

    def skip(self, lesson_id: str) -> TutorialProgress:
        self._known(lesson_id)
        if lesson_id in self.done:
            return self
        return TutorialProgress(self.lesson_ids, self.done, self.skipped | {lesson_id})

    def _known(self, lesson_id: str) -> None:
        if lesson_id not in self.lesson_ids:
            raise KeyError(f"no lesson {lesson_id!r}")

    def next_lesson(self) -> str | None:
        """The first lesson neither done nor skipped (None once the tutorial is through)."""
        for lesson_id in self.lesson_ids:
            if lesson_id not in self.done and lesson_id not in self.skipped:
                return lesson_id
        return None

    @property
    def finished(self) -> bool:
        """Every lesson done or skipped: the page sets ``data-nova-tutorial="done"``."""
        return self.next_lesson() is None

    def to_json(self) -> str:
        order = {lesson_id: i for i, lesson_id in enumerate(self.lesson_ids)}
        return json.dumps(
            {
                "version": PROGRESS_VERSION,
                "done": sorted(self.done, key=order.__getitem__),
                "skipped": sorted(self.skipped, key=order.__getitem__),
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: object, lesson_ids: tuple[str, ...]) -> tuple[TutorialProgress, str]:
        """The progress saved in ``text``, and a message ("" when all was read).

        Never raises: a save that cannot be read starts the tutorial afresh, lessons this
        version does not have are dropped, and each case is said in plain words.
        """
        fresh = cls(lesson_ids)
        if text is None or text == "":
            return fresh, ""
        try:
            data = json.loads(text) if isinstance(text, (str, bytes)) else None
        except (ValueError, RecursionError):
            data = None
        if not isinstance(data, dict):
            return fresh, "Your tutorial progress could not be read, so it starts afresh."
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            return fresh, "Your tutorial progress could not be read, so it starts afresh."
        if version > PROGRESS_VERSION:
            return fresh, (
                "Your tutorial progress was saved by a newer version of the game, so this "
                "one starts afresh."
            )
        sets: list[frozenset[str]] = []
        dropped = 0
        for key in ("done", "skipped"):
            ids = data.get(key, [])
            if not isinstance(ids, list):
                return fresh, "Your tutorial progress could not be read, so it starts afresh."
            known = [i for i in ids if isinstance(i, str) and i in lesson_ids]
            dropped += len(ids) - len(known)
            sets.append(frozenset(known))
        done, skipped = sets
        progress = cls(lesson_ids, done, skipped - done)
        if dropped:
            return progress, (
                f"{dropped} lesson{'s' * (dropped != 1)} in your saved progress "
                f"{'are' if dropped != 1 else 'is'} no longer in the tutorial; the rest is kept."
            )
        return progress, ""
