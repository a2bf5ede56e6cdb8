"""Tune the evaluation's weights by self-play with SPSA, as fishtest tunes an engine's.

    python tools/tune_weights.py --steps 400 --pairs 8 --workers 2 --out tune.jsonl
    python tools/tune_weights.py --scheduler tcp://HOST:8786 --steps 2000 --out tune.jsonl
    python tools/tune_weights.py --resume tune.jsonl --steps 400 ...   # go on from the last line

Each step perturbs every tuned weight at once by +-c (a random sign per weight, the
simultaneous perturbation), plays ``--pairs`` game pairs between the two perturbed bots
(each deal twice, seats swapped, so the deal's luck cancels), and moves the weights along
the result: theta += a_k * (score(+) - score(-)) / (c_k * delta), on weights scaled by
their starting size so that one step size fits all. a_k and c_k shrink with the step
number as Spall's SPSA prescribes (alpha 0.602, gamma 0.101). The bots are ``greedy``
with the weights under test (``--bot greedy``, cheap: about a second a pair) or the
searching ``raider`` at a small budget (``--bot raider:8``, dearer and closer to its use).

The games run on a Dask cluster (``--scheduler``) or on a local one of ``--workers``
processes; every step's pairs go out together. Each step appends one JSON line to
``--out``: the step, a_k, c_k, the pairs' mean result and the weights after it. The
tuned weights are the mean of the last quarter of the steps (``--report FILE``), to be
copied into ``nova/bots/raider.py`` only once ``python -m nova lab sprt`` accepts them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nova.bots import GreedyBot, RaiderBot  # noqa: E402
from nova.bots.evaluate import HOLDINGS, Weights  # noqa: E402
from nova.lab.core.game import game_seed  # noqa: E402
from nova.rules import new_game  # noqa: E402

# The weights tuned (the rest keep their values): what a position holds, and two of the
# terms that steer the end. A scale of 0 would freeze a weight; each is at least SCALE_FLOOR.
TUNED = (*HOLDINGS, "tempo", "dry")
SCALE_FLOOR = 0.1
ALPHA, GAMMA = 0.602, 0.101  # Spall's exponents


def make_agent(bot: str, w: Weights):
    name, _, budget = bot.partition(":")
    if name == "greedy":
        return GreedyBot(w)
    if name == "raider":
        agent = RaiderBot(int(budget) if budget else 8)
        agent.weights = w
        return agent
    raise ValueError(f"--bot: greedy or raider[:N], not {bot!r}")


def play(bot: str, seats: list[Weights], seed: int) -> list[float]:
    """One 2-player game between bots with these weights; each seat's result (R59)."""
    agents = [make_agent(bot, w) for w in seats]
    s = new_game(players=2, seed=seed)
    k = 0
    while not s.is_over():
        seat = s.current_player
        s = s.apply(agents[seat].choose(s.view(seat), seed * 7_777_777 + k))
        k += 1
    return s.returns()


def play_pair(task: tuple[str, dict, dict, int]) -> float:
    """The score of the + weights over a deal played twice, seats swapped: 0 to 2."""
    bot, plus, minus, seed = task
    wp, wm = Weights.from_dict(plus), Weights.from_dict(minus)
    first = play(bot, [wp, wm], seed)
    second = play(bot, [wm, wp], seed)
    return first[0] + second[1]


def perturbed(theta: dict[str, float], scale: dict[str, float], c: float, rng: random.Random):
    delta = {k: rng.choice((-1.0, 1.0)) for k in theta}
    plus = {k: theta[k] + c * scale[k] * delta[k] for k in theta}
    minus = {k: theta[k] - c * scale[k] * delta[k] for k in theta}
    return delta, plus, minus


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--pairs", type=int, default=8, help="game pairs per step")
    ap.add_argument("--bot", default="greedy", help="greedy, or raider:N (search budget N)")
    ap.add_argument("--a", type=float, default=0.5, help="step size numerator")
    ap.add_argument("--c", type=float, default=0.15, help="perturbation, share of each weight")
    ap.add_argument("--big-a", type=float, default=50.0, help="SPSA's stability constant A")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2, help="local Dask cluster processes")
    ap.add_argument("--scheduler", default=None, help="a Dask scheduler's address instead")
    ap.add_argument("--out", default="tune.jsonl")
    ap.add_argument("--resume", default=None, help="go on from this log's last line")
    ap.add_argument("--report", default=None, help="print the tuned weights of a log and stop")
    args = ap.parse_args(argv)
    if args.report:
        return report(args.report)

    start = Weights()
    theta = {k: getattr(start, k) for k in TUNED}
    scale = {k: max(abs(v), SCALE_FLOOR) for k, v in theta.items()}
    first_step = 0
    if args.resume:
        last = json.loads(Path(args.resume).read_text().splitlines()[-1])
        theta = {k: last["weights"][k] for k in TUNED}
        first_step = last["step"] + 1
    from distributed import Client, LocalCluster

    if args.scheduler:
        client = Client(args.scheduler)
    else:
        client = Client(LocalCluster(n_workers=args.workers, threads_per_worker=1))
    rng = random.Random(args.seed * 1_000_003 + first_step)
    base = Weights()
    with open(args.out, "a", encoding="utf-8") as out:
        for k in range(first_step, first_step + args.steps):
            a_k = args.a / (args.big_a + k + 1) ** ALPHA
            c_k = args.c / (k + 1) ** GAMMA
            tasks, deltas = [], []
            for j in range(args.pairs):
                delta, plus, minus = perturbed(theta, scale, c_k, rng)
                full_p = replace(base, **plus).as_dict()
                full_m = replace(base, **minus).as_dict()
                seed = game_seed(args.seed, k * 1000 + j)
                tasks.append((args.bot, full_p, full_m, seed))
                deltas.append(delta)
            t0 = time.perf_counter()
            results = client.gather(client.map(play_pair, tasks, pure=False))
            for delta, score in zip(deltas, results, strict=True):
                r = (score - 1.0) / 1.0  # +1: the + side won both games, -1: lost both
                for name in theta:
                    # on the scaled weight x = theta / scale: x += a_k r / (c_k delta)
                    step = a_k * r / (c_k * delta[name]) / args.pairs
                    theta[name] = theta[name] + step * scale[name]
            mean = sum(results) / len(results) / 2
            line = {
                "step": k,
                "a_k": a_k,
                "c_k": c_k,
                "score_plus": mean,
                "seconds": round(time.perf_counter() - t0, 2),
                "weights": theta,
            }
            out.write(json.dumps(line) + "\n")
            out.flush()
            print(json.dumps(line), flush=True)
    client.close()
    return 0


def report(path: str) -> int:
    lines = [json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()]
    tail = lines[len(lines) * 3 // 4 :]
    tuned = {k: sum(x["weights"][k] for x in tail) / len(tail) for k in TUNED}
    start = Weights()
    print(f"{len(lines)} steps; the mean of the last {len(tail)}:")
    for k, v in tuned.items():
        print(f"  {k:11s} {getattr(start, k):8.3f} -> {v:8.3f}")
    print(json.dumps({k: round(v, 4) for k, v in tuned.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
