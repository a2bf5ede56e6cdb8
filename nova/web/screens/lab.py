"""The designer's workbench (``?lab``): its form and variant (``nova.lab.workbench``'s
model, the page's ``bench``), its intents, its markup, and :class:`LabRunner`, which
plays a run's games in web workers (the adapter gives it the browser's parts). The run
goes on while other screens show; its answers are taken on any screen."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ...lab.workbench import VARIANT_FILE, LabRun, Workbench, worker_count
from ...render.workbench import workbench_html
from ..effects import ALL, NONE, Download, Render, RunLab, SetAddress
from .base import Drawing, Intent, Page, Result, ScreenDef

if TYPE_CHECKING:
    from ..controller import Controller
    from ..session import Session
    from ..state import UiState

LAB_DRAW_S = 0.25  # a run's progress is drawn at most this often


@dataclass(frozen=True)
class LabScreen:
    """The designer's workbench (its form, variant and runs: the page's ``bench``, a model
    that changes in place)."""

    name: ClassVar[str] = "lab"
    needs_game: ClassVar[bool] = False

    def shown_as(self, session: Session | None) -> str:
        return self.name


@dataclass(frozen=True)
class OpenLab(Intent):
    """Open the workbench: as it was left, or as the address's query (``?lab&...``) says."""

    query: str = ""


@dataclass(frozen=True)
class LabEdit(Intent):
    """A field of the workbench changed: ``name`` is its ``data-lab``."""

    name: str
    value: str


@dataclass(frozen=True)
class LabStart(Intent):
    """Start a run (the model of a run is ``nova.lab.workbench.LabRun``)."""


@dataclass(frozen=True)
class LabStop(Intent):
    pass


@dataclass(frozen=True)
class LabReset(Intent):
    pass


@dataclass(frozen=True)
class LabSave(Intent):
    pass


@dataclass(frozen=True)
class LabResults(Intent):
    """Download the last run's results: ``kind`` "json" (what ``--json`` prints) or "csv"."""

    kind: str


@dataclass(frozen=True)
class LabAnswer(Intent):
    """A worker's answer to a run's request (``lab_worker.play``)."""

    answer: str


@dataclass(frozen=True)
class LabFinished(Intent):
    """The run's games are all played (or it was stopped): ``elapsed`` seconds, in
    ``workers`` web workers (0: on this page)."""

    elapsed: float
    workers: int


def _address(ui: UiState, bench: Workbench) -> Result:
    """Drawn, and the workbench as it is now in the address (a reload keeps it)."""
    return ui, (Render(), SetAddress(bench.query()))


def open_lab(page: Page, ui: UiState, intent: OpenLab) -> Result:
    bench = page.open_bench(intent.query)
    return _address(ui.but(screen=LabScreen(), help_open=False), bench)


def edit(page: Page, ui: UiState, screen: LabScreen, intent: LabEdit) -> Result:
    if page.bench is None:
        return ui, ALL
    page.bench.edit(intent.name, intent.value)
    return _address(ui, page.bench)


def reset(page: Page, ui: UiState, screen: LabScreen, intent: LabReset) -> Result:
    if page.bench is None:
        return ui, ALL
    page.bench.reset()
    return _address(ui, page.bench)


def start(page: Page, ui: UiState, screen: LabScreen, intent: LabStart) -> Result:
    if page.bench is None:
        return ui, ALL
    why = page.bench.why_not_run()
    if why:
        return ui.but(message=f"The run cannot start: {why}."), ALL
    page.bench.start_run()
    return ui, (Render(), RunLab())


def stop(page: Page, ui: UiState, screen: LabScreen, intent: LabStop) -> Result:
    if page.bench is not None and page.bench.run is not None:
        page.bench.run.stop()
    return ui, ALL


def save(page: Page, ui: UiState, screen: LabScreen, intent: LabSave) -> Result:
    if page.bench is None:
        return ui, ALL
    return ui, (Download(VARIANT_FILE, page.bench.variant_json() + "\n"),)


def results(page: Page, ui: UiState, screen: LabScreen, intent: LabResults) -> Result:
    run = page.bench.run if page.bench is not None else None
    if run is None or run.result is None:
        return ui, ALL
    if intent.kind == "csv":
        return ui, (Download("workbench-results.csv", run.result.as_csv(), "text/csv"),)
    text = json.dumps(run.result.as_json(), indent=1, sort_keys=True) + "\n"
    return ui, (Download("workbench-results.json", text),)


def answer(page: Page, ui: UiState, intent: LabAnswer) -> Result:
    if page.bench is None or page.bench.run is None:
        return ui, NONE
    page.bench.run.add(intent.answer)
    return ui, ALL


def finished(page: Page, ui: UiState, intent: LabFinished) -> Result:
    if page.bench is None or page.bench.run is None:
        return ui, NONE
    page.bench.run.workers = intent.workers
    page.bench.run.finish(intent.elapsed)
    return ui, ALL


def body_attributes(page: Page, ui: UiState) -> dict[str, str | None]:
    """The workbench's contract on ``<body>``: its last run's games played, and that it
    ended (how, and the digest of its games' moves)."""
    run = page.bench.run if page.bench is not None else None
    over = run is not None and run.finished
    return {
        "data-nova-lab-games": f"{run.done}/{run.total}" if run else None,
        "data-nova-lab-done": run.status if run is not None and over else None,
        "data-nova-lab-moves": run.moves() if run is not None and over else None,
    }


