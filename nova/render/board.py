"""The board as SVG, drawn from the data (``layout_for``) and one player's view.

The board shows only public things (no hand), so the same drawing serves every seat.
Spaces that are a legal choice now carry ``data-move`` with the engine's token.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from typing import Any

from ..rules import Layout, Move, View
from ..rules import move as mv
from ..rules.scoring import best_bay_split
from .backdrop import static_board, static_layer
from .geometry import BASE_H, BASE_W, SIZE, geometry_for
from .keep import keyed
from .marks import marks_svg
from .shards import shard_svg

# Decisions that name a space: Launch, the ship, the destination, the target, a spawn place;
# the words and the class of their tap target on the board.
TARGET_VERB = {
    mv.LAUNCH: "Launch a ship to",
    mv.SHIP: "Use the ship on",
    mv.DEST: "Move to",
    mv.TARGET: "Target the ship on",
    mv.SPAWN: "Place the Shard on",
}
TARGET_CLASS = {
    mv.LAUNCH: "launch",
    mv.SHIP: "ship",
    mv.DEST: "dest",
    mv.TARGET: "victim",
    mv.SPAWN: "spawn",
}


def space_moves(legal: Sequence[str]) -> dict[str, str]:
    """space name -> the token that picks it (at most one per space at any time)."""
    out: dict[str, str] = {}
    for token in legal:
        m = Move(token)
        if m.kind in TARGET_VERB and m.space not in out:
            out[m.space] = m
    return out


def _ship_path(x: float, y: float, s: float, colour: str) -> str:
    # a small raider: a pointed hull with two fins, s = half height
    pts = [
        (x, y - s),
        (x + s * 0.55, y + s * 0.35),
        (x + s * 0.85, y + s * 0.9),
        (x, y + s * 0.55),
        (x - s * 0.85, y + s * 0.9),
        (x - s * 0.55, y + s * 0.35),
    ]
    d = " ".join([f"{px:.1f},{py:.1f}" for px, py in pts])
    return (
        f'<polygon class="ship" points="{d}" fill="{escape(colour, quote=True)}" '
        f'stroke="#fff" stroke-width="{s / 7:.1f}" stroke-linejoin="round"/>'
    )


def _badge(x: float, y: float, n: int, r: float) -> str:
    return (
        f'<g class="badge"><circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="#fff" '
        f'stroke="#0b1026" stroke-width="2"/><text x="{x:.1f}" y="{y + r * 0.42:.1f}" '
        f'font-size="{r * 1.3:.1f}" text-anchor="middle" font-weight="700" fill="#0b1026">'
        f"{n}</text></g>"
    )


def _stack(x: float, y: float, rad: float, pile: str, owner: int, colours: list[str]) -> str:
    """A ship with its Shards under it, or loose Shards; a badge gives the stack height."""
    out = []
    n = len(pile)
    if owner >= 0:
        out.append(_ship_path(x, y - rad * 0.18, rad * 0.62, colours[owner]))
        row_y = y + rad * 0.62
    else:
        row_y = y
    if n:
        size = min(rad * 0.62, (rad * 1.8) / n) if owner >= 0 else min(rad * 0.9, rad * 1.8 / n)
        step = size * 1.02
        x0 = x - step * (n - 1) / 2
        # bottom Shard on the left, so the order reads bottom -> top left to right
        for i, c in enumerate(pile):
            out.append(shard_svg(c, x0 + i * step, row_y, size))
    height = n + (1 if owner >= 0 else 0)
    if height > 1:
        out.append(_badge(x + rad * 0.78, y - rad * 0.78, height, rad * 0.42))
    return "".join(out)


def _base_panel(view: View, seat: int, base: int, geo, names, colours) -> str:
    x, y = geo.base_xy[base]
    left, top = x - BASE_W / 2, y - BASE_H / 2
    colour = escape(colours[seat], quote=True)
    d = view.seats[seat]
    current = view.turn == seat
    out = [
        f'<g class="base{" base-current" if current else ""}" data-seat="{seat}">',
        f'<rect x="{left:.1f}" y="{top:.1f}" width="{BASE_W}" height="{BASE_H}" rx="14" '
        f'fill="#121a3a" stroke="{colour}" stroke-width="{5 if current else 3}"/>',
        f'<rect x="{left:.1f}" y="{top:.1f}" width="{BASE_W}" height="30" rx="14" '
        f'fill="{colour}"/>',
        f'<text x="{x:.1f}" y="{top + 21:.1f}" text-anchor="middle" font-size="18" '
        f'font-weight="700" fill="#fff">{escape(names[seat][:14])}</text>',
    ]
    # Dock: ships waiting to launch
    out.append(
        f'<text x="{left + 8:.1f}" y="{top + 52:.1f}" font-size="14" fill="#b8c0e0">Dock</text>'
    )
    for i in range(d.dock):
        out.append(_ship_path(left + 60 + i * 26, top + 46, 11, colours[seat]))
    if d.dock == 0:
        out.append(
            f'<text x="{left + 52:.1f}" y="{top + 52:.1f}" font-size="13" '
            'fill="#7f88aa">empty</text>'
        )
    # Cargo Bays: three columns, bottom Shard at the bottom (its order decides the score)
    col_w = (BASE_W - 16) / 3
    bay_top, bay_bottom = top + 64, top + BASE_H - 8
    for b, bay in enumerate(d.bays):
        bx = left + 8 + b * col_w
        out.append(
            f'<rect class="bay" x="{bx + 2:.1f}" y="{bay_top:.1f}" width="{col_w - 4:.1f}" '
            f'height="{bay_bottom - bay_top:.1f}" rx="6" fill="#0b1026" stroke="#39427a"/>'
            f'<text x="{bx + col_w / 2:.1f}" y="{bay_top + 14:.1f}" text-anchor="middle" '
            f'font-size="12" fill="#7f88aa">Bay {b + 1}</text>'
        )
        n = len(bay)
        if n:
            room = bay_bottom - bay_top - 26
            step = min(17.0, room / n)
            size = min(15.0, step * 0.95)
            for i, c in enumerate(bay):
                out.append(shard_svg(c, bx + col_w / 2, bay_bottom - 10 - i * step, size))
    out.append("</g>")
    return "".join(out)


def board_svg(
    view: View,
    names: list[str],
    colours: list[str],
    interactive: bool = True,
    keys: dict[str, str] | None = None,
    static_slot: bool = False,
    marks: dict[str, Any] | None = None,
    known: frozenset[str] = frozenset(),
    frame: tuple[float, float, float, float] | None = None,
) -> str:
    """The whole board for ``view``. ``keys`` maps a token to its keyboard shortcut.

    ``frame`` (x, y, width, height in board units, see :func:`frame_box`): the part of the
    board shown (the viewBox); the whole board without it. A lesson frames the part of
    the position it is about, so a small screen shows it large.

    ``marks`` (``Session.marks()``): the moves of the turn being marked, drawn as trails in
    the mover's colour with the spaces they touched ringed; the stack that the last
    decision moved carries ``data-nova-motion`` (once per decision) and ``data-nova-path``
    (the way it came, relative to where it is) for the page to animate.

    With ``static_slot`` (the live game) the unchanging part (sky, star, rings, empty
    spaces) is a separate ``<svg class="board-bg" data-nova-static="KEY">`` under the board,
    left empty: the page fills it once (see :func:`static_layer`) and keeps it, so the
    browser neither morphs nor repaints it when a move changes the board above it. The
    stacks and the bases are then keyed parts (``keep.py``): those the page shows
    unchanged, by their key in ``known``, come back elided.
    """
    players, variant = view.players, view.variant
    lay = view.layout
    geo = geometry_for(players, variant)
    removed = view.removed
    pile, ship = view.pile, view.ship
    legal = view.legal if interactive else ()
    targets = space_moves(legal)
    keys = keys or {}
    vkey = None if variant is None else json.dumps(variant, sort_keys=True)
    out = []
    if static_slot:
        key, _ = static_layer(view, colours)
        out.append(
            f'<svg class="board-bg" viewBox="0 0 {SIZE} {SIZE}" aria-hidden="true" '
            f'xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif" '
            f'data-nova-static="{key}" data-nova-keep="{key}"></svg>'
        )
        out.append(_svg_open(lay.board_title))
    else:
        out.append(_svg_open(lay.board_title, frame))
        out.append(static_board(players, vkey, removed, tuple(colours)))

    def part(markup: str, id_: str) -> str:
        return keyed(markup, id_, known)

    # what is on the spaces changes every move: only this part is drawn each time
    names_of = lay.space_names
    arrivals: dict[int, str] = {}
    if marks:
        trails, arrivals = marks_svg(marks, lay, geo, colours)
        out.append(trails)
    for s in range(lay.ring_start[removed] if removed < lay.ring_count else 0, lay.space_count):
        if pile[s] or ship[s] >= 0:
            x, y = geo.space_xy[s]
            out.append(
                part(
                    f'<g class="stack" data-stack="{names_of[s]}"{arrivals.get(s, "")}>'
                    f"{_stack(x, y, geo.space_r[s], pile[s], ship[s], colours)}</g>",
                    f"stack-{names_of[s]}",
                )
            )
    out.append(_targets_svg(targets, lay, geo, keys))  # last: on top of everything
    for seat, base in enumerate(lay.seat_base):
        out.append(part(_base_panel(view, seat, base, geo, names, colours), f"base-{seat}"))
    if interactive:
        out.append(bay_targets(view, lay, geo))
    out.append("</svg>")
    return "".join(out)


def _targets_svg(targets: dict[str, str], lay, geo, keys: dict[str, str]) -> str:
    """The clickable board targets (a space to choose now), each with its key if it has one."""
    out = []
    spots = {
        name: geo.space_xy[lay.name_to_space[name]] for name in targets if name in lay.name_to_space
    }
    for name, token in targets.items():
        target = lay.name_to_space.get(name)
        if target is None:
            continue
        x, y = geo.space_xy[target]
        rad = geo.space_r[target]
        reach = hit_radius((x, y), rad + 5, [xy for n, xy in spots.items() if n != name])
        key = keys.get(token, "")
        kind = Move(token).kind
        label = f"{TARGET_VERB[kind]} {name}"
        if key:
            label += f" (key {key})"
        # named by aria-label, with no <title>: axe reads a title's text as visible text
        # that the name would then have to contain (label-content-name-mismatch)
        out.append(
            f'<g class="target target-{TARGET_CLASS[kind]}" id="target-{name}" '
            f'data-move="{escape(token, quote=True)}" '
            f'role="button" tabindex="0" aria-label="{escape(label, quote=True)}">'
        )
        if reach > rad + 5:  # a finger's room around a small space (nothing drawn)
            out.append(
                f'<circle class="hit" cx="{x:.1f}" cy="{y:.1f}" r="{reach:.1f}" '
                'fill="transparent"/>'
            )
        out.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{rad + 5:.1f}" fill="#7df9ff" '
            'fill-opacity=".14" stroke="#7df9ff" stroke-width="4"/>'
        )
        if key:
            out.append(
                f'<text x="{x - rad * 0.9:.1f}" y="{y - rad * 0.55:.1f}" font-size="15" '
                f'font-weight="700" fill="#7df9ff" text-anchor="middle">{escape(key)}</text>'
            )
        out.append("</g>")
    return "".join(out)


HIT_R = 46.0  # board units: a target's tap area, where its neighbours leave the room


def hit_radius(at: tuple[float, float], drawn: float, others) -> float:
    """A target's tap radius: HIT_R (a fingertip on a phone's whole board is about 33 px
    across), never less than the circle drawn and never past halfway to another target,
    so two targets' areas never overlap."""
    x, y = at
    room = min((((x - ox) ** 2 + (y - oy) ** 2) ** 0.5 / 2 for ox, oy in others), default=HIT_R)
    return max(drawn, min(HIT_R, room))


