"""Ratings from game results as chess engines are rated: Bradley–Terry on the Elo scale.

Pure maths on the standard library (no games, no processes): the ladder (``nova.lab.ladder``)
and the sequential test (``nova.lab.sprt``) turn games into the tallies these functions take.

The model: a player rated ``d`` Elo above another scores ``1 / (1 + 10^(-d/400))`` against it
(a win 1, a tie half, a loss 0). :func:`fit_elo` finds the ratings that make the games played
most likely (maximum likelihood, Newton's method), with a weak prior as BayesElo has one:
:data:`PRIOR_DRAWS` virtual draws added to every pair that met, so that a side that won every
game gets a large finite rating rather than an infinite one. Ratings are relative: the anchor
is 0. :func:`bootstrap_intervals` gives each rating's 95% interval by resampling whole deals
(a deal: the games played on one engine seed, seats swapped or rotated, every pair's games on
it kept together), seeded, so the same games give the same intervals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

ELO_PER_NATURAL = 400 / math.log(10)  # the logistic's natural unit in Elo (about 173.7)
PRIOR_DRAWS = 2.0
"""Virtual draws added to each pair that met (BayesElo's default prior is 2 draws): enough to
keep a 100% score finite, few enough that a few hundred games decide the ratings."""
RESAMPLES = 1000
BOOTSTRAP_SEED = 20_241_041  # fixed, so a refit of kept games gives the run's intervals


def expected_score(elo_diff: float) -> float:
    """The score (0–1) of a side rated ``elo_diff`` above its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-elo_diff / 400.0))


