"""Page benchmark: ``python -m nova bench-page`` (needs the repository, Node/npm and Chromium).

In one run, headless Chromium against ``tools/serve.py`` (the hosted headers):

* boot: the bare Pyodide floor (``_site/bench/bare.html``: only ``loadPyodide()`` from the same
  self-hosted runtime) next to our page's time to ``<body data-nova-ready>``, cold (fresh
  browser context) and warm (new page in the same context); medians of ``--reps`` loads; the
  page with its memory snapshot (``?snapshot``: only an address that asks for it downloads
  it) and with the snapshot's download refused (the ordinary boot, Playwright route abort);
  the bots' worker's boot (``data-nova-worker-ms``) after each cold load, next to the page's;
* the default visit (lean: the ordinary boot, the snapshot never downloaded), cold, and the
  next visit, from the service worker's cache;
* return visits in a player's browser (a profile on disk, whose HTTP cache and wasm code cache
  outlive the page, unlike the incognito contexts above): a first visit, then visits on each
  of which a game is played (``--return-moves`` clicks), the third and later timed, next to
  bare Pyodide's third and later loads in a profile of its own;
* the bytes of a whole first visit, counted at the server (``tools/serve.py --log-requests``):
  every request of the page, of its workers and of the service worker's install, until the
  service worker controls the page and the server has been quiet for a while; each download
  raw and as a host would send it gzipped (-6) or brotli-compressed (quality 11, if the
  ``brotli`` package is installed: the test extra pins it); files already compressed (the
  snapshot) count as they are, and so, in effect, do the deflated zips (compressing them
  again gains under 1%). The default (lean) visit, one with the snapshot, and the URLs
  downloaded more than once (aim: none); then what starting the bots' worker downloads;
* click-to-repaint over a game: from a click on a ``[data-move]`` to the change of
  ``data-nova-moves``, timed in the page with ``performance.now()`` and a MutationObserver;
  median and 95th percentile next to one frame (16.7 ms);
* bots in the page: search bots (two, or ``--players``) play ``--bot-decisions`` decisions of
  a seeded game in the page's worker while Chromium slows the page's main thread
  ``--throttle`` times (CDP ``Emulation.setCPUThrottlingRate``, 4 by default); the worker's
  boot, the positions a
  search visits in ``--think-ms`` next to the same positions searched by the same bots under
  CPython with the same time, the longest task the page's main thread saw
  (PerformanceObserver), and "? Rules" pressed 20 times while the bots play: how many
  presses opened the rules (within 10 s), how soon, and landed on the same element.
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

from .chromium import launch_chromium, launch_persistent_chromium
from .site import build_site, served_site

ROOT = Path(__file__).resolve().parent.parent.parent
FRAME_MS = 1000 / 60

# Records when <body> gets a marker attribute, in ms since navigation start.
MARK_JS = """
(() => {
  const marks = (window.__novaMarks = {});
  const attrs = ["data-nova-ready", "data-nova-error", "data-bare-ready"];
  const check = () => {
    const b = document.body;
    if (!b) return;
    for (const a of attrs) if (b.hasAttribute(a) && !(a in marks)) marks[a] = performance.now();
  };
  new MutationObserver(check).observe(document, {
    attributes: true, subtree: true, childList: true, attributeFilter: attrs,
  });
})();
"""

# Clicks element `index` of `selector` and resolves with ms until data-nova-moves changes
# (or null after `timeout` ms).
CLICK_JS = """
([selector, index, timeout]) => new Promise((resolve) => {
  const els = [...document.querySelectorAll(selector)].filter(
    (e) => e.getClientRects().length && !e.closest("[hidden]") && !e.disabled);
  const el = els[index % Math.max(els.length, 1)];
  if (!el) return resolve(null);
  const body = document.body;
  const before = body.getAttribute("data-nova-moves");
  let done = false;
  const finish = (v) => { if (!done) { done = true; obs.disconnect(); resolve(v); } };
  const obs = new MutationObserver(() => {
    if (body.getAttribute("data-nova-moves") !== before) finish(performance.now() - t0);
  });
  obs.observe(body, { attributes: true, attributeFilter: ["data-nova-moves"] });
  setTimeout(() => finish(null), timeout);
  const t0 = performance.now();
  el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
})
"""

COUNT_JS = """
(selector) => [...document.querySelectorAll(selector)].filter(
  (e) => e.getClientRects().length && !e.closest("[hidden]") && !e.disabled).length
