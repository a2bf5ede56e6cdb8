"""The designer's balance lab: many seeded bot-vs-bot games, and what they show.

    python -m nova lab --players 3 --bots greedy,greedy,search --games 2000
    python -m nova lab --players 2 --bots greedy --games 1000 \\
        --compare nova/data/variants/cheap-hijack.json

``--bots`` lists one bot per *entry* (one name is repeated for every seat). Entries
rotate round the table from game to game (game g seats entry k at seat (k + g) mod n)
and every game has its own seed, so each entry plays every seat equally often. Each
game is played by fresh bots, so a game depends only on its seed and line-up: the
same command prints the same figures on any number of cores.

Reported: win rate of each entry with its 95% confidence interval (a tie is split
evenly), mean and spread of scores, game length in turns, rounds and Unloads, how
games end (Super-Nova, the round limit, no ships left), stalls (a long run of turns
with no Unload), win rate by turn order (first-seat advantage), and for every card how
often it is played and how the players who played it, or held it at the end, did.
``--compare FILE`` plays the same seeds and line-ups with a variant and shows both
side by side. ``--json`` prints one JSON object instead of tables.

``--scheduler ADDRESS`` plays the games on a Dask cluster (``nova.lab_run``), ``--report DIR``
writes an HTML page of charts (``nova.lab_report``), ``python -m nova lab sweep`` plays a grid
of variant settings (``nova.lab_sweep``) and ``python -m nova lab bench-cluster`` measures
games per minute locally and through a local Dask cluster (docs/LAB.md).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import Counter

from .bots import BOT_NAMES, make_bot
from .rules import ContentError, Kind, layout_for, new_game

STALL_ROUNDS = 5  # a run of this many rounds with no Unload counts as a stall


def _unloading(s) -> bool:
    """An Unload's ship is being chosen: the move about to be played unloads it (R36)."""
    return s.pending is not None and s.pending.kind is Kind.UNLOAD


def game_seed(base: int, g: int) -> int:
    return base * 1_000_003 + g


def play_game(job: tuple) -> dict:
    """Play one game and return what the lab tallies.

    ``job`` is (g, players, bots, budget, variant, base seed).
    """
    g, players, bots, budget, variant, base = job
    seed = game_seed(base, g)
    seat_entry = [(seat - g) % players for seat in range(players)]  # entry k sits at (k + g) % n
    agents = [make_bot(bots[seat_entry[seat]], budget) for seat in range(players)]
    s = new_game(players=players, seed=seed, variant=variant)
    unloads = disrupts = turns = gap = longest_gap = 0
    dry = longest_dry = 0  # rounds in a row with no Shard in play: nothing to unload
    round_had_shard = any(s.pile)
    played: list[Counter] = [Counter() for _ in range(players)]
    think = [0.0] * players
    k = 0
    while not s.is_over():
        seat = s.current_player
        t0 = time.perf_counter()
        move = agents[seat].choose(s.view(seat), seed * 7_777_777 + k)
        think[seat] += time.perf_counter() - t0
        k += 1
        if _unloading(s):
            unloads += 1
            gap = 0
        elif move == "E":
            turns += 1
            gap += 1
            longest_gap = max(longest_gap, gap)
        if move[-1] in "urls" and move[:-1] in s.layout.card_order:
            played[seat][move[:-1]] += 1
            action = s.card_action(move[:-1], move[-1]) if s.pending is None else None
            disrupts += action is not None and "disrupt" in action.names()
        before_round = s.round
        s = s.apply(move)
        round_had_shard = round_had_shard or any(s.pile)
        if s.round != before_round:
            dry = 0 if round_had_shard else dry + 1
            longest_dry = max(longest_dry, dry)
            round_had_shard = any(s.pile)
    lay = s.layout
    held = []
    for p in s.players:
        cards = p.cards()
        held.append(sorted({c for c in cards if c in lay.special}))
    returns = s.returns()
    breakdowns = [s.score_breakdown(p) for p in range(players)]
    scores = [b["total"] for b in breakdowns]
    return {
        "bay_points": [sum(bay["points"] for bay in b["bays"]) for b in breakdowns],
        "special_points": [sum(g["points"] for g in b["specials"]) for b in breakdowns],
        "shards_entered": sum(lay.shard_supply) - sum(s.bag),
        "shards_in_bag": sum(s.bag),
        "shards_banked": sum(len(bay) for p in s.players for bay in p.bays),
        "disrupts": disrupts,
        "longest_dry_rounds": longest_dry,
        "g": g,
        "first": s.first,
        "ender": s.turn,  # the seat in whose turn the game ended
        "seat_entry": seat_entry,
        "returns": returns,
        "scores": scores,
        "turns": turns,
        "rounds": s.round,
        "decisions": s.ply,
        "unloads": unloads,
        "longest_gap_rounds": longest_gap / players,
        "end": s.end_reason,
        "played": [dict(c) for c in played],
        "held": held,
        "think": think,
    }


