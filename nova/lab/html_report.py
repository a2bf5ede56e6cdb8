"""The lab's report: ``DIR/index.html`` and the SVG charts beside it, drawn with matplotlib.

One page a designer can open offline (no script, no CDN: the charts are files next to the
page): win rates with 95% intervals by bot line-up entry and by turn position, how games end,
how long they take, points from Cargo Bays vs Special cards, each card's win rate, and for a
``--compare`` or a sweep every variant side by side. matplotlib is imported only here, with
the Agg backend (no display); the page never loads this module.
"""

from __future__ import annotations

import html
import json
import textwrap
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: no display, no GUI toolkit on a cluster or CI
import matplotlib.pyplot as plt  # noqa: E402

from .core.game import END_REASONS  # noqa: E402
from .sweep import METRICS  # noqa: E402

# Same data, same files: no date and fixed element ids in the SVGs.
matplotlib.rcParams["svg.hashsalt"] = "nova-lab"
SVG_META = {"Date": None}
END_ORDER = END_REASONS
END_COLOURS = {"supernova": "#3b7dd8", "stalled": "#e0a030", "round limit": "#c0392b"}
MANY = 4  # more columns than this: boxes and a heat map instead of overlaid bars


def _wrap(name: str, width: int = 16) -> str:
    return "\n".join(textwrap.wrap(name, width)) or name


def _save(fig, directory: Path, name: str) -> str:
    fig.tight_layout()
    # bbox "tight": a legend placed beside the axes stays inside the picture
    fig.savefig(directory / name, format="svg", metadata=SVG_META, bbox_inches="tight")
    plt.close(fig)
    return name


def _width(items: int, each: float = 0.8) -> float:
    """Inches for a chart of ``items`` bars or cells: room for their wrapped labels."""
    return min(40.0, max(7.0, each * items + 2))


