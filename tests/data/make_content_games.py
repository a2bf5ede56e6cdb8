"""Writes a fixture of games played by one rules content, as its links and saves.

Run against a checkout of the last commit with that content, not against this tree:

    git worktree add /tmp/content1 bc6f345
    python tests/data/make_content_games.py /tmp/content1 tests/data/content1_games.json 1 bc6f345
    git worktree add /tmp/content3 a2c67e2
    python tests/data/make_content_games.py /tmp/content3 tests/data/content3_games.json 3 a2c67e2
    python tests/data/make_content_games.py . tests/data/content4_games.json 4 c6af327
"""

import hashlib
import json
import sys

checkout, out_path, version, commit = sys.argv[1:5]
sys.path.insert(0, checkout)
from nova.links import encode  # noqa: E402
from nova_tools.links import random_record  # noqa: E402

DOC = (
    f"Games played and shared by rules content {version}, made by make_content_games.py "
    f"with the code of commit {commit}. They must open and replay exactly, with the same "
    "legal decisions at every step."
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
with open(out_path, "w") as fh:
    json.dump({"_doc": DOC, "games": out}, fh)
