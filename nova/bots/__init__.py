"""Computer opponents. They see only what a seat may see: ``state.view(seat)``.

The bots, weakest first:

``random``
    a uniformly random legal decision (the floor);
``novice``
    greedy's options, not always the best of them: a beginner, the Cadet level
    (:mod:`nova.bots.novice`; offered by level only, so not in ``BOT_NAMES``);
``greedy``
    plans its whole turn action by action with a hand-written evaluation (Shards
    banked and carried, bay sets in reach, distance home, Star Expansion danger, the
    track, Hijack threats): :mod:`nova.bots.planner`, :mod:`nova.bots.evaluate`;
``search``
    Monte-Carlo search over whole-turn plans on sampled hidden cards, with greedy
    rollouts for about a round: :mod:`nova.bots.search`;
``raider``
    the search made stronger, one change at a time, each kept only when a sequential
    test accepts it (:mod:`nova.bots.raider`);
``fitted``
    the raider with, at 4 players, the evaluation's weights fitted to who wins there and
    rollouts that end after the opponents' replies (:mod:`nova.bots.fitted`); at 2 and 3
    players the raider itself; offered as ``best``, not by its own name;
``best``
    the strongest bot the page offers, whichever it is today (:data:`BEST`);
``stepwise``
    the raider's search made again at every step of its turn, not only its first, with more
    ways to carry out each step (:mod:`nova.bots.stepwise`): the Admiral level's bot
    (offered by level only, so not in ``BOT_NAMES``);
``reply``
    on trial for the lab only (:data:`TRIAL`, not shipped to the page): the raider's search
    with the next seat's reply searched instead of played greedily (:mod:`nova.bots.reply`);
``steady``
    on trial for the lab only: the stepwise bot that starts each search of its turn with the
    rollouts of the turn its last search chose (:mod:`nova.bots.steady`).

A player chooses an opponent by level (``cadet``, ``pilot``, ``ace``, ``captain``, ``admiral``:
:mod:`nova.bots.levels`), each one of these bots at a fixed setting with its rating;
``make_bot`` and the lab take a level's name wherever they take a bot's.

``greedy`` and ``search`` stay as they are: the references every change is measured
against. For the lab only, ``peek`` is a search that sees every hidden card
(:mod:`nova.bots.peek`): the ladder's ceiling, never offered to a player.

One entry point for the page and the lab::

    from nova.bots import choose_move
    move = choose_move("greedy", state.view(seat), seed=1234)   # one of view.legal

A bot plans whole turns and remembers the plan, so the remaining decisions of its
turn answer at once. ``choose_move`` keeps one bot of each kind per (name, budget) in
the process for that reason; the move depends only on the view, the seed, the budget
and the views the same bot has been asked about before.

In the page, a searching bot must think in slices (no task over ~100 ms on the main
thread)::

    bot = make_bot("search")
    bot.start(view, seed)
    while not bot.done:
        bot.step(ms=30)
        await asyncio.sleep(0)
    move = bot.best()

``random`` and ``greedy`` answer within a few milliseconds; :func:`make_bot` gives
every kind the same ``start``/``step``/``done``/``best`` methods.
"""

from __future__ import annotations

from ..rules import View
from .fitted import FittedBot
from .levels import LEVEL_NAMES, LEVELS, Capped, Level, level_named
from .novice import NoviceBot
from .peek import PeekingBot
from .raider import RaiderBot
from .search import DEFAULT_BUDGET, SearchBot
from .simple import Bot, GreedyBot, RandomBot
from .stepwise import StepwiseBot

BOT_NAMES = ("random", "greedy", "search", "raider", "best")
# offered under another name, a level's (cadet, admiral) or ``best``'s, not by their own
LEVEL_ONLY = ("novice", "stepwise", "fitted")
# never a seat in the page: the ceiling sees what its seat cannot; the bots on trial (TRIAL)
# are not shipped to it
LAB_ONLY = ("peek", "reply", "steady")
# on trial for a level (docs/BOTS.md, "On trial"): honest bots (their seat's view only, as the
# no-peek test checks) that the lab plays until a gate makes one a level
TRIAL = ("reply", "steady")
# what ``best`` plays, with the page's think time instead of a fixed budget: the raider, with
# at 4 players the weights and rollouts that won 41.7% of 120 games against three raiders
# (``fitted``; docs/BOTS.md). The stepwise bot (the Admiral) is stronger at its fixed budget,
# but it thinks once per step of its turn, so a think time per search would make its turns
# several times as long
BEST = "fitted"


