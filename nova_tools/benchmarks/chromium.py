"""How the tests and ``bench-page`` start Chromium: Debian's when installed, else Playwright's.

Playwright cannot download its own browser on every machine (this project's CI cannot), so an
installed ``/usr/bin/chromium`` is preferred. The flags keep a headless Chromium from calling
home: on a machine with no network those calls fail, many at a time.

Debian's ``chromium --headless`` is the whole browser without a screen: every new context opens
a window whose address bar builds its omnibox popups (``chrome://omnibox-popup.top-chrome/``,
two WebUI pages in a renderer of their own), about 0.5 CPU-s a context that no test or
benchmark looks at. ``DISABLED_FEATURES`` turns them off. Chromium reads only the last
``--disable-features`` on its command line, so the list repeats the features Playwright
disables with its own (tests/test_chromium.py checks that it still holds all of them).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
# Playwright 1.65.2's own --disable-features (its chromiumSwitches.ts), kept in force
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
# the address bar's WebUI popups a headless window has no use for
OMNIBOX_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")
DISABLED_FEATURES = PLAYWRIGHT_DISABLED_FEATURES + OMNIBOX_FEATURES
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=" + ",".join(DISABLED_FEATURES),
]


def launch_chromium(playwright, extra_args: list[str] | None = None, **kwargs):
    """A Chromium browser from Playwright's sync API (``playwright.chromium.launch``);
    ``extra_args`` go after the usual flags (the tests add Chromium's logging)."""
    extra = list(extra_args or [])
    if os.path.exists(CHROMIUM):
        return playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS + extra, **kwargs
        )
    return playwright.chromium.launch(args=CHROMIUM_ARGS[1:] + extra, **kwargs)


def launch_persistent_chromium(playwright, user_data_dir: str, **kwargs):
    """A Chromium context with a profile on disk, as a player's browser keeps one: its HTTP
    cache and code cache outlive the page (an incognito context's do not)."""
    if os.path.exists(CHROMIUM):
        return playwright.chromium.launch_persistent_context(
            user_data_dir, executable_path=CHROMIUM, args=CHROMIUM_ARGS, **kwargs
        )
    return playwright.chromium.launch_persistent_context(
        user_data_dir, args=CHROMIUM_ARGS[1:], **kwargs
    )


# -- the memory of Chromium's processes, read from /proc (tests/browser_watch.py, bench-page)
@dataclass(frozen=True)
class Proc:
    pid: int
    kind: str  # browser, renderer, gpu-process, utility, zygote, ...
    rss_kb: int


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode(errors="replace")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        kids.setdefault(ppid, []).append(int(entry))
    return kids


def chromium_processes(root: int | None = None) -> list[Proc]:
    """Chromium's processes under this Python process (Playwright's driver starts them)."""
    if not os.path.isdir("/proc"):
        return []
    kids = _children()
    out: list[Proc] = []
    todo = list(kids.get(root or os.getpid(), []))
    while todo:
        pid = todo.pop()
        todo += kids.get(pid, [])
        try:
            # a process forked by the zygote has its command line rewritten as one string
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").split()
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        name = os.path.basename(cmd[0].decode(errors="replace")) if cmd and cmd[0] else ""
        if "chrom" not in name and "headless_shell" not in name:
            continue
        kind = "browser"
        for arg in cmd:
            if arg.startswith(b"--type="):
                kind = arg[7:].decode()
        rss = 0
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
        out.append(Proc(pid, kind, rss))
    return out


def describe_memory(procs: list[Proc]) -> str:
    """ "renderers 3 (412, 388, 95 MB), all of Chromium 1,240 MB" (resident set sizes)."""
    renderers = sorted((p.rss_kb for p in procs if p.kind == "renderer"), reverse=True)
    total = sum(p.rss_kb for p in procs)
    each = ", ".join(f"{kb // 1024}" for kb in renderers)
    return f"renderers {len(renderers)} ({each} MB), all of Chromium {total // 1024:,} MB"


def memory_figures(procs: list[Proc]) -> dict[str, int]:
    renderers = [p.rss_kb for p in procs if p.kind == "renderer"]
    return {
        "renderers": len(renderers),
        "renderer_max_mb": max(renderers, default=0) // 1024,
        "renderers_mb": sum(renderers) // 1024,
        "chromium_mb": sum(p.rss_kb for p in procs) // 1024,
    }
