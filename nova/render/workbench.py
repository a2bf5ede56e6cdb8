"""The designer's workbench as markup: the form, the variant's cards, track and set-up with
the content's own validation messages, a run's progress, and its results beside today's
rules with charts drawn as SVG here. Pure: from a :class:`~nova.lab.workbench.Workbench`.

Every text from the variant (a pasted file or a link) is escaped; the result's JSON sits in
``<script type="application/json" id="nova-lab-result">`` with ``<`` escaped, so no text of
it can close the element.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING

from ..lab.workbench import LAB_BOTS, MAX_GAMES, SETUP_FIELDS, VARIANT_FILE, Workbench
from ..rules.content import (
    COLOUR_NAMES,
    COLOURS,
    SPECIAL_ACTIONS,
    TRACK_KINDS,
    load_data,
    parse_action,
)
from .lab_levels import levels_choice_html, levels_results_html

if TYPE_CHECKING:  # the lab's core is imported only once a run is played
    from ..lab.core.metrics import CardQuality
    from ..lab.core.summary import Summary

SETUP_WORDS = {
    "hand_size": "Hand size",
    "ships_in_dock": "Ships in the Dock at the start",
    "opening_extra_cards": "Extra opening cards, by turn order",
    "opening_special_cards": "Opening Special cards, by turn order",
}
SERIES = ("#7b8794", "#e8a33d")  # today's rules, the variant (charts and legend)


def _e(x: object) -> str:
    return escape(str(x), quote=True)


def _alert(text: str) -> str:
    return f'<p class="alert" role="alert">{_e(text)}</p>' if text else ""


def workbench_html(bench: Workbench, message: str = "", page_url: str = "") -> str:
    """The workbench; ``page_url`` is the page's address, for the link to it."""
    run = bench.run
    running = run is not None and run.status == "running"
    return (
        '<div class="workbench">'
        '<header class="hero"><h1>Designer\'s workbench</h1>'
        "<p>Change a card, the track or the set-up, let the bots play, and see what it does "
        "to the game beside today's rules, on the same seeds. Everything runs in this "
        "browser: nothing is sent anywhere.</p>"
        '<p><button type="button" data-ui="menu" class="secondary">Back to the menu</button>'
        "</p></header>"
        f"{_alert(message)}{_alert(bench.note)}"
        f"{_form_html(bench, running)}"
        f"{_variant_html(bench, running, page_url)}"
        f"{_run_html(bench)}"
        f"{_results_html(bench)}"
        "</div>"
    )


def _select(
    name: str, options: list[tuple[str, str]], chosen: str, disabled: bool, label: str = ""
) -> str:
    opts = "".join(
        f'<option value="{_e(v)}"{" selected" if v == chosen else ""}>{_e(label)}</option>'
        for v, label in options
    )
    off = " disabled" if disabled else ""
    aria = f' aria-label="{_e(label)}"' if label else ""
    return f'<select data-lab="{_e(name)}"{aria}{off}>{opts}</select>'


def _bot_options(chosen: str) -> list[tuple[str, str]]:
    """The bots offered for a seat: the lab's, and the one the address chose (search:16)."""
    options = [(b, b.title()) for b in LAB_BOTS]
    if chosen not in LAB_BOTS:
        options.append((chosen, chosen.title()))
    return options


def _form_html(bench: Workbench, running: bool) -> str:
    f = bench.form
    off = " disabled" if running else ""
    players = _select("players", [(str(n), f"{n} players") for n in (2, 3, 4)],
                      str(f.players), running)  # fmt: skip
    bots = "".join(
        f"<label>Seat {i + 1} "
        f"{_select(f'bot:{i}', _bot_options(f.bots[i]), f.bots[i], running)}</label>"
        for i in range(f.players)
    )
    return (
        '<section class="panel lab-form"><h2>Who plays</h2>'
        f'<div class="lab-row"><label>Players {players}</label>{bots}</div>'
        '<div class="lab-row">'
        f'<label>Games <input data-lab="games" type="number" min="1" max="{MAX_GAMES}" '
        f'step="1" value="{f.games}"{off}></label>'
        f'<label>Seed <input data-lab="seed" type="number" min="0" step="1" '
        f'value="{f.seed}"{off}></label></div>'
        f"{levels_choice_html(f, running)}"
        '<p class="muted">Line-up entries rotate round the table from game to game, so each '
        "bot plays every seat equally often; each game has its own seed from this one.</p>"
        "</section>"
    )


