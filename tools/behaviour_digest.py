"""The engine's and the bots' behaviour as a few digests, to compare two versions of the code
(a refactor must not change them): ``python tools/behaviour_digest.py [--games N]``.

- the move-list SHA-1 of 12 seeded bot games (greedy and search:40 at 2, 3 and 4 players,
  two seeds each), played as the lab plays a game (nova.lab.core.game);
- one SHA-1 over ``legal_moves()`` (and the position, and the view of the deciding seat)
  at every state of N random games (300 by default), seeded.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nova.lab.core.game import GameJob, play_game  # noqa: E402
from nova.rules import new_game  # noqa: E402


def bot_games() -> list[tuple[str, str]]:
    out = []
    for bot in ("greedy", "search:40"):
        for players in (2, 3, 4):
            for g in range(2):
                job = GameJob(g, players, (bot,) * players, None, None, 7)
                rec = play_game(job)
                out.append((f"{bot} {players}p game {g}", rec.moves_sha1))
    return out


VARIANTS = (
    "content-1.json",
    "content-2.json",
    "new-specials.json",
    "footnote-specials.json",
    "b2-unload.json",
    "short-track-2-3.json",
)


def random_games(n: int, views: bool, variant: dict | None = None) -> str:
    h = hashlib.sha1()
    for g in range(n):
        rnd = random.Random(g)
        s = new_game(players=2 + g % 3, seed=g, variant=variant)
        while not s.is_over():
            legal = s.legal_moves()
            h.update(" ".join(map(str, legal)).encode() + b"\n")
            if views:
                h.update(s.position().encode())
                h.update(json.dumps(s.view(s.current_player).to_json(), sort_keys=True).encode())
            s = s.apply(rnd.choice(legal))
        h.update(json.dumps(s.scores()).encode())
    return h.hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--no-bots", action="store_true")
    args = ap.parse_args()
    print(f"legal_moves over {args.games} random games: {random_games(args.games, False)}")
    print(f"  with positions and views: {random_games(args.games // 3, True)}")
    data = Path(__file__).resolve().parent.parent / "nova" / "data" / "variants"
    for name in VARIANTS:
        variant = json.loads((data / name).read_text())
        print(f"  under {name}: {random_games(args.games // 3, True, variant)}")
    if not args.no_bots:
        for name, sha in bot_games():
            print(f"{name}: {sha}")


if __name__ == "__main__":
    main()
