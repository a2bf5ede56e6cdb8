"""The phone's board zoom, as pure arithmetic: which part of the board a decision is about (every
choice on it, with room for the keys' letters) and how far to zoom a board window of a given
size so that all of it shows, its targets as large as that allows.

The renderer writes the part as ``data-zoom`` on ``.board-stage`` (:func:`zoom_spec`); the page
(page.py, which has the same arithmetic: MicroPython has no dataclasses) reads its board
window's size and works out the scale and the scroll as :func:`zoom_window` does, so the browser
decides nothing but the window's size."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules import View
from .board import choice_boxes
from .geometry import SIZE

TAP_PX = 48.0  # a target's side we aim for (44 CSS px is WCAG 2.5.5's, with a margin)
FLOOR_PX = 45.0  # ... and at least this on a screen TALL_PX high or more
TALL_PX = 700.0
IN_VIEW = 0.35  # the part of the zoomed board its window shows, at least (short screens)
PAD = 24.0  # board units around the choices: a target's key letter sits above its left
MAX_SCALE = 4.0  # a pinch zooms no further (assets/boot.js, the same number)


@dataclass(frozen=True)
class ZoomBox:
    """The board units to show (x0, y0)-(x1, y1) and the smallest target's side."""

    x0: float
    y0: float
    x1: float
    y1: float
    side: float

    def attr(self) -> str:
        return f"{self.x0:.0f} {self.y0:.0f} {self.x1:.0f} {self.y1:.0f} {self.side:.0f}"

    @classmethod
    def parse(cls, spec: str) -> ZoomBox | None:
        try:
            x0, y0, x1, y1, side = (float(v) for v in spec.split())
        except ValueError:
            return None
        if not all(math.isfinite(v) for v in (x0, y0, x1, y1, side)) or x1 <= x0 or y1 <= y0:
            return None
        return cls(x0, y0, x1, y1, side)


@dataclass(frozen=True)
class ZoomView:
    """How the page shows a :class:`ZoomBox`: the board ``scale`` times the window's width
    and the window scrolled by (``left``, ``top``) CSS px."""

    scale: float
    left: float
    top: float


Box = tuple[float, float, float, float]


def zoom_box(view: View, extra: Sequence[Box] = ()) -> ZoomBox | None:
    """The box around every tap target on the board now (the spaces to choose, an
    Unload's Cargo Bays, and ``extra``: the folded destinations' boxes), padded and inside
    the board; None when the board asks nothing."""
    boxes = [*choice_boxes(view), *extra]
    if not boxes:
        return None
    x0 = max(0.0, min(b[0] for b in boxes) - PAD)
    y0 = max(0.0, min(b[1] for b in boxes) - PAD)
    x1 = min(float(SIZE), max(b[2] for b in boxes) + PAD)
    y1 = min(float(SIZE), max(b[3] for b in boxes) + PAD)
    side = min(min(b[2] - b[0], b[3] - b[1]) for b in boxes)
    return ZoomBox(x0, y0, x1, y1, side)


def zoom_spec(view: View, extra: Sequence[Box] = ()) -> str:
    """``data-zoom`` for the board's stage, or "" when the board asks nothing."""
    box = zoom_box(view, extra)
    return "" if box is None else f' data-zoom="{box.attr()}"'


def zoom_window(box: ZoomBox, width: float, height: float, screen_height: float) -> ZoomView:
    """The scale and scroll that show all of ``box`` in a ``width`` x ``height`` CSS px
    board window (the board is ``width * scale`` px wide).

    As large as a target of TAP_PX allows, but never so large that a choice falls out of
    the window; on a short screen (under TALL_PX, the publisher's frame) a third of the
    board stays in view too; the whole board at least, unless even that leaves a choice
    out of a window lower than it is wide (then smaller, to fit)."""
    width, height = max(width, 1.0), max(height, 1.0)
    side = max(box.side, 1.0)
    tap = TAP_PX * SIZE / (side * width)
    cap = math.sqrt(height / (IN_VIEW * width))
    if screen_height >= TALL_PX:
        cap = max(cap, FLOOR_PX * SIZE / (side * width))
    # every choice in the window: the box's width and its height fit
    fit = min(SIZE / (box.x1 - box.x0), SIZE * height / (width * (box.y1 - box.y0)))
    scale = max(min(1.0, fit), min(tap, cap, fit, MAX_SCALE))
    px = width * scale / SIZE
    left = (box.x0 + box.x1) / 2 * px - width / 2
    top = (box.y0 + box.y1) / 2 * px - height / 2
    # inside the board (a browser clamps too; the tests read the same numbers)
    left = min(max(left, 0.0), max(0.0, width * scale - width))
    top = min(max(top, 0.0), max(0.0, width * scale - height))
    return ZoomView(scale, left, top)


def in_window(box: ZoomBox, zv: ZoomView, width: float, height: float) -> bool:
    """Whether all of ``box`` shows in the window ``zv`` gives (half a pixel's leeway)."""
    px = width * zv.scale / SIZE
    ox = max(0.0, (width - width * zv.scale) / 2)  # a board narrower than its window: centred
    return (
        ox + box.x0 * px >= zv.left - 0.5
        and ox + box.x1 * px <= zv.left + width + 0.5
        and box.y0 * px >= zv.top - 0.5
        and box.y1 * px <= zv.top + height + 0.5
    )
