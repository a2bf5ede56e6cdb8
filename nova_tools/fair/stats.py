"""``python -m nova fair-stats``: how long fair links get along whole games, and how long
one takes to open, each next to friendly links measured in the same run (docs/LINKS.md,
"Fair links: measured")."""

from __future__ import annotations

import argparse
import statistics
import time

from nova import links
from nova.fair.wire import decode, encode, forget
from nova_tools.links import random_record

from .simulate import honest_record


def _uniform(legal: list[str], rng) -> str:
    return rng.choice(legal)  # as friendly links' random games choose


def _fresh_decode(link: str) -> None:
    forget()  # the page reads each link once: time that, not the cache
    decode(link)


def _ms(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best * 1000


def fair_stats(games: int, seed: int = 0) -> list[str]:
    lines = []
    for players in (2, 3, 4):
        fair_len, end_len, friendly_len, fair_ms, friendly_ms, moves = [], [], [], [], [], []
        for g in range(games):
            record, secrets = honest_record(players, seed + g, chooser=_uniform)
            link = encode(record)
            done = record
            for seat, k in enumerate(secrets):
                done = done.with_secret(seat, k)
            end = encode(done)
            assert decode(link).record == record
            fair_len.append(len(link) + 1)
            end_len.append(len(end) + 1)
            moves.append(len(record.moves))
            friendly = random_record(players, seed + g)
            flink = links.encode(friendly)
            friendly_len.append(len(flink) + 1)
            if g < 5:
                fair_ms.append(_ms(lambda link=link: _fresh_decode(link)))
                friendly_ms.append(_ms(lambda flink=flink: links.decode(flink)))
        lines.append(
            f"{players} players: fair link median {statistics.median(fair_len):.0f}, worst "
            f"{max(fair_len)} characters; with the end's secrets worst {max(end_len)} (limit "
            f"2000); friendly median {statistics.median(friendly_len):.0f}, worst "
            f"{max(friendly_len)}; moves median {statistics.median(moves):.0f}; "
            f"{games} random games"
        )
        lines.append(
            f"  opening a whole game's link (CPython, best of 3, median of 5 games): fair "
            f"{statistics.median(fair_ms):.0f} ms, friendly {statistics.median(friendly_ms):.0f} ms"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nova fair-stats", description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for line in fair_stats(args.games, args.seed):
        print(line)
    return 0