def markup(page: Page, ui: UiState, screen: LabScreen, known: frozenset[str]) -> Drawing:
    assert page.bench is not None  # OpenLab makes it before the screen shows
    return Drawing(workbench_html(page.bench, ui.message, page.page_url))


# -- a run's games, in web workers ----------------------------------------------------------
class LabRunner:
    """Plays the workbench's run: its games go out one at a time to each worker (as many as
    the machine has cores: ``worker_count``), and each answer is drawn as progress; with
    no worker, the page plays them itself, one per task. The workers stay up for the next
    run while the workbench is open, and end once the player leaves it with no run going
    (``end_idle``). The adapter gives what only the browser has: ``probe`` (can the
    workers' script be fetched), ``boot(i)`` (worker ``i``, up and answering ``hello``, or an
    exception),
    ``mark(name, value)`` (an attribute on ``<body>``), ``do`` (an intent, and its effects
    carried out), ``draw`` (the screen) and ``end(i)`` (worker ``i`` ends)."""

    def __init__(
        self, c: Controller, probe: Callable[[], Awaitable[bool]],
        boot: Callable[[int], Awaitable[Any]], mark: Callable[[str, str], None],
        do: Callable[[Any], None], draw: Callable[[], None],
        end: Callable[[int], None] = lambda i: None,
    ) -> None:  # fmt: skip
        self.c, self.probe, self.boot, self.mark, self.do, self.draw, self.end = (
            c,
            probe,
            boot,
            mark,
            do,
            draw,
            end,
        )
        self.workers: list = []
        self.booted: list[int] = []  # the numbers of the workers booted (or trying to)
        self.started = 0  # PyScript keeps a worker's name for good: each gets a new number
        self.drawn = 0.0  # when a run's progress was last drawn

    async def start_workers(self, wanted: int) -> list:
        """Up to ``wanted`` workers, kept for later runs; those that cannot start are left out."""
        have = len(self.workers)
        # PyScript waits for ever for a script it cannot fetch: ask for it first
        if wanted > have and await self.probe():
            numbers = list(range(self.started, self.started + wanted - have))
            self.started += len(numbers)
            self.booted += numbers
            started = await asyncio.gather(*(self.boot(i) for i in numbers), return_exceptions=True)
            self.workers += [w for w in started if not isinstance(w, BaseException)]
        return self.workers[:wanted]

    def end_idle(self) -> None:
        """Off the workbench with no run going, its workers end (``end(i)``): each is a
        Pyodide of its own (about 150 MB), and a tab played for hours must not keep them.
        The next run starts new ones, from the snapshot, in about a second."""
        if not self.booted or isinstance(self.c.ui.screen, LabScreen):
            return
        run = self.c.bench.run if self.c.bench is not None else None
        if run is not None and not run.finished:
            return  # a run plays on while the player looks elsewhere
        for i in self.booted:
            self.end(i)
        self.workers, self.booted = [], []

    async def run(self, cores: int, memory_gb: float | None) -> None:
        bench = self.c.bench
        run = bench.run if bench is not None else None
        if run is None:
            return
        t0 = time.perf_counter()
        self.mark("data-nova-lab-workers", "starting")
        workers = await self.start_workers(worker_count(cores, memory_gb, run.total))
        self.mark("data-nova-lab-workers", str(len(workers)))
        self.mark("data-nova-lab-boot-ms", f"{(time.perf_counter() - t0) * 1000:.0f}")
        run.workers = len(workers)

        async def feed(worker) -> None:
            while (request := run.request(1)) is not None:
                self.answer(run, await worker.play(request))

        if workers:
            await asyncio.gather(*(feed(w) for w in workers))
        else:  # no worker could start: the page plays the games, one per task
            from ..lab_worker import play

            while (request := run.request(1)) is not None:
                await asyncio.sleep(0)
                self.answer(run, play(request))
        if bench is not None and bench.run is run:
            self.do(LabFinished(time.perf_counter() - t0, len(workers)))

    def answer(self, run: LabRun, text: str) -> None:
        bench = self.c.bench
        if bench is None or bench.run is not run:
            return  # a newer run replaced it
        self.c.dispatch(LabAnswer(str(text)))
        now = time.perf_counter()
        if isinstance(self.c.ui.screen, LabScreen) and now - self.drawn > LAB_DRAW_S:
            self.drawn = now
            self.draw()


SCREEN = ScreenDef(
    state=LabScreen,
    markup=markup,
    steps={
        LabEdit: edit,
        LabReset: reset,
        LabStart: start,
        LabStop: stop,
        LabSave: save,
        LabResults: results,
    },
    anywhere={OpenLab: open_lab, LabAnswer: answer, LabFinished: finished},
    ui={
        "lab": lambda arg, form: OpenLab(),
        "lab-run": lambda arg, form: LabStart(),
        "lab-stop": lambda arg, form: LabStop(),
        "lab-reset": lambda arg, form: LabReset(),
        "lab-save": lambda arg, form: LabSave(),
        "lab-results": lambda arg, form: LabResults("csv" if arg == "csv" else "json"),
    },
    body=body_attributes,
    quiet=frozenset({LabAnswer, LabFinished}),
)
