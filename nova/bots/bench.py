"""Bot speed for ``python -m nova bench``: lab throughput and search speed.

Each figure is printed next to a reference measured in the same run on the same
machine (CPU time of this process, so other load on the machine does not skew the
ratio): greedy games per minute next to random-bot games per minute (the engine's
own floor for a whole game played through views), and the search bot's positions per
second next to the engine's raw random-playout decisions per second.
"""

from __future__ import annotations

import random
import time

from ..rules import new_game
from . import make_bot
from .search import SearchBot


def _games_per_minute(bot: str, seconds: float, players: int = 2) -> tuple[float, int]:
    start = time.process_time()
    games = 0
    while time.process_time() - start < seconds or games == 0:
        s = new_game(players=players, seed=games)
        agents = [make_bot(bot) for _ in range(players)]
        k = 0
        while not s.is_over():
            seat = s.current_player
            s = s.apply(agents[seat].choose(s.view(seat), games * 100_000 + k))
            k += 1
        games += 1
    return 60 * games / (time.process_time() - start), games


def _search_speed(searches_wanted: int = 6) -> tuple[float, float, int]:
    """(positions/s, seconds per search, searches) of the search bot at its default budget."""
    s = new_game(players=2, seed=11)
    greedy = [make_bot("greedy"), make_bot("greedy")]
    k = 0
    while s.round < 5:  # a mid-game position with Shards about
        seat = s.current_player
        s = s.apply(greedy[seat].choose(s.view(seat), k))
        k += 1
    positions = searches = 0
    elapsed = 0.0
    while searches < searches_wanted:
        while s.pending is not None or s.spawn_shard:
            s = s.apply(s.legal_moves()[0])
        bot = SearchBot()
        view = s.view(s.current_player)
        t0 = time.process_time()
        bot.choose(view, searches)
        elapsed += time.process_time() - t0
        positions += bot.positions
        searches += 1
        s = s.apply("E")
    return positions / elapsed, elapsed / searches, searches


def _raw_decisions_per_second(seconds: float) -> float:
    rng = random.Random(0)
    n = 0
    start = time.process_time()
    g = 0
    while time.process_time() - start < seconds:
        s = new_game(players=2, seed=g)
        g += 1
        while not s.is_over():
            s = s.apply(rng.choice(s.legal_moves()))
            n += 1
    return n / (time.process_time() - start)


def bench_bots(seconds: float = 4.0) -> list[str]:
    """Printed lines: bot figures next to their same-run references."""
    rand, rg = _games_per_minute("random", seconds / 2)
    greedy, gg = _games_per_minute("greedy", seconds)
    pos, per_search, n = _search_speed()
    raw = _raw_decisions_per_second(seconds / 2)
    return [
        f"lab throughput, 2 players, one core (CPU time): greedy bots {greedy:,.0f} games/min "
        f"({gg} games) vs random bots {rand:,.0f} games/min ({rg} games) (reference)",
        f"search bot: {pos:,.0f} positions/s, {per_search:.2f} s per search at the default "
        f"budget ({n} searches) vs raw engine {raw:,.0f} random decisions/s (reference)",
    ]
