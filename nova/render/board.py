"""The board as SVG, drawn from the data (``layout_for``) and one player's view.

The board shows only public things (no hand), so the same drawing serves every seat.
Spaces that are a legal choice now carry ``data-move`` with the engine's token.
"""

from __future__ import annotations

import json
import zlib
from functools import lru_cache
from html import escape

from ..rules import Move, layout_for
from ..rules import move as mv
from ..rules.scoring import best_bay_split
from .geometry import BASE_H, BASE_W, CENTRE, SIZE, STAR_R, geometry_for, polar
from .keep import keyed
from .marks import NEUTRAL, marks_svg
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


def space_moves(legal: list[str]) -> dict[str, str]:
    """space name -> the token that picks it (at most one per space at any time)."""
    out: dict[str, str] = {}
    for token in legal:
        m = Move(token)
        if m.kind in TARGET_VERB and m.space not in out:
            out[m.space] = token
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


def _star(geo, removed: int) -> str:
    out = []
    if removed:
        r_cover = geo.ring_r[removed - 1] + geo.band / 2
        for k in range(removed, 0, -1):
            rr = geo.ring_r[k - 1] + geo.band / 2
            out.append(
                f'<circle class="expansion-ring" cx="{CENTRE}" cy="{CENTRE}" r="{rr:.1f}" '
                f'fill="url(#nova-exp)" stroke="#ffcf70" stroke-width="3"/>'
            )
        out.append(
            f'<text x="{CENTRE}" y="{CENTRE - r_cover + 24:.1f}" class="exp-label" '
            f'text-anchor="middle" font-size="18" fill="#3b2400">'
            f"{removed} Expansion Ring{'s' * (removed > 1)}</text>"
        )
    out.append(
        f'<circle class="star" cx="{CENTRE}" cy="{CENTRE}" r="{STAR_R:.1f}" '
        'fill="url(#nova-star)"/>'
        f'<text x="{CENTRE}" y="{CENTRE + 6}" text-anchor="middle" font-size="20" '
        f'fill="#5a2600" font-weight="700">STAR</text>'
    )
    return "".join(out)


_DEFS = (
    "<defs>"
    '<radialGradient id="nova-star"><stop offset="0" stop-color="#fffbe0"/>'
    '<stop offset=".55" stop-color="#ffd25a"/><stop offset="1" stop-color="#ff8a1f"/>'
    "</radialGradient>"
    '<radialGradient id="nova-exp"><stop offset=".6" stop-color="#ffb347"/>'
    '<stop offset="1" stop-color="#e07b1a"/></radialGradient>'
    '<radialGradient id="nova-sky" cx=".5" cy=".5" r=".7"><stop offset="0" stop-color="#1b2350"/>'
    '<stop offset="1" stop-color="#060918"/></radialGradient>'
    "</defs>"
)


def _sky() -> str:
    # a fixed scatter of faint stars (deterministic: same drawing every time)
    dots = []
    x, y = 37, 91
    for _ in range(70):
        x = (x * 73 + 151) % SIZE
        y = (y * 97 + 53) % SIZE
        dots.append(f"M{x} {y}h0")
    # one path of round dots: one DOM node instead of seventy
    return (
        f'<rect width="{SIZE}" height="{SIZE}" fill="url(#nova-sky)"/>'
        f'<path d="{"".join(dots)}" stroke="#cfd8ff" stroke-width="2.6" '
        'stroke-linecap="round" opacity=".35"/>'
    )


def _base_panel(view: dict, seat: int, base: int, geo, names, colours) -> str:
    x, y = geo.base_xy[base]
    left, top = x - BASE_W / 2, y - BASE_H / 2
    colour = escape(colours[seat], quote=True)
    d = view["seats"][seat]
    current = view["turn"] == seat
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
    for i in range(d["dock"]):
        out.append(_ship_path(left + 60 + i * 26, top + 46, 11, colours[seat]))
    if d["dock"] == 0:
        out.append(
            f'<text x="{left + 52:.1f}" y="{top + 52:.1f}" font-size="13" '
            'fill="#7f88aa">empty</text>'
        )
    # Cargo Bays: three columns, bottom Shard at the bottom (its order decides the score)
    col_w = (BASE_W - 16) / 3
    bay_top, bay_bottom = top + 64, top + BASE_H - 8
    for b, bay in enumerate(d["bays"]):
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
    view: dict,
    names: list[str],
    colours: list[str],
    interactive: bool = True,
    keys: dict[str, str] | None = None,
    static_slot: bool = False,
    marks: dict | None = None,
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
    players, variant = view["players"], view.get("variant")
    lay = layout_for(players, variant)
    geo = geometry_for(players, variant)
    removed = view["removed"]
    pile, ship = view["pile"], view["ship"]
    legal = view.get("legal", []) if interactive else []
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
        out.append(_static_board(players, vkey, removed, tuple(colours)))

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
    for name, token in targets.items():
        target = lay.name_to_space.get(name)
        if target is None:
            continue
        x, y = geo.space_xy[target]
        rad = geo.space_r[target]
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