class _Instant:
    """The incremental API around a bot that answers in one go."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.done = True
        self._move: str | None = None

    def start(self, view: View, seed: int) -> None:
        self._view, self._seed = view, seed
        self._move = None
        self.done = False

    def step(self, ms: float = 30.0) -> None:
        if not self.done:
            self._move = self.bot.choose(self._view, self._seed)
            self.done = True

    def best(self) -> str:
        self.step()
        assert self._move is not None
        return self._move

    def choose(self, view: View, seed: int) -> str:
        return self.bot.choose(view, seed)


def make_bot(
    name: str, budget: int | None = None, time_ms: float | None = None
) -> _Instant | SearchBot | Capped:
    """A fresh bot by name, with ``choose(view, seed)`` and ``start``/``step``/``done``/``best``.

    ``time_ms``: a search bot thinks for about that long per search instead of a fixed
    number of simulations (the page's thinking time); the other bots ignore it, and a
    level (``"ace"``) keeps its own fixed budget under a safety cap (:class:`Capped`).
    """
    if name in LEVEL_NAMES:
        # a level plays its bot at its own fixed setting, the one the ladder rated; given a
        # thinking time (the page), it keeps only a safety cap instead (levels.Capped)
        bot = make_bot(level_named(name).bot)
        return bot if time_ms is None else Capped(bot, make_bot("greedy"))
    name, _, arg = name.partition(":")  # "search:200" is a search bot with budget 200
    if arg:
        budget = int(arg)
    if name == "best":
        name = BEST
    if name == "random":
        return _Instant(RandomBot())
    if name == "novice":
        return _Instant(NoviceBot())
    if name == "greedy":
        return _Instant(GreedyBot())
    if name in SEARCHERS:
        return SEARCHERS[name](budget, time_ms)
    if name in TRIAL:
        return _on_trial(name)(budget, time_ms)
    known = ", ".join(BOT_NAMES + LEVEL_NAMES + LEVEL_ONLY + LAB_ONLY)
    raise ValueError(f"unknown bot {name!r}: choose one of {known}")


SEARCHERS: dict[str, type[SearchBot]] = {
    "search": SearchBot,
    "raider": RaiderBot,
    "peek": PeekingBot,
    "stepwise": StepwiseBot,
    "fitted": FittedBot,
}


def _on_trial(name: str) -> type[SearchBot]:
    """The class of a bot on trial, loaded by its module's name rather than imported: the
    page's build ships the modules the page's code imports (tools/build_site.py), so a bot
    the page does not offer stays out of it until it becomes a level (then import it as the
    others are)."""
    try:
        module = __import__(f"{__name__}.{name}", fromlist=["BOT"])
    except ImportError as e:  # in the page: not shipped
        raise ValueError(f"bot {name!r} is on trial in the lab, not in the page") from e
    bot: type[SearchBot] = module.BOT
    return bot


_BOTS: dict[tuple[str, int | None], _Instant | SearchBot | Capped] = {}


def choose_move(name: str, view: View, seed: int, budget: int | None = None) -> str:
    """The decision bot ``name`` makes seeing ``view`` (which must hold ``legal``)."""
    if not view.legal:
        raise ValueError("this view has no decision to make (not the deciding seat's view)")
    bot = _BOTS.get((name, budget))
    if bot is None:
        bot = _BOTS[(name, budget)] = make_bot(name, budget)
    return bot.choose(view, seed)


__all__ = [
    "BEST",
    "BOT_NAMES",
    "Capped",
    "DEFAULT_BUDGET",
    "LAB_ONLY",
    "LEVELS",
    "LEVEL_NAMES",
    "LEVEL_ONLY",
    "Bot",
    "GreedyBot",
    "Level",
    "NoviceBot",
    "PeekingBot",
    "RaiderBot",
    "RandomBot",
    "SearchBot",
    "StepwiseBot",
    "TRIAL",
    "choose_move",
    "level_named",
    "make_bot",
]
