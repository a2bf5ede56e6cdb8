"""The workbench's results as markup: what the variant changed (the verdicts), the figures of
each side, the cards by name, and three charts drawn as SVG here. Pure: from a
:class:`~nova.lab.workbench.Workbench` whose run is over."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from html import escape
from typing import TYPE_CHECKING

from ..lab.workbench import Workbench
from .lab_levels import levels_results_html

if TYPE_CHECKING:  # the lab's core is imported only once a run is played
    from ..lab.core.paired import Difference
    from ..lab.core.summary import NamedCard, Summary

SERIES = ("#7b8794", "#e8a33d")  # today's rules, the variant (charts and legend)


def _e(x: object) -> str:
    return escape(str(x), quote=True)


def _alert(text: str) -> str:
    return f'<p class="alert" role="alert">{_e(text)}</p>' if text else ""


# -- results -----------------------------------------------------------------------------
def _pct(x: object) -> str:
    return f"{100 * x:.1f}%" if isinstance(x, int | float) else "–"


def _num(x: object, digits: int = 2) -> str:
    return f"{x:.{digits}f}" if isinstance(x, int | float) else "–"


def _end_cell(end: str) -> Callable[[Summary], str]:
    return lambda s: _pct(s.end_reasons.get(end, 0.0))


def _entry_cell(k: int) -> Callable[[Summary], str]:
    return lambda s: (
        f"{_pct(s.win_rate[k])} [{_pct(s.win_ci95[k][0])}–{_pct(s.win_ci95[k][1])}]"
        if k < len(s.win_rate)
        else "–"
    )


def _edge_cell(s: Summary) -> str:
    low, high = s.first_seat_advantage_ci95
    return f"{_pct(s.first_seat_advantage)} [{_pct(low)}–{_pct(high)}]"


def _cv(s: Summary) -> float | None:
    return s.metrics.length_turns.cv if s.metrics.length_turns is not None else None


def results_html(bench: Workbench) -> str:
    run = bench.run
    if run is not None and run.levels_result is not None:
        return levels_results_html(run.levels_result, run.status == "stopped")
    if run is None or run.result is None:
        return ""
    result = run.result
    columns = [("Today's rules", result.base)]
    if result.compare is not None:
        columns.append(("Your variant", result.compare))
    f = run.form
    rows: list[tuple[str, Callable[[Summary], str]]] = [("Games", lambda s: f"{s.games:,}")]
    rows += [(f"Win rate, line-up entry {k + 1} ({bot}) [95%]", _entry_cell(k))
             for k, bot in enumerate(f.bots)]  # fmt: skip
    rows += [
        ("First player's edge over an even share [95%]", _edge_cell),
        ("Ends at Super-Nova", lambda s: _pct(s.end_reasons.get("supernova", 0.0))),
        ("Rounds, mean ± sd", lambda s: f"{_num(s.rounds.mean, 1)} ± {_num(s.rounds.sd, 1)}"),
        ("Unloads a game", lambda s: _num(s.unloads.mean, 1)),
        ("Lead changes a game", lambda s: _num(s.metrics.lead_changes, 1)),
        ("Drama (how far behind the winner was)", lambda s: _num(s.metrics.drama)),
        ("Winner clear after (share of the game)", lambda s: _pct(s.metrics.decided_at)),
        ("Balance gap between turn positions", lambda s: _pct(s.metrics.balance_gap)),
        ("Length spread (cv of turns)", lambda s: _num(_cv(s))),
        ("Cargo Bays' share of points", lambda s: _pct(s.arc.points_all.bay_share)),
    ]
    ends = sorted({e for _, s in columns for e in s.end_reasons if e != "supernova"})
    for end in ends:
        rows.append((f"Ends by {end}", _end_cell(end)))
    head = "".join(f'<th scope="col">{_e(name)}</th>' for name, _ in columns)
    body = "".join(
        f'<tr><th scope="row">{_e(label)}</th>'
        + "".join(f"<td>{_e(cell(s))}</td>" for _, s in columns)
        + "</tr>"
        for label, cell in rows
    )
    summaries = [s for _, s in columns]
    data = json.dumps(result.as_json(), indent=1, sort_keys=True).replace("<", "\\u003c")
    stopped = (
        f'<p class="muted">Stopped: these figures are of the {_e(result.base.games)} games '
        "played on every side.</p>"
        if run.status == "stopped"
        else ""
    )
    return (
        '<section class="panel lab-results"><h2>Results</h2>'
        f"{stopped}"
        '<div class="lab-legend">'
        + "".join(
            f'<span><i style="background:{SERIES[i]}"></i>{_e(name)}</span>'
            for i, (name, _) in enumerate(columns)
        )
        + "</div>"
        f"{differences_html(result.differences)}"
        f'<table class="lab-table"><thead><tr><th scope="col">Figure</th>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
        '<div class="lab-charts">'
        f"{turn_position_chart(summaries, f.players)}"
        f"{length_chart(summaries)}"
        f"{cards_chart(summaries)}"
        "</div>"
        f"{cards_table(summaries, [n for n, _ in columns])}"
        '<p class="lab-buttons">'
        '<button type="button" data-ui="lab-results:json" class="secondary">Download the '
        "results (JSON)</button>"
        '<button type="button" data-ui="lab-results:csv" class="secondary">Download the '
        "results (CSV)</button></p>"
        '<p class="muted">A card\'s win rate when played is biased: good positions play '
        "more cards. The metrics are computed from the bots' own evaluations after each "
        "turn (docs/LAB.md).</p>"
        f'<script type="application/json" id="nova-lab-result">{data}</script>'
        "</section>"
    )


def _academy(summaries: list[Summary]) -> list[str]:
    """The Academy cards by name that any of ``summaries`` saw played, in the deck's order."""
    return list(
        dict.fromkeys(n for s in summaries for n, c in s.cards_by_name.items() if c.players)
    )