def bay_gain(bay: str, shard: str, lay) -> int:
    """Points a Cargo Bay gains if ``shard`` goes on top of it (R50-R53)."""
    return best_bay_split(bay + shard, lay.bay_sets)[0] - best_bay_split(bay, lay.bay_sets)[0]


def bay_targets(view: dict, lay, geo) -> str:
    """While an Unload's Shards go into the bays (``B0``-``B2``), the deciding seat's bays
    are tap targets with the points each would gain. They repeat the action bar's buttons
    for a pointer (``data-alt-move``), so they are hidden from keyboard and screen reader,
    which use those buttons."""
    legal = [Move(m) for m in view.get("legal", ()) if Move(m).kind == mv.BAY]
    pd = view.get("pending") or {}
    if not legal or not pd.get("shards"):
        return ""
    seat = view["current"]
    x, y = geo.base_xy[lay.seat_base[seat]]
    left, top = x - BASE_W / 2, y - BASE_H / 2
    col_w = (BASE_W - 16) / 3
    bays = view["seats"][seat]["bays"]
    out = ['<g class="bay-targets" aria-hidden="true">']
    for m in legal:
        b = m.number
        bx = left + 8 + b * col_w
        gain = bay_gain(bays[b], pd["shards"][0], lay)
        out.append(
            f'<g class="target bay-target" data-alt-move="{m}">'
            f"<title>Bay {b + 1}: +{gain} pts</title>"
            f'<rect x="{bx + 1:.1f}" y="{top + 60:.1f}" width="{col_w - 2:.1f}" '
            f'height="{BASE_H - 66:.1f}" rx="7" fill="#7df9ff" fill-opacity=".12" '
            'stroke="#7df9ff" stroke-width="3"/>'
            f'<text x="{bx + col_w / 2:.1f}" y="{top + 98:.1f}" text-anchor="middle" '
            f'font-size="17" font-weight="700" fill="#7df9ff">+{gain}</text></g>'
        )
    out.append("</g>")
    return "".join(out)


def choice_boxes(view: dict) -> list[tuple[float, float, float, float]]:
    """The boxes (x0, y0, x1, y1, board units) of the board's tap targets now: the spaces
    to choose and the Cargo Bays of an Unload (the page zooms a phone's board to them)."""
    lay = layout_for(view["players"], view.get("variant"))
    geo = geometry_for(view["players"], view.get("variant"))
    legal = view.get("legal", [])
    boxes = []
    for name in space_moves(legal):
        s = lay.name_to_space.get(name)
        if s is not None:
            (x, y), r = geo.space_xy[s], geo.space_r[s] + 5
            boxes.append((x - r, y - r, x + r, y + r))
    bays = [Move(m) for m in legal if Move(m).kind == mv.BAY]
    if bays and (view.get("pending") or {}).get("shards"):
        x, y = geo.base_xy[lay.seat_base[view["current"]]]
        left, top = x - BASE_W / 2, y - BASE_H / 2
        col_w = (BASE_W - 16) / 3
        for m in bays:
            bx = left + 8 + m.number * col_w
            boxes.append((bx + 1, top + 60, bx + col_w - 1, top + BASE_H - 6))
    return boxes


def frame_box(
    view: dict, spaces, seats=(), pad: float = 50.0, least: float = 620.0
) -> tuple[float, float, float, float]:
    """A square viewBox (x, y, side, side) around ``spaces`` (indices) and the Star Bases
    of ``seats``, with ``pad`` board units around them, at least ``least`` units wide (so
    the frame keeps its surroundings: the ring, the star, a neighbour) and inside the
    board. The whole board when there is nothing to frame."""
    lay = layout_for(view["players"], view.get("variant"))
    geo = geometry_for(view["players"], view.get("variant"))
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
    return (
        f'<svg class="board" viewBox="{box}" role="group" '
        f'aria-label="{escape(title, quote=True)}: the board" '
        'xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif">'
    )


