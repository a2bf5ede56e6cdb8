"""The tutorial screen: a lesson's board, its goal and rule, and the way through the lessons.

Pure: markup from a lesson in play (:class:`nova.tutorial.LessonSession`) and the progress.
The board, the hand, the choices and the Academy are the game screen's own renderers on
the lesson's state, so a lesson looks and answers like the game; what the lesson expects
next carries ``data-lesson-target`` (docs/PAGE.md, "The tutorial").
"""

from __future__ import annotations

import re
from html import escape

from ..record import DEFAULT_COLOURS
from ..rules import View
from ..tutorial import BY_ID, FIRST_GAME, TUTORIAL_IDS, LessonSession, TutorialProgress
from .board import board_svg, frame_box, space_moves
from .folds import on_board, with_folds
from .game import academy_html, choices_html, hand_html, played_html, track_html
from .marks import step_marks, touched
from .prompts import assign_keys, end_turn_button, prompt

NAMES = ["You", "Opponent", "Third", "Fourth"]


def lesson_title(lesson_id: str) -> str:
    return FIRST_GAME.title if lesson_id == FIRST_GAME.id else BY_ID[lesson_id].title


def mark_targets(html: str, tokens: list[str]) -> str:
    """Mark the elements that play ``tokens`` (``data-move="<token>"``) as the lesson's
    targets; every other choice stays on screen and says why not when tapped."""
    for token in tokens:
        attr = f'data-move="{escape(token, quote=True)}"'
        html = re.sub(re.escape(attr) + r"(?! data-lesson-target)", attr + " data-lesson-target",
                      html)  # fmt: skip
    return html


def lessons_nav(current: str, progress: TutorialProgress) -> str:
    """Every lesson, to replay or jump to, with what is done or skipped."""
    items = []
    for i, lesson_id in enumerate(TUTORIAL_IDS, 1):
        state = ""
        if lesson_id in progress.done:
            state = " ✓ done"
        elif lesson_id in progress.skipped:
            state = " (skipped)"
        here = ' aria-current="step"' if lesson_id == current else ""
        items.append(
            f'<li><button type="button" class="small secondary" data-ui="lesson:{lesson_id}"'
            f"{here}>{i}. {escape(lesson_title(lesson_id))}{state}</button></li>"
        )
    return (
        '<section class="panel lesson-list" aria-label="All lessons"><h3>All lessons</h3>'
        f'<ol class="lessons">{"".join(items)}</ol></section>'
    )


def topbar(lesson_id: str) -> str:
    n = TUTORIAL_IDS.index(lesson_id) + 1
    return (
        '<header class="topbar">'
        f'<div class="turn">Learn to play · lesson {n} of {len(TUTORIAL_IDS)}</div>'
        '<nav class="tools">'
        '<button type="button" id="ui-help" data-ui="help" title="Rules and keys (?)">'
        "? Rules</button>"
        '<button type="button" id="ui-close-tutorial" data-ui="close-tutorial" '
        'title="Leave the tutorial (your progress is kept)">☰ Games</button>'
        "</nav></header>"
    )


def rule_html(rule: str, quote: str) -> str:
    return (
        f'<blockquote class="lesson-rule"><p><strong>{escape(rule)}</strong> '
        f"“{escape(quote)}”</p></blockquote>"
    )


def notice(message: str) -> str:
    return f'<div class="notice" role="alert">{escape(message)}</div>' if message else ""