def _card_rows(data: dict, running: bool) -> list[str]:
    """A table row for each Academy card of the variant: its fields to edit, what it reads
    as, and whether it differs from today's card."""
    off = " disabled" if running else ""
    today = {c.get("id"): c for c in load_data(None)["academy"]["cards"] if isinstance(c, dict)}
    rows = []
    for card in data["academy"]["cards"]:
        if not isinstance(card, dict):
            continue
        cid = _e(card.get("id", ""))
        colour = str(card.get("colour", ""))
        colours = [(c, COLOUR_NAMES[c]) for c in COLOURS]
        if colour not in COLOUR_NAMES:
            colours.append((colour, colour))
        mark = ' <span class="lab-mark">changed</span>' if card != today.get(cid) else ""
        rows.append(
            f'<tr><th scope="row">{cid}{mark}</th>'
            f'<td><input data-lab="card:{cid}.name" value="{_e(card.get("name", ""))}" '
            f'aria-label="{cid} name" size="14"{off}></td>'
            f"<td>{_select(f'card:{cid}.colour', colours, colour, running, f'{cid} colour')}</td>"
            f'<td><input data-lab="card:{cid}.action" value="{_e(card.get("action", ""))}" '
            f'aria-label="{cid} action" size="16"{off}></td>'
            f'<td><input data-lab="card:{cid}.alternate" '
            f'value="{_e(card.get("alternate") or "")}" aria-label="{cid} alternate" '
            f'size="12"{off}></td><td class="lab-reads">{_e(_reads(card))}</td></tr>'
        )
    return rows


def _variant_html(bench: Workbench, running: bool, page_url: str) -> str:
    data = bench.data()
    off = " disabled" if running else ""
    problems = (
        '<div class="lab-problems" role="alert"><p>The variant cannot be played as it is:</p>'
        "<ul>" + "".join(f"<li>{_e(p)}</li>" for p in bench.problems) + "</ul></div>"
        if bench.problems
        else ""
    )
    state = (
        "Your variant changes today's rules; a run plays both on the same seeds."
        if bench.changes()
        else "Today's rules: change a field below, or paste a variant file, to make a variant."
    )
    rows = _card_rows(data, running)
    track_name = bench.track_name()
    track = data["tracks"].get(track_name, [])
    track_text = " ".join(str(k) for k in track) if isinstance(track, list) else str(track)
    entry = data["setup"]["players"].get(str(bench.form.players), {})
    setup = "".join(
        f"<label>{_e(SETUP_WORDS[k])} "
        f'<input data-lab="setup:{k}" value="{_e(_setup_value(entry, data["setup"], k))}" '
        f'size="8"{off}></label>'
        for k in SETUP_FIELDS
    )
    pasted = bench.variant_text or (bench.variant_json() if bench.changes() else "")
    return (
        '<section class="panel lab-variant"><h2>The variant</h2>'
        f'<p class="lab-state">{_e(state)}</p>{problems}'
        "<h3>Academy cards</h3>"
        '<p class="muted">An action is a primitive or steps joined by +, with distances: '
        "orbit:1-3, push+orbit:1-2, phase_shift+hijack (docs/RULES.md, Composed actions). "
        "The alternate is the action played sideways (empty: none).</p>"
        '<table class="lab-cards"><thead><tr><th scope="col">Card</th><th scope="col">Name'
        '</th><th scope="col">Colour</th><th scope="col">Action</th><th scope="col">'
        'Alternate</th><th scope="col">Reads as</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        f"<h3>Expansion track ({_e(bench.form.players)} players)</h3>"
        f'<label>Spaces, first to last <input data-lab="track" value="{_e(track_text)}" '
        f'size="60"{off}></label>'
        f'<p class="muted">Kinds: {_e(", ".join(sorted(TRACK_KINDS)))}; it starts with start '
        "and ends with supernova.</p>"
        f"<h3>Set-up ({_e(bench.form.players)} players)</h3>"
        f'<div class="lab-row">{setup}</div>'
        "<h3>The variant file</h3>"
        '<p class="muted">Paste a variant file here to play it, or copy this one; the '
        "fields above change it.</p>"
        f'<textarea data-lab="variant" aria-label="The variant file" rows="10" cols="70" '
        f'spellcheck="false"{off}>'
        f"{_e(pasted)}</textarea>"
        '<div class="lab-buttons">'
        f'<button type="button" data-ui="lab-save" class="secondary"{off}>Save the variant '
        "as a file</button>"
        f'<button type="button" data-ui="lab-reset" class="secondary"{off}>Back to today\'s '
        "rules</button></div>"
        '<label class="lab-link">A link to the workbench as it is now '
        f'<input readonly data-nova-lab-link value="{_e(page_url)}?{_e(bench.query())}" '
        'size="60"></label>'
        "</section>"
    )