"""


class ServerLog:
    """The requests ``tools/serve.py --log-requests`` served: one JSON line each."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def rows(self) -> list[dict]:
        try:
            text = self.path.read_text()
        except FileNotFoundError:
            return []
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def mark(self) -> int:
        return len(self.rows())

    def since(self, mark: int, quiet_s: float = 2.0, limit_s: float = 120.0) -> list[dict]:
        """The requests served since ``mark``, once none has come for ``quiet_s`` seconds."""
        deadline = time.monotonic() + limit_s
        count, still = -1, time.monotonic()
        while time.monotonic() < deadline:
            n = self.mark()
            if n != count:
                count, still = n, time.monotonic()
            elif time.monotonic() - still >= quiet_s:
                break
            time.sleep(0.25)
        return self.rows()[mark:]


def _site_file(site: Path, path: str) -> Path:
    f = site / (urlparse(path).path.lstrip("/") or "index.html")
    return f / "index.html" if f.is_dir() else f


def _server_bytes(rows: list[dict], site: Path) -> dict:
    """What the requests ``rows`` downloaded: each download raw and as a host would compress
    it, the requests and downloads, and the URLs (and files) downloaded more than once."""
    downloads = [r for r in rows if r["bytes"] > 0]
    sizes = _compressed_bytes(site, sorted({r["path"] for r in downloads}))
    total = {"raw": 0, "gzip": 0, "br": 0}
    for r in downloads:
        f = sizes.get(r["path"], {"raw": r["bytes"], "gzip": r["bytes"]})
        for k in total:
            total[k] += int(f.get(k) or f["gzip"])  # no brotli figure: the gzip one
    urls = collections.Counter(r["path"] for r in downloads)
    files = collections.Counter(_site_file(site, r["path"]) for r in downloads)
    return {
        **total,
        "has_br": all("br" in f for f in sizes.values()),
        "sent": sum(r["bytes"] for r in downloads),
        "requests": len(rows),
        "downloads": len(downloads),
        "twice": sorted(u for u, n in urls.items() if n > 1),
        "files_twice": sorted(str(f.relative_to(site)) for f, n in files.items() if n > 1),
        "per_path": {p: sizes[p] for p in urls if p in sizes},
    }


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def _p95(xs: list[float]) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]


def _load(context, url: str, marker: str, timeout_ms: float = 90_000):
    """Open ``url`` in a new page of ``context``; ms from navigation start to ``marker``."""
    page = context.new_page()
    page.goto(url, wait_until="commit")
    page.wait_for_selector(
        f"body[{marker}], body[data-nova-error]", state="attached", timeout=timeout_ms
    )
    marks = page.evaluate("window.__novaMarks")
    if "data-nova-error" in marks and marker not in marks:
        err = page.evaluate("document.body.getAttribute('data-nova-error')")
        raise RuntimeError(f"{url}: data-nova-error={err!r}")
    return page, float(marks[marker])


def _start_worker(page) -> float | None:
    """Start a game with a bot seat; ms the bots' worker took to boot (data-nova-worker-ms)."""
    try:
        page.select_option("#nova-bot-1", "random")
        page.click('[data-ui="new-game"]')
        page.wait_for_selector(
            "body[data-nova-worker=ready], body[data-nova-worker=failed]",
            state="attached",
            timeout=120_000,
        )
        ms = page.evaluate("document.body.dataset.novaWorkerMs")
        return float(ms) if ms else None
    except Exception as exc:  # a page without those controls: no worker figure
        print(f"  (worker boot not measured: {exc.__class__.__name__})")
        return None


