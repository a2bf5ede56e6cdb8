"""Lab throughput: games per minute on 1 and 2 local cores and through a local Dask cluster.

    python -m nova lab bench-cluster [--games 40] [--reps 2] [--players 2] [--bots greedy] [--json]

The same seeded batch three ways in one run: one process, a pool of two processes, and a Dask
cluster of a scheduler and two single-threaded worker processes on 127.0.0.1 (started here; its
start-up is timed apart). The three must agree game for game. Each way reports games per
minute of wall time (what a designer waits, on a machine that may be shared: the two local
runs are the reference measured next to the cluster, in the same run) and per minute of CPU
time (what a core of its own would do). From those, on paper: the time of a 1,000,000-game
sweep through Dask on N cores, at the measured rate per worker and on cores of their own.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from .core.game import Batch, GameResult, parse_bots
from .runners import LAB_EXTRA, LabSetupError, run_batches

SWEEP_GAMES = 1_000_000
CORES = (2, 16, 64, 256)


def _same_games(a: list[GameResult], b: list[GameResult]) -> bool:
    # wall-clock think time differs; the rest must not
    return [r.without_think() for r in a] == [r.without_think() for r in b]


def _cpu_self() -> float:
    t = os.times()
    return t.user + t.system


def _cpu_children() -> float:
    t = os.times()
    return t.children_user + t.children_system


def bench(games: int, players: int, bots: list[str], seed: int, reps: int = 2) -> dict:
    """The three ways ``reps`` times in turn, interleaved so all three meet the same load from
    whatever else the machine runs; for each way its fastest round, with the CPU seconds that
    round took (this process, the pool's children or the Dask workers). Wall time says what a
    designer waits on this machine; CPU time says what a core of its own would do."""
    batch = [Batch(players, tuple(bots), games, None, None, seed)]
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise LabSetupError(f"bench-cluster needs Dask distributed: {LAB_EXTRA}") from None
    best: dict[str, tuple[float, float]] = {}
    identical = True
    t0 = time.perf_counter()
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,  # pure-Python games hold the GIL: one process per core
            processes=True,
            host="127.0.0.1",
            dashboard_address=":0",  # any free port: two clusters may run at once (xdist)
        ) as cluster,
        Client(cluster) as client,
    ):
        startup = time.perf_counter() - t0

        def workers_cpu() -> float:
            return sum(client.run(time.process_time).values())

        for _ in range(reps):
            c = _cpu_self()
            (one, *_), t1 = run_batches(batch, workers=1)
            cpu1 = _cpu_self() - c
            c, k = _cpu_self(), _cpu_children()
            (two, *_), t2 = run_batches(batch, workers=2)
            cpu2 = _cpu_self() - c + _cpu_children() - k
            c, w = _cpu_self(), workers_cpu()
            (dask, *_), td = run_batches(batch, client=client)
            cpud = _cpu_self() - c + workers_cpu() - w  # the client and scheduler too
            identical = identical and _same_games(one, two) and _same_games(one, dask)
            for way, t, cpu in (("local_1", t1, cpu1), ("local_2", t2, cpu2), ("dask_2", td, cpud)):
                if way not in best or t < best[way][0]:
                    best[way] = (t, cpu)
    rates = {way: 60 * games / t for way, (t, _) in best.items()}
    cpu_rates = {way: 60 * games / cpu for way, (_, cpu) in best.items()}
    # on paper: N cores each at the measured Dask rate per worker (this shared machine), or
    # each at the Dask CPU cost per game (cores of their own; scheduler and client included)
    per_worker = rates["dask_2"] / 2
    cpu_per_game = best["dask_2"][1] / games
    return {
        "games": games,
        "players": players,
        "bots": bots,
        "reps": reps,
        "games_per_minute": rates,
        "games_per_cpu_minute": cpu_rates,
        "seconds": {way: t for way, (t, _) in best.items()} | {"dask_startup": startup},
        "cpu_seconds": {way: cpu for way, (_, cpu) in best.items()},
        "local_2_speedup": rates["local_2"] / rates["local_1"],
        "dask_speedup": rates["dask_2"] / rates["local_1"],
        "dask_cpu_overhead": cpu_per_game / (best["local_1"][1] / games) - 1,
        "identical": identical,
        "sweep_hours_measured": {str(n): SWEEP_GAMES / (per_worker * n) / 60 for n in CORES},
        "sweep_hours_dedicated": {str(n): SWEEP_GAMES * cpu_per_game / n / 3600 for n in CORES},
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
    r, c, s = d["games_per_minute"], d["games_per_cpu_minute"], d["seconds"]
    print(
        f"lab throughput: {args.games} games, {args.players} players, bots {', '.join(bots)}; "
        f"fastest of {d['reps']} interleaved rounds"
    )
    print(f"  {'':18}{'games/min':>10}{'wall s':>9}{'games/CPU-min':>15}")
    for way, name in (("local_1", "local, 1 core"), ("local_2", "local, 2 cores"),
                      ("dask_2", "Dask, 2 workers")):  # fmt: skip
        print(f"  {name:18}{r[way]:10.0f}{s[way]:9.1f}{c[way]:15.0f}")
    print(
        f"  2 cores: {d['local_2_speedup']:.2f}x one core locally, {d['dask_speedup']:.2f}x "
        f"through Dask (cluster start {s['dask_startup']:.1f} s); Dask's CPU cost per game "
        f"{d['dask_cpu_overhead']:+.0%} over one local core"
    )
    print(f"  same games all three ways: {'yes' if d['identical'] else 'NO'}")
    print(f"  on paper, {SWEEP_GAMES:,} games through Dask:")
    print(f"    {'cores':>5}  {'at the measured rate':>21}  {'on cores of their own':>22}")
    for n in d["sweep_hours_measured"]:
        print(
            f"    {n:>5}  {d['sweep_hours_measured'][n]:19.1f} h"
            f"  {d['sweep_hours_dedicated'][n]:20.1f} h"
        )
    return 0 if d["identical"] else 1
