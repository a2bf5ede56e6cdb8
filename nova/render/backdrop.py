"""The board's unchanging layer: sky, star, Expansion Rings, orbits and empty spaces.

It changes only when a ring is covered or the colours change, so it is drawn once and
cached (:func:`static_layer`); the live game keeps it in a layer of its own under the
board (``board_svg(static_slot=True)``), which the browser never repaints on a move.
"""

from __future__ import annotations

import json
import math
import zlib
from functools import lru_cache
from html import escape

from ..rules import View, layout_for
from .geometry import CENTRE, SIZE, STAR_R, geometry_for, polar
from .marks import NEUTRAL


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
        # in the middle of the covered band, above the star, where the disc is wider than
        # the words (at its rim they ran past the disc onto the dark sky and were lost)
        y = CENTRE - (STAR_R + r_cover) / 2 + 6
        out.append(
            f'<text x="{CENTRE}" y="{y:.1f}" class="exp-label" text-anchor="middle" '
            'font-size="18" font-weight="600" fill="#3b2400" stroke="#ffe2a0" '
            'stroke-width="3" paint-order="stroke">'
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


def static_layer(view: View, colours: list[str]) -> tuple[str, str]:
    """(key, markup) of the board's unchanging layer for this view: the same key, the
    same markup (it changes only when a ring is covered or colours change)."""
    variant = view.variant
    vkey = None if variant is None else json.dumps(variant, sort_keys=True)
    args = (view.players, vkey, view.removed, tuple(colours))
    key = f"{zlib.crc32(repr(args).encode()):08x}"
    return key, static_board(*args)


@lru_cache(maxsize=64)
def static_board(players: int, vkey: str | None, removed: int, colours: tuple) -> str:
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
                f'<text class="unused-base" x="{x:.1f}" y="{y:.1f}" text-anchor="middle" '
                f'font-size="16" fill="{NEUTRAL}" opacity=".7">unused base</text>'
            )
    out.append(_height_key(geo))
    return "".join(out)


def _height_key(geo) -> str:
    """What the number on a stack means, in the board's emptiest bottom corner: a ship's
    Shards are drawn small under it, so "2" on a ship read as a Shard hidden somewhere."""
    corners = [(28.0, SIZE - 62.0, "start"), (SIZE - 28.0, SIZE - 62.0, "end")]
    x, y, anchor = max(corners, key=lambda c: min(math.dist((c[0], c[1]), b) for b in geo.base_xy))
    bx = x + 16 if anchor == "start" else x - 16
    tx = x + 40 if anchor == "start" else x - 40
    return (
        '<g class="height-key" font-size="24" fill="#b8c0e0">'
        f'<circle cx="{bx:.0f}" cy="{y - 8:.0f}" r="15" fill="#fff" stroke="#0b1026" '
        'stroke-width="2"/>'
        f'<text x="{bx:.0f}" y="{y:.0f}" text-anchor="middle" font-weight="700" '
        'fill="#0b1026" font-size="20">2</text>'
        f'<text x="{tx:.0f}" y="{y:.0f}" text-anchor="{anchor}">stack height:</text>'
        f'<text x="{tx:.0f}" y="{y + 30:.0f}" text-anchor="{anchor}">a ship + its Shards</text>'
        "</g>"
    )


def _unit(k: int) -> tuple[float, float]:
    a = 2 * math.pi * k / 9
    return math.cos(a), math.sin(a)


_COS = [_unit(k)[0] for k in range(9)]
_SIN = [_unit(k)[1] for k in range(9)]