def _boot_once(
    browser,
    log: ServerLog,
    url: str,
    marker: str,
    cold: list,
    warm: list,
    size: dict,
    block_snapshot: bool = False,
    worker: list | None = None,
    after_service_worker: bool = False,
) -> None:
    """One cold load (fresh context) then one warm load (new page, same context); the first
    time, what the whole cold visit downloaded, counted at the server (``log``); with
    ``after_service_worker`` the warm load waits until the service worker controls the page
    (its precache done: what the next visit is served from)."""
    ctx = browser.new_context()
    ctx.add_init_script(MARK_JS)
    if block_snapshot:  # the snapshot's download fails: the shim must boot the ordinary way
        ctx.route("**/snapshot/nova-*", lambda route: route.abort())
    mark = log.mark()
    page, ms = _load(ctx, url, marker)
    cold.append(ms)
    state = page.evaluate("document.documentElement.dataset.novaSnapshot")
    if state:
        size.setdefault("snapshot", set()).add(state.split(":")[0])
    # the whole first visit, the service worker's install too; not with a route (Playwright's
    # routing turns the HTTP cache off, so the install would download everything again)
    if "sent" not in size and not block_snapshot:
        if marker == "data-nova-ready":
            page.wait_for_function(
                "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                timeout=120_000,
            )
        size.update(_server_bytes(log.since(mark), ROOT / "_site"))
    if worker is not None:
        mark = log.mark()
        ms = _start_worker(page)
        if ms is not None:
            worker.append(ms)
        if "worker_bytes" not in size:
            size["worker_bytes"] = _server_bytes(log.since(mark), ROOT / "_site")
    if after_service_worker:
        page.wait_for_function(
            "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null",
            timeout=120_000,
        )
    page.close()
    page, ms = _load(ctx, url, marker)
    warm.append(ms)
    ctx.close()


def _return_visits(playwright, url: str, marker: str, reps: int, moves: int, seed: int) -> dict:
    """Visits of one page in a fresh profile on disk: the first, then ``reps`` + 1 on each of
    which a game is played (``moves`` clicks after the page is ready; bare: none), all but the
    second timed; ms to ``marker`` of each."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as profile:
        ctx = launch_persistent_chromium(playwright, profile)
        ctx.add_init_script(MARK_JS)
        times = []
        try:
            for visit in range(2 + reps):
                page, ms = _load(ctx, url, marker)
                if visit == 0 and marker == "data-nova-ready":
                    page.wait_for_function(
                        "() => navigator.serviceWorker.controller !== null", timeout=120_000
                    )
                if visit >= 2:
                    times.append(ms)
                if visit >= 1 and moves and marker == "data-nova-ready":
                    _play(page, moves, rng)  # a player plays on each visit
                page.wait_for_timeout(3000)  # Chromium writes its code cache a while later
                page.close()
        finally:
            ctx.close()
    return {"times": times}


def _play(page, moves: int, rng: random.Random) -> int:
    """Click ``moves`` random moves of a new game (through its hand-overs); how many landed."""
    if not page.evaluate(COUNT_JS, '[data-ui="new-game"]') and page.evaluate(
        COUNT_JS, '[data-ui="menu"]'
    ):
        page.click('[data-ui="menu"]')
    page.click('[data-ui="new-game"]')
    done = stuck = 0
    while done < moves and stuck < 20:
        if page.evaluate(COUNT_JS, '[data-ui="ready"]'):
            page.click('[data-ui="ready"]')
            continue
        n = page.evaluate(COUNT_JS, "[data-move]")
        if not n or page.evaluate(CLICK_JS, ["[data-move]", rng.randrange(n), 3000]) is None:
            stuck += 1
            page.wait_for_timeout(100)
            continue
        done += 1
        stuck = 0
    return done


def _clicks(browser, url: str, moves: int, seed: int) -> tuple[list[float], int, str]:
    """Click through games; returns (latencies in ms, clicks without a change, note)."""
    rng = random.Random(seed)
    ctx = browser.new_context()
    ctx.add_init_script(MARK_JS)
    page, _ = _load(ctx, url, "data-nova-ready")
    try:
        if not page.evaluate(COUNT_JS, '[data-ui="new-game"]'):
            # the start screen may be behind a menu
            if page.evaluate(COUNT_JS, '[data-ui="menu"]'):
                page.click('[data-ui="menu"]')
        if not page.evaluate(COUNT_JS, '[data-ui="new-game"]'):
            return [], 0, 'no [data-ui="new-game"] in the page yet: click timing skipped'
        page.click('[data-ui="new-game"]')
        times: list[float] = []
        misses = 0
        stuck = 0
        while len(times) < moves and stuck < 20:
            if page.evaluate("document.body.hasAttribute('data-nova-over')"):
                for sel in ('[data-ui="menu"]', '[data-ui="new-game"]'):
                    if page.evaluate(COUNT_JS, sel):
                        page.click(sel)
                continue
            if page.evaluate(COUNT_JS, '[data-ui="ready"]'):
                page.click('[data-ui="ready"]')
                continue
            n = page.evaluate(COUNT_JS, "[data-move]")
            if not n:
                stuck += 1
                page.wait_for_timeout(100)  # a bot's turn, or an animation
                continue
            ms = page.evaluate(CLICK_JS, ["[data-move]", rng.randrange(n), 3000])
            if ms is None:
                misses += 1
                stuck += 1
            else:
                times.append(float(ms))
                stuck = 0
        note = "" if stuck < 20 else f"stopped after {len(times)} moves: nothing left to click"
        return times, misses, note
    finally:
        ctx.close()


LONG_TASKS_JS = """() => {
  window.__novaLong = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__novaLong.push(e.duration);
  }).observe({ type: "longtask" });
}"""


SCREEN_IS_HELP = "document.body.getAttribute('data-nova-screen') === 'help'"


def _press_rules(page, n: int) -> dict:
    """Press "? Rules" ``n`` times with the real mouse (held 40 ms) while the bots play:
    how many presses opened the rules, and on the same element as the first time (a page
    that replaced its DOM between press and release would lose the click)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.evaluate("window.__novaRules = document.querySelector('[data-ui=\"help\"]')")
    opened = same = 0
    waits: list[float] = []
    for _ in range(n):
        page.wait_for_timeout(150)
        same += page.evaluate("window.__novaRules === document.querySelector('[data-ui=\"help\"]')")
        page.click('[data-ui="help"]', delay=40)
        # the rules open when the worker answers, between two slices of a search: the
        # press's release to the rules on screen, then closed so the next press finds the button
        t0 = time.perf_counter()
        try:
            page.wait_for_function(SCREEN_IS_HELP, timeout=10_000, polling="raf")
        except PlaywrightTimeout:
            continue
        waits.append((time.perf_counter() - t0) * 1000.0)
        opened += 1
        page.keyboard.press("Escape")
        page.wait_for_function(f"!({SCREEN_IS_HELP})", timeout=10_000)
    return {"opened": opened, "same": same, "n": n, "open_ms": sorted(waits)}


