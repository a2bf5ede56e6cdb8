"""Write dragging_endgames.json: three greedy lab games (content 3) that ran to the round limit
as endgames: the seat behind held the last Shards and kept them from the seat ahead, since
the bots counted the limit as a draw and the end as a loss (docs/CALIBRATION.md, "The round
limit never reached"). Each is kept up to the start of its ``START`` round, where the
endgame had begun; the bots of the time played them so far (the bots of this change play
the same decisions up to round 30), the test lets today's bots play on.

    python tests/data/make_dragging_endgames.py
"""

from __future__ import annotations

import json
from pathlib import Path

from nova.bots import make_bot
from nova.lab.core.game import game_seed
from nova.links import encode
from nova.record import GameRecord
from nova.rules import new_game

START = 16
GAMES = [(2, 2, 261), (4, 1, 109), (4, 1, 112)]  # (players, lab seed, game)

out = {
    "_doc": "Greedy lab games (players, lab seed, game) that reached the round limit with the "
    f"bots of content 3, cut at the start of round {START}; made by make_dragging_endgames.py",
    "games": [],
}
for players, base, g in GAMES:
    seed = game_seed(base, g)
    s = new_game(players=players, seed=seed)
    agents = [make_bot("greedy") for _ in range(players)]
    moves, k = [], 0
    while s.round < START:
        seat = s.current_player
        move = agents[seat].choose(s.view(seat), seed * 7_777_777 + k)
        k += 1
        moves.append(move)
        s = s.apply(move)
    record = GameRecord(players=players, seed=seed, bots=["greedy"] * players, moves=moves)
    out["games"].append(
        {
            "lab": {"players": players, "seed": base, "game": g},
            "link": encode(record),
            "decisions": len(moves),
            "track": s.track_pos,
            "scores": s.scores(),
        }
    )
    print(players, base, g, len(moves), s.round, s.track_pos, s.scores())
path = Path(__file__).with_name("dragging_endgames.json")
path.write_text(json.dumps(out, indent=1) + "\n")