def bay_gain(bay: str, shard: str, lay) -> int:
    """Points a Cargo Bay gains if ``shard`` goes on top of it (R50-R53)."""
    return best_bay_split(bay + shard, lay.bay_sets)[0] - best_bay_split(bay, lay.bay_sets)[0]


def bay_targets(view: View, lay: Layout, geo) -> str:
    """While an Unload's Shards go into the bays (``B0``-``B2``), the deciding seat's bays
    are tap targets with the points each would gain. They repeat the action bar's buttons
    for a pointer (``data-alt-move``), so they are hidden from keyboard and screen reader,
    which use those buttons."""
    legal = [m for m in view.legal if m.kind == mv.BAY]
    shards = getattr(view.pending, "shards", "")
    if not legal or not shards:
        return ""
    seat = view.current
    x, y = geo.base_xy[lay.seat_base[seat]]
    left, top = x - BASE_W / 2, y - BASE_H / 2
    col_w = (BASE_W - 16) / 3
    bays = view.seats[seat].bays
    out = ['<g class="bay-targets" aria-hidden="true">']
    for m in legal:
        b = m.number
        bx = left + 8 + b * col_w
        gain = bay_gain(bays[b], shards[0], lay)
        out.append(
            f'<g class="target bay-target" data-alt-move="{m}">'
            f"<title>Bay {b + 1}: +{gain} pts</title>"
            f'<rect x="{bx + 1:.1f}" y="{top + 60:.1f}" width="{col_w - 2:.1f}" '
            f'height="{BASE_H - 66:.1f}" rx="7" fill="#7df9ff" fill-opacity=".12" '
            'stroke="#7df9ff" stroke-width="3"/>'
            # the points at the bay's head, where its name is, on a dark pill: the Shards
            # stack up from the bay's floor and stay in sight
            f'<rect x="{bx + 5:.1f}" y="{top + 64:.1f}" width="{col_w - 10:.1f}" height="21" '
            'rx="6" fill="#0b1026"/>'
            f'<text x="{bx + col_w / 2:.1f}" y="{top + 80:.1f}" text-anchor="middle" '
            f'font-size="17" font-weight="700" fill="#7df9ff">+{gain}</text></g>'
        )
    out.append("</g>")
    return "".join(out)


