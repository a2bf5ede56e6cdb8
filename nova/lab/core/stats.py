"""Small statistics for the lab's figures: a win rate's interval, mean and spread, quantiles."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, is_dataclass


def wilson(xs: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """A win rate (ties count half) and its 95% Wilson interval, sound near 0% and 100% (``z``:
    another level, such as the wider one that holds several rates' intervals together)."""
    n = len(xs)
    if n == 0:
        return 0.0, 0.0, 0.0
    p = math.fsum(xs) / n
    z2 = z**2
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def spread(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (0 for fewer than two values)."""
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    m = math.fsum(xs) / n
    return m, math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0


@dataclass(frozen=True)
class Quantiles:
    """Mean, median, 10th and 90th percentile, least and most of ``n`` values (none when n is 0)."""

    n: int
    mean: float | None = None
    median: float | None = None
    p10: float | None = None
    p90: float | None = None
    min: float | None = None
    max: float | None = None

    def as_json(self) -> dict:
        return {"n": 0} if self.n == 0 else asdict(self)


def quantiles(xs: Sequence[float]) -> Quantiles:
    """Mean, median, 10th and 90th percentile, least and most (nearest rank)."""
    if not xs:
        return Quantiles(0)
    ys = sorted(xs)

    def rank(q: float) -> float:
        return ys[min(len(ys) - 1, max(0, math.ceil(q * len(ys)) - 1))]

    return Quantiles(
        n=len(ys),
        mean=math.fsum(ys) / len(ys),
        median=rank(0.5),
        p10=rank(0.1),
        p90=rank(0.9),
        min=ys[0],
        max=ys[-1],
    )


def to_json(x):
    """Dataclasses (nested, in dicts and lists) as JSON data: a class's own ``as_json`` first."""
    if hasattr(x, "as_json"):
        return x.as_json()
    if is_dataclass(x):
        return {f.name: to_json(getattr(x, f.name)) for f in fields(x)}
    if isinstance(x, dict):
        return {k: to_json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [to_json(v) for v in x]
    return x
