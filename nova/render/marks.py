"""The board's marks of a turn: each ship's way (a dotted trail in its owner's colour, along
its ring when it stayed on one) and the spaces touched, and the arriving stacks' paths for
the page's animation (``data-nova-motion``, ``data-nova-path``); and what one decision
changed, from the two states only (no DOM guessing): the game's marks (``Session.marks``)
and a lesson's last tap (``tutorial.py``) are drawn from these. Pure."""

from __future__ import annotations

from html import escape

from ..rules import Move, State
from .geometry import CENTRE, polar

NEUTRAL = "#8a90a8"


def _place_xy(place: int | str, owner: int, lay, geo) -> tuple[float, float]:
    if place == "star":
        return float(CENTRE), float(CENTRE)
    if place == "dock":
        return geo.base_xy[lay.seat_base[owner]]
    return geo.space_xy[place]


def motion_points(motion: dict, lay, geo) -> list[tuple[float, float]]:
    """The way a ship travelled: along its ring (the shorter way round) when it stayed on
    one ring (an Orbit, a push), else straight (a Jump, a Launch, an Unload, a Phase Shift)."""
    src, dst, owner = motion["from"], motion["to"], motion["owner"]
    a, b = _place_xy(src, owner, lay, geo), _place_xy(dst, owner, lay, geo)
    if isinstance(src, int) and isinstance(dst, int) and lay.space_ring[src] == lay.space_ring[dst]:
        radius = geo.ring_r[lay.space_ring[src]]
        start, end = lay.space_angle[src], lay.space_angle[dst]
        sweep = (end - start + 180.0) % 360.0 - 180.0  # the shorter way round
        steps = max(2, int(abs(sweep) // 8) + 1)
        return [polar(radius, start + sweep * k / steps) for k in range(steps + 1)]
    return [a, b]


def marks_svg(marks: dict, lay, geo, colours: list[str]) -> tuple[str, dict[int, str]]:
    """Trails and touched spaces of the marked turn; the attributes of arriving stacks."""
    out = ['<g class="marks" aria-hidden="true">']
    seat = marks.get("seat", -1)
    ring_colour = escape(colours[seat] if 0 <= seat < len(colours) else NEUTRAL, quote=True)
    for s in marks.get("touched", ()):
        x, y = geo.space_xy[s]
        out.append(
            f'<circle class="mark-touched" cx="{x:.1f}" cy="{y:.1f}" '
            f'r="{geo.space_r[s] + 7:.1f}" fill="none" stroke="{ring_colour}" '
            'stroke-width="3" stroke-dasharray="5 4" opacity=".9"/>'
        )
    for m in marks.get("motions", ()):
        pts = motion_points(m, lay, geo)
        colour = escape(colours[m["owner"]], quote=True)
        d = "M" + " L".join(f"{x:.1f} {y:.1f}" for x, y in pts)
        (x0, y0), (x1, y1) = pts[0], pts[-1]
        out.append(
            f'<path class="trail" d="{d}" fill="none" stroke="{colour}" stroke-width="4" '
            'stroke-linecap="round" stroke-dasharray="2 7" opacity=".95"/>'
            f'<circle class="trail-start" cx="{x0:.1f}" cy="{y0:.1f}" r="6" fill="none" '
            f'stroke="{colour}" stroke-width="3"/>'
            f'<circle class="trail-end" cx="{x1:.1f}" cy="{y1:.1f}" r="4" fill="{colour}"/>'
        )
    out.append("</g>")
    arrivals: dict[int, str] = {}
    latest = marks.get("latest") or {}
    for k, m in enumerate(latest.get("motions", ())):
        if not isinstance(m["to"], int):
            continue
        pts = motion_points(m, lay, geo)
        x1, y1 = pts[-1]
        rel = " ".join(f"{x - x1:.1f},{y - y1:.1f}" for x, y in pts)
        arrivals[m["to"]] = f' data-nova-motion="{latest["index"]}-{k}" data-nova-path="{rel}"'
    return "".join(out), arrivals


def motions(before: State, after: State, move: str | None = None) -> list[dict]:
    """What moved on the board in one decision, from the two states (no DOM guessing).

    Each is ``{"owner": seat, "from": place, "to": place}`` where a place is a space index,
    ``"dock"`` (the owner's Star Base) or ``"star"`` (consumed). A Launch comes from the
    dock, an Unload goes to it; a pushed ship moves too. An action the board's change
    cannot tell (two of a seat's ships changing places) says itself, given the ``move``.
    """
    if move is not None and before.pending is not None:
        told = before.pending.motions(before, Move(move), after)
        if told is not None:
            return told
    out = []
    for owner in range(len(before.players)):
        gone = [s for s, o in enumerate(before.ship) if o == owner and after.ship[s] != owner]
        came = [s for s, o in enumerate(after.ship) if o == owner and before.ship[s] != owner]
        for i in range(max(len(gone), len(came))):
            src: int | str = gone[i] if i < len(gone) else "dock"
            dst: int | str
            if i < len(came):
                dst = came[i]
            elif after.players[owner].dock > before.players[owner].dock:
                dst = "dock"
            else:
                dst = "star"
            out.append({"owner": owner, "from": src, "to": dst})
    return out


def touched(before: State, after: State) -> list[int]:
    """Spaces whose stack or Shards changed in one decision."""
    return [
        s
        for s in range(len(before.ship))
        if before.ship[s] != after.ship[s] or before.pile[s] != after.pile[s]
    ]


def step_marks(before: State, after: State, seat: int, index: str, move: str | None) -> dict:
    """The board's marks (``board_svg(marks=...)``) for the decision ``move`` from ``before``
    (to ``after``): the trails and touched spaces, and the moved stacks to animate once
    (``index`` names this step, so the page plays it once)."""
    moved = motions(before, after, move)
    return {
        "seat": seat,
        "motions": moved,
        "touched": touched(before, after),
        "latest": {"index": index, "motions": moved},
    }