def run_games(
    players: int,
    bots: list[str],
    games: int,
    budget: int | None,
    variant: str | dict | None,
    base: int,
    workers: int,
    progress: bool = False,
    scheduler: str | None = None,
) -> tuple[list[dict], float]:
    """One batch of games, in game order, and the seconds it took (``nova.lab_run``)."""
    from .lab_run import Batch, read_variant, run_batches

    data = read_variant(variant) if isinstance(variant, str) else variant
    batch = Batch(players, tuple(bots), games, budget, data, base)
    (results,), elapsed = run_batches([batch], workers, scheduler, progress)
    return results, elapsed


def wins_note(results: list[list[dict]]) -> str:
    """Wins by entry so far, per batch, beside the progress bar."""
    parts = []
    for rs in results:
        if rs:
            wins = [0.0] * len(rs[0]["seat_entry"])
            for r in rs:
                for seat, k in enumerate(r["seat_entry"]):
                    wins[k] += r["returns"][seat]
            parts.append("/".join(f"{w:g}" for w in wins))
    return "wins " + " | ".join(parts)


def _games(gs: list[int] | None, most: int = 4) -> str:
    """Game numbers for a report cell: the first few, and how many more."""
    if not gs:
        return "-"
    text = " ".join(map(str, gs[:most]))
    return text + (f" +{len(gs) - most}" if len(gs) > most else "")


