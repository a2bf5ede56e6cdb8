"""Learn to play: a lesson in play (only the moves it offers are taken; any other tap says
why, naming the rule), the list of lessons, and the last step, the first game. The
progress is kept in storage beside the saved games. Pure Python."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from ...record import DEFAULT_COLOURS, GameRecord
from ...render.tutorial import first_game_html, lesson_html
from ...tutorial import (
    BY_ID,
    FIRST_GAME,
    STORAGE_KEY,
    TUTORIAL_IDS,
    LessonSession,
    TutorialProgress,
    load_progress,
)
from ...tutorial import start as start_lesson
from ...tutorial.session import target_of
from ..effects import ALL, NONE
from ..saves import new_id
from ..session import Session
from ..tab import autosave
from .base import (
    Drawing,
    Intent,
    Page,
    Play,
    Result,
    ScreenDef,
    WhyNot,
    choice_key,
    safe_colours,
    say,
)
from .game import open_game
from .start import NewGameScreen

if TYPE_CHECKING:
    from ..state import UiState


@dataclass(frozen=True)
class TutorialScreen:
    """Learn to play: the lesson ``lesson_id`` in play (``session``), or, for the last
    step (the first game), its introduction with the button that starts the game."""

    name: ClassVar[str] = "tutorial"
    needs_game: ClassVar[bool] = False
    lesson_id: str
    session: LessonSession | None = None

    def shown_as(self, session: Session | None) -> str:
        return self.name


@dataclass(frozen=True)
class OpenTutorial(Intent):
    """Learn to play: the lesson ``lesson_id``, or ("") the first one not done yet."""

    lesson_id: str = ""


@dataclass(frozen=True)
class NextLesson(Intent):
    """On to the lesson after the one on screen."""


@dataclass(frozen=True)
class SkipLesson(Intent):
    """Skip the lesson on screen (kept as skipped; it can be played later)."""


@dataclass(frozen=True)
class RestartLesson(Intent):
    """The lesson on screen again from its start."""


@dataclass(frozen=True)
class CloseTutorial(Intent):
    """Leave the tutorial for the start screen (progress is kept)."""


@dataclass(frozen=True)
class StartFirstGame(Intent):
    """The tutorial's last step: an ordinary game with FIRST_GAME's settings."""


def _sentence(text: str) -> str:
    """A refusal as the alert shows it: a capital first letter."""
    return text[:1].upper() + text[1:] if text else ""


def _after(lesson_id: str) -> str:
    i = TUTORIAL_IDS.index(lesson_id)
    return TUTORIAL_IDS[min(i + 1, len(TUTORIAL_IDS) - 1)]


def open_lesson(ui: UiState, lesson_id: str) -> Result:
    """Show lesson ``lesson_id`` from its start ("": the first one not done yet); a
    progress save that could not be read is said once, here."""
    lesson_id = lesson_id or ui.progress.next_lesson() or TUTORIAL_IDS[0]
    session = None if lesson_id == FIRST_GAME.id else start_lesson(BY_ID[lesson_id])
    ui = ui.but(screen=TutorialScreen(lesson_id, session), help_open=False)
    if ui.progress_note:
        ui = ui.but(message=ui.progress_note, progress_note="")
    return ui, ALL


def open_tutorial(page: Page, ui: UiState, intent: OpenTutorial) -> Result:
    return open_lesson(ui, intent.lesson_id if intent.lesson_id in TUTORIAL_IDS else "")


def next_lesson(page: Page, ui: UiState, screen: TutorialScreen, intent: NextLesson) -> Result:
    return open_lesson(ui, _after(screen.lesson_id))


def skip_lesson(page: Page, ui: UiState, screen: TutorialScreen, intent: SkipLesson) -> Result:
    ui = save_progress(page, ui, ui.progress.skip(screen.lesson_id))
    return open_lesson(ui, _after(screen.lesson_id))


def restart(page: Page, ui: UiState, screen: TutorialScreen, intent: RestartLesson) -> Result:
    return open_lesson(ui, screen.lesson_id)


def close(page: Page, ui: UiState, intent: CloseTutorial) -> Result:
    return ui.but(screen=NewGameScreen(), help_open=False), ALL


def play(page: Page, ui: UiState, screen: TutorialScreen, intent: Play) -> Result:
    """A tap on a move in a lesson: taken if the lesson offers it, else why not."""
    if ui.help_open or screen.session is None:
        return ui, NONE
    step = screen.session.try_move(intent.token)
    if step.refused:
        return ui.but(message=_sentence(step.refused)), ALL
    ui = ui.but(screen=replace(screen, session=step.session))
    if step.session.done:
        ui = save_progress(page, ui, ui.progress.complete(screen.lesson_id))
    return ui, ALL


def why_not(page: Page, ui: UiState, screen: TutorialScreen, intent: WhyNot) -> Result:
    """Why a tap in a lesson on what is not a choice now (a card, a board space)."""
    ls = screen.session
    why = ""
    if ls is None:
        why = ""
    elif intent.token:
        why = _sentence(ls.why_not(intent.token))
    elif moves := [m for m in ls.state.legal_moves() if target_of(m).name == intent.space]:
        why = _sentence(ls.why_not(moves[0]))
    elif ls.done:
        why = _sentence(ls.why_not(""))
    else:
        lesson = ls.lesson
        why = _sentence(
            f"{intent.space} is not a choice now. The goal: {lesson.goal} ({lesson.rule})"
        )
    return (ui, NONE) if ui.help_open else say(ui, why)


def save_progress(page: Page, ui: UiState, progress: TutorialProgress) -> UiState:
    """Keep the progress (in the state always; in storage when it can be written), with
    what another tab stored meanwhile: a lesson done there stays done."""
    stored, _ = load_progress(page.store.read(STORAGE_KEY))
    done = progress.done | stored.done
    skipped = (progress.skipped | stored.skipped) - done
    ui = ui.but(progress=TutorialProgress(progress.lesson_ids, done, skipped))
    page.store.write(STORAGE_KEY, ui.progress.to_json())
    return ui


def start_first_game(page: Page, ui: UiState, intent: StartFirstGame) -> Result:
    """The tutorial hands over to an ordinary game with FIRST_GAME's settings."""
    g = FIRST_GAME
    ui = ui.but(form=replace(ui.form, pace=g.pace))
    names, bots = list(g.names), list(g.bots)
    # a game record has no first player of its own (the seed decides): the player sits
    # in the seat that moves first, as FIRST_GAME wants
    first = GameRecord(players=g.players, seed=g.seed).initial_state().current_player
    shift = (first - g.human_seat) % g.players
    names, bots = names[-shift:] + names[:-shift], bots[-shift:] + bots[:-shift]
    colours = safe_colours(list(DEFAULT_COLOURS[: g.players]))
    session = Session.new(g.players, g.seed, names, colours, bots)
    ui = open_game(page, ui, session, new_id(g.seed))
    ui = save_progress(page, ui, ui.progress.complete(g.id))
    ui = autosave(page, ui)
    return ui.but(guided=ui.game_id), ALL