def _named(s: Summary, name: str) -> NamedCard | None:
    return s.cards_by_name.get(name)


def _win_cell(c: NamedCard | None) -> str:
    if c is None or c.players_win_rate is None:
        return "–"
    ci = f" [{_pct(c.ci95[0])}–{_pct(c.ci95[1])}]" if c.ci95 else ""
    return f"{_pct(c.players_win_rate)}{ci}"


def cards_table(summaries: list[Summary], sides: list[str]) -> str:
    """Each Academy card by name (copies pooled): the share of players who played it in a
    game and the win rate of those who did (biased) with its 95% interval, side by side."""
    cards = _academy(summaries)
    if not cards:
        return ""
    head = "".join(
        f'<th scope="col">{_e(side)}: played by</th><th scope="col">{_e(side)}: their win '
        "rate (biased) [95%]</th>"
        for side in sides
    )
    body = ""
    for name in cards:
        copies = next(len(c.copies) for s in summaries if (c := _named(s, name)) is not None)
        label = f"{name} (×{copies})" if copies > 1 else name
        body += (
            f'<tr><th scope="row">{_e(label)}</th>'
            + "".join(
                f"<td>{_pct(c.play_rate if c else None)}</td><td>{_e(_win_cell(c))}</td>"
                for c in (_named(s, name) for s in summaries)
            )
            + "</tr>"
        )
    return (
        '<h3>Academy cards</h3><table class="lab-table lab-card-figures"><thead><tr>'
        f'<th scope="col">Card</th>{head}</tr></thead><tbody>{body}</tbody></table>'
    )