def wilson(xs: list[float]) -> tuple[float, float, float]:
    """A win rate (ties count half) and its 95% Wilson interval, sound near 0% and 100%."""
    n = len(xs)
    if n == 0:
        return 0.0, 0.0, 0.0
    p = sum(xs) / n
    z2 = 1.96**2
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = 1.96 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def spread(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    m = sum(xs) / n
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0


def summarize(results: list[dict], players: int, bots: list[str], elapsed: float) -> dict:
    n = len(results)
    entries = range(players)
    # per entry (the line-up position), then per turn position (0 = the first player)
    entry_ret = [[r["returns"][r["seat_entry"].index(k)] for r in results] for k in entries]
    entry_score = [[r["scores"][r["seat_entry"].index(k)] for r in results] for k in entries]
    pos_ret = [[r["returns"][(r["first"] + p) % players] for r in results] for p in entries]
    wins = [sum(x) for x in entry_ret]
    win_ci = [wilson(x) for x in entry_ret]
    pos_ci = [wilson(x) for x in pos_ret]
    all_scores = [sc for r in results for sc in r["scores"]]
    ends = Counter(r["end"] for r in results)
    stalls = sum(1 for r in results if r["longest_gap_rounds"] >= STALL_ROUNDS)
    # cards: plays per game, and how the players who played / held them did
    card_plays: Counter = Counter()
    card_players: dict[str, list[float]] = {}
    card_holders: dict[str, list[float]] = {}
    for r in results:
        for seat in range(players):
            for cid, times in r["played"][seat].items():
                card_plays[cid] += times
                card_players.setdefault(cid, []).append(r["returns"][seat])
            for cid in r["held"][seat]:
                card_holders.setdefault(cid, []).append(r["returns"][seat])
    cards = {}
    for cid in sorted(set(card_plays) | set(card_holders), key=lambda c: (c[0], int(c[1:]))):
        pl, ho = card_players.get(cid, []), card_holders.get(cid, [])
        cards[cid] = {
            "plays_per_game": card_plays[cid] / n,
            "played_in_games": len(pl) / n,
            "players_win_rate": sum(pl) / len(pl) if pl else None,
            "holders_win_rate": sum(ho) / len(ho) if ho else None,
            "held_in_games": len(ho) / n,
        }
    arc = game_arc(results, players)
    think = [sum(r["think"][r["seat_entry"].index(k)] for r in results) for k in entries]
    decisions = sum(r["decisions"] for r in results)
    return {
        "games": n,
        "players": players,
        "bots": list(bots),
        "wins": wins,
        "win_rate": [c[0] for c in win_ci],
        "win_ci95": [[c[1], c[2]] for c in win_ci],
        "mean_score": [spread(x)[0] for x in entry_score],
        "score_sd": [spread(x)[1] for x in entry_score],
        "score_all": dict(zip(("mean", "sd"), spread(all_scores), strict=True)),
        "turn_position_win_rate": [c[0] for c in pos_ci],
        "turn_position_ci95": [[c[1], c[2]] for c in pos_ci],
        "first_seat_advantage": pos_ci[0][0] - 1 / players,
        "turns": dict(zip(("mean", "sd"), spread([r["turns"] for r in results]), strict=True)),
        "rounds": dict(zip(("mean", "sd"), spread([r["rounds"] for r in results]), strict=True)),
        "unloads": dict(zip(("mean", "sd"), spread([r["unloads"] for r in results]), strict=True)),
        "decisions_per_game": decisions / max(n, 1),
        "end_reasons": {k: v / n for k, v in sorted(ends.items())},
        # which games did not end at Super-Nova, so that each can be replayed on its own
        # (play_game((g, players, bots, budget, variant, seed))): the rare ones are the point
        "end_games": {
            why: sorted(r["g"] for r in results if r["end"] == why)
            for why in sorted(ends)
            if why != "supernova"
        },
        "stall_rounds": STALL_ROUNDS,
        "stalled_games": stalls / max(n, 1),
        "longest_gap_rounds": spread([r["longest_gap_rounds"] for r in results])[0],
        "cards": cards,
        "think_ms_per_decision": [1000 * t / max(decisions / players, 1) for t in think],
        "arc": arc,
        "elapsed_s": elapsed,
        "games_per_minute": 60 * n / elapsed if elapsed > 0 else None,
    }


def quantiles(xs: list[float]) -> dict:
    """Mean, median, 10th and 90th percentile, least and most (nearest rank)."""
    if not xs:
        return {"n": 0}
    ys = sorted(xs)

    def rank(q: float) -> float:
        return ys[min(len(ys) - 1, max(0, math.ceil(q * len(ys)) - 1))]

    return {
        "n": len(ys),
        "mean": sum(ys) / len(ys),
        "median": rank(0.5),
        "p10": rank(0.1),
        "p90": rank(0.9),
        "min": ys[0],
        "max": ys[-1],
    }


def _ender(r: dict, players: int) -> int:
    """The seat in whose turn a game ended; a tally from before "ender" was kept derives it:
    every finished turn counts, and the last turn, cut short by the end, does not."""
    return r["ender"] if "ender" in r else (r["first"] + r["turns"]) % players


def game_arc(results: list[dict], players: int) -> dict:
    """How the games went: ends, length, Shards, where points came from, the track's movers."""
    n = max(len(results), 1)
    by_end: dict[str, list[float]] = {}
    for r in results:
        by_end.setdefault(r["end"], []).append(r["rounds"])

    def points(rows: list[tuple[dict, int]]) -> dict:
        bays = sum(r["bay_points"][seat] for r, seat in rows)
        specials = sum(r["special_points"][seat] for r, seat in rows)
        count = max(len(rows), 1)
        return {
            "bays": bays / count,
            "specials": specials / count,
            "bay_share": bays / (bays + specials) if bays + specials else None,
        }

    everyone = [(r, seat) for r in results for seat in range(players)]
    winners = [(r, seat) for r in results for seat in range(players) if r["returns"][seat] > 0]
    # Super-Nova ends the game at once (R49), in someone's turn: who brings it, and whether
    # they win, shows a seat's edge that the win rates alone do not explain
    novas = [r for r in results if r["end"] == "supernova"]
    enders = [_ender(r, players) for r in novas]
    nova_by_position = [
        sum(1 for r, e in zip(novas, enders, strict=True) if (e - r["first"]) % players == p)
        / max(len(novas), 1)
        for p in range(players)
    ]
    ender_won = (
        sum(r["returns"][e] for r, e in zip(novas, enders, strict=True)) / len(novas)
        if novas
        else None
    )
    return {
        "ends": {end: len(xs) / n for end, xs in sorted(by_end.items())},
        "rounds": quantiles([r["rounds"] for r in results]),
        "supernova_by_turn_position": nova_by_position,
        "supernova_bringer_wins": ender_won,
        # the whole distribution, for the report's histogram (keys are JSON strings)
        "rounds_histogram": {
            str(k): v for k, v in sorted(Counter(r["rounds"] for r in results).items())
        },
        "rounds_by_end": {end: quantiles(xs) for end, xs in sorted(by_end.items())},
        "shards_entered": quantiles([r["shards_entered"] for r in results]),
        "shards_in_bag": quantiles([r["shards_in_bag"] for r in results]),
        "shards_banked": quantiles([r["shards_banked"] for r in results]),
        "points_all": points(everyone),
        "points_winners": points(winners),
        "unloads": quantiles([r["unloads"] for r in results]),
        "disrupts": quantiles([r["disrupts"] for r in results]),
        "longest_no_unload_rounds": quantiles([r["longest_gap_rounds"] for r in results]),
        "longest_dry_rounds": quantiles([r["longest_dry_rounds"] for r in results]),
    }


def arc_lines(cols: list[dict], row) -> None:
    """The game's arc as rows of the report (``row(label, fn)`` adds one)."""

    def q(fn) -> callable:
        return lambda c: (
            f"{fn(c)['median']:g} [{fn(c)['p10']:g}-{fn(c)['p90']:g}]" if fn(c)["n"] else "-"
        )

    row("rounds: median [10%-90%]", q(lambda c: c["arc"]["rounds"]))
    row(
        "rounds: least / most",
        lambda c: f"{c['arc']['rounds']['min']} / {c['arc']['rounds']['max']}",
    )
    ends = sorted(set().union(*(c["arc"]["rounds_by_end"] for c in cols)))
    for end in ends:
        row(
            f"  rounds when ending by {end}",
            lambda c, e=end: (
                q(lambda c2: c2["arc"]["rounds_by_end"][e])(c)
                if e in c["arc"]["rounds_by_end"]
                else "-"
            ),
        )
    row("Shards entered play (of 30)", q(lambda c: c["arc"]["shards_entered"]))
    row("Shards left in the bag", q(lambda c: c["arc"]["shards_in_bag"]))
    row("Shards banked in Cargo Bays", q(lambda c: c["arc"]["shards_banked"]))
    for who in ("winners", "all"):
        row(
            f"points {who}: bays / Specials",
            lambda c, w=who: (
                f"{c['arc'][f'points_{w}']['bays']:.1f} / {c['arc'][f'points_{w}']['specials']:.1f}"
                f" ({_pct(c['arc'][f'points_{w}']['bay_share']).strip()})"
            ),
        )
    for p in range(len(cols[0]["turn_position_win_rate"])):
        row(
            f"Super-Nova in turn position {p + 1}'s turn",
            lambda c, p=p: _pct(c["arc"]["supernova_by_turn_position"][p]),
        )
    row("  and that player wins", lambda c: _pct(c["arc"]["supernova_bringer_wins"]))
    row("Unloads per game", q(lambda c: c["arc"]["unloads"]))
    row("Disrupts per game", q(lambda c: c["arc"]["disrupts"]))
    row("longest run without Unload (rds)", q(lambda c: c["arc"]["longest_no_unload_rounds"]))
    row("longest run, no Shard in play", q(lambda c: c["arc"]["longest_dry_rounds"]))


def _pct(x: float | None) -> str:
    return "   -  " if x is None else f"{100 * x:5.1f}%"


def report_lines(base: dict, other: dict | None, names: tuple[str, str]) -> list[str]:
    """The tables, one column per variant."""
    cols = [base] + ([other] if other else [])
    head = f"{'':34}" + "".join(f"{n[:22]:>24}" for n in names[: len(cols)])
    lines = [head]

    def row(label: str, fn) -> None:
        lines.append(f"{label:34}" + "".join(f"{fn(c):>24}" for c in cols))

    n = base["players"]
    row("games", lambda c: str(c["games"]))
    for k in range(n):
        row(
            f"entry {k} ({base['bots'][k]}) wins",
            lambda c, k=k: (
                f"{_pct(c['win_rate'][k])} [{_pct(c['win_ci95'][k][0]).strip()}"
                f"-{_pct(c['win_ci95'][k][1]).strip()}]"
            ),
        )
    for k in range(n):
        row(
            f"entry {k} score mean (sd)",
            lambda c, k=k: f"{c['mean_score'][k]:.1f} ({c['score_sd'][k]:.1f})",
        )
    for p in range(n):
        row(
            f"turn position {p + 1} wins",
            lambda c, p=p: (
                f"{_pct(c['turn_position_win_rate'][p])} "
                f"[{_pct(c['turn_position_ci95'][p][0]).strip()}"
                f"-{_pct(c['turn_position_ci95'][p][1]).strip()}]"
            ),
        )
    row("first-seat advantage", lambda c: f"{100 * c['first_seat_advantage']:+.1f} pts")
    row("turns per game mean (sd)", lambda c: f"{c['turns']['mean']:.1f} ({c['turns']['sd']:.1f})")
    row(
        "rounds per game mean (sd)",
        lambda c: f"{c['rounds']['mean']:.1f} ({c['rounds']['sd']:.1f})",
    )
    reasons = sorted(set().union(*(c["end_reasons"] for c in cols)))
    for why in reasons:
        row(f"ends by {why}", lambda c, w=why: _pct(c["end_reasons"].get(w, 0.0)))
    for why in reasons:
        if why != "supernova" and any(c.get("end_games", {}).get(why) for c in cols):
            row(f"  games ending by {why}", lambda c, w=why: _games(c.get("end_games", {}).get(w)))
    row(
        f"stalled (no Unload {STALL_ROUNDS}+ rounds)",
        lambda c: _pct(c["stalled_games"]),
    )
    arc_lines(cols, row)
    row("games per minute", lambda c: f"{c['games_per_minute'] or 0:.0f}")
    lines.append("")
    lines.append("cards: plays per game / win rate of players who played it / of holders at end")
    ids = sorted(set().union(*(c["cards"] for c in cols)), key=lambda x: (x[0], int(x[1:])))
    for cid in ids:
        cells = []
        for c in cols:
            d = c["cards"].get(cid)
            if d is None:
                cells.append(f"{'-':>24}")
            else:
                cells.append(
                    f"{d['plays_per_game']:5.2f} {_pct(d['players_win_rate'])} "
                    f"{_pct(d['holders_win_rate'])}".rjust(24)
                )
        lines.append(f"  {cid:32}" + "".join(cells))
    return lines


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1 (a batch of no games has no figures)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n}: at least 1")
    return n


