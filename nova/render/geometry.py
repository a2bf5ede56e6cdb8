"""Where things sit on the drawn board, computed once per layout (not per repaint)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from ..rules import Layout, layout_for

SIZE = 1100  # the SVG viewBox is SIZE x SIZE
CENTRE = SIZE / 2
STAR_R = 88.0  # the star before any Expansion Ring covers it
FIRST_RING = 128.0  # centre radius of the innermost orbital ring
BASE_R = 458.0  # centre of each Star Base panel
BASE_W, BASE_H = 176.0, 152.0


@dataclass(frozen=True)
class Geometry:
    ring_r: tuple[float, ...]  # centre radius of each ring
    band: float  # radial width of a ring
    space_xy: tuple[tuple[float, float], ...]
    space_r: tuple[float, ...]  # drawn radius of each space
    base_xy: tuple[tuple[float, float], ...]  # per base index


def polar(radius: float, degrees: float) -> tuple[float, float]:
    """Board angles: 0 = up, clockwise."""
    a = math.radians(degrees)
    return CENTRE + radius * math.sin(a), CENTRE - radius * math.cos(a)


@lru_cache(maxsize=16)
def _geometry(players: int, variant_key: str | None) -> Geometry:
    lay = layout_for(players, None if variant_key is None else _VARIANTS[variant_key])
    return geometry_of(lay)


_VARIANTS: dict[str, dict | str] = {}


def geometry_for(players: int, variant: dict | str | None) -> Geometry:
    if variant is None:
        return _geometry(players, None)
    import json

    key = json.dumps(variant, sort_keys=True) if isinstance(variant, dict) else str(variant)
    _VARIANTS[key] = variant
    return _geometry(players, key)


def geometry_of(lay: Layout) -> Geometry:
    n = lay.ring_count
    outer = 340.0
    band = (outer - FIRST_RING) / max(1, n - 1) if n > 1 else 60.0
    ring_r = tuple(FIRST_RING + band * r for r in range(n))
    xy = []
    radii = []
    for s in range(lay.space_count):
        r = lay.space_ring[s]
        xy.append(polar(ring_r[r], lay.space_angle[s]))
        arc = 2 * math.pi * ring_r[r] / lay.ring_sizes[r]
        radii.append(min(band * 0.42, arc * 0.42, 30.0))
    bases = tuple(polar(BASE_R, a) for a in lay.base_angles)
    return Geometry(ring_r, band, tuple(xy), tuple(radii), bases)