def choice_boxes(view: View) -> list[tuple[float, float, float, float]]:
    """The boxes (x0, y0, x1, y1, board units) of the board's tap targets now: the spaces
    to choose and the Cargo Bays of an Unload (the page zooms a phone's board to them)."""
    lay = view.layout
    geo = geometry_for(view.players, view.variant)
    legal = view.legal
    boxes = []
    for name in space_moves(legal):
        s = lay.name_to_space.get(name)
        if s is not None:
            (x, y), r = geo.space_xy[s], geo.space_r[s] + 5
            boxes.append((x - r, y - r, x + r, y + r))
    bays = [m for m in legal if m.kind == mv.BAY]
    shards: str = getattr(view.pending, "shards", "")  # an Unload's, on their way to the bays
    if bays and shards:
        x, y = geo.base_xy[lay.seat_base[view.current]]
        left, top = x - BASE_W / 2, y - BASE_H / 2
        col_w = (BASE_W - 16) / 3
        for m in bays:
            bx = left + 8 + m.number * col_w
            boxes.append((bx + 1, top + 60, bx + col_w - 1, top + BASE_H - 6))
    return boxes


def frame_box(
    view: View, spaces, seats=(), pad: float = 50.0, least: float = 620.0
) -> tuple[float, float, float, float]:
    """A square viewBox (x, y, side, side) around ``spaces`` (indices) and the Star Bases
    of ``seats``, with ``pad`` board units around them, at least ``least`` units wide (so
    the frame keeps its surroundings: the ring, the star, a neighbour) and inside the
    board. The whole board when there is nothing to frame."""
    lay = view.layout
    geo = geometry_for(view.players, view.variant)
    boxes = []
    for s in spaces:
        (x, y), r = geo.space_xy[s], geo.space_r[s] + 8
        boxes.append((x - r, y - r, x + r, y + r))
    for seat in seats:
        x, y = geo.base_xy[lay.seat_base[seat]]
        boxes.append((x - BASE_W / 2, y - BASE_H / 2, x + BASE_W / 2, y + BASE_H / 2))
    if not boxes:
        return (0.0, 0.0, float(SIZE), float(SIZE))
    x0, y0 = min(b[0] for b in boxes) - pad, min(b[1] for b in boxes) - pad
    x1, y1 = max(b[2] for b in boxes) + pad, max(b[3] for b in boxes) + pad
    side = min(float(SIZE), max(least, x1 - x0, y1 - y0))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    left = min(max(cx - side / 2, 0.0), SIZE - side)
    top = min(max(cy - side / 2, 0.0), SIZE - side)
    return (left, top, side, side)


def _svg_open(title: str, frame: tuple[float, float, float, float] | None = None) -> str:
    box = " ".join(f"{v:.0f}" for v in frame) if frame else f"0 0 {SIZE} {SIZE}"
    # a part of the board (a lesson's): its corner labels would be cut (assets/game.css)
    cls = "board framed" if box != f"0 0 {SIZE} {SIZE}" else "board"
    return (
        f'<svg class="{cls}" viewBox="{box}" role="group" '
        f'aria-label="{escape(title, quote=True)}: the board" '
        'xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif">'
    )
