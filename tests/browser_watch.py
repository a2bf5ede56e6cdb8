"""What the browser tests record about Chromium itself, so a crash or a stall is reported
with its evidence instead of being retried (issue 32).

For every page a test opens (``PageLog``): requests leaving the machine, console errors of
the page and of its workers, uncaught page errors, crashes, and each worker's start and end.
For the browser as a whole: Chromium's own log (``--enable-logging``, written to one file by
the browser and its child processes), and the memory of each of its processes read from
``/proc`` (the renderer holds the page's Pyodide and its workers' Pyodides).

A failing browser test gets a "nova browser" section in its report with all of it; every
test adds a line to ``browser-log.jsonl`` (``NOVA_BROWSER_LOG`` or the session's temporary
directory) with the renderers' memory and the live workers at its end, so growth across a
session shows.
"""

from __future__ import annotations

import json
import os
import struct
import time
from dataclasses import dataclass, field
from pathlib import Path

from nova_tools.benchmarks.chromium import chromium_processes, describe_memory

# Chromium's log lines that say nothing about the page (no D-Bus, no GPU in a container)
LOG_NOISE = ("dbus", "Floss", "ScreenSaver", "vaapi", "InitializeSandbox", "UPower")


@dataclass
class WorkerSeen:
    url: str
    started: float
    ended: float | None = None


@dataclass
class PageLog:
    """What one page did; ``page.nova`` in the tests."""

    external: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)
    workers: list[WorkerSeen] = field(default_factory=list)
    events: list[str] = field(default_factory=list)  # the page's timeline, for a report
    url: str = ""
    closed: bool = False

    def note(self, what: str) -> None:
        self.events.append(f"{time.strftime('%H:%M:%S')} {what}")

    def live_workers(self) -> list[WorkerSeen]:
        return [w for w in self.workers if w.ended is None]


def watch_page(page, log: PageLog) -> PageLog:
    """Record the page's console errors, page errors, crashes and workers into ``log``."""

    def console(m) -> None:
        if m.type in ("error", "warning"):
            text = m.text
            if m.type == "error":
                log.console_errors.append(text)
            log.note(f"console.{m.type}: {text[:500]}")

    def crashed(_page) -> None:
        memory = describe_memory(chromium_processes())
        log.crashes.append(f"{time.strftime('%H:%M:%S')} {log.url}; memory then: {memory}")
        log.note(f"CRASH ({memory})")

    def worker(w) -> None:
        seen = WorkerSeen(w.url, time.monotonic())
        log.workers.append(seen)
        log.note(f"worker started: {w.url[:120]}")

        def ended(_w) -> None:
            seen.ended = time.monotonic()
            log.note(f"worker ended: {w.url[:120]}")

        w.on("close", ended)

    def navigated(frame) -> None:
        if frame == page.main_frame:
            log.url = frame.url

    def closed(_page) -> None:
        log.closed = True
        log.note("page closed")

    page.on("console", console)
    page.on("pageerror", lambda e: (log.page_errors.append(str(e)), log.note(f"pageerror: {e}")))
    page.on("crash", crashed)
    page.on("worker", worker)
    page.on("framenavigated", navigated)
    page.on("close", closed)
    return log


# -- Chromium's processes ------------------------------------------------------------------


# -- Chromium's own log --------------------------------------------------------------------


def log_args(log_file: Path) -> tuple[list[str], dict[str, str]]:
    """Chromium's flags and environment that send the browser's and every child process's
    log to ``log_file`` (the browser takes ``--log-file``; its children, ``CHROME_LOG_FILE``)."""
    args = ["--enable-logging", f"--log-file={log_file}", "--v=0"]
    return args, {**os.environ, "CHROME_LOG_FILE": str(log_file)}


def log_size(log_file: Path | None) -> int:
    try:
        return log_file.stat().st_size if log_file is not None else 0
    except OSError:
        return 0


def log_since(log_file: Path | None, offset: int, limit: int = 80) -> list[str]:
    """Chromium's log lines written since ``offset``, without the container's noise."""
    if log_file is None:
        return []
    try:
        with open(log_file, "rb") as f:
            f.seek(offset)
            text = f.read().decode(errors="replace")
    except OSError:
        return []
    lines = [ln for ln in text.splitlines() if ln and not any(n in ln for n in LOG_NOISE)]
    return lines[-limit:]


