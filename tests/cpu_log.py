"""Per-test CPU, for finding where the suite's time goes (docs/PERFORMANCE.md, "The tests").

With ``NOVA_CPU_LOG=FILE`` set, each test appends one JSON line to FILE: its wall time and the
CPU seconds spent by the pytest process that ran it and everything it started (its Chromium,
renderers, GPU and utility processes, the Playwright driver, tools/serve.py), dead children
included. pytest-xdist runs each test in one worker whose process tree is its own, so a test's
line is its own cost even in a parallel run; ``tools/cpu_report.py`` sums the lines.

A test's line includes its fixtures' setup and teardown (a session fixture's Chromium launch
lands on the worker's first browser test) and ``machine``, the whole machine's busy CPU seconds
over the same interval, which tells how busy the other workers were.
"""

from __future__ import annotations

import json
import os
import time

import pytest

_TICK = os.sysconf("SC_CLK_TCK")


def _tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and its live descendants, with what each has reaped."""
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue  # gone since listdir
        fields = stat[stat.rfind(")") + 2 :].split()
        pid = int(name)
        parent[pid] = int(fields[1])
        # utime, stime, cutime, cstime: a reaped child's time moves into its parent's c-fields
        cpu[pid] = sum(int(v) for v in fields[11:15]) / _TICK
    total = 0.0
    for pid, seconds in cpu.items():
        p = pid
        while p > 1 and p != root:
            p = parent.get(p, 0)
        if p == root:
            total += seconds
    return total


def _machine_busy() -> float:
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (sum(v) - v[3] - v[4]) / _TICK


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    out = os.environ.get("NOVA_CPU_LOG")
    if not out:
        yield
        return
    me = os.getpid()
    cpu0, busy0, t0 = _tree_cpu(me), _machine_busy(), time.monotonic()
    yield
    line = {
        "test": item.nodeid,
        "worker": os.environ.get("PYTEST_XDIST_WORKER", ""),
        "wall": round(time.monotonic() - t0, 2),
        "cpu": round(_tree_cpu(me) - cpu0, 2),
        "machine": round(_machine_busy() - busy0, 2),
        "marks": sorted({m.name for m in item.iter_markers()} & {"browser", "slow", "paced"}),
    }
    with open(out, "a") as f:
        f.write(json.dumps(line) + "\n")
