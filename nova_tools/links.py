"""Games in links from the command line: ``python -m nova link`` (the link of a seeded
game) and ``python -m nova link-stats`` (link lengths over whole games); and the seeded
games the tests and benchmarks encode. The page's codec is :mod:`nova.links`."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys

from nova.bots import make_bot
from nova.links import decode, encode
from nova.record import SEAT_KINDS, GameRecord
from nova.rules import ContentError, layout_for


def random_record(
    players: int, seed: int, moves: int | None = None, bot: str = "random"
) -> GameRecord:
    """A seeded game: ``moves`` decisions (all of them to the end by default).

    Uniformly random decisions, or those of ``bot`` ("greedy", "search") at every seat.
    """
    record = GameRecord(players=players, seed=seed)
    rng = random.Random(seed)
    s = record.initial_state()
    agents = None
    if bot != "random":
        agents = [make_bot(bot) for _ in range(players)]
    while not s.is_over() and (moves is None or len(record.moves) < moves):
        move: str
        if agents is None:
            move = rng.choice(s.legal_moves())
        else:
            seat = s.current_player
            move = agents[seat].choose(s.view(seat), seed * 7919 + len(record.moves))
        record.moves.append(str(move))
        s = s.apply(move)
    return record


def main(argv: list[str] | None = None) -> int:
    """``python -m nova link``: print the fragment of a random game."""
    ap = argparse.ArgumentParser(
        prog="python -m nova link", description="the link fragment of a seeded random game"
    )
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--moves", type=int, default=None, help="decisions to play (default: all)")
    ap.add_argument("--bots", default="random", help="who decides: random, greedy or search")
    ap.add_argument(
        "--variant",
        default=None,
        metavar="FILE",
        help="a new game under this variant, to hand to a playtester: no moves, seat 1 a "
        "person, the others --seats (the page says which variant it plays)",
    )
    ap.add_argument(
        "--seats",
        default="pilot",
        help="with --variant: who plays seats 2 and on ('' for people, or a level such as "
        "pilot; comma-separated for one per seat)",
    )
    ap.add_argument("--page", default="", help="the page's address, to print a whole link")
    args = ap.parse_args(argv)
    if args.variant is not None:
        try:
            record = variant_record(args.variant, args.players, args.seed, args.seats)
        except (OSError, ValueError, ContentError) as exc:
            print(f"--variant {args.variant}: {exc}", file=sys.stderr)
            return 2
    else:
        record = random_record(args.players, args.seed, args.moves, args.bots)
    print(args.page + "#" + encode(record))
    return 0


def variant_record(path: str, players: int, seed: int, seats: str) -> GameRecord:
    """A new game (no moves) under the variant file at ``path``: seat 1 a person, the others
    as ``seats`` says; ValueError or ContentError (its problems) when it cannot be played."""
    with open(path, encoding="utf-8") as fh:
        variant = json.load(fh)
    if not isinstance(variant, dict):
        raise ValueError("a variant file holds one JSON object")
    layout_for(players, variant)  # the content's own checks, before anyone opens the link
    kinds = [k.strip() for k in seats.split(",")] if seats else [""]
    if len(kinds) == 1:
        kinds *= players - 1
    if len(kinds) != players - 1 or any(k not in SEAT_KINDS for k in kinds):
        known = ", ".join(k for k in SEAT_KINDS if k)
        raise ValueError(f"--seats {seats!r}: {players - 1} of '' (a person) or {known}")
    return GameRecord(players=players, seed=seed, variant=variant, bots=["", *kinds])


def link_stats(games: int, seed: int = 0, bot: str = "random") -> list[str]:
    """Lines of link-length figures over ``games`` whole games per player count."""
    lines = []
    for players in (2, 3, 4):
        lengths, moves = [], []
        for g in range(games):
            record = random_record(players, seed + g, bot=bot)
            fragment = encode(record)
            if decode(fragment) != record:
                raise AssertionError(f"round trip failed: {players} players, seed {seed + g}")
            lengths.append(len(fragment) + 1)  # with the '#'
            moves.append(len(record.moves))
        lines.append(
            f"{players} players: link length median {statistics.median(lengths):.0f}, "
            f"worst {max(lengths)} characters (limit 2000); "
            f"moves median {statistics.median(moves):.0f}, most {max(moves)}; {games} {bot} games"
        )
    return lines


def stats_main(argv: list[str] | None = None) -> int:
    """``python -m nova link-stats``: link lengths of whole random games."""
    ap = argparse.ArgumentParser(
        prog="python -m nova link-stats", description="link lengths over random whole games"
    )
    ap.add_argument("--games", type=int, default=100, help="games per player count")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game")
    ap.add_argument("--bots", default="random", help="who plays: random, greedy or search")
    args = ap.parse_args(argv)
    for line in link_stats(args.games, args.seed, args.bots):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
