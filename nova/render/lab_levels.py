"""The workbench's run at opponent levels as markup: the choice of levels in its form, and
the figures of each level side by side with what moves more than 3 points between them
(``python -m nova lab --levels``; :mod:`nova.lab.levels`). Pure.

The result's JSON sits in ``<script type="application/json" id="nova-lab-levels">`` with
``<`` escaped, as the workbench's other result does.
"""

from __future__ import annotations

import json
from html import escape
from typing import TYPE_CHECKING

from ..lab.workbench import LAB_LEVELS, LabForm

if TYPE_CHECKING:  # the lab's core is imported only once a run is played
    from ..lab.levels import LevelsResult


def _e(x: object) -> str:
    return escape(str(x), quote=True)


def _names(levels: tuple[str, ...]) -> str:
    return ", ".join(name.title() for name in levels)


def levels_choice_html(form: LabForm, running: bool) -> str:
    """The form's choice: the seats' bots as chosen, or a run at several levels."""
    options = [("", "No: the seats' bots above")]
    options += [(",".join(levels), _names(levels)) for levels in LAB_LEVELS]
    chosen = ",".join(form.levels)
    if form.levels and form.levels not in LAB_LEVELS:  # the address named its own
        options.append((chosen, _names(form.levels)))
    opts = "".join(
        f'<option value="{_e(v)}"{" selected" if v == chosen else ""}>{_e(label)}</option>'
        for v, label in options
    )
    off = " disabled" if running else ""
    return (
        '<div class="lab-row"><label>Play every seat at each level '
        f'<select data-lab="levels"{off}>{opts}</select></label></div>'
        '<p class="muted">At levels, the same seeds are played at each level, every seat '
        "that level, under the rules as they stand here: what a strong player meets that a "
        "weak one does not.</p>"
    )


def _cell(value: float, low: float, high: float, unit: str) -> str:
    if unit == "%":
        return f"{value:.1f}% [{low:.1f}–{high:.1f}]"
    return f"{value:.1f} [{low:.1f}–{high:.1f}]"


def levels_results_html(result: LevelsResult, stopped: bool) -> str:
    """Each level's figures (95% intervals), flagged rows marked, and the flags in words."""
    names = list(result.levels)
    flags = result.flags
    flagged = {f.key for f in flags}
    head = "".join(
        f'<th scope="col">{_e(n.title())} <span class="muted">({_e(result.bots[n])})</span></th>'
        for n in names
    )
    rows = []
    for key, first in result.levels[names[0]].items():
        cells = "".join(
            "<td>–</td>"
            if (f := result.levels[n].get(key)) is None
            else f"<td>{_e(_cell(f.value, f.ci95[0], f.ci95[1], f.unit))}</td>"
            for n in names
        )
        mark = ' data-flag="1" class="flagged"' if key in flagged else ""
        rows.append(
            f'<tr data-figure="{_e(key)}"{mark}><th scope="row">{_e(first.label)}'
            f"{' ⚑' if key in flagged else ''}</th>{cells}</tr>"
        )
    items = "".join(
        f'<li data-flag-figure="{_e(f.key)}" data-flag-sure="{"1" if f.sure else "0"}">'
        f"{_e(f.words())}</li>"
        for f in flags
    )
    data = json.dumps(result.as_json(), indent=1, sort_keys=True).replace("<", "\\u003c")
    return (
        '<section class="panel lab-results lab-levels"><h2>Results at each level</h2>'
        + (
            f'<p class="muted">Stopped: these figures are of the {result.games} games '
            "played at every level.</p>"
            if stopped
            else ""
        )
        + f"<h3>What moves more than 3 points between levels</h3>"
        f"<ul>{items or '<li>Nothing: every figure holds within 3 points.</li>'}</ul>"
        '<p class="muted">"sure": the move is clear of zero even counting every figure and '
        'every pair of levels that could have moved by chance; "noise?": more games would '
        'tell (docs/LAB.md, "How to read a flag").</p>'
        '<table class="lab-table"><thead><tr><th scope="col">Figure (95% interval)</th>'
        f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        f'<script type="application/json" id="nova-lab-levels">{data}</script>'
        "</section>"
    )
