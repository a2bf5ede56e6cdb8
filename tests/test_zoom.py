"""The phone's board zoom (issue 49), in CPython: at every decision of seeded random games
that asks for a space or a Cargo Bay, the zoom ``render/zoom.py`` works out for a phone's
board window shows every choice at once (not the nearest few with the others a swipe
away), the targets as large as that allows; the tap areas that make small targets
easier to hit never overlap a neighbour's."""

from __future__ import annotations

import math
import random
import re

from nova.record import GameRecord
from nova.render.board import HIT_R, board_svg, choice_boxes, space_moves
from nova.render.geometry import SIZE, geometry_for
from nova.render.zoom import TAP_PX, ZoomBox, in_window, zoom_box, zoom_spec, zoom_window
from nova.rules import View

# board windows (CSS px) and the screen's height: a phone's own page, the publisher's
# 390x600 frame, a small phone
WINDOWS = [(382.0, 470.0, 844.0), (382.0, 260.0, 600.0), (352.0, 380.0, 740.0)]
NAMES, COLOURS = ["Ada", "Bo", "Cy", "Di"], ["#e8553d", "#3d8be8", "#3dbf6e", "#b45ce0"]


def board_decisions(players: int, seed: int, steps: int = 500):
    """The views of a seeded random game's decisions that ask for a place on the board."""
    rng = random.Random(seed)
    s = GameRecord(players=players, seed=seed).state()
    for _ in range(steps):
        if s.is_over():
            return
        view = s.view(s.current_player)
        if choice_boxes(view):
            yield view
        legal = [str(m) for m in s.legal_moves()]
        others = [m for m in legal if m != "E"]
        end = not others or ("E" in legal and rng.random() < 0.15)
        s = s.apply("E" if end else rng.choice(sorted(others)))


def test_every_choice_on_the_board_is_in_the_zoomed_window():
    """Thousands of board decisions, 2 to 4 players: all choices in the window, on every
    window size; a choice far from the others (Orbit 4 offering d9 and d1) zooms out."""
    decisions = spread = 0
    for players in (2, 3, 4):
        for seed in range(12):
            for view in board_decisions(players, seed):
                box = zoom_box(view)
                assert box is not None
                for width, height, screen in WINDOWS:
                    zv = zoom_window(box, width, height, screen)
                    where = f"{players}p seed {seed} ply {view.ply}: {width}x{height}"
                    assert in_window(box, zv, width, height), f"{where}: a choice out of view"
                    # never further in than a TAP_PX target needs
                    assert zv.scale <= TAP_PX * SIZE / (box.side * width) + 1e-9 or zv.scale <= 1
                decisions += 1
                spread += box.x1 - box.x0 > SIZE / 2
    assert decisions > 1000 and spread > 50, (decisions, spread)


def test_close_choices_zoom_in_far_ones_zoom_out():
    close = ZoomBox(500, 100, 620, 220, 70)  # two neighbours: zoomed in to tap size
    far = ZoomBox(150, 400, 950, 700, 70)  # across the board: the whole width shows
    width, height = 382.0, 470.0
    near_view, far_view = (zoom_window(b, width, height, 844) for b in (close, far))
    assert near_view.scale * width * close.side / SIZE >= 45  # a fingertip's target
    assert far_view.scale == SIZE / (far.x1 - far.x0)  # the two ends at the window's edges
    assert in_window(far, far_view, width, height) and in_window(close, near_view, width, height)


def test_the_zoom_box_pads_the_choices_inside_the_board():
    for view in board_decisions(2, 3):
        box = zoom_box(view)
        assert box is not None and 0 <= box.x0 < box.x1 <= SIZE and 0 <= box.y0 < box.y1 <= SIZE
        for x0, y0, x1, y1 in choice_boxes(view):
            assert box.x0 <= x0 and box.y0 <= y0 and x1 <= box.x1 and y1 <= box.y1
        assert ZoomBox.parse(zoom_spec(view).split('"')[1]) == ZoomBox.parse(box.attr())
    assert ZoomBox.parse("1 2 3") is None and ZoomBox.parse("5 5 1 1 10") is None
    assert ZoomBox.parse("nan 0 1 1 1") is None


HIT = re.compile(r'<circle class="hit" cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"')


def _hits(view: View) -> dict[str, float]:
    """The targets that have a tap area larger than their ring: name -> its radius."""
    geo = geometry_for(view.players, view.variant)
    svg = board_svg(view, NAMES[: view.players], COLOURS[: view.players])
    hits = {(round(float(x)), round(float(y))): float(r) for x, y, r in HIT.findall(svg)}
    out = {}
    for name in space_moves(view.legal):
        x, y = geo.space_xy[view.layout.name_to_space[name]]
        if (round(x), round(y)) in hits:
            out[name] = hits[round(x), round(y)]
    return out


def test_tap_areas_are_a_fingertip_where_there_is_room_and_never_overlap():
    grown = 0
    for view in board_decisions(4, 1):
        geo = geometry_for(view.players, view.variant)
        spots = {n: geo.space_xy[view.layout.name_to_space[n]] for n in space_moves(view.legal)}
        for name, r in _hits(view).items():
            assert r <= HIT_R + 1e-6
            for other, at in spots.items():  # never past halfway to another target
                if other != name:
                    assert r <= math.dist(spots[name], at) / 2 + 0.05, (name, other)
            grown += r >= HIT_R - 0.05
    assert grown > 0


def test_the_places_one_tap_reaches_are_in_the_zoomed_window_too():
    """At a person's decisions with places one tap reaches (nova/folding.py: a card's
    destinations, a Cargo Bay, at the turn's step), the zoom frames them with the step's
    own choices (a Launch's gates)."""
    from nova.bots import choose_move
    from nova.render.folds import fold_boxes
    from nova.web.session import Session

    checked = 0
    for seed in range(4):
        s = Session.new(bots=["", "greedy"], seed=seed)
        while not s.state.is_over() and s.moves < 200:
            st = s.state
            folded = s.folded_moves() if not s.bot_to_move() else {}
            if folded:
                view = s.view()
                extra = fold_boxes(view, folded)
                box = zoom_box(view, extra)
                assert box is not None
                for bx in [*choice_boxes(view), *extra]:
                    one = ZoomBox(bx[0], bx[1], bx[2], bx[3], box.side)
                    assert box.x0 <= one.x0 and box.y0 <= one.y0
                    assert one.x1 <= box.x1 and one.y1 <= box.y1
                for width, height, screen in WINDOWS:
                    zv = zoom_window(box, width, height, screen)
                    assert in_window(box, zv, width, height), (seed, s.moves, width)
                checked += 1
            s.play(choose_move("greedy", st.view(st.current_player), seed * 1000 + s.moves))
    assert checked > 100, checked
