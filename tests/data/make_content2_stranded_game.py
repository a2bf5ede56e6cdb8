"""Write content2_stranded_game.json: a 2-player greedy game of the lab (seed 1, game 107)
that content 2 played on to the round limit after an Upgrade stranded the last Disrupts
(docs/CALIBRATION.md, 'Bots that end the game'). Run from the repo root with content 2's
rules (``end_check_on_upgrade`` false); the moves are the test's fixture, the bots are not.

    python tests/data/make_content2_stranded_game.py
"""

from __future__ import annotations

import json
from pathlib import Path

from nova.bots import make_bot
from nova.lab.core.game import game_seed
from nova.links import encode
from nova.record import GameRecord
from nova.rules import content_variant, new_game

seed = game_seed(1, 107)
variant = content_variant(2)
s = new_game(players=2, seed=seed, variant=variant)
agents = [make_bot("greedy") for _ in range(2)]
moves, k = [], 0
while not s.is_over():
    seat = s.current_player
    move = agents[seat].choose(s.view(seat), seed * 7_777_777 + k)
    k += 1
    moves.append(move)
    s = s.apply(move)
record = GameRecord(players=2, seed=seed, bots=["greedy", "greedy"], moves=moves, content=2)
out = {
    "_doc": "A content-2 game (2-player greedy, lab seed 1, game 107) that an Upgrade "
    "stranded: content 2 played it on to the round limit; made by make_content2_stranded_game.py",
    "link": encode(record),
    "decisions": len(moves),
    "end_reason": s.end_reason,
    "rounds": s.round,
    "scores": s.scores(),
}
path = Path(__file__).with_name("content2_stranded_game.json")
path.write_text(json.dumps(out, indent=1) + "\n")
print(path, out["end_reason"], out["rounds"], len(moves))
