"""The designer's workbench as markup: the form, the variant's cards, track and set-up with
the content's own validation messages, a run's progress, and its results beside today's
rules with charts drawn as SVG here. Pure: from a :class:`~nova.lab.workbench.Workbench`.

Every text from the variant (a pasted file or a link) is escaped; the result's JSON sits in
``<script type="application/json" id="nova-lab-result">`` with ``<`` escaped, so no text of
it can close the element.
"""

from __future__ import annotations

from html import escape

from ..lab.workbench import LAB_BOTS, MAX_GAMES, SETUP_FIELDS, VARIANT_FILE, Workbench
from ..rules.content import (
    COLOUR_NAMES,
    COLOURS,
    SPECIAL_ACTIONS,
    TRACK_KINDS,
    load_data,
    parse_action,
)
from .lab_levels import levels_choice_html
from .lab_results import results_html

SETUP_WORDS = {
    "hand_size": "Hand size",
    "ships_in_dock": "Ships in the Dock at the start",
    "opening_extra_cards": "Extra opening cards, by turn order",
    "opening_special_cards": "Opening Special cards, by turn order",
}


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
        f"{_alert(message)}{'' if bench.variant_text else _alert(bench.note)}"
        f"{_form_html(bench, running)}"
        f"{_variant_html(bench, running, page_url)}"
        f"{_run_html(bench)}"
        f"{results_html(bench)}"
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
        # a card's ocr note is a note on the scan, not a rule: a pasted file without them
        # changes nothing
        mark = (
            ' <span class="lab-mark">changed</span>'
            if _rules_of(card) != _rules_of(today.get(cid))
            else ""
        )
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


def _rules_of(card: object) -> object:
    """A card's data without its notes (``ocr``)."""
    return {k: v for k, v in card.items() if k != "ocr"} if isinstance(card, dict) else card


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
        # the whole track shows: the field takes the panel's width (it was cut off at 60)
        f'<label class="lab-track">Spaces, first to last <input data-lab="track" '
        f'value="{_e(track_text)}" size="60"{off}></label>'
        f'<p class="muted">Kinds: {_e(", ".join(sorted(TRACK_KINDS)))}; it starts with start '
        "and ends with supernova.</p>"
        f"<h3>Set-up ({_e(bench.form.players)} players)</h3>"
        f'<div class="lab-row">{setup}</div>'
        "<h3>The variant file</h3>"
        '<p class="muted">Paste a variant file here to play it, or copy this one; the '
        "fields above change it.</p>"
        # a paste that cannot be read is said here, beside the text to fix
        f"{_alert(bench.note) if bench.variant_text else ''}"
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
        f"{_play_link_html(bench, page_url)}"
        "</section>"
    )


def _play_link_html(bench: Workbench, page_url: str) -> str:
    """The link that opens a new game under the variant, to hand to a playtester."""
    fragment = bench.play_link()
    if not fragment:
        return ""
    return (
        '<label class="lab-link">A link to play the variant (seat 1 a person, the other '
        "seats the bots above; the game says it plays a variant) "
        f'<input readonly data-nova-play-link value="{_e(page_url)}{_e(fragment)}" '
        'size="60"></label>'
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