def add_run_args(ap: argparse.ArgumentParser) -> None:
    """The options every lab command shares: who plays, how many games, where they run."""
    ap.add_argument(
        "--bots", default="greedy", help=f"comma-separated, one per seat ({', '.join(BOT_NAMES)})"
    )
    ap.add_argument("--games", type=positive, default=200)
    ap.add_argument("--budget", type=positive, default=None, help="search bot simulations/turn")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=positive, default=os.cpu_count() or 1, help="local processes")
    ap.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="run the games on a Dask cluster (e.g. tcp://127.0.0.1:8786) instead of locally",
    )
    ap.add_argument("--report", default=None, metavar="DIR", help="write DIR/index.html, charts")
    ap.add_argument("--json", action="store_true", help="print one JSON object")


def parse_bots(spec: str, players: int) -> list[str]:
    """The line-up for ``players`` seats; ValueError with the reason when it is wrong."""
    bots = [b.strip() for b in spec.split(",") if b.strip()]
    if len(bots) == 1:
        bots *= players
    if len(bots) != players:
        raise ValueError(f"--bots: {len(bots)} names for {players} players")
    for b in bots:
        if b.partition(":")[0] not in BOT_NAMES:
            raise ValueError(f"--bots: unknown bot {b!r} ({', '.join(BOT_NAMES)})")
    return bots