def static_layer(view: dict, colours: list[str]) -> tuple[str, str]:
    """(key, markup) of the board's unchanging layer for this view: the same key, the
    same markup (it changes only when a ring is covered or colours change)."""
    variant = view.get("variant")
    vkey = None if variant is None else json.dumps(variant, sort_keys=True)
    args = (view["players"], vkey, view["removed"], tuple(colours))
    key = f"{zlib.crc32(repr(args).encode()):08x}"
    return key, _static_board(*args)


@lru_cache(maxsize=64)
def _static_board(players: int, vkey: str | None, removed: int, colours: tuple) -> str:
    """Sky, star, rings and empty spaces: the same until a ring is covered (cached)."""
    lay = layout_for(players, None if vkey is None else json.loads(vkey))
    geo = geometry_for(players, None if vkey is None else json.loads(vkey))
    out = [_DEFS, _sky()]
    # radial lines from the star to each seat's base, through its Jump-Gates
    for seat, base in enumerate(lay.seat_base):
        x2, y2 = polar(410, lay.base_angles[base])
        out.append(
            f'<line x1="{CENTRE}" y1="{CENTRE}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="{escape(colours[seat], quote=True)}" stroke-width="10" opacity=".18"/>'
        )
    for r in range(removed, lay.ring_count):
        out.append(
            f'<circle class="orbit" cx="{CENTRE}" cy="{CENTRE}" r="{geo.ring_r[r]:.1f}" '
            'fill="none" stroke="#4b5796" stroke-width="2" stroke-dasharray="3 6"/>'
        )
    out.append(_star(geo, removed))
    for s, name in enumerate(lay.space_names):
        if lay.space_ring[s] < removed:
            continue
        x, y = geo.space_xy[s]
        rad = geo.space_r[s]
        owner = lay.gate_owner[s]
        cls = "space"
        fill, stroke, sw = "#18214a", "#3a4784", 1.5
        if lay.is_asteroid[s]:
            cls += " asteroid"
            fill, stroke = "#4a3d33", "#8f7a66"
        if owner >= 0:
            cls += " gate"
            stroke, sw = colours[owner], 5
        elif owner == -1:
            cls += " gate gate-unused"
            stroke, sw = NEUTRAL, 3
        out.append(f'<g class="{cls}" data-space="{name}">')
        if lay.is_asteroid[s]:
            # an irregular rock outline under the space
            pts = []
            for k in range(9):
                rr = rad * (1.08 if k % 2 else 0.94)
                px, py = x + rr * _COS[k], y + rr * _SIN[k]
                pts.append(f"{px:.1f},{py:.1f}")
            out.append(
                f'<polygon points="{" ".join(pts)}" fill="{fill}" stroke="{stroke}" '
                'stroke-width="2"/>'
            )
        else:
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{rad:.1f}" fill="{fill}" '
                f'stroke="{escape(stroke, quote=True)}" stroke-width="{sw}"/>'
            )
        if owner != -2:
            # Jump-Gate marker: a second ring inside
            out.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{rad * 0.78:.1f}" fill="none" '
                f'stroke="{escape(stroke, quote=True)}" stroke-width="1.5" '
                'stroke-dasharray="4 3" opacity=".8"/>'
            )
        out.append(
            f'<text class="space-name" x="{x:.1f}" y="{y + rad * 0.95:.1f}" '
            f'text-anchor="middle" font-size="10" fill="#9aa4d6" opacity=".55">{name}</text>'
            "</g>"
        )
    for base in range(len(lay.base_angles)):
        if base not in lay.seat_base:
            x, y = geo.base_xy[base]
            out.append(
                f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle" font-size="16" '
                f'fill="{NEUTRAL}" opacity=".7">unused base</text>'
            )
    return "".join(out)


def _unit(k: int) -> tuple[float, float]:
    import math

    a = 2 * math.pi * k / 9
    return math.cos(a), math.sin(a)


_COS = [_unit(k)[0] for k in range(9)]
_SIN = [_unit(k)[1] for k in range(9)]
