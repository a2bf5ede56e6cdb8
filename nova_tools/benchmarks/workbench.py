"""The workbench's pace: bot games a minute played in Chromium's web workers, next to the
lab's CLI playing the same games on the same number of processes, in the same run.

    python -m nova bench-workbench [--players 2 --bots greedy --games 40 --seed 1]

It builds the site (unless ``--no-build``), serves it (``tools/serve.py``), opens the
workbench by its address, presses Run twice (the first run pays for the workers' boot, the
second finds them up), then runs ``python -m nova lab ... --json --workers N`` with N the
workers the page used. It also checks that both played the same games (the results agree
on every figure but the machine's).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from nova.lab.core.result import without_machine

from .chromium import launch_chromium
from .site import build_site, served_site

ROOT = Path(__file__).resolve().parents[2]


def _page_run(page) -> dict:
    page.locator('[data-ui="lab-run"]').click()
    page.wait_for_selector("body[data-nova-lab-done]", timeout=3_600_000)
    result = json.loads(page.locator("#nova-lab-result").text_content())
    body = page.locator("body")
    return {
        "result": result,
        "workers": int(body.get_attribute("data-nova-lab-workers") or 0),
        "boot_ms": float(body.get_attribute("data-nova-lab-boot-ms") or 0),
    }


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m nova bench-workbench", description=__doc__)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bots", default="greedy")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-build", action="store_true", help="use _site/ as it is")
    args = ap.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("bench-workbench needs Playwright: pip install -e '.[test]' (or make test)")
        return 2
    if not args.no_build:
        build_site()
    query = f"?lab&players={args.players}&games={args.games}&bots={args.bots}&seed={args.seed}"
    with served_site() as url, sync_playwright() as p:
        browser = launch_chromium(p)
        page = browser.new_page()
        page.goto(url + "index.html" + query)
        page.wait_for_selector('body[data-nova-screen="lab"]', timeout=120_000)
        cores = page.evaluate("navigator.hardwareConcurrency")
        print(
            f"bench-workbench: {args.games} games, {args.players} players, bots {args.bots}, "
            f"seed {args.seed}; Chromium {browser.version}, {cores} cores "
            f"(os.cpu_count {os.cpu_count()})",
            flush=True,
        )
        cold = _page_run(page)
        warm = _page_run(page)
        browser.close()
    workers = max(1, warm["workers"])
    t0 = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-m", "nova", "lab", "--players", str(args.players), "--bots",
         args.bots, "--games", str(args.games), "--seed", str(args.seed), "--workers",
         str(workers), "--json"],
        check=True, capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    cli_wall = time.perf_counter() - t0
    cli = json.loads(out.stdout)
    for name, run in (("first run (boots the workers)", cold), ("second run", warm)):
        r = run["result"]
        print(
            f"workbench, {name}: {r['games_per_minute']:.0f} games/min "
            f"({r['games']} games in {r['elapsed_s']:.1f} s, {run['workers']} web workers; "
            f"workers up in {run['boot_ms'] / 1000:.1f} s)"
        )
    print(
        f"reference CLI, same games, {workers} processes: {cli['games_per_minute']:.0f} games/min "
        f"({cli['games']} games in {cli['elapsed_s']:.1f} s; {cli_wall:.1f} s with Python's start)"
    )
    ratio = warm["result"]["games_per_minute"] / cli["games_per_minute"]
    print(f"ratio workbench (second run) / CLI: {ratio:.2f}x")
    same = without_machine(warm["result"]) == without_machine(cli)
    print(f"same games, same figures: {'yes' if same else 'NO'}")
    return 0 if same else 1
