"""Places on the board where one tap plays two decisions: at a "choose the ship" step, the
spaces only one of the offered ships can go to (``Session.folded_moves``: space -> "ship
dest"). They repeat, for a pointer, what the ship and then the space would do, so like the
Cargo Bays' targets they carry ``data-alt-move`` and are hidden from keyboard and screen
reader, which choose the ship first as before."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from ..rules import View
from .geometry import geometry_for


def folded_svg(view: View, folded: Mapping[str, str]) -> str:
    """The folded destinations as board targets (dashed: a place to go, not a ship)."""
    if not folded:
        return ""
    lay = view.layout
    geo = geometry_for(view.players, view.variant)
    out = ['<g class="fold-targets" aria-hidden="true">']
    for name, token in folded.items():
        s = lay.name_to_space.get(name)
        if s is None:
            continue
        (x, y), r = geo.space_xy[s], geo.space_r[s]
        ship, alt = token.split(" ")[0][1:], escape(token, quote=True)
        out.append(
            f'<g class="target target-dest fold-target" data-alt-move="{alt}">'
            f"<title>The ship on {escape(ship)} goes to {escape(name)}</title>"
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r + 5:.1f}" fill="#7df9ff" '
            'fill-opacity=".08" stroke="#7df9ff" stroke-width="3" stroke-dasharray="7 5"/></g>'
        )
    out.append("</g>")
    return "".join(out)


def fold_boxes(view: View, folded: Mapping[str, str]) -> list[tuple[float, float, float, float]]:
    """The folded destinations' boxes (board units), for the phone's zoom to frame them."""
    lay = view.layout
    geo = geometry_for(view.players, view.variant)
    boxes = []
    for name in folded:
        s = lay.name_to_space.get(name)
        if s is not None:
            (x, y), r = geo.space_xy[s], geo.space_r[s] + 5
            boxes.append((x - r, y - r, x + r, y + r))
    return boxes