def keys(ui: UiState, screen: TutorialScreen, key: str, focused_move: str | None,
         on_button: bool) -> Play | None:  # fmt: skip
    """A lesson's keys are the game's (``base.choice_key``) on the lesson's decision."""
    ls = screen.session
    if ls is None or ui.help_open or ls.done:
        return None
    legal = [str(m) for m in ls.state.view(ls.lesson.seat).legal]
    return choice_key(key, focused_move, on_button, legal)


def body_attributes(page: Page, ui: UiState) -> dict[str, str | None]:
    """The tutorial's test contract on ``<body>`` (None: the attribute is removed)."""
    screen = ui.screen
    lesson = screen if isinstance(screen, TutorialScreen) else None
    done = lesson is not None and lesson.session is not None and lesson.session.done
    return {
        "data-nova-lesson": lesson.lesson_id if lesson is not None else None,
        "data-nova-lesson-done": "" if done else None,
        "data-nova-tutorial": "done" if ui.progress.finished else None,
    }


def markup(page: Page, ui: UiState, screen: TutorialScreen, known: frozenset[str]) -> Drawing:
    if screen.session is None:
        return Drawing(first_game_html(ui.progress, ui.message))
    return Drawing(lesson_html(screen.session, ui.progress, ui.message))


SCREEN = ScreenDef(
    state=TutorialScreen,
    markup=markup,
    steps={
        Play: play,
        WhyNot: why_not,
        NextLesson: next_lesson,
        SkipLesson: skip_lesson,
        RestartLesson: restart,
    },
    anywhere={OpenTutorial: open_tutorial, CloseTutorial: close, StartFirstGame: start_first_game},
    ui={
        "learn": lambda arg, form: OpenTutorial(),
        "lesson": lambda arg, form: OpenTutorial(arg),
        "next-lesson": lambda arg, form: NextLesson(),
        "skip-lesson": lambda arg, form: SkipLesson(),
        "restart-lesson": lambda arg, form: RestartLesson(),
        "close-tutorial": lambda arg, form: CloseTutorial(),
        "first-game": lambda arg, form: StartFirstGame(),
    },
    keys=keys,
    body=body_attributes,
)