def _bot_game(
    browser, url: str, seed: int, decisions: int, throttle: float, think_ms: int, bot: str,
    players: int = 2,
) -> dict:  # fmt: skip
    """A seeded game of ``players`` ``bot`` bots played by the page, the page's main thread
    slowed ``throttle`` times by Chromium (CDP ``Emulation.setCPUThrottlingRate``); their
    figures."""
    ctx = browser.new_context()
    ctx.add_init_script(MARK_JS)
    page, _ = _load(ctx, url, "data-nova-ready")
    try:
        cdp = ctx.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        page.click(f'[data-ui="players:{players}"]')
        for seat in range(players):
            page.select_option(f"#nova-bot-{seat}", bot)
        page.select_option("#nova-bot-pace", "quick")
        page.click("details.more summary")  # the search's thinking time is under "More"
        page.select_option("#nova-bot-think", str(think_ms))
        page.fill("#nova-seed", str(seed))
        page.click('[data-ui="new-game"]')
        # the worker boots after the click (its boot is its own figure); observe long tasks
        # from the first bot decision on. Poll on a timer: Playwright's default polling asks
        # for an animation frame every 16 ms, frames a player's page would not be drawing.
        page.wait_for_function(
            "+(document.body.dataset.novaBotDecisions || 0) >= 1", timeout=600_000, polling=250
        )
        page.evaluate(LONG_TASKS_JS)
        rules = _press_rules(page, 20)
        page.wait_for_function(
            f"+(document.body.dataset.novaBotDecisions || 0) >= {decisions} || "
            "document.body.hasAttribute('data-nova-over')",
            timeout=1_800_000,
            polling=250,
        )
        # the page keeps playing: read one consistent snapshot, with the game's moves
        data = page.evaluate(
            """() => ({...document.body.dataset, long: window.__novaLong, save:
                 localStorage.getItem('nova:save:' + localStorage.getItem('nova:current'))})"""
        )
        data["rules"] = rules
    finally:
        ctx.close()
    return data


