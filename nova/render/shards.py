"""Shards drawn by colour AND by shape, so the board reads without colour vision.

black ``k`` = square, red ``r`` = diamond, yellow ``y`` = circle. (Red was a triangle: beside a
red player's ship, an arrowhead, it read as a second ship.)
"""

from __future__ import annotations

from functools import lru_cache

from ..rules.content import COLOUR_NAMES

SHAPE_NAMES = {"k": "square", "r": "diamond", "y": "circle"}
FILL = {"k": "#1d1d24", "r": "#e53935", "y": "#fdd835"}
STROKE = {"k": "#e8e8f0", "r": "#ffd0cc", "y": "#5a4a00"}


def shard_svg(colour: str, x: float, y: float, size: float) -> str:
    """One Shard centred on (x, y); ``size`` is its width. Unknown colours draw nothing."""
    if colour not in FILL:
        return ""
    h = size / 2
    cls = f'class="shard shard-{colour}"'
    paint = f'fill="{FILL[colour]}" stroke="{STROKE[colour]}" stroke-width="{size / 9:.2f}"'
    if colour == "k":
        return (
            f'<rect {cls} x="{x - h * 0.85:.1f}" y="{y - h * 0.85:.1f}" '
            f'width="{size * 0.85:.1f}" height="{size * 0.85:.1f}" rx="{size / 10:.1f}" {paint}/>'
        )
    if colour == "r":  # a crystal: taller than wide, the same upwards and downwards
        return (
            f'<polygon {cls} points="{x:.1f},{y - h:.1f} {x + h * 0.72:.1f},{y:.1f} '
            f'{x:.1f},{y + h:.1f} {x - h * 0.72:.1f},{y:.1f}" {paint}/>'
        )
    return f'<circle {cls} cx="{x:.1f}" cy="{y:.1f}" r="{h * 0.9:.1f}" {paint}/>'


@lru_cache(maxsize=64)
def shard_icon(colour: str, size: int = 16) -> str:
    """A standalone inline SVG of one Shard, for HTML text (legend, log, buttons)."""
    if colour not in FILL:
        return ""
    return (
        f'<svg class="shard-icon" width="{size}" height="{size}" viewBox="0 0 20 20" '
        f'role="img" aria-label="{COLOUR_NAMES[colour]} Shard">'
        f"{shard_svg(colour, 10, 10.5, 16)}</svg>"
    )


@lru_cache(maxsize=1)
def shard_legend() -> str:
    items = "".join(f"<li>{shard_icon(c)} {COLOUR_NAMES[c]} = {SHAPE_NAMES[c]}</li>" for c in "kry")
    return f'<ul class="legend" aria-label="Shard legend">{items}</ul>'
