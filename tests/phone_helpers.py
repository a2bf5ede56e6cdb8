"""What a player on a phone sees without scrolling: measured in the page (or in the
publisher's frame, whose viewport is the frame), before the test scrolls or taps.

An element counts as seen when the part of it inside the viewport *and* inside every
ancestor that clips it (a scrolling drawer, the zoomed board's window) is not covered by
something else at its centre (a sticky bar, a dialog)."""

from __future__ import annotations

import contextlib
import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

# the board's own labels (the stack height's key, "unused base") cut by the board's window:
# half a word at its edge
CUT_LABELS = """() => {
  const w = document.querySelector('.board-wrap').getBoundingClientRect();
  return [...document.querySelectorAll('.board-wrap .height-key, .board-wrap .unused-base')]
    .filter((e) => e.getClientRects().length).filter((e) => {
      const r = e.getBoundingClientRect();
      const inside = r.left >= w.left - 1 && r.right <= w.right + 1
        && r.top >= w.top - 1 && r.bottom <= w.bottom + 1;
      const apart = r.right <= w.left || r.left >= w.right
        || r.bottom <= w.top || r.top >= w.bottom;
      return !inside && !apart;
    }).map((e) => e.getAttribute('class'));
}"""
# visible(el) -> [visible area / whole area, hit-test at the visible part's centre ok]
SEEN_JS = """() => {
window.__novaSeen = (el) => {
  const r = el.getBoundingClientRect();
  let x0 = Math.max(r.left, 0), y0 = Math.max(r.top, 0);
  let x1 = Math.min(r.right, innerWidth), y1 = Math.min(r.bottom, innerHeight);
  for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const c = a.getBoundingClientRect();
    x0 = Math.max(x0, c.left); y0 = Math.max(y0, c.top);
    x1 = Math.min(x1, c.right); y1 = Math.min(y1, c.bottom);
  }
  const whole = Math.max(r.width * r.height, 1e-9);
  if (x1 <= x0 || y1 <= y0) return [0, false];
  const hit = document.elementFromPoint((x0 + x1) / 2, (y0 + y1) / 2);
  // the board is two layers: the pieces let taps through to the spaces under them
  const host = el.matches('svg.board') ? el.closest('.board-stage') || el : el;
  const mine = !!hit && (hit === el || host.contains(hit));
  return [(x1 - x0) * (y1 - y0) / whole, mine];
};
}"""

# the screen as a player sees it now: each thing asked for, its best-seen element
MEASURE_JS = """(sels) => {
  const out = {};
  for (const [name, sel] of Object.entries(sels)) {
    let best = [0, false];
    for (const el of document.querySelectorAll(sel)) {
      if (!el.getClientRects().length) continue;
      const got = window.__novaSeen(el);
      if (got[1] && got[0] > best[0] || !best[1] && got[0] > best[0]) best = got;
    }
    out[name] = best;
  }
  out.scroll = [scrollX, scrollY];
  return out;
}"""


def measure(frame, selectors: dict[str, str]) -> dict:
    """{name: [part of it in view (0..1), not covered]} for the best-seen element of each
    selector, in ``frame`` (a Page or a Frame); ``scroll``: the document's own scroll."""
    frame.evaluate(SEEN_JS)
    return frame.evaluate(MEASURE_JS, selectors)


def parent_page(directory: Path, site_url: str, size: tuple[int, int], query: str = "") -> None:
    """The publisher's page: a phone-width page holding the game in a ``size`` iframe at
    its top (``?embed`` is not needed: a framed page is embedded)."""
    w, h = size
    (directory / "index.html").write_text(
        "<!doctype html><meta name='viewport' content='width=device-width'>"
        "<title>publisher</title><link rel='icon' href='data:,'>"
        "<style>body{margin:0}iframe{border:0;display:block}</style>"
        f'<iframe id="game" src="{site_url}index.html{query}" width="{w}" height="{h}" '
        'title="Nova Raiders"></iframe><p>Support page text under the game.</p>'
    )


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args) -> None:  # noqa: A002 - the base class's name
        pass


@contextlib.contextmanager
def other_origin(directory: Path):
    """A plain server on another loopback origin (127.0.0.2): the publisher's site."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.2", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.2:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