def _bot_game_cpython(
    save: str | None, seed: int, decisions: int, think_ms: int, bot: str, players: int = 2
) -> dict:
    """The page's game, decision by decision, asked of the same bots under CPython with the
    same thinking time (the page's moves are played, so both see the same positions)."""
    from nova.record import GameRecord
    from nova.rules import new_game
    from nova.web.bot_turns import BotStats, thinking_bot

    moves: list[str] = []
    if save:
        moves = list(GameRecord.from_dict(json.loads(save)["record"]).moves)
    s = new_game(players=players, seed=seed)
    stats = BotStats()
    bots = {seat: thinking_bot(bot, think_ms) for seat in range(players)}
    for i in range(min(decisions, len(moves)) if moves else decisions):
        if s.is_over():
            break
        seat = s.current_player
        agent = bots[seat]
        before = agent.positions
        t0 = time.perf_counter()
        agent.start(s.view(seat), seed * 1_000_003 + i)
        searched = not agent.done
        move = agent.best()
        ms = (time.perf_counter() - t0) * 1000
        stats.add(searched, agent.positions - before, ms, ms)
        s = s.apply(moves[i] if moves else move)
    return stats.stats()


def _compressed_bytes(site: Path, paths: list[str]) -> dict[str, dict[str, int]]:
    """Each file's bytes raw, gzipped (-6) and brotli (11) as a static host would send them;
    a file that is already compressed is sent as it is (``min``). No brotli: ``br`` is absent."""
    import gzip

    try:
        import brotli  # type: ignore[import-untyped]  # the test extra pins it
    except ImportError:
        brotli = None
    out = {}
    for path in paths:
        f = _site_file(site, path)
        if not f.is_file() or path in out:
            continue
        data = f.read_bytes()
        if f.suffix == ".gz":  # sent as it is
            out[path] = {"raw": len(data), "gzip": len(data), "br": len(data)}
            continue
        sizes = {"raw": len(data), "gzip": min(len(data), len(gzip.compress(data, 6)))}
        if brotli is not None:
            sizes["br"] = min(len(data), len(brotli.compress(data, quality=11)))
        out[path] = sizes
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m nova bench-page", description=__doc__)
    ap.add_argument("--reps", type=int, default=3, help="loads per boot figure (median)")
    ap.add_argument("--moves", type=int, default=60, help="timed clicks for click-to-repaint")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--bot-decisions", type=int, default=200, help="bot decisions timed in the page"
    )
    ap.add_argument(
        "--throttle", type=float, default=4.0, help="CPU slow-down of the page while bots play"
    )
    ap.add_argument("--think-ms", type=int, default=1000, choices=(250, 1000, 3000))
    ap.add_argument("--bot", default="search", help="the bot at every seat (search, best, ...)")
    ap.add_argument(
        "--players", type=int, default=2, choices=(2, 3, 4), help="seats of the bots' game"
    )
    ap.add_argument(
        "--return-moves",
        type=int,
        default=40,
        help="clicks of a game on each return visit (0: no return visits)",
    )
    ap.add_argument("--no-build", action="store_true", help="use _site/ as it is")
    ap.add_argument("--bots-only", action="store_true", help="only the bots in the page")
    ap.add_argument(
        "--long-tasks",
        action="store_true",
        help="only the long tasks: the publisher's page with the game in a frame sharing its "
        "renderer, and the game's own page against the Admiral (CPU slowed --throttle times)",
    )
    ap.add_argument(
        "--memory",
        action="store_true",
        help="only the memory: Chromium's renderers' resident memory after --own-decisions "
        "decisions of a game against the Ace on the game's own page, 390x844",
    )
    ap.add_argument(
        "--frame-decisions", type=int, default=150, help="bot decisions in the publisher's frame"
    )
    ap.add_argument(
        "--own-decisions", type=int, default=20, help="decisions of the game vs the Admiral"
    )
    ap.add_argument(
        "--floor-loads",
        type=int,
        default=3,
        help="with --long-tasks: loads of the reference, PyScript and MicroPython alone "
        "(bench/floor.html of _site/), in the frame and on its own page (0: none)",
    )
    ap.add_argument(
        "--page",
        action="append",
        default=[],
        help="with --long-tasks: the page to measure, under the site; repeat to measure "
        "several in turn (default: the site's index)",
    )
    ap.add_argument(
        "--site",
        type=Path,
        action="append",
        default=[],
        help="with --long-tasks or --memory: a built site to measure instead of _site/ (another "
        "release, built with its own tools/build_site.py --out DIR); repeat to measure several "
        "in turn",
    )
    args = ap.parse_args(argv)

    tools = ROOT / "tools"
    if not (tools / "serve.py").is_file():
        print("bench-page needs the repository (tools/serve.py, tools/build_site.py)")
        return 2
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("bench-page needs Playwright: pip install -e '.[test]' (or make test)")
        return 2
    if not args.no_build:
        build_site()
    if args.long_tasks:
        return _long_tasks(args, sync_playwright)
    if args.memory:
        return _memory(args, sync_playwright)
    log_dir = tempfile.TemporaryDirectory()
    log = ServerLog(Path(log_dir.name) / "requests.jsonl")
    try:
        with served_site(log.path) as url, sync_playwright() as p:
            browser = launch_chromium(p)
            print(f"bench-page: {url}, Chromium {browser.version}, {args.reps} loads each")
            # interleaved, so that a busy spell on the machine hits every case alike
            bare_c: list[float] = []
            bare_w: list[float] = []
            pyc_c: list[float] = []
            pyc_w: list[float] = []
            ours_c: list[float] = []
            ours_w: list[float] = []
            plain_c: list[float] = []
            plain_w: list[float] = []
            lean_c: list[float] = []
            lean_w: list[float] = []
            worker: list[float] = []
            plain_worker: list[float] = []
            bare_size: dict = {}
            pyc_size: dict = {}
            size: dict = {}
            plain_size: dict = {}
            lean_size: dict = {}
            for _ in range(0 if args.bots_only else args.reps):
                _boot_once(
                    browser,
                    log,
                    url + "bench/bare.html",
                    "data-bare-ready",
                    bare_c,
                    bare_w,
                    bare_size,
                )
                _boot_once(
                    browser,
                    log,
                    url + "bench/bare.html?pyc",
                    "data-bare-ready",
                    pyc_c,
                    pyc_w,
                    pyc_size,
                )
                _boot_once(
                    browser,
                    log,
                    url + "?snapshot",
                    "data-nova-ready",
                    ours_c,
                    ours_w,
                    size,
                    worker=worker,
                )
                _boot_once(
                    browser,
                    log,
                    url + "?snapshot",
                    "data-nova-ready",
                    plain_c,
                    plain_w,
                    plain_size,
                    block_snapshot=True,
                    worker=plain_worker,
                )
                _boot_once(
                    browser,
                    log,
                    url,
                    "data-nova-ready",
                    lean_c,
                    lean_w,
                    lean_size,
                    after_service_worker=True,
                )
            back = bare_back = {}
            if not args.bots_only and args.return_moves:
                bare_back = _return_visits(
                    p, url + "bench/bare.html", "data-bare-ready", args.reps, 0, args.seed
                )
                back = _return_visits(
                    p, url, "data-nova-ready", args.reps, args.return_moves, args.seed
                )
            times: list[float] = []
            misses, note = 0, "--bots-only" if args.bots_only else "--moves 0"
            if not args.bots_only and args.moves:
                times, misses, note = _clicks(browser, url, args.moves, args.seed)
            bots = {}
            if args.bot_decisions:
                bots = _bot_game(
                    browser,
                    url,
                    args.seed,
                    args.bot_decisions,
                    args.throttle,
                    args.think_ms,
                    args.bot,
                    args.players,
                )
            browser.close()
    finally:
        log_dir.cleanup()

    def row(name: str, value: str, ref: str) -> None:
        print(f"  {name:<44} {value:>12}   {ref}")

    if args.bots_only:
        _print_bots(bots, args, row)
        return 0

    print("boot, ms from navigation to marker (median; all runs in brackets)")
    fmt = lambda xs: f"{_median(xs):,.0f}"  # noqa: E731
    runs = lambda xs: "[" + " ".join(f"{x:,.0f}" for x in xs) + "]"  # noqa: E731
    row("reference: bare loadPyodide(), cold", fmt(bare_c), runs(bare_c))
    row("reference: bare loadPyodide(), warm", fmt(bare_w), runs(bare_w))
    row("bare loadPyodide() + our trimmed .pyc stdlib, cold", fmt(pyc_c), runs(pyc_c))
    row("bare loadPyodide() + our trimmed .pyc stdlib, warm", fmt(pyc_w), runs(pyc_w))
    states = ",".join(sorted(size.get("snapshot", set()))) or "?"
    row(
        f"?snapshot to data-nova-ready, cold (snapshot: {states})",
        fmt(ours_c),
        f"{runs(ours_c)} = {_median(ours_c) / _median(bare_c):.2f}x bare cold",
    )
    row(
        "?snapshot to data-nova-ready, warm",
        fmt(ours_w),
        f"{runs(ours_w)} = {_median(ours_w) / _median(bare_w):.2f}x bare warm",
    )
    states = ",".join(sorted(plain_size.get("snapshot", set()))) or "?"
    row(
        f"?snapshot, its download refused ({states}), cold",
        fmt(plain_c),
        f"{runs(plain_c)} = {_median(plain_c) / _median(bare_c):.2f}x bare cold",
    )
    row(
        "?snapshot, its download refused, warm",
        fmt(plain_w),
        f"{runs(plain_w)} = {_median(plain_w) / _median(bare_w):.2f}x bare warm",
    )
    states = ",".join(sorted(lean_size.get("snapshot", set()))) or "?"
    row(
        f"our page, first visit (lean: {states}), cold",
        fmt(lean_c),
        f"{runs(lean_c)} = {_median(lean_c) / _median(bare_c):.2f}x bare cold",
    )
    row(
        "our page, next visit (the service worker's cache), warm",
        fmt(lean_w),
        f"{runs(lean_w)} = {_median(lean_w) / _median(bare_w):.2f}x bare warm",
    )
    if back.get("times") and bare_back.get("times"):
        b, o = back["times"], bare_back["times"]
        row(
            "reference: bare, return visit (3rd load on), profile on disk",
            fmt(o),
            f"{runs(o)}; its first loads in that profile are cold",
        )
        row(
            "our page, return visit, a game on each",
            fmt(b),
            f"{runs(b)} = {_median(b) / _median(o):.2f}x bare's return visit",
        )
    if worker:
        row(
            "bots' worker: boot to its first answer",
            fmt(worker),
            f"{runs(worker)}; the page's cold boot {fmt(ours_c)} (after a cold ?snapshot load)",
        )
    if plain_worker:
        row(
            "bots' worker, snapshot refused",
            fmt(plain_worker),
            f"{runs(plain_worker)}; that page's cold boot {fmt(plain_c)}",
        )
    print(
        "bytes of a whole first visit, counted at tools/serve.py: the page, its workers and "
        "the service worker's install; each download as a host would send it"
    )
    _print_bytes(lean_size, "our page (lean: the ordinary boot)", 4_000_000, "br", row)
    _print_bytes(size, "?snapshot (with the snapshot)", None, "", row)
    _print_bytes(bare_size, "reference: bare loadPyodide()", None, "", row)
    if size.get("worker_bytes"):
        w = size["worker_bytes"]
        row(
            "then starting the bots' worker: downloads",
            f"{w['downloads']}",
            f"{w['requests']} requests, {w['sent']:,} bytes sent",
        )
    print("click to data-nova-moves change, ms")
    if note and not times:
        print(f"  skipped: {note}")
    else:
        row("median", f"{_median(times):.1f}", f"reference: one frame = {FRAME_MS:.1f} ms")
        row(
            "95th percentile",
            f"{_p95(times):.1f}",
            f"reference: two frames = {2 * FRAME_MS:.1f} ms",
        )
        row("timed clicks", str(len(times)), f"{misses} clicks changed nothing within 3 s")
        if note:
            print(f"  note: {note}")
    if bots:
        _print_bots(bots, args, row)
    return 0


