"""The lab's text reports: the table ``python -m nova lab`` prints (one column per variant) and
the sweep's table (one row per cell). Plain text from a run's typed summaries (the sweep's
table: from its JSON data)."""

from __future__ import annotations

import json
from collections.abc import Callable

from .core.stats import Quantiles
from .core.summary import STALL_ROUNDS, Arc, Points, Summary


def _games(gs: list[int] | None, most: int = 4) -> str:
    """Game numbers for a report cell: the first few, and how many more."""
    if not gs:
        return "-"
    text = " ".join(map(str, gs[:most]))
    return text + (f" +{len(gs) - most}" if len(gs) > most else "")


def _quantiles(q: Quantiles | None) -> str:
    if q is None or not q.n:
        return "-"
    return f"{q.median:g} [{q.p10:g}-{q.p90:g}]"


def arc_lines(cols: list[Summary], row) -> None:
    """The game's arc as rows of the report (``row(label, fn)`` adds one)."""

    def q(fn: Callable[[Arc], Quantiles]) -> Callable[[Summary], str]:
        return lambda c: _quantiles(fn(c.arc))

    row("rounds: median [10%-90%]", q(lambda a: a.rounds))
    row("rounds: least / most", lambda c: f"{c.arc.rounds.min} / {c.arc.rounds.max}")
    ends = sorted(set().union(*(c.arc.rounds_by_end for c in cols)))
    for end in ends:
        row(
            f"  rounds when ending by {end}",
            lambda c, e=end: _quantiles(c.arc.rounds_by_end.get(e)),
        )
    row("Shards entered play (of 30)", q(lambda a: a.shards_entered))
    row("Shards left in the bag", q(lambda a: a.shards_in_bag))
    row("Shards banked in Cargo Bays", q(lambda a: a.shards_banked))
    for who in ("winners", "all"):
        row(
            f"points {who}: bays / Specials",
            lambda c, w=who: _points(c.arc.points_winners if w == "winners" else c.arc.points_all),
        )
    for p in range(len(cols[0].turn_position_win_rate)):
        row(
            f"Super-Nova in turn position {p + 1}'s turn",
            lambda c, p=p: _pct(c.arc.supernova_by_turn_position[p]),
        )
    row("  and that player wins", lambda c: _pct(c.arc.supernova_bringer_wins))
    row("Unloads per game", q(lambda a: a.unloads))
    row("Disrupts per game", q(lambda a: a.disrupts))
    row("longest run without Unload (rds)", q(lambda a: a.longest_no_unload_rounds))
    row("longest run, no Shard in play", q(lambda a: a.longest_dry_rounds))


def _points(p: Points) -> str:
    return f"{p.bays:.1f} / {p.specials:.1f} ({_pct(p.bay_share).strip()})"


def _pct(x: float | None) -> str:
    return "   -  " if x is None else f"{100 * x:5.1f}%"


def _num(x: float | None, fmt: str = ".1f") -> str:
    return "-" if x is None else format(x, fmt)


def quality_lines(cols: list[Summary], row) -> None:
    """The game-quality metrics (nova.lab.core.metrics) as rows of the report."""

    def leads(c: Summary) -> str:
        m = c.metrics
        return f"{_num(m.lead_changes)} ({_pct(m.lead_change_rate).strip()})"

    def drama(c: Summary) -> str:
        return f"{_num(c.metrics.drama)} ({_num(c.metrics.drama_max)}) pts"

    row("lead changes per game (per turn)", leads)
    row("drama: winner behind by, mean (max)", drama)
    row("  turns the winner was behind", lambda c: _pct(c.metrics.winner_behind))
    row("decided at (share of the game)", lambda c: _pct(c.metrics.decided_at))
    row("balance: seat win-rate gap", lambda c: _pct(c.metrics.balance_gap))

    def length(c: Summary) -> str:
        s = c.metrics.length_turns
        if s is None:
            return "-"
        return f"{s.median:g} [{s.p10:g}-{s.p90:g}] cv {_num(s.cv, '.2f')}"

    row("turns: median [10%-90%], cv", length)


