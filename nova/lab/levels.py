"""Balance at several skill levels: the designer's figures played by each level, side by side.

``python -m nova lab --levels cadet,ace,admiral`` plays the same seeds at every level (every
seat that level: :mod:`nova.bots.levels`) and gives, for each level, the first seat's win
rate, the game's length, the Super-Nova rate and each card's win rate when played, each with
its 95% interval, then flags each figure that moves by more than :data:`FLAG_POINTS` between
two levels. A rate moves in percentage points; the length in rounds (a round is its point).

A flag says how sure the move is: ``sure`` when the difference between the two levels is
clear of zero even counting every figure and every pair of levels that could have moved
(Bonferroni: its two-sided p-value under 5% / (figures x pairs of levels), so 27 figures
at three levels do not make a "sure" of chance; a rate's standard error as Agresti and
Caffo's, one win and one loss added, so a rate of 0% or 100% on few games is not sure), else
``noise?`` (more games would tell). Its ``ci95`` is the move's own 95% interval. The
levels play the same deals; the interval treats them as independent, which
errs on the wide side.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .core.game import GameResult
from .core.paired import ALPHA, card_names, normal_cdf, pooled_cards
from .core.stats import spread, wilson

FLAG_POINTS = 3.0  # a figure that moves by more than this between levels is flagged
Z95 = 1.96


@dataclass(frozen=True)
class Figure:
    """One figure at one level: a rate in percent, or a length in rounds."""

    key: str  # "first_seat", "length", "supernova", "card:s7"
    label: str
    value: float
    ci95: tuple[float, float]
    n: int  # the games (or, for a card, the players who played it) it rests on
    se: float  # its standard error, for the difference between two levels
    unit: str  # "%" or "rounds"
    centre: float  # where the difference's interval centres (a rate: Agresti and Caffo's)

    def as_json(self) -> dict:
        return {
            "label": self.label,
            "value": round(self.value, 2),
            "ci95": [round(self.ci95[0], 2), round(self.ci95[1], 2)],
            "n": self.n,
            "unit": self.unit,
        }


def _rate(key: str, label: str, xs: Sequence[float]) -> Figure:
    p, low, high = wilson(list(xs))
    n = len(xs)
    # Agresti and Caffo's standard error (a win and a loss added): honest at 0% and 100%
    adjusted = (math.fsum(xs) + 1) / (n + 2)
    se = math.sqrt(adjusted * (1 - adjusted) / (n + 2))
    return Figure(key, label, 100 * p, (100 * low, 100 * high), n, 100 * se, "%", 100 * adjusted)


def level_figures(
    results: Sequence[GameResult], players: int, names: dict[str, str] | None = None
) -> dict[str, Figure]:
    """The figures of one level's games, by key (cards by name, their copies pooled: a
    player who played any copy counts once; ``names``: today's by default)."""
    first = [r.returns[r.first] for r in results]
    rounds = [float(r.rounds) for r in results]
    mean, sd = spread(rounds)
    se = sd / math.sqrt(len(rounds)) if rounds else 0.0
    figures = [
        _rate("first_seat", f"first seat's win rate (parity {100 / players:.0f}%)", first),
        Figure(
            "length",
            "game length, rounds",
            mean,
            (mean - Z95 * se, mean + Z95 * se),
            len(rounds),
            se,
            "rounds",
            mean,
        ),
        _rate("supernova", "games ending at Super-Nova", [r.end == "supernova" for r in results]),
    ]
    for name, copies in pooled_cards(names or card_names(players)).items():
        xs = [
            r.returns[s] for r in results for s in range(players) if set(copies) & set(r.played[s])
        ]
        if not xs or len(xs) == players * len(results):  # nobody played it, or every seat of
            continue  # every game did: a fair share by construction
        figures.append(_rate(f"card:{name}", f"{name}: win rate of its players", xs))
    return {f.key: f for f in figures}


