"""Games in links from the command line: ``python -m nova link`` (the link of a seeded
game) and ``python -m nova link-stats`` (link lengths over whole games); and the seeded
games the tests and benchmarks encode. The page's codec is :mod:`nova.links`."""

from __future__ import annotations

import argparse
import random
import statistics

from nova.bots import make_bot
from nova.links import decode, encode
from nova.record import GameRecord


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
    args = ap.parse_args(argv)
    print("#" + encode(random_record(args.players, args.seed, args.moves, args.bots)))
    return 0


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
