"""Lab throughput: games per minute on 1 and 2 local cores and through a local Dask cluster.

    python -m nova lab bench-cluster [--games 60] [--players 2] [--bots greedy] [--json]

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


def bench(games: int, players: int, bots: list[str], seed: int) -> dict:
    batch = [Batch(players, tuple(bots), games, None, None, seed)]
    (one, *_), t1 = run_batches(batch, workers=1)
    (two, *_), t2 = run_batches(batch, workers=2)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise LabSetupError(f"bench-cluster needs Dask distributed: {LAB_EXTRA}") from None
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
        (dask, *_), td = run_batches(batch, client=client)
    rates = {"local_1": 60 * games / t1, "local_2": 60 * games / t2, "dask_2": 60 * games / td}
    efficiency = rates["dask_2"] / (2 * rates["local_1"])
    return {
        "games": games,
        "players": players,
        "bots": bots,
        "games_per_minute": rates,
        "seconds": {"local_1": t1, "local_2": t2, "dask_2": td, "dask_startup": startup},
        "local_2_speedup": rates["local_2"] / rates["local_1"],
        "dask_efficiency": efficiency,
        "identical": _same_games(one, two) and _same_games(one, dask),
        "sweep_hours": {
            str(n): SWEEP_GAMES / (rates["local_1"] * n * efficiency) / 60 for n in CORES
        },
    }


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m nova lab bench-cluster", description=__doc__)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--bots", default="greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    try:
        bots = parse_bots(args.bots, args.players)
        d = bench(args.games, args.players, bots, args.seed)
    except (ValueError, LabSetupError) as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(d, indent=1, sort_keys=True))
        return 0 if d["identical"] else 1
    r, s = d["games_per_minute"], d["seconds"]
    print(f"lab throughput: {args.games} games, {args.players} players, bots {', '.join(bots)}")
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