@dataclass(frozen=True)
class Flag:
    """A figure that moves by more than FLAG_POINTS between two levels."""

    key: str
    label: str
    low: str  # the level where it is least
    high: str  # the level where it is most
    move: float  # high's value minus low's, in the figure's unit
    ci95: tuple[float, float]  # the difference's 95% interval
    unit: str
    p: float = 1.0  # the move's two-sided p-value
    family: int = 1  # the figures times the pairs of levels: what could have moved

    @property
    def sure(self) -> bool:
        return self.ci95[0] > 0 and self.p < ALPHA / max(self.family, 1)

    def as_json(self) -> dict:
        return {
            "figure": self.key,
            "label": self.label,
            "levels": [self.low, self.high],
            "move": round(self.move, 2),
            "ci95": [round(self.ci95[0], 2), round(self.ci95[1], 2)],
            "unit": self.unit,
            "p": float(f"{self.p:.3g}"),
            "family": self.family,
            "sure": self.sure,
        }

    def words(self) -> str:
        unit = " points" if self.unit == "%" else " rounds"
        return (
            f"{self.label}: {self.move:+.1f}{unit} from {self.low} to {self.high} "
            f"(95% {self.ci95[0]:+.1f} .. {self.ci95[1]:+.1f}; "
            f"{'sure' if self.sure else 'noise? play more games'})"
        )


def flags(figures: dict[str, dict[str, Figure]]) -> list[Flag]:
    """Each figure whose least and most values across the levels differ by more than
    FLAG_POINTS: the figures every level has, in the order of the first level's."""
    names = list(figures)
    if len(names) < 2:
        return []
    keys = set.intersection(*(set(figures[n]) for n in names))
    family = len(keys) * len(names) * (len(names) - 1) // 2
    out = []
    for key, first in figures[names[0]].items():
        at = [(name, figures[name][key]) for name in names if key in figures[name]]
        if len(at) < 2:
            continue
        low_name, low = min(at, key=lambda x: x[1].value)
        high_name, high = max(at, key=lambda x: x[1].value)
        move = high.value - low.value
        if move <= FLAG_POINTS:
            continue
        se = math.hypot(low.se, high.se)
        half = Z95 * se
        centre = high.centre - low.centre
        interval = (centre - half, centre + half)
        p = 2 * (1 - normal_cdf(abs(centre) / se)) if se > 0 else float(centre == 0)
        out.append(
            Flag(key, first.label, low_name, high_name, move, interval, first.unit, p, family)
        )
    return out


@dataclass(frozen=True)
class LevelsResult:
    """The figures of each level (by its name, in the order asked) and the flags."""

    players: int
    levels: dict[str, dict[str, Figure]]
    bots: dict[str, str]  # each level's bot
    games: int

    @property
    def flags(self) -> list[Flag]:
        return flags(self.levels)

    def as_json(self) -> dict:
        return {
            "levels": {
                name: {
                    "bot": self.bots[name],
                    "games": self.games,
                    "figures": {k: f.as_json() for k, f in figs.items()},
                }
                for name, figs in self.levels.items()
            },
            "flags": [f.as_json() for f in self.flags],
            "flag_points": FLAG_POINTS,
        }

    def lines(self) -> list[str]:
        """The text report: one row per figure, a column per level, flags after."""
        names = list(self.levels)
        keys = list(self.levels[names[0]])
        flagged = {f.key for f in self.flags}
        width = max(len(self.levels[names[0]][k].label) for k in keys)
        head = f"{'figure':<{width}}  " + "  ".join(f"{n:>19}" for n in names)
        out = [
            f"balance at {len(names)} levels: "
            + ", ".join(f"{n} ({self.bots[n]})" for n in names)
            + f"; {self.games} games each, the same seeds",
            head,
            "-" * len(head),
        ]
        for k in keys:
            cells = []
            for n in names:
                f = self.levels[n].get(k)
                cells.append(
                    f"{'':>19}"
                    if f is None
                    else f"{f.value:6.1f} [{f.ci95[0]:5.1f},{f.ci95[1]:5.1f}]".rjust(19)
                )
            label = self.levels[names[0]][k].label
            out.append(f"{label:<{width}}  " + "  ".join(cells) + ("  *" if k in flagged else ""))
        out.append("")
        out.append(f"flagged (* above: moves more than {FLAG_POINTS:g} points between levels):")
        out += [f"  {f.words()}" for f in self.flags] or ["  none"]
        return out


def levels_result(
    levels: Sequence[str],
    batches: Sequence[Sequence[GameResult]],
    players: int,
    names: dict[str, str] | None = None,
) -> LevelsResult:
    """The result of a run at ``levels``: batch k played at level k, all on the same seeds."""
    from ..bots import level_named

    return LevelsResult(
        players,
        {name: level_figures(rs, players, names) for name, rs in zip(levels, batches, strict=True)},
        {name: level_named(name).bot for name in levels},
        min((len(rs) for rs in batches), default=0),
    )
