"""Command line: ``python -m nova <command>`` (the tools the page never runs live in the
``nova_tools`` package, which the site does not ship).

random      play a random game and print its log and scores
bench       engine speed (and bots, if present) next to python-chess in the same run
bench-page  page boot and repaint times next to the bare Pyodide boot (needs the site)
bench-workbench  the workbench's games a minute in Chromium next to the lab's CLI
bench-links  opening a fair link on the page next to a friendly link of a game as long
bench-taps  taps per turn of a greedy player by touch on a 390x844 phone (needs the site)
lab         bot-vs-bot batches for the designer (python -m nova lab --help)
validate    check a variant file for 2, 3 and 4 players (python -m nova validate FILE)
link        print the link fragment of a random game (python -m nova link --help)
link-stats  link lengths over many random games
fair-stats  fair (play by links) link lengths and opening times, next to friendly links
hint        the turns the best bot weighs in a position, with their chances (hint --help)
"""

from __future__ import annotations

import argparse
import random
import sys


def cmd_random(argv: list[str]) -> int:
    from .rules import ContentError, new_game

    ap = argparse.ArgumentParser(prog="python -m nova random", description="a random game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variant", default=None, help="a variant JSON file")
    args = ap.parse_args(argv)
    try:
        s = new_game(players=args.players, seed=args.seed, variant=args.variant)
    except ContentError as exc:
        print(exc, file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    line: list[str] = []
    turn = s.turn
    print(f"# Nova Raiders, {args.players} players, seed {args.seed}; seat {s.turn} starts")
    while not s.is_over():
        move = rng.choice(s.legal_moves())
        line.append(str(move))
        s = s.apply(move)
        if s.turn != turn or s.is_over():
            print(f"seat {turn}: {' '.join(line)}")
            line, turn = [], s.turn
    print(f"# game over ({s.end_reason}) after {s.ply} decisions, round {s.round}")
    for seat, score in enumerate(s.scores()):
        print(f"seat {seat}: {score} points")
    print("winner(s): " + ", ".join(f"seat {w}" for w in s.winners()))
    return 0


def cmd_validate(argv: list[str]) -> int:
    from .rules import ContentError, layout_for

    ap = argparse.ArgumentParser(prog="python -m nova validate", description="check a variant")
    ap.add_argument("variant", nargs="?", default=None, help="a variant JSON file")
    args = ap.parse_args(argv)
    # a problem of the file itself (unreadable, a card's field) is the same at every player
    # count: said once, with the counts it holds for when not all three
    found: dict[str, list[int]] = {}
    for players in (2, 3, 4):
        try:
            layout_for(players, args.variant)
        except ContentError as exc:
            for p in exc.problems:
                found.setdefault(p, []).append(players)
    if found:
        problems = [
            p if counts == [2, 3, 4] else f"{', '.join(map(str, counts))} players: {p}"
            for p, counts in found.items()
        ]
        print("invalid game data:\n  - " + "\n  - ".join(problems), file=sys.stderr)
        return 1
    print(f"{args.variant or 'the default data'}: valid for 2, 3 and 4 players")
    return 0


def cmd_bench(argv: list[str]) -> int:
    from nova_tools.benchmarks.engine import bench_engine

    ap = argparse.ArgumentParser(prog="python -m nova bench")
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args(argv)
    for line in bench_engine(args.seconds):
        print(line, flush=True)
    try:
        from .bots.bench import bench_bots
    except ImportError:
        return 0
    for line in bench_bots():
        print(line, flush=True)
    return 0


def _lazy(module: str, func: str = "main"):
    def run(argv: list[str]) -> int:
        import importlib

        return importlib.import_module(module, __package__).__dict__[func](argv)

    return run


COMMANDS = {
    "random": cmd_random,
    "validate": cmd_validate,
    "bench": cmd_bench,
    "bench-page": _lazy("nova_tools.benchmarks.page"),
    "bench-workbench": _lazy("nova_tools.benchmarks.workbench"),
    "bench-links": _lazy("nova_tools.benchmarks.links"),
    "bench-taps": _lazy("nova_tools.benchmarks.taps"),
    "lab": _lazy(".lab.cli"),
    "link": _lazy("nova_tools.links"),
    "link-stats": _lazy("nova_tools.links", "stats_main"),
    "fair-stats": _lazy("nova_tools.fair.stats"),
    "hint": _lazy("nova_tools.hint"),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in COMMANDS:
        print(__doc__)
        return 0 if not argv or argv[0] in ("-h", "--help") else 2
    return COMMANDS[argv[0]](argv[1:]) or 0


if __name__ == "__main__":
    sys.exit(main())
