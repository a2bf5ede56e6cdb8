"""The bots' side of the page's worker. Pure Python: the PyScript worker (``bots_worker.py``
at the site's root) exports :func:`think` and :func:`hello`; the tests call them in CPython.

The main thread sends what the deciding seat may see (``state.view(seat)``) as JSON and gets
back a move token plus the work done. The worker decides no rule: the main thread checks the
token with the engine before playing it. Only JSON crosses (no SharedArrayBuffer: the page
must stay embeddable, so the worker cannot reach the page, and the page only awaits it).

A request::

    {"game": "<key>", "bots": ["", "search"], "seat": 1, "view": {...}, "seed": 123,
     "time_ms": 1000}

an answer::

    {"move": "b7r", "searched": true, "positions": 4021, "ms": 998.2,
     "turns": [{"moves": ["b7r", "@c3", ">c5", "E"], "win": 0.62, "sims": 20}, ...]}

``turns``: the whole turns a searching bot weighed, best first (``nova.bots.explain``), when
it searched, or the next steps a planning bot (greedy, the novice) scored, the one it took
first, when it planned afresh; a request with ``"explain": true`` (the hint) is always
searched afresh and weighed.

or ``{"error": "..."}`` when a bot fails (a bug; the page says so and plays on).
"""

from __future__ import annotations

import json
import time
from typing import Any

from ..rules import View
from .bot_turns import record_of, thinking_bot


class Thinker:
    """One bot per seat of the game being played, kept while that game lasts.

    A planning bot remembers the turn it planned, so the later decisions of that turn
    answer at once: the same bot object must answer all of them.
    """

    def __init__(self) -> None:
        self.game = ""
        self.agents: dict[int, Any] = {}

    def think(self, request: dict) -> dict:
        game = str(request.get("game", ""))
        if game != self.game:  # another game: its bots start afresh
            self.game, self.agents = game, {}
        seat = int(request["seat"])
        names = [str(n) for n in request["bots"]]
        time_ms = request.get("time_ms")
        bot = self.agents.get(seat)
        if bot is None:
            bot = self.agents[seat] = thinking_bot(names[seat], time_ms)
        elif time_ms is not None and getattr(bot, "time_ms", None) is not None:
            bot.time_ms = float(time_ms)  # the setting may change between decisions
        view = View.from_json(request["view"])
        t0 = time.perf_counter()
        before = getattr(bot, "positions", 0)
        seed = int(request["seed"])
        before_record = record_of(bot)
        turns: list[dict] = []
        if request.get("explain") and hasattr(bot, "trace"):
            from ..bots.explain import weigh

            searched = True
            move, weighed = weigh(bot, view, seed)
            turns = [t.as_json() for t in weighed]
        else:
            bot.start(view, seed)
            searched = not bot.done
            move = bot.best()
            record = record_of(bot)
            if record is not None and record is not before_record:  # it weighed afresh
                turns = [t.as_json() for t in record.top()]
        return {
            "move": move,
            "searched": searched,
            "positions": getattr(bot, "positions", 0) - before,
            "ms": round((time.perf_counter() - t0) * 1000, 1),
            "turns": turns,
        }


_THINKER = Thinker()


def think(request: str) -> str:
    """The worker's export: a JSON request in, a JSON answer out (never raises)."""
    try:
        return json.dumps(_THINKER.think(json.loads(request)))
    except Exception as exc:  # reported by the page, which plays on
        return json.dumps({"error": f"{exc.__class__.__name__}: {exc}"})


def hello() -> str:
    """The worker's export for the page to check it is up (and the bots import)."""
    t0 = time.perf_counter()
    import nova.bots  # noqa: F401  (imported now, so the first decision does not pay for it)

    return json.dumps({"ok": True, "import_ms": round((time.perf_counter() - t0) * 1000, 1)})
