"""The bots' ladder: which paired games it plays, the games as it keeps them, and the ratings.

``python -m nova lab ladder`` (``nova.lab.strength``) plays, for each pair of *rungs* (bots at
fixed budgets, named as ``--bots`` names them: ``search:16``), paired games: at 2 players each
engine seed twice with the seats swapped, so the luck of the deal and of the first seat falls
on both bots alike. At 3–4 players each rung sits against n-1 copies of a *field* bot in every
rotation of each deal. Every game is kept as a :class:`LadderGame` (one JSON line), and
:func:`ladder_result` fits the ratings from kept games alone, so a run's ratings and a refit
of its file agree.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .core.game import Batch, GameResult
from .elo import (
    BOOTSTRAP_SEED,
    PRIOR_DRAWS,
    RESAMPLES,
    Tally,
    bootstrap_intervals,
    bootstrap_share,
    fit_elo,
)

RECORD_VERSION = 1


@dataclass(frozen=True)
class LadderGame:
    """One paired game as kept (a line of ``--out``): enough to refit and to replay it.

    ``entries`` is the line-up (entry k's bot), ``seat_entry`` the entry at each seat; the
    game is ``GameJob(g, players, entries, None, None, seed, paired=True)`` with
    ``g = deal * players + rotation``."""

    players: int
    seed: int
    deal: int
    rotation: int
    entries: tuple[str, ...]
    seat_entry: tuple[int, ...]
    returns: tuple[float, ...]  # per seat
    scores: tuple[int, ...]  # per seat
    think: tuple[float, ...]  # per seat, seconds
    decisions: tuple[int, ...]  # per seat
    end: str
    moves_sha1: str

    @classmethod
    def of(cls, batch: Batch, r: GameResult) -> LadderGame:
        return cls(
            players=batch.players,
            seed=batch.seed,
            deal=r.g // batch.players,
            rotation=r.g % batch.players,
            entries=tuple(batch.bots),
            seat_entry=tuple(r.seat_entry),
            returns=tuple(r.returns),
            scores=tuple(r.scores),
            think=tuple(r.think),
            decisions=tuple(r.seat_decisions),
            end=r.end,
            moves_sha1=r.moves_sha1,
        )

    @property
    def key(self) -> tuple:
        """What makes the game: the same key, the same game (a file kept twice counts once)."""
        return (self.players, self.seed, self.deal, self.rotation, self.entries)

    def points(self, entry: int) -> float:
        return self.returns[self.seat_entry.index(entry)]

    def as_json(self) -> dict:
        return {
            "v": RECORD_VERSION,
            "players": self.players,
            "seed": self.seed,
            "deal": self.deal,
            "rotation": self.rotation,
            "entries": list(self.entries),
            "seat_entry": list(self.seat_entry),
            "returns": list(self.returns),
            "scores": list(self.scores),
            "think": list(self.think),
            "decisions": list(self.decisions),
            "end": self.end,
            "moves_sha1": self.moves_sha1,
        }

    def line(self) -> str:
        return json.dumps(self.as_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, d: dict) -> LadderGame:
        if d.get("v") != RECORD_VERSION:
            raise ValueError(f"a kept game of version {d.get('v')!r}, not {RECORD_VERSION}")
        return cls(
            players=int(d["players"]),
            seed=int(d["seed"]),
            deal=int(d["deal"]),
            rotation=int(d["rotation"]),
            entries=tuple(d["entries"]),
            seat_entry=tuple(d["seat_entry"]),
            returns=tuple(float(x) for x in d["returns"]),
            scores=tuple(d["scores"]),
            think=tuple(float(x) for x in d["think"]),
            decisions=tuple(d["decisions"]),
            end=d["end"],
            moves_sha1=d["moves_sha1"],
        )


def read_games(paths: Iterable[str]) -> tuple[list[LadderGame], int]:
    """Every game kept in the JSON-lines files, and how many repeats were dropped (the same
    game kept twice, from a file appended to by the same command twice). A line cut short
    by an interrupted run is the last of its file and is skipped; any other bad line raises
    ValueError with its place."""
    games: dict[tuple, LadderGame] = {}
    repeats = 0
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
        for no, text in enumerate(lines, 1):
            if not text.strip():
                continue
            try:
                game = LadderGame.from_json(json.loads(text))
            except (ValueError, KeyError, TypeError) as exc:
                if no == len(lines) and not text.endswith("}"):
                    continue  # the run stopped while writing this line
                raise ValueError(f"{path}:{no}: not a kept game ({exc})") from None
            if game.key in games:
                repeats += 1
            else:
                games[game.key] = game
    return list(games.values()), repeats


def whole_deals(games: int, players: int) -> int:
    """``games`` rounded up to whole deals (a multiple of the player count)."""
    return -(-games // players) * players


def ladder_pairs(rungs: int, anchor: int, mode: str) -> list[tuple[int, int]]:
    """The pairs of rungs that play: ``all`` (round robin) or ``adjacent`` (each rung with its
    neighbours in the list, and with the anchor), each pair (i, j) with i < j."""
    if mode == "all":
        return [(i, j) for i in range(rungs) for j in range(i + 1, rungs)]
    if mode != "adjacent":
        raise ValueError(f"--pairs: all or adjacent, not {mode!r}")
    pairs = {(i, i + 1) for i in range(rungs - 1)}
    pairs |= {(min(i, anchor), max(i, anchor)) for i in range(rungs) if i != anchor}
    return sorted(pairs)


@dataclass(frozen=True)
class LadderPlan:
    """What a ladder plays: ``rungs`` (bot names with budgets), ``games`` per pair (or per
    rung against the field at 3–4 players) in whole deals, from ``seed``."""

    rungs: tuple[str, ...]
    players: int
    games: int
    anchor: str
    seed: int
    pairs_mode: str = "all"
    field: str | None = None

    def batches(self) -> list[Batch]:
        games = whole_deals(self.games, self.players)
        if self.players == 2:
            anchor = self.rungs.index(self.anchor)
            return [
                Batch(2, (self.rungs[i], self.rungs[j]), games, None, None, self.seed, True)
                for i, j in ladder_pairs(len(self.rungs), anchor, self.pairs_mode)
            ]
        assert self.field is not None
        seats = (self.field,) * (self.players - 1)
        # the field against itself is parity by construction: not worth its games
        return [
            Batch(self.players, (rung, *seats), games, None, None, self.seed, True)
            for rung in self.rungs
            if rung != self.field
        ]


@dataclass(frozen=True)
class Rating:
    """A rung's rating (Elo, the anchor 0) with its 95% interval, and its games and score."""

    name: str
    elo: float
    low: float
    high: float
    games: int
    score: float  # points per game (a tie counts half)

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def as_json(self) -> dict:
        return {
            "elo": self.elo,
            "ci95": [self.low, self.high],
            "games": self.games,
            "score": self.score,
            "half_width": self.half_width,
        }


@dataclass(frozen=True)
class PairResult:
    """What ``a`` did against ``b`` (wins, draws, losses from ``a``'s side, its score)."""

    a: str
    b: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else math.nan

    def as_json(self) -> dict:
        return {
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "w": self.wins,
            "d": self.draws,
            "l": self.losses,
            "score": self.score,
        }


@dataclass(frozen=True)
class Share:
    """A rung's win share against the field at 3–4 players, its 95% interval and parity."""

    name: str
    share: float
    low: float
    high: float
    games: int
    parity: float

    def as_json(self) -> dict:
        return {
            "share": self.share,
            "ci95": [self.low, self.high],
            "games": self.games,
            "parity": self.parity,
        }


@dataclass(frozen=True)
class LadderResult:
    """A ladder's figures: ratings (2 players) or win shares against a field (3–4)."""

    players: int
    anchor: str | None
    field: str | None
    ratings: tuple[Rating, ...]
    pairs: tuple[PairResult, ...]
    shares: tuple[Share, ...]
    games: int
    think_ms: dict[str, float | None]
    seeds: tuple[int, ...]
    elapsed_s: float | None = None
    repeats: int = 0

    def as_json(self) -> dict:
        return {
            "players": self.players,
            "anchor": self.anchor,
            "field": self.field,
            "ratings": {r.name: r.as_json() for r in self.ratings},
            "pairs": [p.as_json() for p in self.pairs],
            "shares": {s.name: s.as_json() for s in self.shares},
            "games": self.games,
            "seed": self.seeds[0] if len(self.seeds) == 1 else list(self.seeds),
            "elapsed_s": self.elapsed_s,
            "think_ms_per_decision": self.think_ms,
            "prior_draws": PRIOR_DRAWS,
            "resamples": RESAMPLES,
            "bootstrap_seed": BOOTSTRAP_SEED,
        }


def _think_ms(games: Sequence[LadderGame], names: Sequence[str]) -> dict[str, float | None]:
    seconds = dict.fromkeys(names, 0.0)
    decisions = dict.fromkeys(names, 0)
    for game in games:
        for seat, entry in enumerate(game.seat_entry):
            name = game.entries[entry]
            if name in seconds and seat < len(game.decisions):
                seconds[name] += game.think[seat]
                decisions[name] += game.decisions[seat]
    return {n: 1000 * seconds[n] / decisions[n] if decisions[n] else None for n in names}


def rung_order(games: Sequence[LadderGame]) -> list[str]:
    """The bots of kept games in the order they first appear (a refit names no rungs)."""
    seen: dict[str, None] = {}
    for game in games:
        for name in game.entries:
            seen.setdefault(name, None)
    return list(seen)


def ratings_of(
    games: Sequence[LadderGame], rungs: Sequence[str], anchor: str
) -> tuple[tuple[Rating, ...], tuple[PairResult, ...]]:
    """Ratings (Bradley–Terry, the anchor 0, bootstrap intervals over deals) and each pair's
    results from 2-player games between ``rungs`` (other games are ignored)."""
    index = {name: i for i, name in enumerate(rungs)}
    if anchor not in index:
        raise ValueError(f"the anchor {anchor!r} is not among the rungs ({', '.join(rungs)})")
    by_deal: dict[tuple[int, int], list[Tally]] = {}
    wdl: dict[tuple[int, int], list[int]] = {}
    points = [0.0] * len(rungs)
    played = [0] * len(rungs)
    for game in games:
        if game.players != 2 or any(e not in index for e in game.entries):
            continue
        a, b = (index[e] for e in game.entries)
        if a == b:
            continue
        pa = game.points(0)
        by_deal.setdefault((game.seed, game.deal), []).append(Tally(a, b, 1.0, pa))
        i, j, pi = (a, b, pa) if a < b else (b, a, 1.0 - pa)
        cell = wdl.setdefault((i, j), [0, 0, 0])
        cell[0 if pi == 1.0 else 2 if pi == 0.0 else 1] += 1
        points[a] += pa
        points[b] += 1.0 - pa
        played[a] += 1
        played[b] += 1
    if not by_deal:
        raise ValueError("no 2-player games between these rungs")
    deals = [by_deal[k] for k in sorted(by_deal)]
    elo = fit_elo(len(rungs), [t for d in deals for t in d], index[anchor])
    ci = bootstrap_intervals(len(rungs), deals, index[anchor])
    ratings = tuple(
        Rating(
            name,
            elo[i],
            ci[i][0],
            ci[i][1],
            played[i],
            points[i] / played[i] if played[i] else math.nan,
        )
        for i, name in enumerate(rungs)
    )
    pairs = tuple(PairResult(rungs[i], rungs[j], *wdl[(i, j)]) for i, j in sorted(wdl))
    return ratings, pairs


def shares_of(games: Sequence[LadderGame], players: int, field: str) -> tuple[Share, ...]:
    """Each rung's win share (ties split) seated against ``players - 1`` copies of ``field``,
    with a 95% interval by bootstrap over deals (every rotation of a deal kept together)."""
    per_rung: dict[str, dict[tuple[int, int], list[float]]] = {}
    for game in games:
        if game.players != players or game.entries[1:] != (field,) * (players - 1):
            continue
        deal = per_rung.setdefault(game.entries[0], {}).setdefault((game.seed, game.deal), [0, 0])
        deal[0] += game.points(0)
        deal[1] += 1
    shares = []
    for name, deals in per_rung.items():
        cells = [(p, n) for p, n in (deals[k] for k in sorted(deals))]
        share, low, high = bootstrap_share(cells)
        shares.append(Share(name, share, low, high, int(sum(n for _, n in cells)), 1 / players))
    return tuple(shares)


def ladder_result(
    games: Sequence[LadderGame],
    players: int,
    rungs: Sequence[str] | None = None,
    anchor: str | None = "greedy",
    field: str | None = None,
    elapsed_s: float | None = None,
    repeats: int = 0,
) -> LadderResult:
    """The ladder's figures from its games alone (a run's and a refit's are the same)."""
    mine = [g for g in games if g.players == players]
    if not mine:
        raise ValueError(f"no {players}-player games")
    names = list(rungs) if rungs else rung_order(mine)
    seeds = tuple(sorted({g.seed for g in mine}))
    if players == 2:
        assert anchor is not None
        ratings, pairs = ratings_of(mine, names, anchor)
        # the games the fit used: between two different rungs (a bot against itself says
        # nothing of ratings, nor of its think time here)
        rated = [g for g in mine if set(g.entries) <= set(names) and len(set(g.entries)) == 2]
        think = _think_ms(rated, names)
        used = len(rated)
        return LadderResult(
            2, anchor, None, ratings, pairs, (), used, think, seeds, elapsed_s, repeats
        )
    fields = {g.entries[1] for g in mine}
    if field is None:
        if len(fields) != 1:
            raise ValueError(
                f"games against several fields ({', '.join(sorted(fields))}): name one with --field"
            )
        field = fields.pop()
    shares = shares_of(mine, players, field)
    if rungs:
        order = {n: i for i, n in enumerate(rungs)}
        shares = tuple(sorted((s for s in shares if s.name in order), key=lambda s: order[s.name]))
    named = {s.name for s in shares}
    seated = [
        g for g in mine if g.entries[0] in named and g.entries[1:] == (field,) * (players - 1)
    ]
    think = _think_ms(seated, [*named, field])
    used = len(seated)
    return LadderResult(
        players, None, field, (), (), shares, used, think, seeds, elapsed_s, repeats
    )


def _signed(x: float) -> str:
    return f"{round(x):+d}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def table_lines(result: LadderResult) -> list[str]:
    """The ladder as a readable table: rung, elo, interval, half-width, games, score."""
    lines = []
    if result.players == 2:
        lines.append(
            f"{'rung':<20} {'elo':>6}  {'95% interval':<15} {'±':>4} {'games':>6} {'score':>6}"
            f" {'ms/decision':>11}"
        )
        for r in sorted(result.ratings, key=lambda r: -r.elo):
            ms = result.think_ms.get(r.name)
            lines.append(
                f"{r.name:<20} {_signed(r.elo):>6}  "
                f"{'[' + _signed(r.low) + ', ' + _signed(r.high) + ']':<15} "
                f"{r.half_width:>4.0f} {r.games:>6} {100 * r.score:>5.1f}% "
                f"{'' if ms is None else f'{ms:.1f}':>11}"
            )
        lines.append(f"anchor {result.anchor} = 0; intervals: 95%, bootstrap over deals")
        lines.append("")
        lines.append(f"{'pair':<36} {'W-D-L':>14} {'score':>6}")
        for p in result.pairs:
            lines.append(
                f"{p.a + ' vs ' + p.b:<36} {f'{p.wins}-{p.draws}-{p.losses}':>14} "
                f"{100 * p.score:>5.1f}%"
            )
        return lines
    lines.append(
        f"{'rung':<20} {'win share':>9}  {'95% interval':<15} {'games':>6} {'parity':>6}"
        f" {'ms/decision':>11}"
    )
    for s in result.shares:
        ms = result.think_ms.get(s.name)
        lines.append(
            f"{s.name:<20} {100 * s.share:>8.1f}%  "
            f"{f'[{100 * s.low:.1f}, {100 * s.high:.1f}]%':<15} {s.games:>6} "
            f"{100 * s.parity:>5.1f}% {'' if ms is None else f'{ms:.1f}':>11}"
        )
    lines.append(
        f"each rung seated against {result.players - 1} x {result.field} in every rotation of "
        "each deal; intervals: 95%, bootstrap over deals"
    )
    return lines


def write_chart(result: LadderResult, path: str, title: str) -> None:
    """A PNG of the ratings (or win shares) with their 95% interval bars (matplotlib, imported
    here only: the page never loads this module)."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display
    import matplotlib.pyplot as plt

    if result.players == 2:
        rows = sorted(result.ratings, key=lambda r: r.elo)
        names = [r.name for r in rows]
        x = [r.elo for r in rows]
        err = [[r.elo - r.low for r in rows], [r.high - r.elo for r in rows]]
        line, label = 0.0, f"Elo ({result.anchor} = 0), 95% interval"
    else:
        rows2 = list(result.shares)
        names = [s.name for s in rows2]
        x = [100 * s.share for s in rows2]
        err = [[100 * (s.share - s.low) for s in rows2], [100 * (s.high - s.share) for s in rows2]]
        line = 100 / result.players
        label = f"win share % against {result.players - 1} x {result.field} (parity {line:.0f}%)"
    fig, ax = plt.subplots(figsize=(7.5, 0.45 * len(names) + 1.6))
    y = list(range(len(names)))
    ax.errorbar(x, y, xerr=err, fmt="o", color="#3b7dd8", ecolor="#333333", capsize=4)
    ax.axvline(line, color="#c0392b", linewidth=1, linestyle="--")
    ax.set_yticks(y)
    ax.set_yticklabels(names)
    ax.set_xlabel(label)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    # no date in the file: the same figures give the same picture
    fig.savefig(path, format="png", dpi=120, metadata={"Software": None})
    plt.close(fig)
