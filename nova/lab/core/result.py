"""A lab run's result as one JSON object: what ``python -m nova lab --json`` prints and the
workbench shows (``<script id="nova-lab-result">``), made here once for both.

A run is one batch of seeded games, or two on the same seeds and line-ups (``--compare``:
the second under another variant). Every figure depends only on the games, except those a
machine's speed sets (:data:`MACHINE_KEYS`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .game import GameResult
from .summary import summarize

MACHINE_KEYS = ("elapsed_s", "games_per_minute", "think_ms_per_decision", "workers", "scheduler")
"""The keys whose values depend on the machine that played the games, not on the games."""


def run_json(
    batches: Sequence[Sequence[GameResult]],
    variants: Sequence[str | None],
    players: int,
    bots: Sequence[str],
    seed: int,
    budget: int | None,
    elapsed: float,
    workers: int,
    scheduler: str | None = None,
) -> dict:
    """The result of a run: the first batch's summary with the run's settings, and the
    second batch's summary under ``compare`` if there is one. ``variants`` names each
    batch's variant (a file name, or None for today's rules)."""
    total = max(1, sum(len(rs) for rs in batches))
    out = []
    for rs, variant in zip(batches, variants, strict=True):
        # one stream played every batch: each gets its share of the time (games/min = the run's)
        figures = summarize(rs, players, list(bots), elapsed * len(rs) / total).as_json()
        figures["variant"] = variant
        out.append(figures)
    result = dict(out[0])
    result.update(seed=seed, budget=budget, workers=workers, scheduler=scheduler)
    if len(out) > 1:
        result["compare"] = out[1]
    return result


def without_machine(result: dict) -> dict:
    """The result with the figures a machine's speed sets taken out: equal for the same games
    played anywhere (CPython's processes, the page's workers, a Dask cluster)."""
    out = {k: v for k, v in result.items() if k not in MACHINE_KEYS}
    if isinstance(out.get("compare"), dict):
        out["compare"] = without_machine(out["compare"])
    return out