def elo_of_score(score: float) -> float:
    """The rating difference that gives ``score``; ±inf at 0 and 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class Tally:
    """Games between players ``a`` and ``b`` (indices): how many, and ``a``'s score in them
    (wins plus half the ties; ``b`` scored ``games - score``)."""

    a: int
    b: int
    games: float
    score: float


def _log_sigmoid(x: float) -> float:
    """log(1 / (1 + e^-x)) without overflow."""
    return -math.log1p(math.exp(-x)) if x >= 0 else x - math.log1p(math.exp(x))


def merge(tallies: Sequence[Tally]) -> dict[tuple[int, int], tuple[float, float]]:
    """Tallies summed per unordered pair: (a, b) with a < b -> (games, a's score)."""
    out: dict[tuple[int, int], tuple[float, float]] = {}
    for t in tallies:
        if t.a == t.b or t.games <= 0:
            continue
        key, score = ((t.a, t.b), t.score) if t.a < t.b else ((t.b, t.a), t.games - t.score)
        n, s = out.get(key, (0.0, 0.0))
        out[key] = (n + t.games, s + score)
    return out


def _connected(players: int, pairs: Sequence[tuple[int, int]], anchor: int) -> list[int]:
    """The players with no chain of games to the anchor (their rating would be undefined)."""
    seen = {anchor}
    todo = [anchor]
    while todo:
        i = todo.pop()
        for a, b in pairs:
            for x, y in ((a, b), (b, a)):
                if x == i and y not in seen:
                    seen.add(y)
                    todo.append(y)
    return [i for i in range(players) if i not in seen]


def _solve(m: list[list[float]], v: list[float]) -> list[float]:
    """x with m x = v (Gaussian elimination with partial pivoting; m is small)."""
    k = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        if p == 0.0:
            raise ZeroDivisionError("singular system")
        for r in range(col + 1, k):
            f = a[r][col] / p
            if f:
                for c in range(col, k + 1):
                    a[r][c] -= f * a[col][c]
    x = [0.0] * k
    for r in range(k - 1, -1, -1):
        x[r] = (a[r][k] - math.fsum(a[r][c] * x[c] for c in range(r + 1, k))) / a[r][r]
    return x


def _log_likelihood(theta: Sequence[float], data: Sequence[tuple[int, int, float, float]]) -> float:
    return math.fsum(
        s * _log_sigmoid(theta[i] - theta[j]) + (n - s) * _log_sigmoid(theta[j] - theta[i])
        for i, j, n, s in data
    )


def _fit(
    players: int,
    data: Sequence[tuple[int, int, float, float]],
    anchor: int,
    start: Sequence[float] | None = None,
) -> list[float]:
    """Maximum-likelihood strengths in natural units (anchor 0), by damped Newton steps.

    The log-likelihood is concave and, with the prior's draws on a connected graph, strictly
    so once the anchor is fixed: Newton converges in a few steps from anywhere."""
    theta = list(start) if start is not None else [0.0] * players
    free = [i for i in range(players) if i != anchor]
    where = {p: k for k, p in enumerate(free)}
    ll = _log_likelihood(theta, data)
    for _ in range(100):
        grad = [0.0] * len(free)
        hess = [[0.0] * len(free) for _ in free]  # minus the Hessian: positive definite
        for i, j, n, s in data:
            p = math.exp(_log_sigmoid(theta[i] - theta[j]))
            g = s - n * p
            w = n * p * (1.0 - p)
            ki, kj = where.get(i), where.get(j)
            if ki is not None:
                grad[ki] += g
                hess[ki][ki] += w
            if kj is not None:
                grad[kj] -= g
                hess[kj][kj] += w
            if ki is not None and kj is not None:
                hess[ki][kj] -= w
                hess[kj][ki] -= w
        step = _solve(hess, grad)
        scale = 1.0
        while True:  # halve a step that overshoots (far from the optimum, the curve bends)
            trial = theta[:]
            for k, p in enumerate(free):
                trial[p] += scale * step[k]
            new_ll = _log_likelihood(trial, data)
            if new_ll >= ll - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        theta, ll = trial, new_ll
        if max((abs(x) * scale for x in step), default=0.0) < 1e-10:
            break
    return theta


def fit_elo(
    players: int,
    tallies: Sequence[Tally],
    anchor: int,
    prior: float = PRIOR_DRAWS,
    start: Sequence[float] | None = None,
) -> list[float]:
    """Each player's Elo rating, the anchor's 0, from the tallies of their games.

    ``prior`` virtual draws are added to every pair that met. ValueError names the players
    with no chain of games to the anchor."""
    pairs = merge(tallies)
    lost = _connected(players, list(pairs), anchor)
    if lost:
        raise ValueError(f"no games link players {lost} to the anchor {anchor}")
    data = [(a, b, n + prior, s + prior / 2) for (a, b), (n, s) in sorted(pairs.items())]
    begin = [x / ELO_PER_NATURAL for x in start] if start is not None else None
    return [x * ELO_PER_NATURAL for x in _fit(players, data, anchor, begin)]


def percentile(sorted_xs: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values, interpolated between neighbours."""
    if not sorted_xs:
        return math.nan
    pos = q * (len(sorted_xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


def _resample(deals: int, resamples: int, seed: int):
    """Each resample's deal indices: ``deals`` drawn with replacement, seeded."""
    rng = random.Random(seed)
    population = range(deals)
    for _ in range(resamples):
        yield rng.choices(population, k=deals)


def bootstrap_intervals(
    players: int,
    deals: Sequence[Sequence[Tally]],
    anchor: int,
    prior: float = PRIOR_DRAWS,
    resamples: int = RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    level: float = 0.95,
) -> list[tuple[float, float]]:
    """Each player's ``level`` interval (percentile bootstrap over deals), the anchor's (0, 0).

    ``deals`` holds each deal's tallies (every pair's games on that deal's seed), in a fixed
    order: a resample draws as many deals as there are, with replacement, and refits. The
    prior's draws stay on every pair that met in the whole data, so every resample's graph is
    connected and its fit defined."""
    pairs = sorted(merge([t for d in deals for t in d]))
    index = {p: k for k, p in enumerate(pairs)}
    # per pair, its games and score deal by deal: a resample sums them in C (map + sum)
    games = [[0.0] * len(deals) for _ in pairs]
    score = [[0.0] * len(deals) for _ in pairs]
    for d, tallies in enumerate(deals):
        for (a, b), (n, s) in merge(tallies).items():
            games[index[(a, b)]][d] = n
            score[index[(a, b)]][d] = s
    totals = [
        Tally(a, b, math.fsum(games[k]), math.fsum(score[k])) for k, (a, b) in enumerate(pairs)
    ]
    centre = fit_elo(players, totals, anchor, prior)  # each resample's fit starts from here
    start = [x / ELO_PER_NATURAL for x in centre]
    draws: list[list[float]] = [[] for _ in range(players)]
    for idx in _resample(len(deals), resamples, seed):
        data = []
        for k, (a, b) in enumerate(pairs):
            n = sum(map(games[k].__getitem__, idx))
            s = sum(map(score[k].__getitem__, idx))
            data.append((a, b, n + prior, s + prior / 2))
        theta = _fit(players, data, anchor, start)
        for i in range(players):
            draws[i].append(theta[i] * ELO_PER_NATURAL)
    tail = (1.0 - level) / 2
    out = []
    for i in range(players):
        xs = sorted(draws[i])
        out.append((0.0, 0.0) if i == anchor else (percentile(xs, tail), percentile(xs, 1 - tail)))
    return out


def bootstrap_share(
    deals: Sequence[tuple[float, float]],
    resamples: int = RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    level: float = 0.95,
) -> tuple[float, float, float]:
    """A share (points over games) and its ``level`` interval by resampling deals, each deal
    given as (points, games): a seat's win share over every rotation of each deal."""
    points = [p for p, _ in deals]
    games = [n for _, n in deals]
    total = math.fsum(games)
    share = math.fsum(points) / total if total else math.nan
    xs = []
    for idx in _resample(len(deals), resamples, seed):
        n = sum(map(games.__getitem__, idx))
        xs.append(sum(map(points.__getitem__, idx)) / n if n else share)
    xs.sort()
    tail = (1.0 - level) / 2
    return share, percentile(xs, tail), percentile(xs, 1 - tail)
