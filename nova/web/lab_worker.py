"""The lab's side of the workbench's web workers. Pure Python: the PyScript worker
(``lab_worker.py`` at the site's root) exports :func:`play` and :func:`hello`; the page
plays a run's games through them, a few at a time, and the tests call them in CPython.

A request (``nova.lab.workbench.LabRun.request``)::

    {"players": 2, "bots": ["greedy", "greedy"], "seed": 7,
     "variants": [null, {...}], "jobs": [[0, 12], [1, 12]]}

lists games as (batch, game number): batch b is played under ``variants[b]`` (and, in a run
at levels, by ``lineups[b]``, every seat that level). The answer::

    {"records": [[0, {...}], [1, {...}]]}

gives each game's :class:`~nova.lab.core.game.GameResult` as a dict, or ``{"error": "..."}``.
Only JSON crosses; a game depends only on its job, so a worker plays the same game as
CPython does, move for move (the record's ``moves_sha1``).
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict


def play_request(request: str) -> str:
    """Play a request's games (the page's fallback, without workers, calls this too)."""
    from ..lab.core.game import GameJob, play_game

    data = json.loads(request)
    variants = data["variants"]
    out = []
    lineups = data.get("lineups")  # a run at levels: batch b's own line-up
    for batch, g in data["jobs"]:
        bots = tuple(lineups[batch] if lineups else data["bots"])
        job = GameJob(g, data["players"], bots, None, variants[batch], data["seed"])
        out.append([batch, asdict(play_game(job))])
    return json.dumps({"records": out})


def play(request: str) -> str:
    """The worker's export: a JSON request in, a JSON answer out (never raises)."""
    try:
        return play_request(request)
    except Exception as exc:  # a bug or a variant the checks let through: the page says so
        return json.dumps({"error": f"{exc.__class__.__name__}: {exc}"})


def hello() -> str:
    """The worker's export for the page to check it is up (and the lab's core imports)."""
    t0 = time.perf_counter()
    import nova.lab.core.game  # noqa: F401  (imported now, so the first games do not pay)

    return json.dumps({"ok": True, "import_ms": round((time.perf_counter() - t0) * 1000, 1)})
