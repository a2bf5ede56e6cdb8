"""Writes content1_games.json: games played by the first rules content, as its links and saves.

Run against a checkout of the last commit with content 1 (bc6f345), not against this tree:

    git worktree add /tmp/content1 bc6f345
    python tests/data/make_content1_games.py /tmp/content1 tests/data/content1_games.json
"""

import hashlib
import json
import sys

sys.path.insert(0, sys.argv[1])
from nova.links import encode, random_record  # noqa: E402

DOC = (
    "Games played and shared by the first rules content (links n1., saves v1), made by "
    "make_content1_games.py with the code of commit bc6f345. They must open and replay "
    "exactly, with the same legal decisions at every step."
)
out = []
for players, seed, moves, bot in [
    (2, 11, None, "random"),
    (3, 12, None, "random"),
    (4, 13, None, "random"),
    (2, 21, None, "greedy"),
    (3, 22, None, "greedy"),
    (4, 23, 300, "greedy"),
]:
    r = random_record(players, seed, moves, bot)
    states = r.states()
    h = hashlib.sha1()
    for s in states[:-1]:
        h.update(" ".join(sorted(map(str, s.legal_moves()))).encode())
        h.update(b"|")
    last = states[-1]
    out.append(
        {
            "link": "#" + encode(r),
            "save": r.to_dict(),
            "players": players,
            "bot": bot,
            "decisions": len(r.moves),
            "legal_sha1": h.hexdigest(),
            "scores": last.scores(),
            "over": last.is_over(),
            "end_reason": last.end_reason,
        }
    )
json.dump(
    {
        "_doc": DOC,
        "games": out,
    },
    open(sys.argv[2], "w"),
)
