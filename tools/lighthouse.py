"""Lighthouse's mobile performance figures for the built page (``make lighthouse``).

    python tools/lighthouse.py [--runs 1] [--pages both|default|snapshot] [--site DIR ...]

Serves ``_site/`` with tools/serve.py (the hosted headers, files gzipped as a static host
sends them: ``--gzip``) and runs the pinned npm
``lighthouse`` (package.json) against it with the system Chromium (/usr/bin/chromium, or
$CHROME_PATH): its default mobile preset (simulated slow 4G and a 4x slower CPU), the
performance category only. Prints the score and the metrics, for the page as every visit gets
it (the default: the lean, ordinary boot) and as an address that asks for the memory snapshot
gets it (``?snapshot``). ``--site DIR`` (repeatable) measures another built site instead, for
example a release built by its own ``tools/build_site.py --out DIR``, so that two builds are
measured in one run, their runs interleaved. Not part of ``make test``: it measures, it
asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
METRICS = (
    ("first-contentful-paint", "first contentful paint"),
    ("largest-contentful-paint", "largest contentful paint"),
    ("speed-index", "speed index"),
    ("total-blocking-time", "total blocking time"),
    ("interactive", "time to interactive"),
    ("cumulative-layout-shift", "cumulative layout shift"),
)


def run_once(url: str, chrome: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        proc = subprocess.run(
            [
                str(ROOT / "node_modules" / ".bin" / "lighthouse"),
                url,
                "--only-categories=performance",
                "--output=json",
                f"--output-path={out}",
                "--quiet",
                "--chrome-flags=--headless --no-sandbox --disable-gpu --no-first-run "
                "--disable-background-networking --disable-component-update --disable-sync",
            ],
            env={**os.environ, "CHROME_PATH": chrome},
            capture_output=True,
            text=True,
        )
        if proc.returncode or not out.exists():
            sys.exit(f"lighthouse failed:\n{(proc.stderr or proc.stdout)[-3000:]}")
        return json.loads(out.read_text())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=1, help="runs (medians are printed)")
    ap.add_argument(
        "--pages",
        choices=("both", "default", "snapshot"),
        default="both",
    )
    ap.add_argument(
        "--site", action="append", help="a built site to measure instead of _site/ (repeat)"
    )
    args = ap.parse_args(argv)
    chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
    sites = args.site or [str(ROOT / "_site")]
    servers = [
        subprocess.Popen(
            [sys.executable, str(ROOT / "tools" / "serve.py"), "--port", "0", "--gzip"]
            + ["--root", site],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for site in sites
    ]
    pages = {"default": "", "snapshot": "?snapshot"}
    if args.pages != "both":
        pages = {args.pages: pages[args.pages]}
    reports: dict[tuple[str, str], list[dict]] = {}
    try:
        urls = [server.stdout.readline().split(" ", 1)[1].strip() for server in servers]
        for _ in range(args.runs):  # interleaved: a slower spell of the machine hits both
            for site, url in zip(sites, urls, strict=True):
                for name, query in pages.items():
                    reports.setdefault((site, name), []).append(run_once(url + query, chrome))
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)
    for (site, name), runs in reports.items():
        where = f"{site}: " if len(sites) > 1 else ""
        report(where + name + (" (?snapshot)" if name == "snapshot" else ""), runs)
    return 0


def report(name: str, reports: list[dict]) -> None:
    first = reports[0]
    config = first["configSettings"]
    print(
        f"{name}: lighthouse {first['lighthouseVersion']}, {config['formFactor']}, "
        f"throttling {config['throttlingMethod']} "
        f"(rtt {config['throttling']['rttMs']} ms, "
        f"{config['throttling']['throughputKbps']:.0f} kbps, "
        f"CPU x{config['throttling']['cpuSlowdownMultiplier']:g}), "
        f"{len(reports)} run(s), {first['environment']['hostUserAgent'].split(') ')[-1]}"
    )
    scores = [r["categories"]["performance"]["score"] for r in reports]
    print(f"  {'performance score':<28} {statistics.median(scores):.2f}   {scores}")
    for key, label in METRICS:
        values = [r["audits"][key]["numericValue"] for r in reports]
        if key == "cumulative-layout-shift":
            shifts = [round(v, 3) for v in values]
            print(f"  {label:<28} {statistics.median(values):.3f}   {shifts}")
        else:
            runs = [round(v) for v in values]
            print(f"  {label:<28} {statistics.median(values):,.0f} ms   {runs}")
    weight = first["audits"].get("total-byte-weight", {}).get("numericValue")
    if weight:
        print(f"  {'total byte weight':<28} {weight:,.0f} bytes")


if __name__ == "__main__":
    sys.exit(main())
