"""Taps per turn: ``python -m nova bench-taps`` (needs the built site and Chromium).

A greedy player plays by touch on a 390x844 phone (Chromium, touch, the hosted headers)
against a bot, on fixed seeds, and the tool counts what the person's fingers do each turn:

* a tap for every decision the person makes on screen (a card's play, a ship, a space, a
  button, End turn), one for a run of them when the page offers the run in one tap (a
  place on the board, a Cargo Bay, an Academy card: ``data-alt-move``, nova/folding.py:
  the Chain link, the card, the ship and the place), two when that place asks which of
  several ways (``data-ui="fold:<place>"``, then the chooser's button), and a tap on a
  control that sets a decision before it is made (the ship's "leave N Shards" control);
* a scroll when the thing to tap is not whole on the screen (outside the viewport, or
  outside the scrolling drawer or the zoomed board that clips it, or covered): a finger
  must swipe before it taps. The tool then scrolls it into view and taps it.

Decisions the page takes for the person (one option, or the obvious answer it plays for
them) cost nothing. The greedy player is ``nova.bots`` "greedy" deciding on the game the
page saved (localStorage), so the same seed plays the same game whatever the page asks, as
long as the page lets the player make the same decisions. A turn's count runs from its first
decision to its End turn; turns the game's end cuts short are left out.

Prints each seed's taps per turn, then the median, mean and quartiles over all turns.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import dataclass, field

from .chromium import launch_chromium
from .site import build_site, served_site

PHONE = {"width": 390, "height": 844}
# part of the element on screen and not covered at its centre (tests/phone_helpers.py's)
SEEN_JS = """(el) => {
  const r = el.getBoundingClientRect();
  let x0 = Math.max(r.left, 0), y0 = Math.max(r.top, 0);
  let x1 = Math.min(r.right, innerWidth), y1 = Math.min(r.bottom, innerHeight);
  for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const c = a.getBoundingClientRect();
    x0 = Math.max(x0, c.left); y0 = Math.max(y0, c.top);
    x1 = Math.min(x1, c.right); y1 = Math.min(y1, c.bottom);
  }
  const whole = Math.max(r.width * r.height, 1e-9);
  if (x1 <= x0 || y1 <= y0) return 0;
  const hit = document.elementFromPoint((x0 + x1) / 2, (y0 + y1) / 2);
  const host = el.closest('.board-stage') || el;
  const mine = !!hit && (hit === el || el.contains(hit) || (host !== el && host.contains(hit)));
  return mine ? (x1 - x0) * (y1 - y0) / whole : 0;
}"""
RECORD_JS = """() => {
  const id = localStorage.getItem('nova:current');
  return id ? localStorage.getItem('nova:save:' + id) : null;
}"""
PERSON_TO_DECIDE = (
    "document.body.hasAttribute('data-nova-over') ||"
    " (!document.body.hasAttribute('data-nova-bot-turn') &&"
    " !!document.querySelector('[data-move]'))"
)


@dataclass
class Game:
    seed: int
    turns: list[int] = field(default_factory=list)  # taps (and scrolls) per whole turn
    scrolls: int = 0
    decisions: int = 0  # the person's decisions made by a tap
    tapped: list[list[str]] = field(default_factory=list)  # each turn's taps, by what they were


def _state(page):
    """The game the page saved, as the engine's state (None until saved)."""
    from nova.record import GameRecord

    raw = page.evaluate(RECORD_JS)
    if not raw:
        return None, 0
    rec = GameRecord.from_dict(json.loads(raw)["record"])
    return rec.states()[-1], len(rec.moves)


def _tap(page, selector: str, game: Game) -> int:
    """Tap the best-seen element of ``selector``; the taps it cost (a scroll first, if it
    was not whole on the screen)."""
    els = page.query_selector_all(selector)
    els = [e for e in els if e.is_visible()]
    if not els:
        raise SystemExit(f"nothing on screen for {selector}")
    seen = [e.evaluate(SEEN_JS) for e in els]
    best = max(range(len(els)), key=lambda i: seen[i])
    el, cost = els[best], 1
    if seen[best] < 0.99:
        cost += 1
        game.scrolls += 1
        el.scroll_into_view_if_needed()
        page.wait_for_timeout(50)
    el.tap()
    return cost


def _leave_plan(state, token: str, seed: int) -> int:
    """Shards the greedy player leaves behind after ``token`` (0: none asked or keep all)."""
    from nova.bots import choose_move
    from nova.rules import move as mv

    after = state.apply(token)
    if after.is_over() or after.current_player != state.current_player:
        return 0
    legal = after.legal_moves()
    if not legal or any(m.kind != mv.LEAVE for m in legal):
        return 0
    pick = choose_move("greedy", after.view(after.current_player), seed)
    return after.parse_move(pick).number


def _plan(state, moves: int, seed: int, most: int = 6) -> list[str]:
    """The positions after each of the greedy player's next decisions (with what the page
    plays for the person after each: one option; the Shards the greedy player would leave),
    as long as it is this player's: one tap may play several of them."""
    from nova.bots import choose_move
    from nova.web.session import leave_asked, only_choice

    seat, out, s, k = state.current_player, [], state, moves
    for _ in range(most):
        if s.is_over() or s.current_player != seat:
            break
        token = choose_move("greedy", s.view(seat), seed * 1000 + k)
        s, k = s.apply(token), k + 1
        while not s.is_over():
            nxt = only_choice(s)
            if nxt is None and leave_asked(s) is not None:
                nxt = choose_move("greedy", s.view(s.current_player), seed * 1000 + k)
            if nxt is None:
                break
            s, k = s.apply(nxt), k + 1
        out.append(s.position())
        if token == "E":
            break
    return out