def report_lines(base: Summary, other: Summary | None, names: tuple[str, str]) -> list[str]:
    """The tables, one column per variant."""
    cols = [base] + ([other] if other else [])
    head = f"{'':34}" + "".join(f"{n[:22]:>24}" for n in names[: len(cols)])
    lines = [head]

    def row(label: str, fn: Callable[..., str]) -> None:
        lines.append(f"{label:34}" + "".join(f"{fn(c):>24}" for c in cols))

    n = base.players
    row("games", lambda c: str(c.games))
    for k in range(n):
        row(
            f"entry {k} ({base.bots[k]}) wins{' [95% all]' if n > 2 else ''}",
            lambda c, k=k: (
                f"{_pct(c.win_rate[k])} [{_pct(c.win_ci95[k][0]).strip()}"
                f"-{_pct(c.win_ci95[k][1]).strip()}]"
            ),
        )
    for k in range(n):
        row(
            f"entry {k} score mean (sd)",
            lambda c, k=k: f"{c.mean_score[k]:.1f} ({c.score_sd[k]:.1f})",
        )
    for p in range(n):
        row(
            f"turn position {p + 1} wins",
            lambda c, p=p: (
                f"{_pct(c.turn_position_win_rate[p])} "
                f"[{_pct(c.turn_position_ci95[p][0]).strip()}"
                f"-{_pct(c.turn_position_ci95[p][1]).strip()}]"
            ),
        )
    row(
        "first-seat advantage [95%]",
        lambda c: (
            f"{100 * c.first_seat_advantage:+.1f} pts "
            f"[{100 * c.first_seat_advantage_ci95[0]:+.0f},"
            f"{100 * c.first_seat_advantage_ci95[1]:+.0f}]"
        ),
    )
    row("turns per game mean (sd)", lambda c: f"{c.turns.mean:.1f} ({c.turns.sd:.1f})")
    row("rounds per game mean (sd)", lambda c: f"{c.rounds.mean:.1f} ({c.rounds.sd:.1f})")
    reasons = sorted(set().union(*(c.end_reasons for c in cols)))
    for why in reasons:
        row(f"ends by {why}", lambda c, w=why: _pct(c.end_reasons.get(w, 0.0)))
    for why in reasons:
        if why != "supernova" and any(c.end_games.get(why) for c in cols):
            row(f"  games ending by {why}", lambda c, w=why: _games(c.end_games.get(w)))
    # not the engine's "stalled" end above: a game can have such a run and still end at
    # Super-Nova
    row(f"a run of {STALL_ROUNDS}+ rounds with no Unload", lambda c: _pct(c.stalled_games))
    arc_lines(cols, row)
    quality_lines(cols, row)
    row("games per minute", lambda c: f"{c.games_per_minute or 0:.0f}")
    lines.append("")
    lines.append(
        "cards (copies pooled): play rate / plays per game / win rate when played (biased) [95%]"
    )
    card_names = list(dict.fromkeys(n for c in cols for n in c.cards_by_name))
    for card in card_names:
        cells = []
        for c in cols:
            d = c.cards_by_name.get(card)
            if d is None or not d.players:
                cells.append(f"{'-':>24}")
                continue
            ci = d.ci95
            text = f"{d.play_rate:4.0%} {d.plays_per_game:5.2f} {_pct(d.players_win_rate)}"
            if ci is not None:
                text += f" [{100 * ci[0]:.0f}-{100 * ci[1]:.0f}]"
            cells.append(text.rjust(24))
        copies = (base.cards_by_name.get(card) or cols[-1].cards_by_name[card]).copies
        label = f"{card} (x{len(copies)})" if len(copies) > 1 else card
        lines.append(f"  {label:32}" + "".join(cells))
    for c, name in zip(cols, names, strict=False):
        for why, text in c.end_positions.items():
            if text:  # the first such game's end, to open with State.from_position
                lines.append(f"{name}: the first game ending by {why} ended at:")
                lines.append(f"  {text}")
    return lines


def _pct_cell(x: float | None) -> str:
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
                _pct_cell(s["end_reasons"].get("supernova", 0.0)),
                _pct_cell(s["end_reasons"].get("stalled", 0.0)),
                _pct_cell(s["end_reasons"].get("round limit", 0.0)),
                f"{s['rounds']['mean']:.1f} [{r['p10']:g}-{r['p90']:g}]" if r["n"] else "-",
                f"{100 * edge:+.1f}",
                _pct_cell(s["arc"]["points_winners"]["bay_share"]),
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
