"""Sum a ``NOVA_CPU_LOG`` file (tests/cpu_log.py): where the suite's CPU went.

    NOVA_CPU_LOG=/tmp/cpu.jsonl make test
    python tools/cpu_report.py /tmp/cpu.jsonl [--top 40]

Prints the tests that cost most CPU, each file's total and each kind's (browser, slow, pure).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log", type=Path)
    ap.add_argument("--top", type=int, default=40)
    args = ap.parse_args()
    lines = [json.loads(s) for s in args.log.read_text().splitlines() if s.strip()]
    # A worker's last test closes its Chromium, whose zygote's children then end outside the
    # tree: its line goes negative. Counted as nothing.
    torn = [x for x in lines if x["cpu"] < 0]
    for x in torn:
        x["cpu"] = 0.0
    total = sum(x["cpu"] for x in lines)
    workers = {x["worker"] for x in lines}
    machine = max(sum(x["machine"] for x in lines if x["worker"] == w) for w in workers)
    print(
        f"{len(lines)} tests, {total:.0f} CPU-s in their process trees "
        f"({len(torn)} ended a worker's Chromium: counted as 0); "
        f"the machine was busy for about {machine:.0f} CPU-s meanwhile"
    )
    print(f"\n{'CPU-s':>7} {'wall s':>7}  test (the {args.top} costliest)")
    for x in sorted(lines, key=lambda x: -x["cpu"])[: args.top]:
        print(f"{x['cpu']:7.1f} {x['wall']:7.1f}  {x['test']}")
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    kinds: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    for x in lines:
        kind = "+".join(x["marks"]) or "pure"
        for key, table in ((x["test"].split("::")[0], files), (kind, kinds)):
            table[key][0] += x["cpu"]
            table[key][1] += x["wall"]
            table[key][2] += 1
    for title, table in (("file", files), ("kind", kinds)):
        print(f"\n{'CPU-s':>7} {'wall s':>7} {'tests':>5}  {title}")
        for key, (cpu, wall, n) in sorted(table.items(), key=lambda kv: -kv[1][0]):
            print(f"{cpu:7.1f} {wall:7.1f} {n:5d}  {key}")


if __name__ == "__main__":
    main()