def crash_dumps(since: float) -> list[Path]:
    """Chromium's minidumps written since ``since`` (a ``time.time()``): its crash handler
    writes one for each crashed process, though it uploads nothing here."""
    config = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    found = []
    for name in ("chromium", "google-chrome", "chrome-for-testing"):
        for sub in ("new", "pending", "completed"):
            found += (config / name / "Crash Reports" / sub).glob("*.dmp")
    return sorted((p for p in found if _mtime(p) >= since), key=_mtime)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


SIGNALS = {4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 11: "SIGSEGV"}


def describe_dump(path: Path) -> str:
    """One line about a minidump: the signal, the faulting address, where the crashed thread
    was (module + offset) and its stack pointer, and the process's heap-profiling switch
    (issue 32's crash: Chromium's heap profiler walking off a WebAssembly stack)."""
    try:
        data = path.read_bytes()
        _sig, _ver, count, directory = struct.unpack_from("<4sIII", data, 0)
        streams = {}
        for i in range(count):
            kind, _size, rva = struct.unpack_from("<III", data, directory + 12 * i)
            streams.setdefault(kind, rva)
        modules = []
        rva = streams[4]  # the module list
        for i in range(struct.unpack_from("<I", data, rva)[0]):
            at = rva + 4 + 108 * i
            base, size = struct.unpack_from("<QI", data, at)
            name_at = struct.unpack_from("<I", data, at + 20)[0]
            length = struct.unpack_from("<I", data, name_at)[0]
            name = data[name_at + 4 : name_at + 4 + length].decode("utf-16-le", "replace")
            modules.append((base, size, os.path.basename(name)))
        rva = streams[6]  # the exception: signal, si_code, address; the thread's registers
        signal, code, _rec, address = struct.unpack_from("<IIQQ", data, rva + 8)
        context = struct.unpack_from("<I", data, rva + 8 + 152 + 4)[0]
        rsp = struct.unpack_from("<Q", data, context + 152)[0]
        rip = struct.unpack_from("<Q", data, context + 248)[0]
        inside = [f"{name}+{rip - b:#x}" for b, n, name in modules if b <= rip < b + n]
        where = inside[0] if inside else f"{rip:#x}"
    except (OSError, KeyError, struct.error) as exc:
        return f"{path.name}: unreadable ({exc})"
    profiled = b"--subproc-heap-profiling" in data  # the process's switches, as crash keys
    return (
        f"{path.name}: {SIGNALS.get(signal, signal)} (si_code {code}) at {address:#x}, pc "
        f"{where}, sp {rsp:#x}; heap profiling {'on' if profiled else 'off'}"
    )


def report(
    logs: list[PageLog], log_file: Path | None, offset: int, since: float | None = None
) -> str:
    """The failure section: every page's record, the memory now, Chromium's log lines and
    the minidumps of processes that crashed since the test started."""
    out = [f"memory now: {describe_memory(chromium_processes())}"]
    for i, log in enumerate(logs):
        live = log.live_workers()
        out.append(
            f"page {i}: {log.url or '(no address)'}{' (closed)' if log.closed else ''}; "
            f"workers started {len(log.workers)}, live {len(live)}; "
            f"crashes {len(log.crashes)}; page errors {len(log.page_errors)}; "
            f"console errors {len(log.console_errors)}"
        )
        out += [f"  crash: {c}" for c in log.crashes]
        out += [f"  {e}" for e in log.events[-40:]]
    lines = log_since(log_file, offset)
    if lines:
        out.append(f"Chromium's log ({log_file}), since the test started:")
        out += [f"  {ln[:400]}" for ln in lines]
    dumps = crash_dumps(since) if since is not None else []
    if dumps:
        out.append("Chromium's minidumps since the test started:")
        out += [f"  {describe_dump(d)}" for d in dumps]
    return "\n".join(out)


def append_jsonl(path: Path, record: dict) -> None:
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")
