"""The bots' strength measured as chess engines measure it: ``python -m nova lab ladder`` and
``python -m nova lab sprt`` (docs/BOTS.md, "Measuring strength").

    python -m nova lab ladder --bots random,greedy,search:16,search:48 --games 200 --out l.jsonl
    python -m nova lab ladder --refit l.jsonl --json
    python -m nova lab ladder --players 4 --bots greedy,search:48 --field search:48
    python -m nova lab sprt --bots search:48,greedy --elo0 0 --elo1 100

Both play paired games (``GameJob.paired``: every rotation of a deal on the same engine seed)
on this machine's cores or a Dask cluster (``nova.lab.runners``); the figures depend only on
the games, so they are the same on any number of cores. The maths: ``nova.lab.elo``,
``nova.lab.sprt``; the plan and the kept games: ``nova.lab.ladder``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from typing import TextIO

from .core.game import Batch, GameResult, parse_bots
from .ladder import (
    LadderGame,
    LadderPlan,
    LadderResult,
    ladder_result,
    read_games,
    table_lines,
    whole_deals,
    write_chart,
)
from .options import positive
from .runners import LabSetupError, connect, run_batches
from .sprt import Sprt, bounds, elo_estimate

DEFAULT_RUNGS = "random,greedy,search:16,search:48"


def _rungs(spec: str) -> list[str]:
    """The bot names of ``--bots`` (each checked as the lab checks a line-up), all different."""
    names = [b.strip() for b in spec.split(",") if b.strip()]
    parse_bots(",".join(names), len(names))  # ValueError: an unknown name or a bad budget
    if len(set(names)) != len(names):
        raise ValueError(f"--bots: a name twice in {spec!r} (each rung once)")
    return names


def _where(args) -> str:
    return (
        f"the Dask cluster at {args.scheduler}" if args.scheduler else f"{args.workers} process(es)"
    )


class Keeper:
    """Appends each finished game to ``--out`` as one JSON line, flushed at once, so a run
    stopped half-way keeps what it played."""

    def __init__(self, path: str | None) -> None:
        self.fh: TextIO | None = open(path, "a", encoding="utf-8") if path else None  # noqa: SIM115

    def keep(self, game: LadderGame) -> None:
        if self.fh is not None:
            self.fh.write(game.line() + "\n")
            self.fh.flush()

    def close(self) -> None:
        if self.fh is not None:
            self.fh.close()


def _add_run_args(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=positive, default=os.cpu_count() or 1, help="processes")
    ap.add_argument("--scheduler", default=None, metavar="ADDRESS", help="a Dask scheduler")
    ap.add_argument("--out", default=None, metavar="FILE.jsonl", help="keep every game (append)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")


def ladder_main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m nova lab ladder",
        description="Paired games between bots at fixed budgets; Elo ratings (Bradley-Terry, "
        "the anchor 0) with bootstrap 95% intervals, or at 3-4 players win shares against a "
        "field.",
    )
    ap.add_argument(
        "--bots", default=None, help=f"the rungs (default {DEFAULT_RUNGS}; a refit: all kept)"
    )
    ap.add_argument("--players", type=int, default=None, help="2 (default), 3 or 4")
    ap.add_argument("--games", type=positive, default=100, help="games per pair (whole deals)")
    ap.add_argument("--pairs", choices=("all", "adjacent"), default="all")
    ap.add_argument("--anchor", default="greedy", help="the rung rated 0")
    ap.add_argument("--field", default=None, help="3-4 players: the bot in the other seats")
    ap.add_argument(
        "--refit", nargs="+", default=None, metavar="FILE.jsonl", help="fit kept games, no play"
    )
    ap.add_argument("--report", default=None, metavar="DIR", help="write DIR/ladder.png")
    _add_run_args(ap)
    args = ap.parse_args(argv)
    try:
        if args.refit:
            return _ladder_refit(args)
        return _ladder_play(args)
    except OSError as exc:  # a kept file that is not there, an --out that cannot be written
        print(exc, file=sys.stderr)
        return 2
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    except LabSetupError as exc:
        print(exc, file=sys.stderr)
        return 2


def _ladder_refit(args) -> int:
    games, repeats = read_games(args.refit)
    players = args.players or (games[0].players if games else 2)
    rungs = _rungs(args.bots) if args.bots else None
    result = ladder_result(games, players, rungs, args.anchor, args.field, None, repeats)
    return _show(args, result, f"refit of {', '.join(args.refit)}")


def _ladder_play(args) -> int:
    players = args.players or 2
    if players not in (2, 3, 4):
        raise ValueError(f"--players: 2, 3 or 4, not {players}")
    rungs = _rungs(args.bots or DEFAULT_RUNGS)
    if players == 2:
        if len(rungs) < 2:
            raise ValueError("--bots: a ladder needs two rungs or more")
        if args.anchor not in rungs:
            raise ValueError(f"--anchor {args.anchor!r} is not among --bots ({', '.join(rungs)})")
        field = None
    else:
        field = args.field or args.anchor
        _rungs(field)
    plan = LadderPlan(tuple(rungs), players, args.games, args.anchor, args.seed, args.pairs, field)
    batches = plan.batches()
    if not batches:
        raise ValueError("no games to play (every rung is the field)")
    keeper = Keeper(args.out)
    games: list[LadderGame] = []

    def arrived(index: int, r: GameResult) -> None:
        game = LadderGame.of(batches[index], r)
        games.append(game)
        keeper.keep(game)

    total = sum(b.games for b in batches)
    if not args.json:
        print(
            f"ladder: {len(batches)} line-ups x {batches[0].games} games = {total} games on "
            f"{_where(args)}...",
            file=sys.stderr,
        )
    try:
        _, elapsed = run_batches(
            batches, args.workers, args.scheduler, not args.json, "ladder", on_result=arrived
        )
    except KeyboardInterrupt:
        kept = f": kept in {args.out}, refit with --refit {args.out}" if args.out else ""
        print(f"\ninterrupted after {len(games)} games{kept}", file=sys.stderr)
        return 130
    finally:
        keeper.close()
    result = ladder_result(games, players, rungs, args.anchor, field, elapsed)
    return _show(args, result, f"{total} games, seed {args.seed}")


def _show(args, result: LadderResult, what: str) -> int:
    title = f"Nova Raiders ladder, {result.players} players: {what}" + (
        f" ({result.repeats} repeated games dropped)" if result.repeats else ""
    )
    if args.report:
        try:
            os.makedirs(args.report, exist_ok=True)
            path = os.path.join(args.report, "ladder.png")
            write_chart(result, path, title)
        except ImportError as exc:
            print(f"--report needs matplotlib ({exc}): pip install -e '.[lab]'", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"--report {args.report}: {exc}", file=sys.stderr)
            return 2
        print(f"report: {path}", file=sys.stderr)
    if args.json:
        print(json.dumps(_finite(result.as_json()), indent=1, sort_keys=True))
        return 0
    print(title)
    for line in table_lines(result):
        print(line)
    if result.elapsed_s is not None:
        print(f"{result.games} games in {result.elapsed_s:.1f} s")
    return 0


def _fmt_elo(x: float) -> str:
    return f"{round(x):+d}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def sprt_main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m nova lab sprt",
        description="A sequential probability ratio test on paired games (each deal twice, "
        "seats swapped), as fishtest gates engine changes: H0 NEW is ELO0 stronger than BASE, "
        "H1 ELO1 (logistic Elo).",
    )
    ap.add_argument("--bots", required=True, help="NEW,BASE")
    ap.add_argument("--elo0", type=float, required=True)
    ap.add_argument("--elo1", type=float, required=True)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--max-games", type=positive, default=None, help="give up after N games")
    ap.add_argument("--batch", type=positive, default=None, help="pairs per batch (4 a slot)")
    _add_run_args(ap)
    args = ap.parse_args(argv)
    try:
        names = [b.strip() for b in args.bots.split(",") if b.strip()]
        if len(names) != 2:
            raise ValueError(f"--bots: NEW,BASE (two names), not {args.bots!r}")
        parse_bots(",".join(names), 2)
        if not args.elo0 < args.elo1:
            raise ValueError("--elo0 must be below --elo1")
        if not (0 < args.alpha < 1 and 0 < args.beta < 1):
            raise ValueError("--alpha and --beta lie between 0 and 1")
        return _sprt_play(args, names)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    except LabSetupError as exc:
        print(exc, file=sys.stderr)
        return 2


def _sprt_play(args, names: list[str]) -> int:
    test = Sprt(args.elo0, args.elo1, args.alpha, args.beta)
    lower, upper = bounds(args.alpha, args.beta)
    max_pairs = whole_deals(args.max_games, 2) // 2 if args.max_games else None
    client = connect(args.scheduler) if args.scheduler else None
    slots = (sum(client.nthreads().values()) or 1) if client is not None else args.workers
    batch = args.batch or max(4, 4 * slots)
    keeper = Keeper(args.out)
    wdl = [0, 0, 0]
    think = [0.0, 0.0]
    decisions = [0, 0]
    pairs = 0
    start = time.perf_counter()
    if not args.json:
        print(
            f"sprt: {names[0]} vs {names[1]}, H0 {args.elo0:g} Elo, H1 {args.elo1:g} Elo, "
            f"alpha {args.alpha:g} beta {args.beta:g}: LLR bounds [{lower:.3f}, {upper:.3f}]; "
            f"pairs of games on {_where(args)}, {batch} pairs a batch",
            file=sys.stderr,
        )
    try:
        while test.result == "none" and (max_pairs is None or pairs < max_pairs):
            n = batch if max_pairs is None else min(batch, max_pairs - pairs)
            chunk = Batch(2, tuple(names), 2 * n, None, None, args.seed, True, 2 * pairs)
            results, _ = run_batches([chunk], args.workers, client=client)
            rs = results[0]
            # the verdict is taken pair by pair in deal order, so it and the game count do
            # not depend on the batch size or on how many cores played the batch
            for d in range(n):
                pair = rs[2 * d : 2 * d + 2]
                total = 0.0
                for r in pair:
                    game = LadderGame.of(chunk, r)
                    keeper.keep(game)
                    p = game.points(0)
                    total += p
                    wdl[0 if p == 1.0 else 2 if p == 0.0 else 1] += 1
                    for seat, entry in enumerate(game.seat_entry):
                        think[entry] += game.think[seat]
                        decisions[entry] += game.decisions[seat]
                pairs += 1
                if test.add(total) != "none":
                    break
            if not args.json:
                elo, lo, hi = elo_estimate(test.counts)
                print(
                    f"games {2 * pairs:5d}  LLR {test.llr:+.3f} [{lower:.3f}, {upper:.3f}]  "
                    f"W-D-L {wdl[0]}-{wdl[1]}-{wdl[2]}  pentanomial {test.counts}  "
                    f"Elo {_fmt_elo(elo)} [{_fmt_elo(lo)}, {_fmt_elo(hi)}]",
                    file=sys.stderr,
                    flush=True,
                )
    except KeyboardInterrupt:
        print(f"\ninterrupted after {2 * pairs} games, LLR {test.llr:+.3f}", file=sys.stderr)
        return 130
    finally:
        keeper.close()
        if client is not None:
            client.close()
    elo, lo, hi = elo_estimate(test.counts)
    out = {
        "bots": names,
        "elo0": args.elo0,
        "elo1": args.elo1,
        "alpha": args.alpha,
        "beta": args.beta,
        "llr": test.llr,
        "lower": lower,
        "upper": upper,
        "games": 2 * pairs,
        "pairs": pairs,
        "result": test.result,
        "wins": wdl[0],
        "draws": wdl[1],
        "losses": wdl[2],
        "pentanomial": list(test.counts),
        "elo": elo,
        "elo_ci95": [lo, hi],
        "seed": args.seed,
        "elapsed_s": time.perf_counter() - start,
        "think_ms_per_decision": {
            n: 1000 * think[k] / decisions[k] if decisions[k] else None for k, n in enumerate(names)
        },
    }
    if args.json:
        # JSON has no infinity: an unbounded end of the interval is null
        print(json.dumps(_finite(out), indent=1, sort_keys=True))
        return 0
    verdict = {
        "H1": f"H1 accepted (the games favour {names[0]} {args.elo1:+g} Elo over {args.elo0:+g})",
        "H0": f"H0 accepted (the games favour {names[0]} {args.elo0:+g} Elo over {args.elo1:+g})",
        "none": f"no verdict within {2 * pairs} games",
    }[test.result]
    print(
        f"{verdict}: LLR {test.llr:+.3f} [{lower:.3f}, {upper:.3f}] after {2 * pairs} games "
        f"({pairs} pairs); W-D-L {wdl[0]}-{wdl[1]}-{wdl[2]}, pentanomial {test.counts}, "
        f"Elo {_fmt_elo(elo)} [{_fmt_elo(lo)}, {_fmt_elo(hi)}]"
    )
    return 0


def _finite(x):
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_finite(v) for v in x]
    return x
