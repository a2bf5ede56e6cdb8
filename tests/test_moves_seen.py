"""Every move is seen (pure, CPython): what the session derives from its states for the
board's marks and the travel animation, and how the renderer draws it. Uses only the
engine's API, never specific board data."""

from __future__ import annotations

import math
import random
import re

from render_helpers import game_page

from nova.render.board import board_svg
from nova.render.game import game_html
from nova.render.geometry import CENTRE, geometry_for
from nova.render.marks import motion_points, motions
from nova.rules import layout_for
from nova.web.session import Session


def _play_until(session: Session, want, rng: random.Random, limit: int = 400) -> str | None:
    """Play seeded random decisions until ``want(token)`` picks one; returns it."""
    for _ in range(limit):
        if session.state.is_over():
            return None
        if session.needs_pass():
            session.ready()
        legal = [str(m) for m in session.state.legal_moves()]
        hits = [m for m in legal if want(m)]
        token = hits[0] if hits else rng.choice(legal)
        session.play(token)
        if hits:
            return token
    return None


def test_a_launch_is_a_motion_from_the_dock_and_is_marked_with_its_way():
    s = Session.new(2, seed=3)
    token = _play_until(s, lambda m: m.startswith("L"), random.Random(1))
    assert token is not None
    space = s.state.layout.name_to_space[token[1:]]
    seat = s.states[-2].current_player
    assert motions(s.states[-2], s.state) == [{"owner": seat, "from": "dock", "to": space}]
    marks = s.marks()
    assert marks["seat"] == seat and space in marks["touched"]
    assert marks["latest"]["motions"] == [{"owner": seat, "from": "dock", "to": space}]
    svg = board_svg(s.view(), s.record.names, s.record.colours, marks=marks)
    assert 'class="trail"' in svg
    stack = re.search(rf'<g class="stack"[^>]*id="stack-{token[1:]}"[^>]*>', svg).group(0)
    assert "data-nova-motion=" in stack and "data-nova-path=" in stack


def test_the_previous_turn_stays_marked_until_the_next_player_acts():
    s = Session.new(2, seed=5)
    rng = random.Random(2)
    _play_until(s, lambda m: m.startswith("L"), rng)
    mover = s.state.turn
    _play_until(s, lambda m: m == "E", rng)  # the turn ends
    assert s.state.turn != mover
    marks = s.marks()
    assert marks["seat"] == mover and marks["motions"]  # still the mover's launch
    if s.needs_pass():
        s.ready()
    s.play(str(s.state.legal_moves()[0]))  # the next player acts
    assert s.marks()["seat"] == s.state.turn


def test_an_orbit_travels_along_its_ring():
    lay, geo = layout_for(2), geometry_for(2, None)
    ring = [s for s in range(lay.space_count) if lay.space_ring[s] == lay.space_ring[0]]
    a, b = ring[0], ring[len(ring) // 3]
    pts = motion_points({"owner": 0, "from": a, "to": b}, lay, geo)
    assert len(pts) > 2
    r = geo.ring_r[lay.space_ring[a]]
    for x, y in pts:
        assert abs(math.hypot(x - CENTRE, y - CENTRE) - r) < 0.5
    assert pts[0] == geo.space_xy[a] or math.dist(pts[0], geo.space_xy[a]) < 0.5
    assert math.dist(pts[-1], geo.space_xy[b]) < 0.5


def test_the_log_is_grouped_by_turn_and_player_newest_first():
    s = Session.new(3, seed=8)
    rng = random.Random(3)
    for _ in range(120):
        if s.state.is_over():
            break
        if s.needs_pass():
            s.ready()
        s.play(str(rng.choice(s.state.legal_moves())))
    turns = s.log_turns(limit=100)
    assert len(turns) > 3
    assert sum(len(t.lines) for t in turns) == len(s.log)
    order = [(t.round, t.seat) for t in turns]
    assert all(order[k] != order[k + 1] for k in range(len(order) - 1))
    page = game_page(s.record.names, s.record.colours, log=s.log, log_turns=turns[:5])
    html = game_html(s.view(), page)
    assert html.count('class="log-turn"') == 5
    assert f"Round {turns[0].round + 1} · {s.record.names[turns[0].seat]}" in html


def test_game_screen_ids_are_unique_and_name_what_they_show():
    s = Session.new(4, seed=2)
    _play_until(s, lambda m: m.startswith("L"), random.Random(4))
    if s.needs_pass():
        s.ready()
    page = game_page(
        s.record.names, s.record.colours, log=s.log, marks=s.marks(),
        log_turns=s.log_turns(), static_slot=True,
    )  # fmt: skip
    html = game_html(s.view(), page)
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), "ids key elements between renders: they must be unique"
    for control in ("ui-help", "ui-menu", "ui-share", "ui-undo", "ui-replay", "seat-0"):
        assert control in ids
    assert any(i.startswith("stack-") for i in ids)
    assert any(i.startswith("hand-") for i in ids)


def test_a_new_game_has_an_empty_grouped_log_and_no_marks():
    s = Session.new(2, seed=1)
    assert s.log_turns() == [] and s.marks()["motions"] == []
