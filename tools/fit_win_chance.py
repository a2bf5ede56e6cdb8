"""Fit the scale that turns the search's rollout values into a chance of winning.

    python tools/fit_win_chance.py --games 300 --workers 2

The search scores each simulation with the evaluation (``nova.bots.evaluate``: the seat's
value minus its opponents', in rough points); ``nova.bots.explain`` shows a candidate turn's
chance of winning as the mean over its simulations of ``sigmoid(K x value + B[n])``. This
fits ``K`` (one for every player count) and ``B[n]`` (the chance of an even position at
``n`` players) as Texel tuning fits its K (tools/texel_tune.py): ``--games`` seeded greedy
self-play games at each player count, the position after every finished turn with the
game's result for every seat (a win 1, a tie split, a loss 0); games that end at the round
limit are left out (the evaluation counts that end a loss for all). The least squared error
over a grid; half the positions fit, the other half check. Prints the constants for
``nova/bots/explain.py``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nova.bots import make_bot  # noqa: E402
from nova.bots.evaluate import evaluate  # noqa: E402
from nova.lab.core.game import game_seed  # noqa: E402
from nova.rules import move as mv  # noqa: E402
from nova.rules import new_game  # noqa: E402

Sample = tuple[float, float]  # (the evaluation for a seat, that seat's result)


def samples_of(task: tuple[int, int]) -> list[Sample]:
    """(value, result) for every seat after every finished turn of one seeded game."""
    players, seed = task
    agents = [make_bot("greedy") for _ in range(players)]
    s = new_game(players=players, seed=seed)
    seen = []
    k = 0
    while not s.is_over():
        seat = s.current_player
        move = agents[seat].choose(s.view(seat), seed * 7_777_777 + k)
        k += 1
        s = s.apply(move)
        if move == mv.end() and not s.is_over():
            seen.append([evaluate(s, i) for i in range(players)])
    if s.end_reason == "round limit":
        return []
    result = s.returns()
    return [(v[i], result[i]) for v in seen for i in range(players)]


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


Bins = dict[float, tuple[int, float, float]]  # value (to a tenth) -> (count, sum r, sum r^2)


def binned(samples: list[Sample]) -> Bins:
    """The samples by value to a tenth of a point: the loss over a few thousand bins, not
    every sample (the same squared error, up to the rounding of the values)."""
    out: Bins = {}
    for v, r in samples:
        key = round(v, 1)
        n, s, s2 = out.get(key, (0, 0.0, 0.0))
        out[key] = (n + 1, s + r, s2 + r * r)
    return out


def loss(bins: Bins, k: float, b: float) -> float:
    total = count = 0.0
    for v, (n, s, s2) in bins.items():
        p = sigmoid(k * v + b)
        total += s2 - 2 * p * s + n * p * p  # the sum over the bin of (r - p)^2
        count += n
    return total / max(count, 1)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    data: dict[int, list[Sample]] = {}
    with Pool(args.workers) as pool:
        for n in (2, 3, 4):
            tasks = [(n, game_seed(args.seed, g)) for g in range(args.games)]
            data[n] = [x for g in pool.map(samples_of, tasks, chunksize=4) for x in g]
            print(f"{n} players: {len(data[n])} samples ({time.perf_counter() - t0:.0f} s)")
    fits = {n: binned(xs[0::2]) for n, xs in data.items()}
    checks = {n: binned(xs[1::2]) for n, xs in data.items()}
    ks = [kk / 1000 for kk in range(5, 300, 5)]
    bs = [bb / 100 for bb in range(-250, 101, 5)]

    def fit(k: float) -> tuple[float, dict[int, float]]:
        total, best_b = 0.0, {}
        for n in data:
            err, b = min((loss(fits[n], k, b), b) for b in bs)
            total += err
            best_b[n] = b
        return total, best_b

    err, k = min((fit(k)[0], k) for k in ks)
    _, b = fit(k)
    for n in data:
        held = loss(checks[n], k, b[n])
        flat = min(loss(checks[n], 0.0, bb) for bb in bs)  # the same chance for every position
        print(f"{n} players: B = {b[n]}; held-out loss {held:.4f} (a constant chance: {flat:.4f})")
    print(f"K = {k}  ({time.perf_counter() - t0:.0f} s)")
    print(f"WIN_SCALE = {k}\nWIN_BIAS = {{2: {b[2]}, 3: {b[3]}, 4: {b[4]}}}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
