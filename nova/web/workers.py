"""The page's web workers: the bots' worker and the workbench's, started with PyScript's
``create_named_worker`` from the page's own ``pyscript.toml`` (so from the memory
snapshot). A part of :class:`nova.web.app.App` (it mixes this in)."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from .controller import Worker, WorkerChanged

if TYPE_CHECKING:
    from .bot_loop import BotLoop
    from .controller import Controller
    from .screens.base import Drawing

WORKER_SRC = "./bots_worker.py"  # the bots' worker (site root; see tools/build_site.py)
WORKER_BOOT_S = 60.0  # a worker not up by then counts as failed (a cold boot takes seconds)
LAB_WORKER_SRC = "./lab_worker.py"  # the workbench's workers (site root)
# what the player reads when the bots' worker cannot start (never an exception's name)
WORKER_FAILED = (
    "The bots' helper could not start, so they think on this page: "
    "it may answer a little slower while they do."
)


class Workers:
    """Starting the page's web workers (mixed into ``App``)."""

    c: Controller
    bots: BotLoop
    body: Any
    document: Any
    window: Any
    worker: Any

    def render(self, drawn: Drawing | None = None) -> None: ...

    async def start_worker(self) -> None:
        """Start the bots' worker (after the page is ready: it never delays the first paint).

        A second Pyodide in a PyScript named worker with ``sync_main_only``: the page only
        awaits its exports, so no SharedArrayBuffer and no COOP/COEP (the page stays
        embeddable). If it cannot start, the bots think on this page, in slices, and the
        page says so.
        """
        self.body.setAttribute("data-nova-worker", "starting")
        t0 = time.perf_counter()
        try:
            from pyscript import create_named_worker

            # PyScript waits forever for a worker whose script cannot be fetched (offline
            # before the cache has it, a proxy): ask for it first, and fail at once
            probe = await self.window.fetch(WORKER_SRC)
            if not probe.ok:
                raise RuntimeError(f"{WORKER_SRC}: HTTP {probe.status}")
            worker = await asyncio.wait_for(
                create_named_worker(src=WORKER_SRC, name="nova-bots", config="./pyscript.toml"),
                WORKER_BOOT_S,
            )
            await asyncio.wait_for(worker.hello(), WORKER_BOOT_S)
        except Exception as exc:  # blocked by the browser, a CSP, a network fault, a bug
            self.body.setAttribute("data-nova-worker", "failed")
            # the exception is for the developer's console; the player reads plain words
            self.window.console.warn(f"nova: the bots' worker did not start: {exc!r}")
            self.c.dispatch(WorkerChanged(Worker.FAILED, WORKER_FAILED))
        else:
            self.worker = worker
            self.bots.ask = worker.think
            self.c.dispatch(WorkerChanged(Worker.READY))
            self.body.setAttribute("data-nova-worker", "ready")
            ms = (time.perf_counter() - t0) * 1000
            self.body.setAttribute("data-nova-worker-ms", f"{ms:.0f}")
        self.render()  # and the bots play on (resume_bots)

    async def lab_probe(self) -> bool:
        """Can the workbench's workers' script be fetched? (PyScript waits for ever for one
        it cannot fetch.)"""
        try:
            probe = await self.window.fetch(LAB_WORKER_SRC)
            return bool(probe.ok)
        except Exception:
            return False

    async def lab_boot(self, i: int):
        """The workbench's worker ``i``, booted from the snapshot as the page was."""
        from pyscript import create_named_worker

        worker = await asyncio.wait_for(
            create_named_worker(src=LAB_WORKER_SRC, name=f"nova-lab-{i}", config="./pyscript.toml"),
            WORKER_BOOT_S,
        )
        await asyncio.wait_for(worker.hello(), WORKER_BOOT_S)
        return worker

    def lab_end(self, i: int) -> None:
        """End the workbench's worker ``i`` (polyscript's ``xworker`` on its script element)."""
        script = self.document.querySelector(f'script[worker][name="nova-lab-{i}"]')
        if not hasattr(script, "remove"):  # JS null: it never got that far
            return
        xworker = getattr(script, "xworker", None)
        if xworker is not None and hasattr(xworker, "terminate"):
            xworker.terminate()
        script.remove()
