"""``python -m nova hint POSITION``: the turns the best bot weighs for the seat to decide,
each with its chance of winning and what it does, as the page's hint shows them.

POSITION is a position in the notation of docs/NOTATION.md (``State.from_position``): the
text itself, its lines joined by `` | `` as the lab prints them, or a file holding it, or
``-`` to read it from standard input. The search's budget is a number of simulations
(deterministic for a seed; the page thinks for a time instead).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from nova.bots import DEFAULT_BUDGET, make_bot
from nova.bots.explain import SHOWN, weigh
from nova.bots.search import SearchBot
from nova.render.hint import weighed_turns
from nova.rules import ContentError, State
from nova.rules.position import SEATS, PositionError


def read_position(arg: str, variant: str | None) -> State:
    """The state ``arg`` writes: the text, a file holding it, or ``-`` for standard input."""
    if arg == "-":
        text = sys.stdin.read()
    elif "\n" not in arg and " | " not in arg and Path(arg).is_file():
        text = Path(arg).read_text()
    else:
        text = arg
    return State.from_position(text, variant)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m nova hint", description=__doc__.split("\n\n")[0])
    ap.add_argument("position", help="a position (text, a file, or - for standard input)")
    ap.add_argument("--variant", default=None, help="the variant JSON file it was made with")
    ap.add_argument("--bot", default="best", help="a searching bot (default: best)")
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="simulations a search")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="the turns as JSON")
    args = ap.parse_args(argv)
    try:
        state = read_position(args.position, args.variant)
    except (PositionError, ContentError, OSError, ValueError) as exc:
        print(f"cannot read the position: {exc}", file=sys.stderr)
        return 2
    if state.is_over():
        print("the game is over: no decision to hint", file=sys.stderr)
        return 2
    bot = make_bot(args.bot, args.budget)
    if not isinstance(bot, SearchBot):
        print(f"{args.bot} does not search: choose a searching bot", file=sys.stderr)
        return 2
    seat = state.current_player
    names = [f"Seat {SEATS[i]}" for i in range(state.num_players)]
    move, weighed = weigh(bot, state.view(seat), args.seed)
    turns = weighed_turns(state, [t.as_json() for t in weighed], names)
    if args.json:
        out = {
            "seat": SEATS[seat],
            "bot": bot.name,
            "budget": args.budget,
            "seed": args.seed,
            "move": move,
            "turns": [
                {"moves": list(t.moves), "win": t.percent, "sims": t.sims, "words": t.words}
                for t in turns
            ],
        }
        print(json.dumps(out, indent=1))
        return 0
    print(
        f"Seat {SEATS[seat]} to decide; the {bot.name} bot, {args.budget} simulations a search, "
        f"seed {args.seed}: it plays {move}. The {min(SHOWN, len(turns))} turns it weighed:"
    )
    for i, t in enumerate(turns, 1):
        print(f"{i}. {t.percent:3d}%  {t.words}  ({t.sims} simulations)")
        print(f"         {' '.join(t.moves)}")
    return 0
