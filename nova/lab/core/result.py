"""A lab run's result (:class:`RunResult`, typed: the reports and the workbench read it) and
its JSON, what ``python -m nova lab --json`` prints and the workbench shows (``<script
id="nova-lab-result">``), made here once for both.

A run is one batch of seeded games, or two on the same seeds and line-ups (``--compare``:
the second under another variant). Every figure depends only on the games, except those a
machine's speed sets (:data:`MACHINE_KEYS`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

from .game import GameResult
from .paired import ALPHA, DEFAULT_DETECT, Difference, card_names, differences
from .summary import Summary, summarize

MACHINE_KEYS = ("elapsed_s", "games_per_minute", "think_ms_per_decision", "workers", "scheduler")
"""The keys whose values depend on the machine that played the games, not on the games."""


@dataclass(frozen=True)
class RunResult:
    """A run: each batch's summary (the first is today's rules or ``--variant``, a second is
    ``--compare``), each batch's variant (a file name, or None for today's rules), and the
    run's settings."""

    summaries: tuple[Summary, ...]
    variants: tuple[str | None, ...]
    seed: int
    budget: int | None
    workers: int
    scheduler: str | None = None
    # with a second batch: what changed, figure by figure, on the same games (core.paired)
    differences: tuple[Difference, ...] = ()
    detect: float | None = None  # the change size the designer named (--detect)
    alpha: float = ALPHA  # the family's error rate at this look (smaller when it looked often)

    @property
    def base(self) -> Summary:
        return self.summaries[0]

    @property
    def compare(self) -> Summary | None:
        return self.summaries[1] if len(self.summaries) > 1 else None

    def as_json(self) -> dict:
        """The first batch's figures with the run's settings, and the second batch's under
        ``compare`` if there is one."""
        out = []
        for summary, variant in zip(self.summaries, self.variants, strict=True):
            figures = summary.as_json()
            figures["variant"] = variant
            out.append(figures)
        result = dict(out[0])
        result.update(
            seed=self.seed, budget=self.budget, workers=self.workers, scheduler=self.scheduler
        )
        if len(out) > 1:
            result["compare"] = out[1]
            result["differences"] = [d.as_json() for d in self.differences]
            result["detect"] = self.detect
            result["alpha"] = self.alpha
        return result

    def as_csv(self) -> str:
        """The run's main figures as one CSV table, a row a figure: each side's value (a
        rate in percent), and with a second batch the difference, its 95% interval and the
        verdict (a spreadsheet's view of ``as_json``)."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        sides = ["default", "variant"][: len(self.summaries)]
        w.writerow(["figure", *sides, "diff", "ci95_low", "ci95_high", "verdict", "p_holm"])
        diffs = {d.figure: d for d in self.differences}

        def row(figure: str, values: list[float | None]) -> None:
            d = diffs.pop(figure, None)
            tail = (
                [d.diff, *(d.ci95 or (None, None)), d.verdict, d.p_holm]
                if d is not None
                else [None] * 5
            )
            w.writerow([figure, *(_cell(v) for v in values), *(_cell(v) for v in tail)])

        s = self.summaries
        row("games", [x.games for x in s])
        for k, bot in enumerate(s[0].bots):
            row(f"entry {k} ({bot}) win rate", [100 * x.win_rate[k] for x in s])
        row("first_seat_win_rate", [100 * x.turn_position_win_rate[0] for x in s])
        row("rounds", [x.rounds.mean for x in s])
        row("supernova_rate", [100 * x.end_reasons.get("supernova", 0.0) for x in s])
        for name in dict.fromkeys(n for x in s for n in x.cards_by_name):
            cards = [x.cards_by_name.get(name) for x in s]
            row(f"card:{name}", [_pct(c.players_win_rate if c else None) for c in cards])
            row(f"card:{name} play rate", [_pct(c.play_rate if c else None) for c in cards])
        for figure, d in diffs.items():  # any the rows above did not name
            row(figure, [d.default, d.variant][: len(s)])
        return out.getvalue()


def _pct(x: float | None) -> float | None:
    return None if x is None else 100 * x


def _cell(x: object) -> object:
    """A CSV cell: numbers to 4 decimals, None empty."""
    if x is None:
        return ""
    return round(x, 4) if isinstance(x, float) else x


def run_result(
    batches: Sequence[Sequence[GameResult]],
    variants: Sequence[str | None],
    players: int,
    bots: Sequence[str],
    seed: int,
    budget: int | None,
    elapsed: float,
    workers: int,
    scheduler: str | None = None,
    names: dict[str, str] | None = None,
    detect: float | None = DEFAULT_DETECT,
    alpha: float = ALPHA,
) -> RunResult:
    """The result of a run of ``batches`` (``variants`` names each batch's variant; ``names``
    each Academy card's name by id, today's by default; ``detect``: the change size whose
    games a comparison that found nothing reports)."""
    total = max(1, sum(len(rs) for rs in batches))
    names = names or card_names(players)
    # one stream played every batch: each gets its share of the time (games/min = the run's)
    summaries = tuple(
        summarize(rs, players, list(bots), elapsed * len(rs) / total, names) for rs in batches
    )
    diffs = (
        tuple(differences(batches[0], batches[1], names, detect, alpha)) if len(batches) > 1 else ()
    )
    return RunResult(
        summaries, tuple(variants), seed, budget, workers, scheduler, diffs, detect, alpha
    )


def without_machine(result: dict) -> dict:
    """The result with the figures a machine's speed sets taken out: equal for the same games
    played anywhere (CPython's processes, the page's workers, a Dask cluster)."""
    out = {k: v for k, v in result.items() if k not in MACHINE_KEYS}
    if isinstance(out.get("compare"), dict):
        out["compare"] = without_machine(out["compare"])
    return out
