"""A sequential probability ratio test on game pairs, as fishtest gates engine changes.

Pure maths (the games are played by ``nova.lab.strength``). Two bots play *pairs*: the same
deal twice with the seats swapped, so a pair's total score for the new bot is 0, 0.5, 1, 1.5
or 2 (the **pentanomial** model: five counts, one per total). The luck of the deal falls on
both sides within a pair, so pairs vary less than single games, and the test needs fewer.

H0: the new bot is ``elo0`` Elo stronger; H1: ``elo1`` (logistic Elo, the ratings' own
scale, so a pair's expected score per game is ``expected_score(elo)``). After each pair, in
the order the deals were dealt, the generalized log-likelihood ratio of the pairs so far
(:func:`llr`: each hypothesis's most likely pentanomial distribution whose mean is that
hypothesis's score, against the other, as Michel Van den Bergh's formulas for fishtest) is
compared with the bounds ``ln(beta / (1 - alpha))`` and ``ln((1 - beta) / alpha)``
(±2.944 at alpha = beta = 0.05): above the upper bound H1 is accepted, below the lower H0.
Accepting H1 when the truth is elo0 happens at most alpha of the time, H0 when it is elo1 at
most beta.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from .elo import elo_of_score, expected_score

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's score per game for each pentanomial cell: totals 0, 0.5, 1, 1.5, 2 over 2 games."""
EMPTY_CELL = 1e-3
"""What an empty cell counts as (fishtest's regularization): without it a run of identical
pairs has no spread, and the ratio would jump to a verdict after one pair."""


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The LLR's (lower, upper) bounds: below the lower accept H0, above the upper H1."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def pair_cell(total: float) -> int:
    """The pentanomial cell of a pair's total score (0, 0.5, 1, 1.5 or 2)."""
    cell = round(total * 2)
    if not 0 <= cell <= 4 or abs(cell - total * 2) > 1e-9:
        raise ValueError(f"a pair's score is 0, 0.5, 1, 1.5 or 2, not {total}")
    return cell


def _regularized(counts: Sequence[float]) -> list[float]:
    return [c if c > 0 else EMPTY_CELL for c in counts]


def _most_likely_with_mean(freqs: Sequence[float], mean: float) -> list[float]:
    """The distribution on :data:`PAIR_SCORES` nearest ``freqs`` (maximum likelihood) among
    those whose mean is ``mean``: p_i = f_i / (1 + lam (x_i - mean)), lam found by bisection
    (the mean falls as lam grows; every p_i stays positive inside the bracket)."""
    xs = PAIR_SCORES
    lo = -1.0 / (max(xs) - mean)
    hi = 1.0 / (mean - min(xs))

    def excess(lam: float) -> float:
        return math.fsum(
            f * (x - mean) / (1.0 + lam * (x - mean)) for f, x in zip(freqs, xs, strict=True)
        )

    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if excess(mid) > 0:
            lo = mid
        else:
            hi = mid
    lam = (lo + hi) / 2
    p = [f / (1.0 + lam * (x - mean)) for f, x in zip(freqs, xs, strict=True)]
    total = math.fsum(p)
    return [q / total for q in p]


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of H1 (elo1) over H0 (elo0) for the pentanomial
    ``counts`` (pairs with totals 0, 0.5, 1, 1.5, 2)."""
    pairs = math.fsum(counts)
    if pairs == 0:
        return 0.0
    reg = _regularized(counts)
    n = math.fsum(reg)
    freqs = [c / n for c in reg]
    p0 = _most_likely_with_mean(freqs, expected_score(elo0))
    p1 = _most_likely_with_mean(freqs, expected_score(elo1))
    return pairs * math.fsum(f * math.log(a / b) for f, a, b in zip(freqs, p1, p0, strict=True))


def elo_estimate(counts: Sequence[float]) -> tuple[float, float, float]:
    """The Elo difference the pairs show and its 95% interval (normal, on the mean pair
    score per game; the pairs are the independent units). Empty cells count as
    :data:`EMPTY_CELL`, so a clean sweep gives a large finite figure."""
    pairs = math.fsum(counts)
    if pairs == 0:
        return 0.0, -math.inf, math.inf
    reg = _regularized(counts)
    n = math.fsum(reg)
    mu = math.fsum(c * x for c, x in zip(reg, PAIR_SCORES, strict=True)) / n
    var = math.fsum(c * (x - mu) ** 2 for c, x in zip(reg, PAIR_SCORES, strict=True)) / n
    half = 1.96 * math.sqrt(var / pairs)
    return elo_of_score(mu), elo_of_score(mu - half), elo_of_score(mu + half)


@dataclass
class Sprt:
    """The test's state, fed one pair at a time in deal order (:meth:`add`)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    counts: list[int] = field(default_factory=lambda: [0] * 5)
    result: str = "none"  # "H1", "H0", or "none" while undecided

    @property
    def bounds(self) -> tuple[float, float]:
        return bounds(self.alpha, self.beta)

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def llr(self) -> float:
        return llr(self.counts, self.elo0, self.elo1)

    def add(self, total: float) -> str:
        """Count a pair with the new bot's ``total`` score; the verdict so far ("none" while
        the ratio is between the bounds). A decided test takes no more pairs."""
        if self.result != "none":
            raise ValueError(f"the test has decided ({self.result}): no more pairs")
        self.counts[pair_cell(total)] += 1
        lower, upper = self.bounds
        ratio = self.llr
        if ratio >= upper:
            self.result = "H1"
        elif ratio <= lower:
            self.result = "H0"
        return self.result