def write_report_or_fail(directory: str, **kwargs) -> bool:
    """Write the HTML report; False (and a message) when it cannot be written."""
    try:
        from .lab_report import write_report
    except ImportError as exc:
        print(f"--report needs matplotlib ({exc}): pip install -e '.[lab]'", file=sys.stderr)
        return False
    try:
        index = write_report(directory, **kwargs)
    except OSError as exc:
        print(f"--report {directory}: {exc}", file=sys.stderr)
        return False
    print(f"report: {index}", file=sys.stderr)
    return True


def main(argv: list[str]) -> int:
    if argv and argv[0] == "sweep":
        from .lab_sweep import main as sweep_main

        return sweep_main(argv[1:])
    if argv and argv[0] == "bench-cluster":
        from .benchmarks.lab_cluster import main as bench_main

        return bench_main(argv[1:])
    ap = argparse.ArgumentParser(
        prog="python -m nova lab",
        description=__doc__.split("\n\n")[0]
        + " Also: python -m nova lab sweep --help; python -m nova lab bench-cluster --help.",
    )
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--variant", default=None, help="a variant JSON file")
    ap.add_argument("--compare", default=None, help="a second variant to play the same games with")
    add_run_args(ap)
    args = ap.parse_args(argv)
    try:
        bots = parse_bots(args.bots, args.players)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        for v in (args.variant, args.compare):
            layout_for(args.players, v)
    except ContentError as exc:
        print(exc, file=sys.stderr)
        return 2
    from .lab_run import Batch, LabSetupError, read_variant, run_batches

    keys = ["base"] + (["compare"] if args.compare else [])
    paths = {"base": args.variant, "compare": args.compare}
    batches = [
        Batch(args.players, tuple(bots), args.games, args.budget, read_variant(paths[k]), args.seed)
        for k in keys
    ]
    if not args.json:
        what = " and ".join(paths[k] or "default rules" for k in keys)
        where = f"on the Dask cluster at {args.scheduler}" if args.scheduler else "locally"
        print(f"playing {args.games} games ({what}) {where}...", file=sys.stderr)
    try:
        results, elapsed = run_batches(
            batches, args.workers, args.scheduler, progress=not args.json, note=wins_note
        )
    except LabSetupError as exc:
        print(exc, file=sys.stderr)
        return 2
    total = max(1, sum(len(rs) for rs in results))
    out = {}
    for key, rs in zip(keys, results, strict=True):
        # one stream played every batch: each gets its share of the time (games/min = the run's)
        out[key] = summarize(rs, args.players, bots, elapsed * len(rs) / total)
        out[key]["variant"] = paths[key]
    summary = dict(out["base"])
    summary.update(seed=args.seed, budget=args.budget, workers=args.workers)
    summary["scheduler"] = args.scheduler
    if "compare" in out:
        summary["compare"] = out["compare"]
    names = (
        os.path.basename(args.variant or "default rules"),
        os.path.basename(args.compare or ""),
    )
    title = (
        f"Nova Raiders lab: {args.players} players, bots {', '.join(bots)}, seed {args.seed}"
        + (f", budget {args.budget}" if args.budget else "")
    )
    lines = report_lines(out["base"], out.get("compare"), names)
    if args.report and not write_report_or_fail(
        args.report,
        title=title,
        columns=[(names[i], out[k]) for i, k in enumerate(keys)],
        table="\n".join(lines),
    ):
        return 2
    if args.json:
        print(json.dumps(summary, indent=1, sort_keys=True))
        return 0
    print(title)
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
