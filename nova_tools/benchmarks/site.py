"""The built site as the benchmarks serve it: built (``tools/build_site.py``) and served by
``tools/serve.py`` with the hosted headers, on a free port."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"


def build_site() -> None:
    """Build ``_site/`` (fast when it is up to date)."""
    subprocess.run(
        [sys.executable, str(TOOLS / "build_site.py")], check=True, stdout=subprocess.DEVNULL
    )


@contextmanager
def served_site(
    log_requests: Path | None = None,
    extra_ancestors: list[str] | tuple[str, ...] = (),
    root: Path | None = None,
) -> Iterator[str]:
    """``_site/`` (or ``root``) served by tools/serve.py (each request logged to
    ``log_requests`` when given; ``extra_ancestors`` may frame it); yields its address, and
    stops the server after."""
    args = [sys.executable, str(TOOLS / "serve.py"), "--port", "0"]
    if root is not None:
        args += ["--root", str(root)]
    for origin in extra_ancestors:
        args += ["--frame-ancestor", origin]
    if log_requests is not None:
        args += ["--log-requests", str(log_requests)]
    server = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline().strip()
        if not line.startswith("serving "):
            raise SystemExit(f"tools/serve.py did not start: {line!r}")
        yield line.split(" ", 1)[1]
    finally:
        server.terminate()
        server.wait(timeout=10)
