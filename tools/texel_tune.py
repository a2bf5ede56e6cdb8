"""Tune the evaluation's weights to predict who wins (Texel's method, as chess engines do).

    python tools/texel_tune.py --games 800 --workers 2 --out texel.json
    python tools/texel_tune.py --players 4 --games 300 --workers 1 --out texel4.json

1. Positions: ``--games`` seeded games of ``--bot`` self-play at ``--players`` (2 by default;
   greedy by default: cheap; the positions a search meets at the end of its rollouts are of
   the same kind; with ``--self-play FIT``, greedy bots playing with an earlier fit's weights,
   whose positions are more like those its own bots meet), the position after every finished
   turn, each with the game's result for every seat (a win 1, a tie split, a loss 0). Games
   that end at the round limit are left out: their result says nothing about the position.
2. The loss: the mean squared error between each seat's result and its chance of winning,
   over all positions and seats. The chance is the softmax over the seats of K x each seat's
   evaluation: at 2 players, where the evaluation is nearly zero-sum, a sigmoid of it, as
   Texel's method has it; at 4 an even position is a 25% chance, not 50%, which a sigmoid
   of one seat's evaluation could not say. K is fitted first with the hand-set weights, then
   kept.
3. Local search, as Texel tuning does: each weight of ``TUNED`` in turn is moved up and down
   by its step (a share of its size); a move that lowers the loss is kept; the steps halve
   when a pass over every weight keeps nothing, until they are small.

The terms that steer how the game ends (``tempo``, ``finish``, ``dry``) are not tuned: they
exist to make bots bring the star to Super-Nova, not to predict the winner, and a predictor
would trade them away. Half the positions fit, the other half check (the loss on held-out
positions is printed beside): a weight set that only fits its own sample is not kept.

The result is a candidate for ``nova/bots/raider.py``'s ``WEIGHTS``, kept only when
``python -m nova lab sprt`` accepts the bot that plays with it (docs/BOTS.md); fitted at 3 or
4 players, for ``nova/bots/evaluate.py``'s ``FITTED`` at that count, tried against a field of
raiders (``python -m nova lab ladder --players 4 --field raider:16``).
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
from nova.bots.simple import GreedyBot  # noqa: E402
from nova.lab.core.game import game_seed  # noqa: E402
from nova.rules import State, new_game  # noqa: E402
from nova.rules import move as mv  # noqa: E402

TUNED = HOLDINGS
# Each weight stays within these shares of its hand-set value (``--bounds``): the sample is a few
# thousand positions of one kind of play, and a weight far outside them fits that sample's noise.
BOUNDS = (0.25, 4.0)
# A term the hand-set weights leave out (0, such as ``cargo``) is fitted from 0 up to the upper
# bound's share of this, in steps of the same share of it as the others'.
NEW_TERM = 1.0


def positions_of(
    task: tuple[str, int, int, dict[str, float] | None],
) -> list[tuple[str, list[float]]]:
    """(position text, result per seat) after every finished turn of one seeded game: of
    ``bot`` self-play, or of greedy bots playing with ``weights`` (``--self-play``)."""
    bot, players, seed, weights = task
    if weights is None:
        agents = [make_bot(bot) for _ in range(players)]
    else:
        agents = [GreedyBot(Weights.from_dict(weights)) for _ in range(players)]
    s = new_game(players=players, seed=seed)
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
    seats = 0
    for s, result in samples:
        xs = [k * evaluate(s, seat, w) for seat in range(len(result))]
        top = max(xs)
        es = [math.exp(max(-50.0, x - top)) for x in xs]
        z = sum(es)
        total += sum((r - e / z) ** 2 for r, e in zip(result, es, strict=True))
        seats += len(result)
    return total / seats


def fit_k(samples: list[tuple[State, list[float]]], w: Weights) -> float:
    """The K with the least loss, by golden-section search on log K over 0.001 to 1 (the loss
    is one valley in K: too flat a chance says nothing, too steep is overconfident)."""
    lo, hi = math.log(0.001), math.log(1.0)
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = loss(samples, w, math.exp(a)), loss(samples, w, math.exp(b))
    while hi - lo > 0.02:
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = loss(samples, w, math.exp(a))
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = loss(samples, w, math.exp(b))
    return round(math.exp((lo + hi) / 2), 4)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=800)
    ap.add_argument("--bot", default="greedy")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--step", type=float, default=0.2, help="first step, share of each weight")
    ap.add_argument("--min-step", type=float, default=0.02)
    ap.add_argument(
        "--bounds", type=float, nargs=2, default=BOUNDS, help="shares of each hand-set weight"
    )
    ap.add_argument(
        "--self-play",
        default=None,
        help="a fit's output: the positions come from greedy bots playing with its weights",
    )
    ap.add_argument("--out", default="texel.json")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    played = None
    if args.self_play:
        played = json.loads(Path(args.self_play).read_text())["weights"]
    tasks = [(args.bot, args.players, game_seed(args.seed, g), played) for g in range(args.games)]
    with Pool(args.workers) as pool:
        games = pool.map(positions_of, tasks, chunksize=4)
    samples = [(State.from_position(p, check=False), r) for g in games for p, r in g]
    fit, check = samples[0::2], samples[1::2]
    print(f"{len(samples)} positions from {args.games} games in {time.perf_counter() - t0:.0f} s")

    w = start = Weights()
    # K: the scale that turns evaluation points into a chance of winning
    k = fit_k(fit, w)
    best = loss(fit, w, k)
    print(f"K = {k}; loss fit {best:.5f} check {loss(check, w, k):.5f} (hand-set weights)")
    scale = {name: getattr(start, name) or NEW_TERM for name in TUNED}
    steps = {name: args.step * max(abs(scale[name]), 0.1) for name in TUNED}
    share = args.step
    while share >= args.min_step:
        improved = False
        for name in TUNED:
            for sign in (1, -1):
                value = getattr(w, name) + sign * steps[name]
                low = args.bounds[0] * scale[name] if getattr(start, name) else 0.0
                if not low <= value <= args.bounds[1] * scale[name]:
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
        json.dumps(
            {
                "k": k,
                "players": args.players,
                "games": args.games,
                "positions": len(samples),
                "weights": tuned,
            }
        )
        + "\n"
    )
    print(json.dumps(tuned))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
