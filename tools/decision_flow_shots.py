"""Screenshots at 390x844 of issue 49's decision flow, mended (``python
tools/decision_flow_shots.py`` after ``make site``): a Hijack by a loaded ship asks for the
target with the ship's Shards control beside it (it used to ask "Choose the opponent's ship"
over "Keep all Shards" buttons), a Chain link's prompt whole on two lines, the places one
tap reaches at "choose a ship" (dashed rings), at the turn's step (the board plays the cards,
the Academy's Take buttons) and a place several ways reach, tapped (the chooser). Positions
from greedy games, opened by link."""

from pathlib import Path

from playwright.sync_api import sync_playwright

from nova.links import encode
from nova.record import GameRecord
from nova.rules import move as mv
from nova.web.session import Session
from nova_tools.benchmarks.chromium import launch_chromium
from nova_tools.benchmarks.site import served_site
from nova_tools.links import random_record

SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


def find(cond):
    for seed in range(1, 60):
        rec = random_record(2, seed, bot="greedy")
        states = rec.states()
        for i, s in enumerate(states):
            cut = GameRecord(players=2, seed=rec.seed, moves=rec.moves[:i], names=["Ada", "Bo"])
            if i and not s.is_over() and cond(s, cut):
                return cut
    raise SystemExit("none")


def ready(cut):
    x = Session(cut)
    x.ready()
    return x


def hijack_target(s, cut):
    pd = s.pending
    if pd is None or pd.kind != "hijack" or pd.target is not None or pd.ship is None:
        return False
    return bool(s.pile[pd.ship]) and ready(cut).leave_choice() is not None


def link_prompt(s, cut):
    kinds = {m.kind for m in s.legal_moves()}
    return s.pending is None and s.need_link and mv.LAUNCH in kinds and not s.spawn_shard


def fold(s, cut):
    return s.pending is not None and len(ready(cut).folded_moves()) >= 3


def board_first(s, cut):
    """The turn's step with places, an Academy card to take and a place several ways reach."""
    if s.pending is not None or s.spawn_shard:
        return False
    found = ready(cut).folded_moves()
    takes = [k for k in found if k.startswith("U")]
    many = [f for f in found.values() if len(f.options) > 1]
    return len(found) >= 6 and takes and many and len(many[0].options) <= 6


with served_site() as url, sync_playwright() as pw:
    b = launch_chromium(pw)
    for name, cond, tap in (
        ("phone-hijack-shards", hijack_target, ""),
        ("phone-chain-prompt", link_prompt, ""),
        ("phone-ship-and-place", fold, ""),
        ("phone-board-first", board_first, ""),
        ("phone-fold-chooser", board_first, 'svg.board [data-ui^="fold:"]'),
    ):
        rec = find(cond)
        ctx = b.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        page = ctx.new_page()
        page.goto(url + "index.html#" + encode(rec))
        page.wait_for_selector("body[data-nova-ready]", state="attached", timeout=120000)
        if page.locator('[data-ui="ready"]').count():
            page.locator('[data-ui="ready"]').tap()
        page.wait_for_timeout(1200)
        if tap:
            page.locator(tap).first.tap()
            page.wait_for_timeout(800)
        page.evaluate("document.activeElement && document.activeElement.blur()")
        print(
            name,
            len(rec.moves),
            page.locator("#prompt").inner_text(),
            page.evaluate(
                "(() => { const p = document.querySelector('#prompt');"
                " return [p.scrollHeight, p.clientHeight, p.clientWidth]; })()"
            ),
        )
        page.screenshot(path=str(SHOTS / f"{name}.png"))
        ctx.close()
    b.close()
