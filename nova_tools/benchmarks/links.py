"""Opening a game's link on the page: a fair link (play by links) next to a friendly link of
a game as long, in the same page and the same run.

    python -m nova bench-links [--players 4 --reps 5 --no-build]

It builds the site (unless ``--no-build``), serves it (``tools/serve.py``), boots the page
once in Chromium, then opens links by changing the address's fragment (what a link clicked
in a chat does to an open tab): each rep a whole random game of its own seed, as a fair link
and as a friendly link, timed from the change to the page showing that game's last decision
(``data-nova-moves``). The page's storage is cleared between links.
"""

from __future__ import annotations

import argparse
import statistics
import time

from nova.fair import wire
from nova.links import encode
from nova_tools.fair.simulate import honest_record
from nova_tools.links import random_record

from .chromium import launch_chromium
from .site import build_site, served_site


def _open(page, fragment: str, moves: int) -> float:
    page.evaluate("localStorage.clear()")
    t0 = time.perf_counter()
    page.evaluate("f => { location.hash = f }", fragment)
    page.wait_for_function(
        f"document.body.dataset.novaMoves === '{moves}'", timeout=120_000, polling=10
    )
    return (time.perf_counter() - t0) * 1000


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m nova bench-links", description=__doc__)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--no-build", action="store_true", help="use _site/ as it is")
    args = ap.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("bench-links needs Playwright: pip install -e '.[test]' (or make test)")
        return 2
    if not args.no_build:
        build_site()
    fair_ms, friendly_ms, lengths = [], [], []
    with served_site() as url, sync_playwright() as p:
        browser = launch_chromium(p)
        page = browser.new_context().new_page()
        page.goto(url)
        page.wait_for_selector("body[data-nova-ready]", state="attached", timeout=120_000)
        for rep in range(args.reps):
            record, _ = honest_record(args.players, 1000 + rep, chooser=_uniform)
            fair = wire.encode(record)
            friendly_record = random_record(args.players, 1000 + rep)
            friendly = encode(friendly_record)
            lengths.append((len(record.moves), len(friendly_record.moves)))
            fair_ms.append(_open(page, fair, len(record.moves)))
            friendly_ms.append(_open(page, friendly, len(friendly_record.moves)))
        browser.close()
    fm = statistics.median(fair_ms)
    rm = statistics.median(friendly_ms)
    moves_fair = statistics.median(a for a, _ in lengths)
    moves_friendly = statistics.median(b for _, b in lengths)
    print(
        f"{args.players} players, whole random games, {args.reps} reps, opened in an open tab:\n"
        f"  fair link     median {fm:.0f} ms (games of median {moves_fair:.0f} decisions)\n"
        f"  friendly link median {rm:.0f} ms (games of median {moves_friendly:.0f} decisions)\n"
        f"  ratio {fm / rm:.2f}x"
    )
    return 0


def _uniform(legal: list[str], rng) -> str:
    return rng.choice(legal)  # as friendly links' random games choose