def _long_tasks(args, sync_playwright) -> int:
    from .long_tasks import (
        floor_long_tasks,
        frame_long_tasks,
        own_page_long_tasks,
        print_floor,
        print_long_tasks,
    )

    def row(name: str, value: str, ref: str) -> None:
        print(f"  {name:<44} {value:>34}   {ref}")

    with sync_playwright() as p:
        if args.floor_loads:
            floor = floor_long_tasks(p, served_site, args.throttle, args.floor_loads)
            print_floor(floor, args, row)
        for root in args.site or [None]:
            for page in args.page or [""]:
                served = functools.partial(served_site, root=root)
                frame = frame_long_tasks(p, served, args.throttle, args.frame_decisions, page)
                with served() as url:
                    own = own_page_long_tasks(
                        p, url, args.throttle, args.own_decisions, args.seed, page
                    )
                print(f"site: {root or ROOT / '_site'}, page: /{page}")
                print_long_tasks(frame, own, args, row)
    return 0


def _memory(args, sync_playwright) -> int:
    from .long_tasks import own_page_memory

    with sync_playwright() as p:
        for root in args.site or [None]:
            with served_site(root=root) as url:
                seen = own_page_memory(p, url, args.own_decisions, args.seed)
            renderers = ", ".join(f"{mb:,}" for mb in seen["renderers_mb"])
            print(f"site: {root or ROOT / '_site'}")
            print(
                f"  renderers' resident memory after {seen['moves']} decisions against the Ace, "
                f"390x844: largest {seen['largest_mb']:,} MB (each: {renderers} MB); "
                f"all of Chromium {seen['chromium_mb']:,} MB"
            )
    return 0