def _reads(card: dict) -> str:
    """A card's action and alternate in words, as the engine reads them ("?" where it cannot:
    the problems above say why)."""
    words = []
    for key in ("action", "alternate"):
        if key == "alternate" and not card.get(key):
            continue
        action = parse_action(card.get(key), "", [], SPECIAL_ACTIONS)
        label = action.label() if action is not None else "?"
        words.append(label if key == "action" else f"sideways: {label}")
    return "; ".join(words)


def _setup_value(entry: dict, setup: dict, key: str) -> str:
    value = entry.get(key, setup.get(key, ""))
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _run_html(bench: Workbench) -> str:
    run = bench.run
    f = bench.form
    sides = len(f.levels) if f.levels else 2 if bench.changes() else 1
    why = bench.why_not_run()
    if run is not None and run.status == "running":
        button = '<button type="button" data-ui="lab-stop" class="primary">Stop</button>'
    else:
        off = f' aria-disabled="true" data-why-ui="{_e(why.capitalize())}."' if why else ""
        button = (
            f'<button type="button" data-ui="lab-run" class="primary"{off}>'
            f"Play {f.games * sides:,} games</button>"
        )
    progress = ""
    if run is not None:
        where = (
            f"in {run.workers} web worker{'s' if run.workers != 1 else ''}"
            if run.workers
            else "on this page"
        )
        word = {"running": "Playing", "stopped": "Stopped after", "done": "Played"}[run.status]
        progress = (
            f'<p class="lab-progress"><progress max="{run.total}" value="{run.done}"></progress> '
            f'<span aria-live="polite">{word} {run.done:,} of {run.total:,} games {where}'
            f"{f' in {run.elapsed:.1f} s' if run.status != 'running' else ''}.</span></p>"
        )
        if run.error:
            progress += _alert(f"A game failed and the run stopped: {run.error}")
    cli = f.cli(VARIANT_FILE if bench.changes() else None)
    return (
        '<section class="panel lab-run"><h2>Run</h2>'
        f'<p class="lab-buttons">{button}</p>{progress}'
        f"{f'<p class=muted>{_e(why.capitalize())}.</p>' if why and run is None else ''}"
        '<p class="muted">The same games in a shell (with the variant saved as '
        f"{_e(VARIANT_FILE)}): <code>{_e(cli)}</code></p></section>"
    )


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


def _cv(s: Summary) -> float | None:
    return s.metrics.length_turns.cv if s.metrics.length_turns is not None else None


