"""Sweeps: one batch of seeded games for every cell of a grid of variant settings.

    python -m nova lab sweep --players 2,3 --track 12,13,14 --spawns 6,7,8 --games 200 \\
        --aim "supernova>=97%,rounds<=20" [--variants docs/calibration/K-*.json,...] \\
        [--set settings.max_rounds=30,40] [--scheduler ADDRESS] [--report DIR] [--json]

The grid is the product of its axes: player counts; variant files (each a candidate, as in
docs/calibration/, merged over the default data like ``--variant``); a generated Expansion
Track of a given length with a given number of Spawn Energy and Star Expansion spaces
(``make_track``); and any data setting by its dotted path (``--set``). Every cell plays the
same seeds and line-ups (as ``--compare`` does), so cells differ only by their settings, and
all the cells' games go out as one stream of tasks. The table has one row per cell; the cell
that best meets the aim is marked ``*``.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import os
import sys
from dataclasses import dataclass, field

from .lab import add_run_args, parse_bots, summarize, write_report_or_fail
from .rules import ContentError, layout_for, load_data

DEFAULT_AIM = "supernova>=97%,rounds<=20"  # issue 9's first two aims (docs/CALIBRATION.md)
TRACK_MARK = {"spawn": "S", "expansion": "E", "blank": "·", "supernova": "N"}


def _supernova(s: dict) -> float:
    return s["end_reasons"].get("supernova", 0.0)


# What an aim can name: a figure of a cell's summary (fractions are 0..1; "97%" reads 0.97).
METRICS = {
    "supernova": ("games ending at Super-Nova", _supernova),
    "stalled": ("games stalled", lambda s: s["end_reasons"].get("stalled", 0.0)),
    "round_limit": ("games at the round limit", lambda s: s["end_reasons"].get("round limit", 0.0)),
    "rounds": ("mean rounds", lambda s: s["rounds"]["mean"]),
    "rounds_p90": ("rounds, 90th percentile", lambda s: s["arc"]["rounds"]["p90"]),
    "seat_edge": (
        "best turn position's win rate over an even share",
        lambda s: max(s["turn_position_win_rate"]) - 1 / s["players"],
    ),
    "bay_share": (
        "Cargo Bays' share of the winners' points",
        lambda s: s["arc"]["points_winners"]["bay_share"] or 0.0,
    ),
    "shards_entered": ("Shards that entered play", lambda s: s["arc"]["shards_entered"]["mean"]),
    "stalled_games": ("games with 5+ rounds without an Unload", lambda s: s["stalled_games"]),
}
OPS = (">=", "<=", ">", "<")


@dataclass(frozen=True)
class Clause:
    metric: str
    op: str
    value: float
    text: str

    def slack(self, x: float) -> float:
        """How far ``x`` is inside the bound (negative: outside), relative to the bound."""
        scale = abs(self.value) or 1.0
        return (x - self.value) / scale if self.op[0] == ">" else (self.value - x) / scale

    def met(self, x: float) -> bool:
        return {
            ">=": x >= self.value,
            "<=": x <= self.value,
            ">": x > self.value,
            "<": x < self.value,
        }[self.op]


def parse_aim(text: str) -> list[Clause]:
    """``"supernova>=97%,rounds<=20"`` as clauses; ValueError naming what is wrong."""
    clauses = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        op = next((o for o in OPS if o in part), None)
        if op is None:
            raise ValueError(f"--aim: {part!r} has no comparison ({', '.join(OPS)})")
        name, _, raw = (x.strip() for x in part.partition(op))
        if name not in METRICS:
            raise ValueError(f"--aim: unknown figure {name!r} (one of {', '.join(METRICS)})")
        try:
            value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
        except ValueError:
            raise ValueError(f"--aim: {raw!r} in {part!r} is not a number") from None
        clauses.append(Clause(name, op, value, part))
    if not clauses:
        raise ValueError("--aim: empty")
    return clauses


def make_track(length: int, spawns: int, expansions: int = 3) -> list[str]:
    """An Expansion Track of ``length`` spaces after the start, the last one Super-Nova.

    The Star Expansions split the track evenly; the Spawn Energy spaces are spread evenly over
    the other spaces, the first and the last of those always among them, so the first Unload
    brings Shards and Shards still come near the end.
    """
    free = length - 1 - expansions
    if length < 2 or expansions < 0 or spawns < 0 or free < spawns:
        raise ValueError(
            f"a track of {length} spaces has no room for {spawns} Spawns and "
            f"{expansions} Star Expansions before Super-Nova"
        )
    where = [int(k * (length + 1) / (expansions + 1) + 0.5) for k in range(1, expansions + 1)]
    if len(set(where)) < expansions or (where and where[-1] >= length):
        raise ValueError(f"a track of {length} spaces is too short for {expansions} Expansions")
    track = ["start"] + ["blank"] * (length - 1) + ["supernova"]
    for i in where:
        track[i] = "expansion"
    open_spaces = [i for i in range(1, length) if track[i] == "blank"]
    picks = {0} if spawns == 1 else set()
    if spawns > 1:
        picks = {int(i * (len(open_spaces) - 1) / (spawns - 1) + 0.5) for i in range(spawns)}
    for i in picks:
        track[open_spaces[i]] = "spawn"
    return track


def track_notation(track: list[str]) -> str:
    """The track as docs/CALIBRATION.md writes it: S Spawn, E Expansion, · blank, N Super-Nova."""
    return " ".join(TRACK_MARK.get(kind, "?") for kind in track[1:])


def merged(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def set_path(path: str, value) -> dict:
    """``settings.max_rounds`` = 30 as the variant ``{"settings": {"max_rounds": 30}}``."""
    out: dict = {}
    node = out
    keys = path.split(".")
    for key in keys[:-1]:
        node = node.setdefault(key, {})
    node[keys[-1]] = value
    return out


def parse_set(spec: str) -> tuple[str, list]:
    """``settings.max_rounds=30,40`` as (path, [30, 40]); values are JSON (a bare word: text)."""
    path, eq, raw = spec.partition("=")
    if not eq or not path.strip() or not raw.strip():
        raise ValueError(f"--set: {spec!r} is not PATH=VALUE[,VALUE...]")
    values = []
    for item in raw.split(","):
        try:
            values.append(json.loads(item))
        except json.JSONDecodeError:
            values.append(item.strip())
    return path.strip(), values


def int_list(name: str, text: str | None) -> list[int | None]:
    if text is None:
        return [None]
    try:
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"--{name}: {text!r} is not a comma-separated list of numbers") from None


@dataclass
class Cell:
    """One point of the grid: its settings (what the table shows) and its variant (data)."""

    settings: dict
    variant: dict = field(repr=False)
    label: str = ""


def build_cells(
    players: list[int],
    variant_files: list[str | None],
    tracks: list[int | None],
    spawns: list[int | None],
    expansions: list[int | None],
    sets: list[tuple[str, list]],
) -> list[Cell]:
    """Every cell of the grid, checked (ContentError names the cell and its fault)."""
    cells = []
    shapes = itertools.product(variant_files, tracks, spawns, expansions, *(v for _, v in sets))
    generate = any(x != [None] for x in (tracks, spawns, expansions))
    for p, (vfile, length, nspawn, nexp, *values) in itertools.product(players, shapes):
        base = {}
        if vfile is not None:
            try:
                with open(vfile, encoding="utf-8") as fh:
                    base = json.load(fh)
            except OSError as exc:
                raise ContentError([f"variant file {vfile}: {exc.strerror}"]) from None
            except json.JSONDecodeError as exc:
                raise ContentError([f"variant file {vfile}: not JSON ({exc})"]) from None
        settings: dict = {"players": p}
        if len(variant_files) > 1 or vfile is not None:
            settings["variant"] = os.path.basename(vfile) if vfile else "default rules"
        variant = base
        if generate:
            data = load_data(base or None)
            key = data["setup"]["players"][str(p)]["track"]
            now = data["tracks"][key]
            length = length if length is not None else len(now) - 1
            nspawn = nspawn if nspawn is not None else now.count("spawn")
            nexp = nexp if nexp is not None else now.count("expansion")
            try:
                track = make_track(length, nspawn, nexp)
            except ValueError as exc:
                raise ContentError([f"{p} players: {exc}"]) from None
            variant = merged(variant, {"tracks": {key: track}})
            settings.update(track=length, spawns=nspawn, expansions=nexp)
            settings["track_spaces"] = track_notation(track)
        for (path, _), value in zip(sets, values, strict=True):
            variant = merged(variant, set_path(path, value))
            settings[path] = value
        label = " ".join(f"{k}={v}" for k, v in settings.items() if k != "track_spaces")
        try:
            layout_for(p, variant or None)
        except ContentError as exc:
            raise ContentError([f"cell {label}: {x}" for x in exc.problems]) from None
        cells.append(Cell(settings, variant or None, label))
    return cells


def judge(summaries: list[dict], clauses: list[Clause]) -> tuple[list[dict], int | None]:
    """Each cell's figures and missed clauses, and the index of the cell that best meets the aim.

    Best: the fewest clauses missed, then the smallest total shortfall, then the largest
    margin on its tightest clause (the cell that meets the aim with the most room), then the
    largest margin over all clauses (cells at 100% Super-Nova tie on that clause: the one
    with more room on the others is better).
    """
    verdicts, keys = [], []
    for s in summaries:
        figures = {c.metric: METRICS[c.metric][1](s) for c in clauses}
        slacks = [c.slack(figures[c.metric]) for c in clauses]
        missed = [c.text for c in clauses if not c.met(figures[c.metric])]
        verdicts.append({"figures": figures, "meets_aim": not missed, "missed": missed})
        shortfall = sum(-x for x in slacks if x < 0)
        keys.append((len(missed), shortfall, -min(slacks), -sum(slacks)))
    best = min(range(len(keys)), key=keys.__getitem__) if keys else None
    return verdicts, best


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def table_lines(sweep: dict) -> list[str]:
    """The sweep as one text table: a row per cell, ``*`` on the best."""
    cells = sweep["cells"]
    # the settings that differ between cells (and the player count): the rest is in the title
    keys = [
        k
        for k in (cells[0]["settings"] if cells else {})
        if k == "players"
        or (k != "track_spaces" and len({json.dumps(c["settings"][k]) for c in cells}) > 1)
    ]
    has_track = bool(cells) and "track_spaces" in cells[0]["settings"]
    head = (
        ["", *keys]
        + (["track (S Spawn, E Expansion, N Super-Nova)"] if has_track else [])
        + ["games", "Super-Nova", "stalled", "round limit", "rounds mean [10-90%]"]
        + ["seat edge", "bays' share", "aim"]
    )
    rows = [head]
    for i, c in enumerate(cells):
        s = c["summary"]
        r = s["arc"]["rounds"]
        edge = max(s["turn_position_win_rate"]) - 1 / s["players"]
        rows.append(
            ["*" if i == sweep["best"] else ""]
            + [str(c["settings"][k]) for k in keys]
            + ([c["settings"]["track_spaces"]] if has_track else [])
            + [
                str(s["games"]),
                _pct(s["end_reasons"].get("supernova", 0.0)),
                _pct(s["end_reasons"].get("stalled", 0.0)),
                _pct(s["end_reasons"].get("round limit", 0.0)),
                f"{s['rounds']['mean']:.1f} [{r['p10']:g}-{r['p90']:g}]" if r["n"] else "-",
                f"{100 * edge:+.1f}",
                _pct(s["arc"]["points_winners"]["bay_share"]),
                "yes" if c["meets_aim"] else "no: " + ", ".join(c["missed"]),
            ]
        )
    widths = [max(len(row[j]) for row in rows) for j in range(len(head))]
    lines = [
        "  ".join(x.ljust(w) for x, w in zip(row, widths, strict=True)).rstrip() for row in rows
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    best = sweep["best"]
    if best is None:
        lines.append("no cells")
    elif cells[best]["meets_aim"]:
        lines.append(f"* best meets the aim {sweep['aim']!r}: {cells[best]['label']}")
    else:
        lines.append(f"* no cell meets the aim {sweep['aim']!r}; closest: {cells[best]['label']}")
    lines.append(
        "seat edge: the best turn position's win rate over an even share, in points; "
        "bays' share: Cargo Bays' share of the winners' points"
    )
    return lines


def main(argv: list[str]) -> int:
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
        axes = [int_list(n, getattr(args, n)) for n in ("track", "spawns", "expansions")]
        sets = [parse_set(s) for s in args.set]
        cells = build_cells(players, files, *axes, sets)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    except ContentError as exc:
        print(exc, file=sys.stderr)
        return 2
    from .lab_run import Batch, LabSetupError, run_batches

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

    def cells_done(results: list[list[dict]]) -> str:
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
        summaries.append(summarize(rs, p, lineups[p], elapsed * len(rs) / total))
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
    if args.report and not write_report_or_fail(
        args.report,
        title=title,
        columns=[(c.label, s) for c, s in zip(cells, summaries, strict=True)],
        table="\n".join(lines),
        sweep=sweep,
    ):
        return 2
    if args.json:
        print(json.dumps(sweep, indent=1, sort_keys=True))
        return 0
    print(title)
    for line in lines:
        print(line)
    rate = sweep["games_per_minute"]
    print(f"{total} games in {elapsed:.1f} s ({rate or 0:.0f} games a minute)")
    return 0