def _print_bytes(size: dict, label: str, aim: int | None, aim_of: str, row) -> None:
    """One first visit's bytes (``_server_bytes``), its aim and its biggest downloads."""
    if "sent" not in size:
        return
    aims = {k: f"aim: at most {aim:,}" if aim and aim_of == k else "" for k in ("gzip", "br")}
    row(
        f"{label}: sent",
        f"{size['sent']:,}",
        f"{size['downloads']} downloads of {size['requests']} requests (uncompressed)",
    )
    row(f"{label}: gzip -6 of each download", f"{size['gzip']:,}", aims["gzip"])
    if size.get("has_br"):
        row(f"{label}: brotli 11 of each download", f"{size['br']:,}", aims["br"])
    else:
        row(f"{label}: brotli", "n/a", "pip install brotli (the test extra pins it)")
    twice = size["twice"] + [f for f in size["files_twice"] if f not in size["twice"]]
    row(f"{label}: downloaded twice", str(len(twice)), " ".join(twice) or "aim: none")
    biggest = sorted(size["per_path"].items(), key=lambda kv: -kv[1]["raw"])[:4]
    for path, f in biggest:
        row(
            f"  {path.rsplit('/', 1)[-1][:40]}",
            f"{f['raw']:,}",
            f"gzip {f['gzip']:,}" + (f", brotli {f['br']:,}" if "br" in f else ""),
        )


