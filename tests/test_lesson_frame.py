"""A lesson's board shows what the lesson is about (issue 31), in CPython: the board's
viewBox frames the stacks that change on the way to the goal, the goal heads the board,
and after a tap its effect is marked where it happened before the next instruction."""

from __future__ import annotations

import re

from nova.render.board import frame_box
from nova.render.geometry import SIZE, geometry_for
from nova.render.tutorial import lesson_html
from nova.tutorial import BY_ID, LESSONS, TUTORIAL_IDS, TutorialProgress, start

VIEWBOX = re.compile(r'<svg class="board(?: framed)?" viewBox="([\d. -]+)"')


def _box(html: str) -> tuple[float, ...]:
    return tuple(float(v) for v in VIEWBOX.search(html)[1].split())


def test_the_hijack_lesson_frames_the_two_stacks_not_the_whole_board():
    session = start(BY_ID["hijack"])
    x, y, w, h = _box(lesson_html(session, TutorialProgress(TUTORIAL_IDS)))
    assert w < SIZE * 0.7 and w == h  # a closer, square view
    geo = geometry_for(2, None)
    spaces, _ = session.focus()
    assert spaces, "the hijack changes stacks on the board"
    for s in spaces:  # every stack the lesson moves is inside the frame
        sx, sy = geo.space_xy[s]
        assert x <= sx <= x + w and y <= sy <= y + h


def test_every_lesson_frames_its_focus_and_its_targets_inside_the_board():
    for lesson in LESSONS:
        session = start(lesson)
        x, y, w, h = _box(lesson_html(session, TutorialProgress(TUTORIAL_IDS)))
        assert 0 <= x and 0 <= y and x + w <= SIZE + 0.5 and y + h <= SIZE + 0.5, lesson.id
        if not any(session.focus()):  # a lesson about cards only: the whole board
            assert (x, y, w, h) == (0, 0, SIZE, SIZE), lesson.id


def test_nothing_to_frame_is_the_whole_board():
    view = start(BY_ID["upgrade"]).state.view(0)
    assert frame_box(view, ()) == (0.0, 0.0, float(SIZE), float(SIZE))


def test_the_goal_heads_the_board_and_the_tap_is_marked_before_the_next_step():
    session = start(BY_ID["orbit"])
    html = lesson_html(session, TutorialProgress(TUTORIAL_IDS))
    wrap = html[html.index('<div class="board-wrap">') :]
    assert wrap.index('class="lesson-goal"') < wrap.index("<svg")
    assert "data-step" not in html and 'class="marks"' not in html  # nothing tapped yet
    for token in session.lesson.solution:
        session = session.try_move(token).session
        html = lesson_html(session, TutorialProgress(TUTORIAL_IDS))
        if session.done:
            assert 'class="lesson-done"' in html and "data-step" not in html
        else:
            assert f'data-step="{session.taps % 2}"' in html
    assert 'class="trail"' in html and "data-nova-motion" in html  # the ship's way, marked


def test_every_space_the_board_offers_is_inside_the_lesson_frame():
    """Not only the lesson's way: a destination the other way round the ring (Orbit's d9
    beside its d3) is a target drawn on the board, so it is in the frame too (issue 49)."""
    from nova.render.board import space_moves

    geo = geometry_for(2, None)
    checked = 0
    for lesson in LESSONS:
        session = start(lesson)
        for token in lesson.solution:
            view = session.state.view(lesson.seat)
            x, y, w, h = _box(lesson_html(session, TutorialProgress(TUTORIAL_IDS)))
            for name in space_moves(view.legal):
                sx, sy = geo.space_xy[view.layout.name_to_space[name]]
                assert x <= sx <= x + w and y <= sy <= y + h, (lesson.id, name)
                checked += 1
            session = session.try_move(token).session
            if session.done:  # the goal met: the board offers nothing more
                break
    assert checked > 20
