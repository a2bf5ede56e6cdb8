"""Lab throughput: games per minute on 1 and 2 local cores and through a local Dask cluster.

    python -m nova lab bench-cluster [--games 40] [--reps 2] [--players 2] [--bots greedy] [--json]

The same seeded batch three ways in one run: one process, a pool of two processes, and a Dask
cluster of a scheduler and two single-threaded worker processes on 127.0.0.1 (started here; its
start-up is timed apart). The three must agree game for game, and the figures give, on paper,
the time of a 1,000,000-game sweep on N cores: N x the one-core rate x the cluster's measured
efficiency (its rate over two one-core rates). The machine may be shared: the two local runs
are the reference measured next to the cluster, in the same run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from ..lab import parse_bots
from ..lab_run import LAB_EXTRA, Batch, LabSetupError, run_batches

SWEEP_GAMES = 1_000_000
CORES = (2, 16, 64, 256)


def _same_games(a: list[dict], b: list[dict]) -> bool:
    def strip(r: dict) -> dict:
        return {k: v for k, v in r.items() if k != "think"}  # wall-clock think time differs

    return len(a) == len(b) and all(strip(x) == strip(y) for x, y in zip(a, b, strict=True))


def bench(games: int, players: int, bots: list[str], seed: int, reps: int = 2) -> dict:
    """The three ways ``reps`` times in turn; each way's best time (the least disturbed by
    whatever else the machine runs: the rounds interleave so all three meet the same load)."""
    batch = [Batch(players, tuple(bots), games, None, None, seed)]
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise LabSetupError(f"bench-cluster needs Dask distributed: {LAB_EXTRA}") from None
    best = {"local_1": float("inf"), "local_2": float("inf"), "dask_2": float("inf")}
    identical = True
    t0 = time.perf_counter()
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,  # pure-Python games hold the GIL: one process per core
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as client,
    ):
        startup = time.perf_counter() - t0
        for _ in range(reps):
            (one, *_), t1 = run_batches(batch, workers=1)
            (two, *_), t2 = run_batches(batch, workers=2)
            (dask, *_), td = run_batches(batch, client=client)
            identical = identical and _same_games(one, two) and _same_games(one, dask)
            for way, t in (("local_1", t1), ("local_2", t2), ("dask_2", td)):
                best[way] = min(best[way], t)
    t1, t2, td = best["local_1"], best["local_2"], best["dask_2"]
    rates = {way: 60 * games / t for way, t in best.items()}
    efficiency = rates["dask_2"] / (2 * rates["local_1"])
    return {
        "games": games,
        "players": players,
        "bots": bots,
        "games_per_minute": rates,
        "seconds": {"local_1": t1, "local_2": t2, "dask_2": td, "dask_startup": startup},
        "local_2_speedup": rates["local_2"] / rates["local_1"],
        "dask_efficiency": efficiency,
        "reps": reps,
        "identical": identical,
        "sweep_hours": {
            str(n): SWEEP_GAMES / (rates["local_1"] * n * efficiency) / 60 for n in CORES
        },
    }


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m nova lab bench-cluster", description=__doc__)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bots", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reps", type=int, default=2, help="rounds of the three ways; best of each")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    try:
        bots = parse_bots(args.bots, args.players)
        d = bench(args.games, args.players, bots, args.seed, max(1, args.reps))
    except (ValueError, LabSetupError) as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(d, indent=1, sort_keys=True))
        return 0 if d["identical"] else 1
    r, s = d["games_per_minute"], d["seconds"]
    print(
        f"lab throughput: {args.games} games, {args.players} players, bots {', '.join(bots)}; "
        f"best of {d['reps']} interleaved rounds"
    )
    print(f"  local, 1 core       {r['local_1']:7.0f} games/min  ({s['local_1']:.1f} s)")
    print(
        f"  local, 2 cores      {r['local_2']:7.0f} games/min  ({s['local_2']:.1f} s; "
        f"{d['local_2_speedup']:.2f}x one core)"
    )
    print(
        f"  Dask, 2 workers     {r['dask_2']:7.0f} games/min  ({s['dask_2']:.1f} s; "
        f"{d['dask_efficiency']:.0%} of two one-core rates; "
        f"cluster start {s['dask_startup']:.1f} s)"
    )
    print(f"  same games all three ways: {'yes' if d['identical'] else 'NO'}")
    print(f"  on paper, {SWEEP_GAMES:,} games through Dask at this efficiency:")
    for n, hours in d["sweep_hours"].items():
        print(f"    {n:>4} cores  {hours:8.1f} h")
    return 0 if d["identical"] else 1