def differences_html(diffs: Sequence[Difference]) -> str:
    """What the variant changed: each figure's difference on the same games, its 95%
    interval and the verdict (nova.lab.core.paired)."""
    if not diffs:
        return ""
    tested = sum(1 for d in diffs if d.p is not None)
    changed = [d for d in diffs if d.verdict == "changed"]

    def num(x: float | None, unit: str, sign: str = "") -> str:
        if x is None:
            return "–"
        return f"{x:{sign}.1f}{'%' if unit == '%' and not sign else ''}"

    rows = ""
    for d in diffs:
        unit = " pts" if d.unit == "%" else " rounds"
        ci = f" [{num(d.ci95[0], d.unit, '+')}, {num(d.ci95[1], d.unit, '+')}]" if d.ci95 else ""
        verdict = d.verdict + (f" ({d.note})" if d.note else "")
        if d.ruled_out:
            verdict += f"; a change of ±{d.detect:g}{unit} or more ruled out"
        elif d.verdict == "no change found" and d.detect_games:
            verdict += f"; a change of ±{d.detect:g}{unit}: about {d.detect_games:,} games"
        mark = ' class="lab-changed"' if d.verdict == "changed" else ""
        rows += (
            f'<tr{mark}><th scope="row">{_e(d.label)}</th>'
            f"<td>{_e(num(d.default, d.unit))}</td><td>{_e(num(d.variant, d.unit))}</td>"
            f"<td>{_e(num(d.diff, d.unit, '+'))}{_e(unit if d.diff is not None else '')}"
            f"{_e(ci)}</td><td>{_e(verdict)}</td></tr>"
        )
    if changed:
        summary = f"{len(changed)} of {tested} figures changed: "
        summary += ", ".join(d.label for d in changed) + "."
    elif tested:
        summary = f"No change found in the {tested} figures tested."
    else:
        summary = "Too few games to test a figure: play 20 games a side or more."
    return (
        "<h3>What the variant changed</h3>"
        f'<p class="lab-verdict">{_e(summary)} The same {diffs[0].games:,} games under both '
        "rules, paired; a difference with its 95% interval; \u201cchanged\u201d holds the "
        "chance that any figure is called so by chance at 5% (Holm), so a lone interval "
        "clear of zero may still be \u201cno change found\u201d.</p>"
        '<table class="lab-table lab-differences"><thead><tr><th scope="col">Figure</th>'
        '<th scope="col">Today\'s rules</th><th scope="col">Your variant</th>'
        '<th scope="col">Difference [95%]</th><th scope="col">Verdict</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )


# -- charts (SVG) ------------------------------------------------------------------------
W, H, PAD = 360, 200, 34


def _frame(title: str, inner: str, height: int = H) -> str:
    return (
        f'<figure class="lab-chart"><figcaption>{_e(title)}</figcaption>'
        f'<svg viewBox="0 0 {W} {height}" role="img" aria-label="{_e(title)}">{inner}</svg>'
        "</figure>"
    )


def _bars(groups: list[tuple[str, list[float]]], top: float, fmt: Callable[[float], str],
          mark: float | None = None, every: int = 1) -> str:  # fmt: skip
    """Grouped vertical bars: one group per label, one bar per series."""
    top = top or 1.0
    n = max(len(groups), 1)
    series = max((len(v) for _, v in groups), default=1)
    gw = (W - 2 * PAD) / n
    bw = gw * 0.8 / series
    base = H - PAD
    out = [f'<line x1="{PAD}" y1="{base}" x2="{W - PAD / 2}" y2="{base}" class="axis"/>']
    if mark is not None:
        y = base - (H - 2 * PAD) * mark / top
        out.append(
            f'<line x1="{PAD}" y1="{y:.1f}" x2="{W - PAD / 2}" y2="{y:.1f}" class="mark"/>'
            f'<text x="{PAD - 4}" y="{y + 4:.1f}" text-anchor="end">{_e(fmt(mark))}</text>'
        )
    for i, (label, values) in enumerate(groups):
        x0 = PAD + i * gw + gw * 0.1
        for j, v in enumerate(values):
            h = (H - 2 * PAD) * max(v, 0.0) / top
            x = x0 + j * bw
            out.append(
                f'<rect x="{x:.1f}" y="{base - h:.1f}" width="{bw * 0.92:.1f}" '
                f'height="{h:.1f}" fill="{SERIES[j % 2]}"><title>{_e(label)}: '
                f"{_e(fmt(v))}</title></rect>"
            )
        if i % every == 0:
            out.append(
                f'<text x="{x0 + gw * 0.4:.1f}" y="{base + 14}" text-anchor="middle">'
                f"{_e(label)}</text>"
            )
    return "".join(out)


def turn_position_chart(summaries: list[Summary], players: int) -> str:
    groups = [
        (
            f"{p + 1}{'st' if p == 0 else 'nd' if p == 1 else 'rd' if p == 2 else 'th'}",
            [s.turn_position_win_rate[p] for s in summaries],
        )
        for p in range(players)
    ]
    top = max([v for _, vs in groups for v in vs] + [1 / players]) * 1.15
    inner = _bars(groups, top, lambda v: f"{100 * v:.0f}%", mark=1 / players)
    return _frame("Win rate by turn order (line: an even share)", inner)


def length_chart(summaries: list[Summary]) -> str:
    hists = [{int(k): int(v) for k, v in s.arc.rounds_histogram.items()} for s in summaries]
    rounds = sorted(set().union(*hists)) if hists else []
    if not rounds:
        return ""
    games = [max(1, s.games) for s in summaries]
    groups = [(str(r), [h.get(r, 0) / g for h, g in zip(hists, games, strict=True)])
              for r in range(rounds[0], rounds[-1] + 1)]  # fmt: skip
    top = max(v for _, vs in groups for v in vs) * 1.1
    every = -(-len(groups) // 12)  # at most 12 labels on the axis
    inner = _bars(groups, top, lambda v: f"{100 * v:.0f}% of games", every=every)
    return _frame("Game length in rounds (share of games)", inner)


def cards_chart(summaries: list[Summary]) -> str:
    """Each Academy card's plays a game (copies pooled), one row per card (horizontal bars)."""
    cards = _academy(summaries)
    if not cards:
        return ""
    row = 16
    height = PAD + row * len(cards)
    values = [
        [q.plays_per_game if q else 0.0 for q in (_named(s, c) for s in summaries)] for c in cards
    ]
    top = max(max(v) for v in values) or 1.0
    left = 120
    out = []
    for i, (name, vs) in enumerate(zip(cards, values, strict=True)):
        y = PAD / 2 + i * row
        label = name[:18]
        out.append(f'<text x="{left - 4}" y="{y + 11}" text-anchor="end">{_e(label)}</text>')
        bh = (row - 3) / len(vs)
        for j, v in enumerate(vs):
            w = (W - left - 10) * v / top
            out.append(
                f'<rect x="{left}" y="{y + j * bh:.1f}" width="{w:.1f}" height="{bh:.1f}" '
                f'fill="{SERIES[j % 2]}"><title>{_e(label)}: {v:.2f} plays a game</title></rect>'
            )
    return _frame("Academy cards: plays a game", "".join(out), height)