def lesson_html(session: LessonSession, progress: TutorialProgress, message: str = "") -> str:
    """The screen of a lesson in play."""
    lesson = session.lesson
    view = session.state.view(lesson.seat)
    players = view.players
    names, colours = NAMES[:players], list(DEFAULT_COLOURS[:players])
    lay = view.layout
    if session.done:
        view = view.but(legal=())  # the goal is met: nothing more to play here
    keys = assign_keys(view.legal)
    end = end_turn_button(view.legal)
    # the places one tap reaches, as in the game (render/folds.py): the card, the ship and
    # the place in one tap, where the lesson's way goes
    folded = {space: fold.options for space, fold in session.folds().items()}
    if session.done:
        # what the goal taught, and the way on, where the step's instruction was
        step = (
            '<div class="lesson-done">'
            f'<p class="lesson-after" role="status">{escape(session.after)}</p>'
            '<div class="start-buttons">'
            '<button type="button" data-ui="next-lesson" class="primary">Next lesson →</button>'
            '<button type="button" data-ui="restart-lesson" class="secondary">Play it again'
            "</button></div></div>"
        )
        after = ""
    else:
        # the next instruction comes in once the tap's effect has shown on the board (the
        # animation's name alternates with each tap, so the page plays it again)
        tapped = f' data-step="{session.taps % 2}"' if session.taps else ""
        step = (
            f'<p class="prompt" id="prompt" aria-live="polite"{tapped}>'
            f"{escape(prompt(view, names, on_board(folded)))}</p>"
        )
        after = (
            '<div class="start-buttons">'
            '<button type="button" data-ui="restart-lesson" class="secondary small">'
            "Start over</button>"
            '<button type="button" data-ui="skip-lesson" class="secondary small">'
            "Skip this lesson</button></div>"
        )
    intro = f'<p class="lesson-intro">{escape(lesson.intro)}</p>'
    panel = (
        '<section class="panel lesson-panel" aria-label="Lesson">'
        f"<h2>{escape(lesson.title)}</h2>"
        f"{intro}{rule_html(lesson.rule, lesson.quote)}{after}</section>"
    )
    # the goal heads the board it is about: in view with the board on any screen
    goal = f'<p class="lesson-goal"><strong>Goal:</strong> {escape(lesson.goal)}</p>'
    if lesson.lead:  # read first, before the goal: a sentence, so the board keeps its room
        goal = (
            f'<p class="lesson-goal lesson-about"><strong>{escape(lesson.title)}:</strong> '
            f"{escape(lesson.lead)}</p>{goal}"
        )
    board = board_svg(
        view, names, colours, True, keys, marks=_last_tap(session),
        frame=_frame(session, view, folded),
    )  # fmt: skip
    board = with_folds(board, view, folded)
    body = (
        f'<div class="game tutorial" data-seat="{view.seat}" data-decider="{view.current}">'
        f"{topbar(lesson.id)}"
        '<div class="table"><div class="board-wrap">'
        f'{goal}<div class="board-stage">{board}</div></div>'
        '<div class="controls">'
        f"{panel}{notice(message)}{step}"
        f'<div class="action-bar">{choices_html(view, keys)}{end}</div>'
        f"{hand_html(view, lay, keys)}{played_html(view, lay)}{track_html(view)}"
        f"{academy_html(view, lay, keys, folded)}{lessons_nav(lesson.id, progress)}"
        "</div></div></div>"
    )
    return mark_targets(body, [t.token for t in session.offered()])


def _frame(
    session: LessonSession, view: View, folded: dict[str, tuple[str, ...]]
) -> tuple[float, float, float, float]:
    """The part of the board the lesson is about: what changes on the way to its goal and
    the spaces to choose now, by a choice or a folded way (the whole board when the lesson
    is about cards only)."""
    spaces, seats = session.focus()
    if not spaces and not seats:
        return frame_box(view, ())
    lay = view.layout
    # every space the board offers now, not only the lesson's way: a choice drawn on the
    # board is in view (the other way round the ring, say)
    names = [*space_moves(view.legal), *folded]
    now = {lay.name_to_space[n] for n in names if n in lay.name_to_space}
    return frame_box(view, spaces | now, seats)


def _last_tap(session: LessonSession) -> dict | None:
    """The board's marks for what the last tap changed (the moved stack travels once)."""
    before = session.previous
    if before is None:
        return None
    index = f"{session.lesson.id}-{session.state.ply}"
    acted, move = session.acted or (before, None)
    marks = step_marks(acted, session.state, session.lesson.seat, index, move)
    marks["touched"] = touched(before, session.state)  # the whole tap's (a folded way's)
    return marks


def first_game_html(progress: TutorialProgress, message: str = "") -> str:
    """The last step's screen: what the first game is, and the button that starts it."""
    g = FIRST_GAME
    panel = (
        '<section class="panel lesson-panel" aria-label="Lesson">'
        f"<h2>{escape(g.title)}</h2>"
        f'<p class="lesson-intro">{escape(g.intro)}</p>'
        f'<p class="lesson-goal"><strong>Goal:</strong> {escape(g.goal)}</p>'
        f"{rule_html(g.rule, g.quote)}"
        '<div class="start-buttons">'
        '<button type="button" data-ui="first-game" class="primary" data-lesson-target>'
        "Play the first game</button></div></section>"
    )
    return (
        '<div class="start tutorial">'
        f"{topbar(g.id)}{notice(message)}{panel}{lessons_nav(g.id, progress)}</div>"
    )