def _results_html(bench: Workbench) -> str:
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
    rows += [(f"Win rate, line-up entry {k + 1} ({bot})", _entry_cell(k))
             for k, bot in enumerate(f.bots)]  # fmt: skip
    rows += [
        ("First player's edge over an even share", lambda s: _pct(s.first_seat_advantage)),
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
    names = {
        str(c.get("id")): str(c.get("name", ""))
        for c in bench.data()["academy"]["cards"]
        if isinstance(c, dict)
    }
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
        f'<table class="lab-table"><thead><tr><th scope="col">Figure</th>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
        '<div class="lab-charts">'
        f"{turn_position_chart([s for _, s in columns], f.players)}"
        f"{length_chart([s for _, s in columns])}"
        f"{cards_chart([s for _, s in columns], names)}"
        "</div>"
        f"{cards_table([s for _, s in columns], [n for n, _ in columns], names)}"
        '<p class="muted">A card\'s win rate when played is biased: good positions play '
        "more cards. The metrics are computed from the bots' own evaluations after each "
        "turn (docs/LAB.md).</p>"
        f'<script type="application/json" id="nova-lab-result">{data}</script>'
        "</section>"
    )


def _academy(summaries: list[Summary]) -> list[str]:
    """The Academy cards any of ``summaries`` has figures for, in number order."""
    return sorted(
        {c for s in summaries for c in s.metrics.cards if c.startswith("s")},
        key=lambda c: int(c[1:]) if c[1:].isdigit() else 0,
    )


def _card(s: Summary, cid: str) -> CardQuality | None:
    return s.metrics.cards.get(cid)


def cards_table(summaries: list[Summary], sides: list[str], names: dict[str, str]) -> str:
    """Each Academy card's play rate (share of players who played it in a game) and the
    win rate of those who played it (biased), side by side."""
    cards = _academy(summaries)
    if not cards:
        return ""
    head = "".join(
        f'<th scope="col">{_e(side)}: played by</th><th scope="col">{_e(side)}: their win '
        "rate (biased)</th>"
        for side in sides
    )
    body = "".join(
        f'<tr><th scope="row">{_e(c)} {_e(names.get(c, ""))}</th>'
        + "".join(
            f"<td>{_pct(q.play_rate if q else None)}</td>"
            f"<td>{_pct(q.win_rate_when_played_biased if q else None)}</td>"
            for q in (_card(s, c) for s in summaries)
        )
        + "</tr>"
        for c in cards
    )
    return (
        '<h3>Academy cards</h3><table class="lab-table lab-card-figures"><thead><tr>'
        f'<th scope="col">Card</th>{head}</tr></thead><tbody>{body}</tbody></table>'
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


def cards_chart(summaries: list[Summary], names: dict[str, str]) -> str:
    """Each Academy card's plays a game, one row per card (horizontal bars)."""
    cards = _academy(summaries)
    if not cards:
        return ""
    row = 16
    height = PAD + row * len(cards)
    values = [
        [q.plays_per_game if q else 0.0 for q in (_card(s, c) for s in summaries)] for c in cards
    ]
    top = max(max(v) for v in values) or 1.0
    left = 120
    out = []
    for i, (cid, vs) in enumerate(zip(cards, values, strict=True)):
        y = PAD / 2 + i * row
        label = f"{cid} {names.get(cid, '')}"[:18]
        out.append(f'<text x="{left - 4}" y="{y + 11}" text-anchor="end">{_e(label)}</text>')
        bh = (row - 3) / len(vs)
        for j, v in enumerate(vs):
            w = (W - left - 10) * v / top
            out.append(
                f'<rect x="{left}" y="{y + j * bh:.1f}" width="{w:.1f}" height="{bh:.1f}" '
                f'fill="{SERIES[j % 2]}"><title>{_e(label)}: {v:.2f} plays a game</title></rect>'
            )
    return _frame("Academy cards: plays a game", "".join(out), height)
