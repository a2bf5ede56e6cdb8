"""The designer's balance lab: many seeded bot-vs-bot games, and what they show.

    python -m nova lab --players 3 --bots greedy,greedy,search --games 2000
    python -m nova lab --players 2 --bots greedy --games 1000 \\
        --compare nova/data/variants/cheap-hijack.json

``--bots`` lists one bot per *entry* (one name is repeated for every seat). Entries
rotate round the table from game to game (game g seats entry k at seat (k + g) mod n)
and every game has its own seed, so each entry plays every seat equally often. Each
game is played by fresh bots, so a game depends only on its seed and line-up: the
same command prints the same figures on any number of cores.

Reported: win rate of each entry with its 95% confidence interval (a tie is split
evenly), mean and spread of scores, game length in turns, rounds and Unloads, how
games end (Super-Nova, the round limit, no ships left), stalls (a long run of turns
with no Unload), win rate by turn order (first-seat advantage), and for every card how
often it is played and how the players who played it, or held it at the end, did.
``--compare FILE`` plays the same seeds and line-ups with a variant and shows both
side by side. ``--json`` prints one JSON object instead of tables. ``--levels cadet,ace,admiral``
plays the same seeds at each opponent level (every seat that level) and sets the figures of
each level side by side, flagging what moves between levels (:mod:`nova.lab.levels`).

Also the game-quality metrics (lead changes, drama, decisiveness, balance, the spread of
length, each card's play rate and its biased win rate when played: ``nova.lab.core.metrics``).

``--scheduler ADDRESS`` plays the games on a Dask cluster (``nova.lab.runners``), ``--report
DIR`` writes an HTML page of charts (``nova.lab.html_report``), ``python -m nova lab sweep``
plays a grid of variant settings (``nova.lab.sweep``) and ``python -m nova lab bench-cluster``
measures games per minute locally and through a local Dask cluster (docs/LAB.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace

from ..bots import BOT_NAMES, LEVEL_NAMES, level_named
from ..rules import ContentError, layout_for
from .core.game import Batch, GameResult, parse_bots
from .core.paired import (
    ALPHA,
    DEFAULT_DETECT,
    card_names,
    decided,
    differences,
    looks,
    verdict_lines,
)
from .core.result import run_result
from .core.summary import summarize
from .levels import levels_result
from .options import positive
from .runners import LabSetupError, read_variant, run_batches
from .sweep import DEFAULT_AIM, METRICS, build_cells, int_list, judge, parse_aim, parse_set
from .text_report import report_lines, table_lines


def wins_note(results: list[list[GameResult]]) -> str:
    """Wins by entry so far, per batch, beside the progress bar."""
    parts = []
    for rs in results:
        if rs:
            wins = [0.0] * len(rs[0].seat_entry)
            for r in rs:
                for seat, k in enumerate(r.seat_entry):
                    wins[k] += r.returns[seat]
            parts.append("/".join(f"{w:g}" for w in wins))
    return "wins " + " | ".join(parts)


def add_run_args(ap: argparse.ArgumentParser) -> None:
    """The options every lab command shares: who plays, how many games, where they run."""
    ap.add_argument(
        "--bots", default="greedy", help=f"comma-separated, one per seat ({', '.join(BOT_NAMES)})"
    )
    ap.add_argument("--games", type=positive, default=200)
    ap.add_argument("--budget", type=positive, default=None, help="search bot simulations/turn")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=positive, default=os.cpu_count() or 1, help="local processes")
    ap.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="run the games on a Dask cluster (e.g. tcp://127.0.0.1:8786) instead of locally",
    )
    ap.add_argument("--report", default=None, metavar="DIR", help="write DIR/index.html, charts")
    ap.add_argument("--json", action="store_true", help="print one JSON object")


def write_report_or_fail(directory: str, **kwargs) -> bool:
    """Write the HTML report; False (and a message) when it cannot be written."""
    try:
        from .html_report import write_report
    except ImportError as exc:
        print(f"--report needs matplotlib ({exc}): pip install -e '.[lab]'", file=sys.stderr)
        return False
    try:
        index = write_report(directory, **kwargs)
    except OSError as exc:
        print(f"--report {directory}: {exc}", file=sys.stderr)
        return False
    print(f"report: {index}", file=sys.stderr)
    return True


def put_out(
    args: argparse.Namespace,
    title: str,
    lines: list[str],
    out: dict,
    columns: list[tuple[str, dict]],
    tail: tuple[str, ...] = (),
    **report,
) -> int:
    """A command's ending: the HTML report if asked (``columns``, ``report``: its charts'
    data), then ``out`` as JSON, or the title, the table and ``tail`` as text; its exit code."""
    if args.report and not write_report_or_fail(
        args.report, title=title, columns=columns, table="\n".join(lines), **report
    ):
        return 2
    if args.json:
        print(json.dumps(out, indent=1, sort_keys=True))
        return 0
    print(title)
    for line in (*lines, *tail):
        print(line)
    return 0


def main(argv: list[str]) -> int:
    if argv and argv[0] == "sweep":
        return sweep_main(argv[1:])
    if argv and argv[0] in ("ladder", "sprt"):
        from .strength import ladder_main, sprt_main

        return (ladder_main if argv[0] == "ladder" else sprt_main)(argv[1:])
    if argv and argv[0] == "bench-cluster":
        from .bench_cluster import main as bench_main

        return bench_main(argv[1:])
    ap = argparse.ArgumentParser(
        prog="python -m nova lab",
        description=__doc__.split("\n\n")[0]
        + " Also: python -m nova lab sweep --help; python -m nova lab bench-cluster --help;"
        " python -m nova lab ladder --help; python -m nova lab sprt --help.",
    )
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--variant", default=None, help="a variant JSON file")
    ap.add_argument("--compare", default=None, help="a second variant to play the same games with")
    ap.add_argument(
        "--detect",
        type=float,
        default=DEFAULT_DETECT,
        metavar="SIZE",
        help="with --compare: where no change is found, how many games would find a change "
        "of SIZE (points of a rate, rounds of the length; default 3)",
    )
    ap.add_argument(
        "--until",
        type=positive,
        default=None,
        metavar="MAX",
        help="with --compare: play on (--games, then doubling, up to MAX games a side) until "
        "every figure has changed or a change of --detect is ruled out",
    )
    ap.add_argument(
        "--decide",
        default=None,
        metavar="FIGURES",
        help="with --until: the figures it must decide, comma-separated (rounds, "
        "first_seat_win_rate, supernova_rate, 'card:Hijack 1-3', ...; default all)",
    )
    ap.add_argument(
        "--levels",
        default=None,
        metavar="A,B,C",
        help=f"play the same seeds at each level, every seat that level ({', '.join(LEVEL_NAMES)})",
    )
    add_run_args(ap)
    args = ap.parse_args(argv)
    if args.levels is not None:
        return levels_main(args)
    try:
        bots = parse_bots(args.bots, args.players)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        for v in (args.variant, args.compare):
            layout_for(args.players, v)
    except ContentError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.until is not None and (not args.compare or args.until <= args.games):
        print("--until MAX: with --compare, and more games than --games", file=sys.stderr)
        return 2
    decide = [f.strip() for f in args.decide.split(",") if f.strip()] if args.decide else []

    def wanted(figure: str) -> bool:
        return not decide or figure in decide

    keys = ["base"] + (["compare"] if args.compare else [])
    paths = {"base": args.variant, "compare": args.compare}
    batches = [
        Batch(args.players, tuple(bots), args.games, args.budget, read_variant(paths[k]), args.seed)
        for k in keys
    ]
    if not args.json:
        what = " and ".join(paths[k] or "default rules" for k in keys)
        where = f"on the Dask cluster at {args.scheduler}" if args.scheduler else "locally"
        print(f"playing {args.games} games ({what}) {where}...", file=sys.stderr)
    card_ids = card_names(args.players, batches[0].variant)
    sizes = looks(args.games, args.until) if args.until else [args.games]
    # each look tests the family at its share of 5%: the chance of any false "changed", at
    # any look, stays at 5% (Bonferroni over the looks planned)
    alpha = ALPHA / len(sizes)
    results: list[list[GameResult]] = [[] for _ in batches]
    elapsed = 0.0
    seen: list[tuple[int, list[str]]] = []  # each look's games a side, its undecided figures
    for size in sizes:
        more = [replace(b, games=size - len(results[0]), start=len(results[0])) for b in batches]
        try:
            got, took = run_batches(
                more, args.workers, args.scheduler, progress=not args.json, note=wins_note
            )
        except LabSetupError as exc:
            print(exc, file=sys.stderr)
            return 2
        results = [rs + g for rs, g in zip(results, got, strict=True)]
        elapsed += took
        if len(sizes) == 1:
            break
        diffs = differences(results[0], results[1], card_ids, args.detect, alpha)
        unknown = [f for f in decide if f not in {d.figure for d in diffs}]
        if unknown:
            known = ", ".join(d.figure for d in diffs)
            print(f"--decide: no figure {', '.join(unknown)} (figures: {known})", file=sys.stderr)
            return 2
        left = [d.figure for d in diffs if not decided([d]) and wanted(d.figure)]
        seen.append((size, left))
        if not args.json:
            print(f"look at {size} games a side: {len(left)} figures undecided", file=sys.stderr)
        if not left:
            break
    result = run_result(
        results,
        [paths[k] for k in keys],
        args.players,
        bots,
        args.seed,
        args.budget,
        elapsed,
        args.workers,
        args.scheduler,
        names=card_ids,
        detect=args.detect,
        alpha=alpha,
    )
    summary = result.as_json()
    if seen:
        summary["looks"] = [{"games": g, "undecided": u} for g, u in seen]
    out = {"base": summary}
    if "compare" in summary:
        out["compare"] = summary["compare"]
    names = (
        os.path.basename(args.variant or "default rules"),
        os.path.basename(args.compare or ""),
    )
    title = (
        f"Nova Raiders lab: {args.players} players, bots {', '.join(bots)}, seed {args.seed}"
        + (f", budget {args.budget}" if args.budget else "")
    )
    lines = report_lines(result.base, result.compare, names)
    if result.differences:
        lines += ["", *verdict_lines(result.differences, alpha=alpha)]
        if seen:
            last, undecided = seen[-1]
            lines.append(
                f"looked at {', '.join(str(g) for g, _ in seen)} games a side; "
                + (f"undecided at {last}: {', '.join(undecided)}" if undecided else "all decided")
            )
    columns = [(names[i], out[k]) for i, k in enumerate(keys)]
    return put_out(args, title, lines, summary, columns)


def levels_main(args: argparse.Namespace) -> int:
    """``--levels``: one batch a level on the same seeds, each level's figures, the flags;
    with ``--compare``, the variant too at every level, and what it changed at each."""
    try:
        names = [n.strip() for n in args.levels.split(",") if n.strip()]
        if len(names) < 2 or len(set(names)) != len(names):
            raise ValueError(f"--levels: {args.levels!r}: two or more different levels")
        levels = [level_named(n) for n in names]
        for v in (args.variant, args.compare):
            layout_for(args.players, v)
    except (ValueError, ContentError) as exc:
        print(exc, file=sys.stderr)
        return 2
    variants = [read_variant(args.variant)] + ([read_variant(args.compare)] if args.compare else [])
    batches = [
        Batch(args.players, (lv.name,) * args.players, args.games, None, variant, args.seed)
        for variant in variants
        for lv in levels
    ]
    if not args.json:
        where = f"on the Dask cluster at {args.scheduler}" if args.scheduler else "locally"
        rules = " and ".join(
            p for p in (args.variant or "default rules", args.compare) if p is not None
        )
        print(
            f"playing {args.games} games at each of {', '.join(names)} ({rules}) {where}...",
            file=sys.stderr,
        )
    try:
        results, elapsed = run_batches(
            batches, args.workers, args.scheduler, progress=not args.json, note=wins_note
        )
    except LabSetupError as exc:
        print(exc, file=sys.stderr)
        return 2
    cards = card_names(args.players, variants[0])
    base = results[: len(names)]
    result = levels_result(names, base, args.players, cards)
    out = result.as_json()
    out.update(players=args.players, variant=args.variant, seed=args.seed)
    title = (
        f"Nova Raiders lab: {args.players} players at levels {', '.join(names)}, "
        f"{os.path.basename(args.variant or 'default rules')}, seed {args.seed}"
    )
    lines = result.lines()
    if args.compare:
        other = results[len(names) :]
        compared = levels_result(names, other, args.players, cards)
        out["compare"] = {**compared.as_json(), "variant": args.compare}
        out["detect"] = args.detect
        out["differences"] = {}
        for name, d_rs, v_rs in zip(names, base, other, strict=True):
            diffs = differences(d_rs, v_rs, cards, args.detect)
            out["differences"][name] = [d.as_json() for d in diffs]
            lines += ["", *verdict_lines(diffs, f"at {name}: what {args.compare} changed")]
    columns = []
    if args.report:  # the usual charts, a column a level
        summaries = [
            summarize(rs, args.players, [n] * args.players, elapsed)
            for n, rs in zip(names, base, strict=True)
        ]
        columns = [(n, s.as_json()) for n, s in zip(names, summaries, strict=True)]
    return put_out(args, title, lines, out, columns, levels=out)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


def sweep_main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m nova lab sweep",
        description="Play a batch for every cell of a grid of variant settings; one table.",
        epilog="aim figures: " + "; ".join(f"{k}: {v[0]}" for k, v in METRICS.items()),
    )
    ap.add_argument("--players", default="2", help="player counts, e.g. 2,3,4")
    ap.add_argument("--variant", default=None, help="a variant file under every cell")
    ap.add_argument(
        "--variants",
        default=None,
        help="comma-separated variant files, one axis ('default': today's rules)",
    )
    ap.add_argument("--track", default=None, help="track lengths (spaces after the start)")
    ap.add_argument("--spawns", default=None, help="numbers of Spawn Energy spaces")
    ap.add_argument("--expansions", default=None, help="numbers of Star Expansion spaces")
    ap.add_argument(
        "--set", action="append", default=[], metavar="PATH=V1,V2", help="a data setting axis"
    )
    # argparse %-formats help texts: the aim's percent signs are doubled
    shown = DEFAULT_AIM.replace("%", "%%")
    ap.add_argument("--aim", default=DEFAULT_AIM, help=f"clauses (default {shown!r})")
    add_run_args(ap)
    args = ap.parse_args(argv)
    try:
        players = [p for p in int_list("players", args.players) if p is not None]
        if not players or any(p not in (2, 3, 4) for p in players):
            raise ValueError(f"--players: {args.players!r}: 2, 3 or 4 players")
        lineups = {p: parse_bots(args.bots, p) for p in players}
        clauses = parse_aim(args.aim)
        if args.variants and args.variant:
            raise ValueError("--variant and --variants: give one")
        # "default" in --variants stands for today's rules, so they sit beside the candidates
        files: list[str | None] = (
            [None if f.strip() == "default" else f.strip() for f in args.variants.split(",")]
            if args.variants
            else [args.variant]
        )
        track, spawns, expansions = (
            int_list(n, getattr(args, n)) for n in ("track", "spawns", "expansions")
        )
        sets = [parse_set(s) for s in args.set]
        cells = build_cells(players, files, track, spawns, expansions, sets)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    except ContentError as exc:
        print(exc, file=sys.stderr)
        return 2
    batches = [
        Batch(
            c.settings["players"],
            tuple(lineups[c.settings["players"]]),
            args.games,
            args.budget,
            c.variant,
            args.seed,
        )
        for c in cells
    ]
    if not args.json:
        where = f"the Dask cluster at {args.scheduler}" if args.scheduler else "this machine"
        print(
            f"sweep: {len(cells)} cells x {args.games} games = {len(cells) * args.games} games "
            f"on {where}...",
            file=sys.stderr,
        )

    def cells_done(results: list[list[GameResult]]) -> str:
        return f"cells done {sum(len(rs) == args.games for rs in results)}/{len(cells)}"

    try:
        results, elapsed = run_batches(
            batches, args.workers, args.scheduler, not args.json, "sweep", cells_done
        )
    except LabSetupError as exc:
        print(exc, file=sys.stderr)
        return 2
    total = max(1, sum(len(rs) for rs in results))
    summaries = []
    for c, rs in zip(cells, results, strict=True):
        p = c.settings["players"]
        summaries.append(summarize(rs, p, lineups[p], elapsed * len(rs) / total).as_json())
    verdicts, best = judge(summaries, clauses)
    sweep = {
        "aim": args.aim,
        "aim_clauses": [{"figure": c.metric, "op": c.op, "value": c.value} for c in clauses],
        "best": best,
        "games": total,
        "games_per_cell": args.games,
        "seed": args.seed,
        "bots": args.bots,
        "budget": args.budget,
        "scheduler": args.scheduler,
        "workers": args.workers,
        "elapsed_s": elapsed,
        "games_per_minute": 60 * total / elapsed if elapsed > 0 else None,
        "cells": [
            {"label": c.label, "settings": c.settings, "variant": c.variant, **v, "summary": s}
            for c, v, s in zip(cells, verdicts, summaries, strict=True)
        ],
    }
    lines = table_lines(sweep)
    title = (
        f"Nova Raiders lab sweep: {len(cells)} cells x {args.games} games, bots {args.bots}, "
        f"seed {args.seed}; aim {args.aim}"
    )
    columns = [(c.label, s) for c, s in zip(cells, summaries, strict=True)]
    rate = sweep["games_per_minute"]
    tail = (f"{total} games in {elapsed:.1f} s ({rate or 0:.0f} games a minute)",)
    return put_out(args, title, lines, sweep, columns, tail, sweep=sweep)