def chart_wins(columns: list[tuple[str, dict]], directory: Path) -> str:
    """Win rate and 95% interval of each line-up entry and each turn position, per column."""
    bars = sum(2 * s["players"] for _, s in columns)
    fig, axes = plt.subplots(1, 2, figsize=(_width(bars, 0.35), 4.2), sharey=True)
    for ax, rate_key, ci_key, what in (
        (axes[0], "win_rate", "win_ci95", "by line-up entry (bot)"),
        (axes[1], "turn_position_win_rate", "turn_position_ci95", "by turn position"),
    ):
        ticks, labels, x = [], [], 0.0
        for ci, (name, s) in enumerate(columns):
            n = s["players"]
            xs = [x + k for k in range(n)]
            rates = s[rate_key]
            lo = [r - c[0] for r, c in zip(rates, s[ci_key], strict=True)]
            hi = [c[1] - r for r, c in zip(rates, s[ci_key], strict=True)]
            ax.bar(xs, rates, color=f"C{ci % 10}", alpha=0.8, label=_wrap(name, 30))
            ax.errorbar(xs, rates, yerr=[lo, hi], fmt="none", ecolor="black", capsize=3, lw=1)
            ax.hlines(1 / n, xs[0] - 0.45, xs[-1] + 0.45, colors="grey", linestyles="dashed")
            for k, xk in enumerate(xs):
                ticks.append(xk)
                labels.append(s["bots"][k] if rate_key == "win_rate" else f"{k + 1}.")
            x += n + 1
        ax.set_xticks(ticks, labels, rotation=90 if len(ticks) > 12 else 0, fontsize=8)
        ax.set_title(f"win rate {what}")
        ax.set_ylim(0, 1)
        ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    axes[0].set_ylabel("wins (ties split), 95% interval; dashed: even share")
    if len(columns) > 1:  # which colour is which variant or cell, beside the charts
        axes[1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _save(fig, directory, "wins.svg")


def chart_ends(columns: list[tuple[str, dict]], directory: Path) -> str:
    """How games end: stacked shares of Super-Nova, stalled and the round limit per column."""
    reasons = [r for r in END_ORDER if any(r in s["end_reasons"] for _, s in columns)]
    reasons += sorted({r for _, s in columns for r in s["end_reasons"]} - set(reasons))
    fig, ax = plt.subplots(figsize=(_width(len(columns)), 3.8))
    xs = range(len(columns))
    bottom = [0.0] * len(columns)
    for i, why in enumerate(reasons):
        share = [s["end_reasons"].get(why, 0.0) for _, s in columns]
        ax.bar(xs, share, bottom=bottom, label=why, color=END_COLOURS.get(why, f"C{i + 4}"))
        bottom = [b + v for b, v in zip(bottom, share, strict=True)]
    ax.set_xticks(list(xs), [_wrap(n) for n, _ in columns], fontsize=8)
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.set_title("how games end")
    ax.legend(fontsize=8, loc="lower right")
    return _save(fig, directory, "ends.svg")


def _rounds(s: dict) -> list[int]:
    return [int(k) for k, v in s["arc"]["rounds_histogram"].items() for _ in range(v)]


def chart_rounds(columns: list[tuple[str, dict]], directory: Path) -> str:
    """Game length in rounds: overlaid histograms for a few columns, boxes for many."""
    fig, ax = plt.subplots(figsize=(_width(len(columns)) if len(columns) > MANY else 7.5, 3.8))
    if len(columns) <= MANY:
        top = max((max(_rounds(s), default=1) for _, s in columns), default=1)
        bins = [x - 0.5 for x in range(1, top + 2)]
        for i, (name, s) in enumerate(columns):
            ax.hist(_rounds(s), bins=bins, histtype="step", lw=2, color=f"C{i}", label=name)
        ax.set_xlabel("rounds")
        ax.set_ylabel("games")
        ax.legend(fontsize=8)
    else:
        ax.boxplot([_rounds(s) or [0] for _, s in columns], whis=(10, 90), showfliers=False)
        ax.set_xticks(range(1, len(columns) + 1), [_wrap(n) for n, _ in columns], fontsize=8)
        ax.set_ylabel("rounds (box: quartiles, whiskers: 10-90%)")
    ax.set_title("game length")
    return _save(fig, directory, "rounds.svg")


def chart_points(columns: list[tuple[str, dict]], directory: Path) -> str:
    """Mean points from Cargo Bays and from Special cards, for winners and for everyone."""
    fig, axes = plt.subplots(1, 2, figsize=(_width(2 * len(columns)), 3.8), sharey=True)
    xs = range(len(columns))
    for ax, who in zip(axes, ("winners", "all"), strict=True):
        bays = [s["arc"][f"points_{who}"]["bays"] for _, s in columns]
        specials = [s["arc"][f"points_{who}"]["specials"] for _, s in columns]
        ax.bar(xs, bays, label="Cargo Bays", color="#2e8b57")
        ax.bar(xs, specials, bottom=bays, label="Special cards", color="#8e44ad")
        ax.set_xticks(list(xs), [_wrap(n) for n, _ in columns], fontsize=8)
        ax.set_title(f"points per player: {who}")
    axes[0].set_ylabel("mean points")
    axes[0].legend(fontsize=8)
    return _save(fig, directory, "points.svg")


def _cards(s: dict) -> dict:
    """A summary's cards: by name, copies pooled (``cards_by_name``), or by id in a summary
    written before the lab pooled them."""
    return s.get("cards_by_name") or s["cards"]


def _card_ids(columns: list[tuple[str, dict]]) -> list[str]:
    if all("cards_by_name" in s for _, s in columns):  # the Academy cards, by name
        return list(
            dict.fromkeys(
                n for _, s in columns for n, d in s["cards_by_name"].items() if d.get("players")
            )
        )
    # Special cards only (the lab tallies holders only for them): every player owns the same
    # basic cards, so theirs sit at an even share and would only push the Specials off the page
    ids = {
        c
        for _, s in columns
        for c, d in s["cards"].items()
        if d.get("holders_win_rate") is not None
    } or set().union(*(s["cards"] for _, s in columns))
    return sorted(ids, key=lambda c: (c[0], int(c[1:]) if c[1:].isdigit() else 0, c))


def chart_cards(columns: list[tuple[str, dict]], directory: Path) -> str:
    """Win rate of the players who played each card (grey line: an even share)."""
    ids = _card_ids(columns)
    if len(columns) <= MANY:
        fig, ax = plt.subplots(figsize=(7.5, max(3.0, 0.22 * len(ids) * len(columns) + 1)))
        step = 0.8 / len(columns)
        for i, (name, s) in enumerate(columns):
            ys = [j + i * step for j in range(len(ids))]
            rates = [(_cards(s).get(c) or {}).get("players_win_rate") or 0.0 for c in ids]
            ax.barh(ys, rates, height=step, color=f"C{i}", label=name)
        for _, s in columns:
            ax.axvline(1 / s["players"], color="grey", ls="dashed", lw=1)
        ax.set_yticks([j + 0.4 - step / 2 for j in range(len(ids))], ids, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
        ax.legend(fontsize=8, loc="lower right")
    else:
        # cells differ in player count: colour the win rate over that count's even share
        grid = [
            [
                float("nan")
                if (_cards(s).get(c) or {}).get("players_win_rate") is None
                else _cards(s)[c]["players_win_rate"] - 1 / s["players"]
                for _, s in columns
            ]
            for c in ids
        ]
        fig, ax = plt.subplots(figsize=(_width(len(columns)), max(3.0, 0.2 * len(ids) + 1.5)))
        im = ax.imshow(grid, aspect="auto", cmap="RdBu", vmin=-0.5, vmax=0.5)
        ax.set_yticks(range(len(ids)), ids, fontsize=7)
        ax.set_xticks(range(len(columns)), [_wrap(n) for n, _ in columns], fontsize=7)
        fig.colorbar(im, ax=ax, label="its players' win rate over an even share")
    ax.set_title("win rate of the players who played each card")
    return _save(fig, directory, "cards.svg")


def chart_sweep(columns: list[tuple[str, dict]], sweep: dict, directory: Path) -> str:
    """Each aim's figure per cell with its bound; the best cell's bars outlined."""
    clauses = sweep["aim_clauses"]
    fig, axes = plt.subplots(
        len(clauses), 1, figsize=(_width(len(columns)), 2.6 * len(clauses) + 0.8), squeeze=False
    )
    xs = range(len(columns))
    for ax, clause in zip(axes[:, 0], clauses, strict=True):
        values = [METRICS[clause["figure"]][1](s) for _, s in columns]
        met = [c["meets_aim"] for c in sweep["cells"]]
        colours = ["#2e8b57" if m else "#b0b0b0" for m in met]
        bars = ax.bar(xs, values, color=colours)
        if sweep["best"] is not None:
            bars[sweep["best"]].set_edgecolor("black")
            bars[sweep["best"]].set_linewidth(2.5)
        ax.axhline(clause["value"], color="#c0392b", ls="dashed", lw=1.5)
        ax.set_title(
            f"{METRICS[clause['figure']][0]}: aim {clause['op']} {clause['value']:g} "
            "(green: cell meets the whole aim; outlined: best)",
            fontsize=9,
        )
        ax.set_xticks(list(xs), [_wrap(n) for n, _ in columns], fontsize=7)
    return _save(fig, directory, "sweep.svg")


QUALITY = (
    ("lead_change_rate", "lead changes per turn", True),
    ("drama", "drama: winner behind by (points)", False),
    ("decided_at", "decided at (share of the game)", True),
    ("balance_gap", "balance: seat win-rate gap", True),
)


def chart_quality(columns: list[tuple[str, dict]], directory: Path) -> str:
    """The game-quality metrics (nova.lab.core.metrics), one panel each, a bar per column."""
    fig, axes = plt.subplots(1, len(QUALITY), figsize=(_width(len(QUALITY) * len(columns)), 3.6))
    xs = range(len(columns))
    for ax, (key, title, share) in zip(axes, QUALITY, strict=True):
        values = [(s.get("metrics") or {}).get(key) or 0.0 for _, s in columns]
        ax.bar(xs, values, color=[f"C{i % 10}" for i in xs])
        ax.set_xticks(list(xs), [_wrap(n, 12) for n, _ in columns], fontsize=7)
        ax.set_title(title, fontsize=9)
        if share:
            ax.set_ylim(0, 1)
            ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    return _save(fig, directory, "quality.svg")


CAPTIONS = {
    "sweep.svg": "Each figure of the aim, cell by cell, with its bound (dashed red).",
    "wins.svg": "Win rates with 95% Wilson intervals by line-up entry and by turn position; "
    "dashed: an even share. Ties count half.",
    "ends.svg": "How games end: Super-Nova, stalled (nothing can move the track), the round limit.",
    "rounds.svg": "Game length in rounds.",
    "points.svg": "Mean points per player from Cargo Bays and from Special cards.",
    "quality.svg": "Game quality from the bots' own evaluations: how often the leader changes, "
    "how far behind the eventual winner was, how far into the game the winner was clear, and "
    "the largest gap between the turn positions' win rates (docs/LAB.md).",
    "cards.svg": "For each Special card, the win rate of the players who played it (basic "
    "cards, which every player owns, sit at an even share and are left out).",
}


def write_report(
    directory: str | Path,
    title: str,
    columns: list[tuple[str, dict]],
    table: str,
    sweep: dict | None = None,
    levels: dict | None = None,
) -> Path:
    """Write ``index.html``, its SVG charts and ``data.json`` (the figures) into ``directory``.
    ``levels``: the JSON of a ``--levels`` run, shown first (its figures and flags)."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    full = [n for n, _ in columns]
    if sweep is not None:  # compact tick labels: only what differs between cells
        columns = [(short, s) for short, (_, s) in zip(sweep_names(sweep), columns, strict=True)]
    charts = []
    if sweep is not None:
        charts.append(chart_sweep(columns, sweep, out))
    charts += [
        chart_wins(columns, out),
        chart_ends(columns, out),
        chart_rounds(columns, out),
        chart_points(columns, out),
        chart_cards(columns, out),
        chart_quality(columns, out),
    ]
    data: dict[str, Any] = {
        "title": title,
        "columns": [{"name": n, "summary": s} for n, s in columns],
    }
    if sweep is not None:
        data["sweep"] = sweep
    if levels is not None:
        data["levels"] = levels
    # keys in their own order: a cell's settings read as they were given (players, track, ...)
    (out / "data.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    figures = "\n".join(
        f'<figure><img src="{html.escape(c)}" alt="{html.escape(CAPTIONS[c])}">'
        f"<figcaption>{html.escape(CAPTIONS[c])}</figcaption></figure>"
        for c in charts
    )
    names = "".join(
        f"<li>{html.escape(n)}" + (f": {html.escape(f)}" if f != n else "") + "</li>"
        for (n, _), f in zip(columns, full, strict=True)
    )
    page = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>
body {{ font: 15px/1.45 system-ui, sans-serif; margin: 1.5rem auto; max-width: 80rem;
  padding: 0 1rem; color: #222; }}
figure {{ margin: 1.5rem 0; }} img {{ max-width: 100%; height: auto; }}
figcaption {{ color: #555; font-size: 0.9em; }}
pre {{ overflow-x: auto; background: #f6f6f6; padding: 0.8rem; font-size: 12px; }}
</style>
</head>
<body>
<h1>{html.escape(title)}</h1>
{levels_html(levels) if levels is not None else ""}
<p>Side by side:</p>
<ul>{names}</ul>
{figures}
<h2>The table</h2>
<pre>{html.escape(table)}</pre>
<p>The figures as JSON: <a href="data.json">data.json</a>.</p>
</body>
</html>
"""
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    return index


def levels_html(levels: dict) -> str:
    """A ``--levels`` run: what moves between levels, then every figure at every level."""
    names = list(levels["levels"])
    flagged = {f["figure"] for f in levels["flags"]}
    items = "".join(
        f"<li><b>{html.escape(f['label'])}</b>: {f['move']:+.1f} "
        f"{'points' if f['unit'] == '%' else 'rounds'} from {html.escape(f['levels'][0])} to "
        f"{html.escape(f['levels'][1])} (95% {f['ci95'][0]:+.1f} to {f['ci95'][1]:+.1f}; "
        f"{'sure' if f['sure'] else 'noise? play more games'})</li>"
        for f in levels["flags"]
    )
    head = "".join(f"<th>{html.escape(n)}</th>" for n in names)
    first = levels["levels"][names[0]]["figures"]
    rows = []
    for key, fig in first.items():
        cells = []
        for n in names:
            f = levels["levels"][n]["figures"].get(key)
            cells.append(
                "<td></td>"
                if f is None
                else f"<td>{f['value']:.1f} [{f['ci95'][0]:.1f}, {f['ci95'][1]:.1f}]</td>"
            )
        mark = ' class="flag"' if key in flagged else ""
        rows.append(f"<tr{mark}><th>{html.escape(fig['label'])}</th>{''.join(cells)}</tr>")
    return (
        f"<h2>What moves between levels (more than {levels['flag_points']:g} points)</h2>"
        f"<ul>{items or '<li>nothing</li>'}</ul>"
        '<table class="levels"><tr><th>figure (95% interval)</th>'
        f"{head}</tr>{''.join(rows)}</table>"
        "<style>.levels td, .levels th { padding: 0 0.6rem; text-align: right; }"
        " .levels tr.flag { background: #fff3c4; }</style>"
    )


def sweep_names(sweep: dict) -> list[str]:
    """Each cell named by the settings that differ between cells, e.g. ``2p track 13 spawns 7``."""
    cells = sweep["cells"]
    keys = [
        k
        for k in (cells[0]["settings"] if cells else {})
        if k != "track_spaces" and len({json.dumps(c["settings"][k]) for c in cells}) > 1
    ]
    names = []
    for i, c in enumerate(cells):
        parts = [
            f"{c['settings'][k]}p" if k == "players" else f"{k.split('.')[-1]} {c['settings'][k]}"
            for k in keys
        ]
        names.append(("* " if i == sweep["best"] else "") + (" ".join(parts) or c["label"]))
    return names
