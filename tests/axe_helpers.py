"""axe-core (npm, pinned in package.json) in the page: WCAG 2.2 A/AA rules on what is shown.

The test injects ``node_modules/axe-core/axe.min.js`` (installed by ``npm ci`` from the
lock file, never shipped with the site) into a context made with ``bypass_csp=True`` (the
site's CSP refuses inline scripts, as it should)."""

from __future__ import annotations

import random
from pathlib import Path

from nova.record import GameRecord

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]

RUN = """async (tags) => {
  const r = await axe.run(document, {runOnly: {type: 'tag', values: tags},
                                     resultTypes: ['violations']});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' :: ' + n.failureSummary)}));
}"""


# the widths every screen is checked at: a phone's and a desktop's. A page is loaded at the first
# and resized to the second rather than loaded twice (loading each screen again was half an axe
# test's time). The phone's comes first: the page zooms the board to the choices when it draws
# at a phone's width (page_board.py), not when it is resized, so a screen drawn at the phone's
# width is the one a phone shows; resized to a desktop's it keeps the zoom's region and label.
WIDTHS = ({"width": 390, "height": 844}, {"width": 1280, "height": 800})


def clean_at_both_widths(page, screen: str) -> None:
    """No axe violation on what ``page`` shows, at a phone's width and then a desktop's: load
    the page at ``WIDTHS[0]``; it is left there, so that the next screen is drawn there."""
    for viewport in WIDTHS:
        page.set_viewport_size(viewport)
        violations = axe_violations(page)
        assert violations == [], f"{screen} at {viewport['width']} px: " + "; ".join(
            f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in violations
        )
    page.set_viewport_size(WIDTHS[0])


def axe_violations(page) -> list[dict]:
    # colours are read as painted: let a screen's fade-in (the start screen's .35 s) end first
    page.wait_for_function(
        "document.getAnimations().every(a => a.playState !== 'running' || "
        "a.effect?.getComputedTiming().iterations === Infinity)"
    )
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN, WCAG)


def decision_kind(s) -> str:
    if s.spawn_shard:
        return "spawn"
    if s.pending is None:
        return "turn"
    pd = s.pending.to_json()  # the action under way as the page's view shows it
    kind = pd["kind"]
    if kind in ("unload_bays", "upgrade", "skip"):
        return kind
    if kind == "reorder":
        return "reorder-mode" if pd.get("mode") is None else "reorder-colour"
    if pd.get("ship") is None and kind != "sabotage":
        return "ship"
    if "dest" in pd and pd.get("dest") is not None:
        return "leave-or-push"
    if pd.get("target") is None and kind in ("hijack", "push", "sabotage"):
        return "target"
    return "destination"


def records_by_decision(seeds=range(60), steps: int = 700) -> dict[str, GameRecord]:
    """The first record (seeded random play) reaching each kind of decision with more than
    one option (a one-option decision is taken for the player)."""
    found: dict[str, GameRecord] = {}
    for seed in seeds:
        rng = random.Random(seed)
        rec = GameRecord(players=2, seed=seed)
        s = rec.state()
        for _ in range(steps):
            if s.is_over():
                break
            legal = [str(m) for m in s.legal_moves()]
            kind = decision_kind(s)
            if kind not in found and len(legal) > 1:
                found[kind] = GameRecord(players=2, seed=seed, moves=list(rec.moves))
            others = [m for m in legal if m != "E"]
            end = not others or ("E" in legal and rng.random() < 0.12)
            move = "E" if end else rng.choice(sorted(others))
            rec.moves.append(move)
            s = s.apply(move)
    return found