def _print_bots(page: dict, args, row) -> None:
    done = int(page.get("novaBotDecisions", 0))
    ref = _bot_game_cpython(
        page.get("save"), args.seed, done, args.think_ms, args.bot, args.players
    )
    pos, searches = int(page.get("novaBotPositions", 0)), int(page.get("novaBotSearches", 0))
    ms = float(page.get("novaBotThinkMs", 0))
    ref_pos, ref_searches = int(ref["positions"]), int(ref["searches"])
    ref_ms = float(ref["think-ms"])
    print(
        f"bots in the page: {args.players} {args.bot} bots, seed {args.seed}, {done} bot "
        "decisions, "
        f"thinking {args.think_ms} ms a search, the page's main thread slowed "
        f"{args.throttle:g}x (CDP Emulation.setCPUThrottlingRate); bots where: "
        f"{page.get('novaBotWhere', '?')}"
    )
    row(
        "bots' worker: boot to its first answer, ms",
        page.get("novaWorkerMs", "?"),
        f"started after data-nova-ready; state {page.get('novaWorker', '?')}",
    )
    row(
        "search bot, positions per search in the page",
        f"{pos / max(searches, 1):,.0f}",
        f"reference: the same positions in CPython {ref_pos / max(ref_searches, 1):,.0f}"
        f" ({searches} vs {ref_searches} searches)",
    )
    row(
        "search bot, positions per second in the page",
        f"{pos / max(ms, 1e-9) * 1000:,.0f}",
        f"reference: CPython {ref_pos / max(ref_ms, 1e-9) * 1000:,.0f}",
    )
    row("longest bot decision in the page, ms", page.get("novaBotLongestMs", "?"), "")
    row(
        "a decision thought in the page, p50 / p95 ms",
        f"{page.get('novaBotSearchP50Ms', '?')} / {page.get('novaBotSearchP95Ms', '?')}",
        f"reference: the same in CPython {ref['search-p50-ms']} / {ref['search-p95-ms']};"
        f" {args.think_ms} ms thinking time",
    )
    long = page.get("long") or []
    row(
        "longest main-thread task while bots played, ms",
        f"{max(long):,.0f}" if long else "none over 50",  # the observer sees only those
        f"{len(long)} tasks over 50 ms (aim: none), under {args.throttle:g}x throttling",
    )
    rules = page.get("rules") or {}
    row(
        '"? Rules" pressed while the bots played',
        f"{rules.get('opened', 0)}/{rules.get('n', 0)} opened",
        f"same element {rules.get('same', 0)}/{rules.get('n', 0)} times; open in "
        f"{_median(rules.get('open_ms') or [0]):,.0f} ms median, "
        f"{max(rules.get('open_ms') or [0]):,.0f} ms at most (from the release)",
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