def _folded_tap(page, state, moves: int, seed: int) -> list[tuple[str, str]]:
    """The taps (selector, what) that play the most of the greedy player's next decisions
    at once, through a place the page offers (``data-alt-move``, or a place's chooser:
    ``data-ui="fold:<place>"`` then the way's button); [] if none plays two or more."""
    from nova.folding import folds, settle

    plan = _plan(state, moves, seed)
    if len(plan) < 2:
        return []
    ways = folds(state)
    alts = page.eval_on_selector_all("[data-alt-move]", "els => els.map(e => e.dataset.altMove)")
    asks = page.eval_on_selector_all(
        '[data-ui^="fold:"]', "els => els.map(e => e.dataset.ui.slice(5))"
    )
    outcome: dict[str, str] = {}

    def reached(way: str) -> str:
        if way not in outcome:
            s = state
            for token in way.split():
                s = s.apply(token)
            outcome[way] = settle(s).position()
        return outcome[way]

    for i in range(len(plan) - 1, 0, -1):
        for way in alts:
            if " " in way and reached(way) == plan[i]:
                return [(f'[data-alt-move="{way}"]', way.replace(" ", ""))]
        for key in asks:
            fold = ways.get(key)
            for way in fold.options if fold is not None else ():
                if reached(way) == plan[i]:
                    return [
                        (f'[data-ui="fold:{key}"]', f"?{key}"),
                        (f'.fold-way[data-alt-move="{way}"]', way.replace(" ", "")),
                    ]
    return []


def play_game(page, url: str, seed: int, opponent: str, max_turns: int) -> Game:
    from nova.bots import choose_move

    game = Game(seed)
    page.goto(url + "index.html")
    page.wait_for_selector("body[data-nova-ready]", state="attached", timeout=120_000)
    page.evaluate("localStorage.clear()")
    page.reload()
    page.wait_for_selector("body[data-nova-ready]", state="attached", timeout=120_000)
    page.select_option("#nova-bot-0", "")
    page.select_option("#nova-bot-1", opponent)
    page.select_option("#nova-bot-pace", "quick")
    page.fill("#nova-seed", str(seed))
    page.dispatch_event("#nova-seed", "change")
    page.click('[data-ui="new-game"]')
    page.wait_for_selector('body[data-nova-screen="game"]')
    turn_key, taps, what = None, 0, list[str]()
    while len(game.turns) < max_turns:
        page.wait_for_function(PERSON_TO_DECIDE, timeout=120_000)
        if page.locator("body[data-nova-over]").count():
            break
        moves = int(page.get_attribute("body", "data-nova-moves") or 0)
        state, saved = _state(page)
        for _ in range(50):
            if state is not None and saved == moves:
                break
            page.wait_for_timeout(100)
            state, saved = _state(page)
        assert state is not None and saved == moves, (saved, moves)
        key = (state.round, state.current_player)
        if key != turn_key:
            turn_key, taps, what = key, 0, []
        view = state.view(state.current_player)
        token = choose_move("greedy", view, seed * 1000 + moves)
        folded = _folded_tap(page, state, moves, seed)
        for i, (selector, said) in enumerate(folded):
            if i:
                page.wait_for_selector(selector)
            cost = _tap(page, selector, game)
            what.append(said + "+scroll" * (cost - 1))
            taps += cost
        if not folded:
            leave = _leave_plan(state, token, seed * 1000 + moves + 1)
            if leave and page.query_selector(f'[data-leave="{leave}"]'):
                taps += _tap(page, f'[data-leave="{leave}"]', game)
                what.append(f"leave{leave}")
            cost = _tap(page, f'[data-move="{token}"]', game)
            what.append(token + "+scroll" * (cost - 1))
            taps += cost
        page.wait_for_function(f"+document.body.dataset.novaMoves > {moves}", timeout=60_000)
        game.decisions += 1
        if token == "E" and not folded:
            game.turns.append(taps)
            game.tapped.append(what)
            turn_key, taps, what = None, 0, []
    return game


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m nova bench-taps", description=__doc__)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--turns", type=int, default=10, help="the person's turns per seed")
    ap.add_argument("--opponent", default="greedy", help="the bot in seat 2")
    ap.add_argument("--no-build", action="store_true", help="use _site/ as it is")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each turn's taps")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    if not args.no_build:
        build_site()
    games: list[Game] = []
    with served_site() as url, sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            for seed in args.seeds:
                ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
                page = ctx.new_page()
                g = play_game(page, url, seed, args.opponent, args.turns)
                ctx.close()
                games.append(g)
                print(
                    f"seed {seed}: taps per turn {g.turns} "
                    f"({g.scrolls} scrolls; {g.decisions} decisions tapped)",
                    flush=True,
                )
                if args.verbose:
                    for what in g.tapped:
                        print("   ", " ".join(what))
        finally:
            browser.close()
    turns = [t for g in games for t in g.turns]
    if not turns:
        print("no whole turn played", file=sys.stderr)
        return 1
    q = statistics.quantiles(turns, n=4) if len(turns) > 1 else [turns[0]] * 3
    print(
        f"{len(turns)} turns: median {statistics.median(turns)} taps, "
        f"mean {statistics.mean(turns):.1f}, quartiles {q[0]:g}-{q[2]:g}, "
        f"scrolls {sum(g.scrolls for g in games)}"
    )
    return 0
