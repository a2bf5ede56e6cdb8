"""The designer's workbench (``?lab``): its form and variant (``nova.lab.workbench``'s
model, the page's ``bench``), its intents and its markup. A run's games are fed to the page's
lab workers by the game's worker (``nova/web/host.py``); the run goes on while other screens
show, and its answers are taken on any screen."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from ...lab.workbench import VARIANT_FILE, Workbench
from ...render.workbench import workbench_html
from ..effects import ALL, NONE, Download, Render, RunLab, SetAddress
from .base import Drawing, Intent, Page, Result, ScreenDef

if TYPE_CHECKING:
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
