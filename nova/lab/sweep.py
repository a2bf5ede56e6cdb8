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

import copy
import itertools
import json
import os
from dataclasses import dataclass, field

from ..rules import ContentError, layout_for, load_data

DEFAULT_AIM = "supernova>=97%,rounds<=20"  # issue 9's first two aims (docs/CALIBRATION.md)
TRACK_MARK = {"spawn": "S", "expansion": "E", "blank": "·", "supernova": "N"}


def _supernova(s: dict) -> float:
    return s["end_reasons"].get("supernova", 0.0)


def _balance_gap(s: dict) -> float:
    return s["metrics"]["balance_gap"]


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
    # the game-quality metrics (nova.lab.core.metrics); a figure no game had reads 0
    "lead_changes": ("lead changes per game", lambda s: s["metrics"]["lead_changes"] or 0.0),
    "drama": ("how far behind the winner was (points)", lambda s: s["metrics"]["drama"] or 0.0),
    "decided_at": (
        "share of the game before the winner was clear",
        lambda s: s["metrics"]["decided_at"] or 0.0,
    ),
    "balance_gap": ("largest gap between turn positions' win rates", _balance_gap),
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
    variant: dict | None = field(repr=False)
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
