"""The tutorial: lessons that are real positions of the engine, pure and browser-free.

- :mod:`.lesson` — what a lesson is (:class:`Lesson`);
- :mod:`.lessons` — the lessons, in order (:data:`LESSONS`);
- :mod:`.session` — a lesson in play, the API the tutorial screen drives (:func:`start`);
- :mod:`.first_game` — the guided first game against a bot and its prompts (:func:`narrate`);
- :mod:`.progress` — which lessons are done, kept as JSON (:class:`TutorialProgress`).

docs/TUTORIAL.md lists the lessons and the page's contract.
"""

from .first_game import FIRST_GAME, FirstGame, narrate
from .lesson import Lesson
from .lessons import BY_ID, LESSONS
from .progress import STORAGE_KEY, TutorialProgress
from .session import LessonSession, Step, Target, start

# Every step of the tutorial by id, in order: the lessons, then the first game.
TUTORIAL_IDS: tuple[str, ...] = tuple(lesson.id for lesson in LESSONS) + (FIRST_GAME.id,)


def new_progress() -> TutorialProgress:
    """Progress with nothing done yet."""
    return TutorialProgress(TUTORIAL_IDS)


def load_progress(text: object) -> tuple[TutorialProgress, str]:
    """The progress saved under :data:`STORAGE_KEY` (or fresh), and a message if any."""
    return TutorialProgress.from_json(text, TUTORIAL_IDS)


__all__ = [
    "BY_ID",
    "FIRST_GAME",
    "LESSONS",
    "STORAGE_KEY",
    "TUTORIAL_IDS",
    "FirstGame",
    "Lesson",
    "LessonSession",
    "Step",
    "Target",
    "TutorialProgress",
    "load_progress",
    "narrate",
    "new_progress",
    "start",
]
