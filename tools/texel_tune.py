"""Tune the evaluation's weights to predict who wins (Texel's method, as chess engines do).

    python tools/texel_tune.py --games 800 --workers 2 --out texel.json

1. Positions: ``--games`` seeded 2-player games of ``--bot`` self-play (greedy by default:
   cheap; the positions a search meets at the end of its rollouts are of the same kind), the
   position after every finished turn, each with the game's result for both seats (a win 1,
   a tie split, a loss 0). Games that end at the round limit are left out: their result
   says nothing about the position.
2. The loss: the mean squared error between the result and sigmoid(K x evaluation), over all
   positions and both seats. K is fitted first with the hand-set weights, then kept.
3. Local search, as Texel tuning does: each weight of ``TUNED`` in turn is moved up and down
   by its step (a share of its size); a move that lowers the loss is kept; the steps halve
   when a pass over every weight keeps nothing, until they are small.

The terms that steer how the game ends (``tempo``, ``finish``, ``dry``) are not tuned: they
exist to make bots bring the star to Super-Nova, not to predict the winner, and a predictor
would trade them away. Half the positions fit, the other half check (the loss on held-out
positions is printed beside): a weight set that only fits its own sample is not kept.

The result is a candidate for ``nova/bots/raider.py``'s ``WEIGHTS``, kept only when
``python -m nova lab sprt`` accepts the bot that plays with it (docs/BOTS.md).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nova.bots import make_bot  # noqa: E402
from nova.bots.evaluate import HOLDINGS, Weights, evaluate  # noqa: E402
from nova.lab.core.game import game_seed  # noqa: E402
from nova.rules import State, new_game  # noqa: E402
from nova.rules import move as mv  # noqa: E402

TUNED = HOLDINGS
# Each weight stays within these shares of its hand-set value: the sample is a few thousand
# positions of one kind of play, and a weight far outside them fits that sample's noise.
BOUNDS = (0.25, 4.0)


def positions_of(task: tuple[str, int]) -> list[tuple[str, list[float]]]:
    """(position text, result per seat) after every finished turn of one seeded game."""
    bot, seed = task
    agents = [make_bot(bot), make_bot(bot)]
    s = new_game(players=2, seed=seed)
    out: list[str] = []
    k = 0
    while not s.is_over():
        seat = s.current_player
        move = agents[seat].choose(s.view(seat), seed * 7_777_777 + k)
        k += 1
        s = s.apply(move)
        if move == mv.end() and not s.is_over():
            out.append(s.position())
    if s.end_reason == "round limit":
        return []
    result = s.returns()
    return [(p, result) for p in out]


def loss(samples: list[tuple[State, list[float]]], w: Weights, k: float) -> float:
    total = 0.0
    for s, result in samples:
        for seat in (0, 1):
            x = k * evaluate(s, seat, w)
            p = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))
            total += (result[seat] - p) ** 2
    return total / (2 * len(samples))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=800)
    ap.add_argument("--bot", default="greedy")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--step", type=float, default=0.2, help="first step, share of each weight")
    ap.add_argument("--min-step", type=float, default=0.02)
    ap.add_argument("--out", default="texel.json")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    tasks = [(args.bot, game_seed(args.seed, g)) for g in range(args.games)]
    with Pool(args.workers) as pool:
        games = pool.map(positions_of, tasks, chunksize=4)
    samples = [(State.from_position(p, check=False), r) for g in games for p, r in g]
    fit, check = samples[0::2], samples[1::2]
    print(f"{len(samples)} positions from {args.games} games in {time.perf_counter() - t0:.0f} s")

    w = start = Weights()
    # K: the scale that turns evaluation points into a chance of winning
    k = min((loss(fit, w, kk / 1000), kk / 1000) for kk in range(5, 200, 5))[1]
    best = loss(fit, w, k)
    print(f"K = {k}; loss fit {best:.5f} check {loss(check, w, k):.5f} (hand-set weights)")
    steps = {name: args.step * max(abs(getattr(w, name)), 0.1) for name in TUNED}
    share = args.step
    while share >= args.min_step:
        improved = False
        for name in TUNED:
            for sign in (1, -1):
                value = getattr(w, name) + sign * steps[name]
                if (
                    not BOUNDS[0] * getattr(start, name)
                    <= value
                    <= BOUNDS[1] * getattr(start, name)
                ):
                    continue
                trial = replace(w, **{name: value})
                v = loss(fit, trial, k)
                if v < best - 1e-7:
                    w, best, improved = trial, v, True
                    print(f"  {name} -> {getattr(w, name):.4f}: fit {best:.5f}", flush=True)
                    break
        if not improved:
            share /= 2
            steps = {n: s / 2 for n, s in steps.items()}
    held = loss(check, w, k)
    print(f"tuned: loss fit {best:.5f} check {held:.5f} in {time.perf_counter() - t0:.0f} s")
    tuned = {name: round(getattr(w, name), 4) for name in TUNED}
    Path(args.out).write_text(
        json.dumps({"k": k, "games": args.games, "positions": len(samples), "weights": tuned})
        + "\n"
    )
    print(json.dumps(tuned))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
