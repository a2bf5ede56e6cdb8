"""Long tasks (50 ms or more) a player or a publisher would feel: ``python -m nova bench-page
--long-tasks`` (issue 52; recipe in ../shared/notes/a-frame-shares-the-thread.md).

Two measurements, each in a Chromium of its own, the CPU slowed ``--throttle`` times (CDP
``Emulation.setCPUThrottlingRate``, set before the navigation):

* **the publisher's page**: a support page on another site (127.0.0.2) with the game in an
  iframe, site isolation off (``--disable-site-isolation-trials``, and IsolateOrigins and
  site-per-process disabled), so the frame shares the page's renderer and main thread as it
  does on most phones. The support page observes long tasks from before its frame loads
  (``PerformanceObserver``, type ``longtask``, buffered): those from navigation to the game's
  ``data-nova-ready``, then those while two bots play ``--frame-decisions`` decisions in the
  frame (the Pilot against the Admiral, at the quick pace);
* **the game's own page**, 390x844, from navigation through the first ``--own-decisions``
  decisions of a game against the Admiral (the person plays a random legal choice as soon as
  one is on screen).

Each reports the count of long tasks, their total and the longest, in ms. Speed is measured
here, never asserted in a test.
"""

from __future__ import annotations

import functools
import random
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from .chromium import DISABLED_FEATURES, chromium_processes, launch_chromium, memory_figures

PHONE = {"width": 390, "height": 844}
# the renderer shared by the page and its cross-site frames (Chromium reads only the last
# --disable-features: ours, with the site isolation features added)
SHARED_RENDERER = [
    "--disable-site-isolation-trials",
    "--disable-features=" + ",".join((*DISABLED_FEATURES, "IsolateOrigins", "site-per-process")),
]
# every long task of this page, from its start (buffered), as [start, duration] in ms
OBSERVE_JS = """
window.__novaLong = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__novaLong.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
} catch (e) { window.__novaLong = null; }
"""
# clicks a random visible choice; true if one was there
CLICK_ANY_JS = """
(r) => {
  for (const sel of ['[data-ui="ready"]', '[data-move]']) {
    const els = [...document.querySelectorAll(sel)].filter(
      (e) => e.getClientRects().length && !e.closest("[hidden]") && !e.disabled);
    if (els.length) {
      els[Math.floor(r * els.length)].dispatchEvent(
        new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
      return true;
    }
  }
  return false;
}
"""


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # the publisher's server says nothing
        pass


def _publisher(directory: Path) -> tuple[ThreadingHTTPServer, str]:
    """A plain server on another loopback origin (127.0.0.2): the publisher's site."""
    server = ThreadingHTTPServer(
        ("127.0.0.2", 0), functools.partial(_Quiet, directory=str(directory))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.2:{server.server_address[1]}"


def summary(tasks: list[list[float]] | None, start: float, end: float) -> dict:
    """The long tasks that started in [start, end): count, total and longest ms."""
    if tasks is None:
        return {"count": None, "total": None, "longest": None}
    ds = [d for s, d in tasks if start <= s < end]
    return {"count": len(ds), "total": sum(ds), "longest": max(ds, default=0.0)}


def frame_long_tasks(
    playwright, served, throttle: float, decisions: int, page_path: str = ""
) -> dict:
    """The publisher's page with the game in its frame, sharing the renderer."""
    host_dir = tempfile.TemporaryDirectory()
    server, host = _publisher(Path(host_dir.name))
    browser = launch_chromium(playwright, extra_args=SHARED_RENDERER)
    try:
        with served(extra_ancestors=[host]) as url:
            ctx, page, ready = _framed(
                browser, host, Path(host_dir.name), url + page_path, throttle
            )
            game = next(f for f in page.frames if f != page.main_frame)
            game.select_option("#nova-bot-0", "pilot")
            game.select_option("#nova-bot-1", "admiral")
            game.select_option("#nova-bot-pace", "quick")
            bots_from = page.evaluate("performance.now()")
            game.click('[data-ui="new-game"]')
            game.wait_for_function(
                f"+(document.body.dataset.novaMoves || 0) >= {decisions} || "
                "document.body.hasAttribute('data-nova-over')",
                timeout=1_800_000,
                polling=250,
            )
            end = page.evaluate("performance.now()")
            tasks = page.evaluate("window.__novaLong")
            where = game.evaluate("document.body.dataset.novaBotWhere || ''")
            moves = game.evaluate("+document.body.dataset.novaMoves")
            ctx.close()
    finally:
        browser.close()
        server.shutdown()
        server.server_close()
        host_dir.cleanup()
    return {
        "to_ready": summary(tasks, 0.0, ready),
        "ready_ms": ready,
        "bots": summary(tasks, bots_from, end),
        "bots_where": where,
        "moves": moves,
    }


def _framed(browser, host: str, host_dir: Path, src: str, throttle: float):
    """The publisher's support page with ``src`` in its iframe, loaded with the CPU slowed:
    (context, page, the page's clock when the frame's body says data-nova-ready)."""
    w, h = PHONE["width"] - 20, PHONE["height"] - 140
    query = "&embed" if "?" in src else "?embed"
    (host_dir / "index.html").write_text(
        "<!doctype html><title>publisher</title><link rel='icon' href='data:,'>"
        f"<script>{OBSERVE_JS}</script><h1>Support page</h1><p>Our game:</p>"
        f'<iframe id="game" src="{src}{query}" width="{w}" height="{h}"></iframe>'
    )
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.goto(host + "/index.html", wait_until="commit")
    page.wait_for_selector("#game", state="attached")
    frame = page.frame_locator("#game")
    frame.locator("body[data-nova-ready]").wait_for(state="attached", timeout=300_000)
    return ctx, page, page.evaluate("performance.now()")


def _alone(browser, url: str, throttle: float):
    """``url`` on its own page at 390x844, its long tasks observed from the start, loaded with
    the CPU slowed: (context, page, the page's clock at its body's data-nova-ready)."""
    ctx = browser.new_context(viewport=PHONE, has_touch=True)
    ctx.add_init_script(OBSERVE_JS)
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.goto(url, wait_until="commit")
    page.wait_for_selector("body[data-nova-ready]", state="attached", timeout=300_000)
    return ctx, page, page.evaluate("performance.now()")


FLOOR = "bench/floor.html"  # PyScript and MicroPython alone (tools/build_site.py FLOOR_HTML)


def floor_long_tasks(playwright, served, throttle: float, loads: int) -> dict:
    """The fixed stack's floor: ``bench/floor.html`` (PyScript and MicroPython as the page
    loads them, two lines of Python) in the publisher's frame and on its own page, navigation
    to ready, ``loads`` times each: the long tasks no page of ours can go under."""
    host_dir = tempfile.TemporaryDirectory()
    server, host = _publisher(Path(host_dir.name))
    framed: list[dict] = []
    own: list[dict] = []
    try:
        with served(extra_ancestors=[host]) as url:
            shared = launch_chromium(playwright, extra_args=SHARED_RENDERER)
            alone = launch_chromium(playwright)
            try:
                for _ in range(loads):
                    ctx, page, ready = _framed(
                        shared, host, Path(host_dir.name), url + FLOOR, throttle
                    )
                    framed.append(summary(page.evaluate("window.__novaLong"), 0.0, ready))
                    ctx.close()
                    ctx, page, ready = _alone(alone, url + FLOOR, throttle)
                    own.append(summary(page.evaluate("window.__novaLong"), 0.0, ready))
                    ctx.close()
            finally:
                shared.close()
                alone.close()
    finally:
        server.shutdown()
        server.server_close()
        host_dir.cleanup()
    return {"framed": framed, "own": own}


def start_against(page, level: str) -> None:
    page.click(f'[data-ui="level:{level}"]')
    page.click('[data-ui="new-game"]')


def play_on(page, decisions: int, rng: random.Random) -> tuple[int, float | None]:
    """A random visible choice whenever one is on screen, until ``decisions`` decisions (or
    the game's end): (decisions, the page's clock at the first one)."""
    first = None
    while True:
        n = page.evaluate("+(document.body.dataset.novaMoves || 0)")
        if first is None and n >= 1:
            first = page.evaluate("performance.now()")
        if n >= decisions or page.evaluate("document.body.hasAttribute('data-nova-over')"):
            return n, first
        if page.evaluate("document.body.hasAttribute('data-nova-bot-turn')") or not (
            page.evaluate(CLICK_ANY_JS, rng.random())
        ):
            page.wait_for_timeout(100)
            continue
        page.wait_for_timeout(50)


def own_page_memory(playwright, url: str, decisions: int, seed: int) -> dict:
    """Chromium's renderers' resident memory (RSS, /proc) after ``decisions`` decisions of
    a game against the Ace on the game's own page at 390x844 (issue 52 asks for no more
    than before: the page, its worker and the game's Pyodide are in the renderer)."""
    browser = launch_chromium(playwright)
    try:
        page = browser.new_context(viewport=PHONE, has_touch=True).new_page()
        page.goto(url)
        page.wait_for_selector("body[data-nova-ready]", state="attached", timeout=300_000)
        start_against(page, "ace")
        moves, _ = play_on(page, decisions, random.Random(seed))
        page.wait_for_timeout(2_000)  # the last frame drawn, the garbage collected
        procs = chromium_processes()
    finally:
        browser.close()
    figures = memory_figures(procs)
    return {
        "moves": moves,
        "renderers_mb": sorted(
            (p.rss_kb // 1024 for p in procs if p.kind == "renderer"), reverse=True
        ),
        "largest_mb": figures["renderer_max_mb"],
        "chromium_mb": figures["chromium_mb"],
    }


def own_page_long_tasks(
    playwright, url: str, throttle: float, decisions: int, seed: int, page_path: str = ""
) -> dict:
    """The game's own page at 390x844 through the first decisions of a game vs the Admiral."""
    rng = random.Random(seed)
    browser = launch_chromium(playwright)
    try:
        ctx, page, ready = _alone(browser, url + page_path, throttle)
        start_against(page, "admiral")
        started = page.evaluate("performance.now()")
        n, first = play_on(page, decisions, rng)
        end = page.evaluate("performance.now()")
        tasks = page.evaluate("window.__novaLong")
        where = page.evaluate("document.body.dataset.novaBotWhere || ''")
        ctx.close()
    finally:
        browser.close()
    return {
        "to_ready": summary(tasks, 0.0, ready),
        "ready_ms": ready,
        "game": summary(tasks, started, end),
        "all": summary(tasks, 0.0, end),
        "first_decision_ms": first,
        "end_ms": end,
        "bots_where": where,
        "moves": n,
    }


def _fmt(s: dict) -> str:
    if s["count"] is None:
        return "not observed"
    return f"{s['count']} tasks, {s['total']:,.0f} ms, longest {s['longest']:,.0f}"


def print_floor(floor: dict, args, row) -> None:
    """The floor's loads, one line each for the frame and the page: tasks and the longest."""

    def each(runs: list[dict]) -> str:
        return " ".join(f"{r['count']}/{r['longest']:,.0f}" for r in runs)

    print(
        f"reference: PyScript and MicroPython alone ({FLOOR}), navigation to ready, CPU slowed "
        f"{args.throttle:g}x; each load's long tasks / the longest ms"
    )
    row("  in the publisher's frame", each(floor["framed"]), f"{len(floor['framed'])} loads")
    row("  on its own page", each(floor["own"]), f"{len(floor['own'])} loads")


def print_long_tasks(frame: dict, own: dict, args, row) -> None:

    print(f"long tasks (>= 50 ms), CPU slowed {args.throttle:g}x")
    print("  the publisher's page, the game in its frame sharing the renderer, 390x844:")
    row(
        "  navigation to the game ready",
        _fmt(frame["to_ready"]),
        f"ready at {frame['ready_ms']:,.0f} ms",
    )
    row(
        f"  while bots play ({frame['moves']} decisions)",
        _fmt(frame["bots"]),
        f"bots think in the {frame['bots_where'] or '?'}",
    )
    print("  the game's own page, 390x844, a game against the Admiral:")
    row("  navigation to ready", _fmt(own["to_ready"]), f"ready at {own['ready_ms']:,.0f} ms")
    row(
        f"  Start to decision {own['moves']}",
        _fmt(own["game"]),
        f"bots think in the {own['bots_where'] or '?'}",
    )
    row("  navigation to the last of them", _fmt(own["all"]), f"at {own['end_ms']:,.0f} ms")
    first = own["first_decision_ms"]
    row("  navigation to the first decision", f"{first:,.0f} ms" if first else "?", "")
