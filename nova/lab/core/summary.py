"""A batch of game records summarized: typed figures, and the JSON ``--json`` prints.

:func:`summarize` returns a :class:`Summary`; its :meth:`Summary.as_json` is the lab's
contract with its reports and the page, whose keys only ever grow.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .game import GameResult
from .metrics import QualityMetrics, card_order, quality_metrics
from .paired import ALPHA, card_names, card_terms, estimate, interval, normal_quantile, pooled_cards
from .stats import Quantiles, quantiles, spread, to_json, wilson

STALL_ROUNDS = 5  # a run of this many rounds with no Unload counts as a stall


@dataclass(frozen=True)
class MeanSd:
    mean: float
    sd: float

    @classmethod
    def of(cls, xs: list[float]) -> MeanSd:
        return cls(*spread(xs))


@dataclass(frozen=True)
class CardFigures:
    """How often a card was played or held at the end, and how its players did."""

    plays_per_game: float
    played_in_games: float  # players who played it, per game
    players_win_rate: float | None
    holders_win_rate: float | None
    held_in_games: float


@dataclass(frozen=True)
class NamedCard:
    """An Academy card by its name, its copies pooled (the three Hijack 1-3 are one card): the
    share of players who played a copy in a game, its plays per game, and the win rate of the
    players who played it (biased: good positions play more cards) with its 95% interval, the
    players of one game counted as one cluster (nova.lab.core.paired)."""

    copies: list[str]
    play_rate: float
    plays_per_game: float
    players: int  # the players who played a copy, over all games
    players_win_rate: float | None
    ci95: tuple[float, float] | None  # in percent


def named_cards(
    results: Sequence[GameResult], players: int, names: dict[str, str]
) -> dict[str, NamedCard]:
    """Each Academy card by name (in the deck's order), copies pooled."""
    n = max(len(results), 1)
    out = {}
    for name, copies in pooled_cards(names).items():
        terms = card_terms(copies)
        pairs = [terms(r) for r in results]
        e = estimate(pairs)
        ci = interval(e, "%")
        plays = sum(r.played[s].get(c, 0) for r in results for s in range(players) for c in copies)
        out[name] = NamedCard(
            copies=list(copies),
            play_rate=e.weight / (n * players),
            plays_per_game=plays / n,
            players=int(e.weight),
            players_win_rate=e.value,
            ci95=None if ci is None else (ci[0] / 100, ci[1] / 100),
        )
    return out


@dataclass(frozen=True)
class Points:
    """Mean points per player from Cargo Bays and from Special cards."""

    bays: float
    specials: float
    bay_share: float | None


@dataclass(frozen=True)
class Arc:
    """How the games went: ends, length, Shards, where points came from, the track's movers."""

    ends: dict[str, float]
    rounds: Quantiles
    supernova_by_turn_position: list[float]
    supernova_bringer_wins: float | None
    rounds_histogram: dict[str, int]  # keys are JSON strings
    rounds_by_end: dict[str, Quantiles]
    shards_entered: Quantiles
    shards_in_bag: Quantiles
    shards_banked: Quantiles
    points_all: Points
    points_winners: Points
    unloads: Quantiles
    disrupts: Quantiles
    longest_no_unload_rounds: Quantiles
    longest_dry_rounds: Quantiles


@dataclass(frozen=True)
class Summary:
    """A batch's figures; per entry (line-up position) or per turn position where a list."""

    games: int
    players: int
    bots: list[str]
    wins: list[float]
    win_rate: list[float]
    # each entry's interval, and each turn position's, held together: the chance that any of
    # them misses its true rate is 5% (at 2 players the two are one question, each at 95%),
    # so four identical bots' intervals all hold a fair share 19 runs in 20
    win_ci95: list[tuple[float, float]]
    mean_score: list[float]
    score_sd: list[float]
    score_all: MeanSd
    turn_position_win_rate: list[float]
    turn_position_ci95: list[tuple[float, float]]
    first_seat_advantage: float
    first_seat_advantage_ci95: tuple[float, float]  # its own 95% interval
    turns: MeanSd
    rounds: MeanSd
    unloads: MeanSd
    decisions_per_game: float
    end_reasons: dict[str, float]
    # which games did not end at Super-Nova, so that each can be replayed on its own
    # (play_game(GameJob(g, players, bots, budget, variant, seed))): the rare ones matter
    end_games: dict[str, list[int]]
    # the final position of the first such game of each end (State.from_position reads it)
    end_positions: dict[str, str]
    stall_rounds: int
    stalled_games: float
    longest_gap_rounds: float
    cards: dict[str, CardFigures]
    # the Academy cards by name, copies pooled, each with an interval (keys: the card's name)
    cards_by_name: dict[str, NamedCard]
    think_ms_per_decision: list[float]
    arc: Arc
    metrics: QualityMetrics
    elapsed_s: float
    games_per_minute: float | None

    def as_json(self) -> dict:
        return {name: to_json(value) for name, value in vars(self).items()}


def summarize(
    results: Sequence[GameResult],
    players: int,
    bots: Sequence[str],
    elapsed: float,
    names: dict[str, str] | None = None,
) -> Summary:
    """The batch's figures; ``names``: each Academy card's name by id (today's by default)."""
    n = len(results)
    entries = range(players)
    # per entry (the line-up position), then per turn position (0 = the first player)
    entry_ret = [[r.returns[r.seat_entry.index(k)] for r in results] for k in entries]
    entry_score = [[r.scores[r.seat_entry.index(k)] for r in results] for k in entries]
    pos_ret = [[r.returns[(r.first + p) % players] for r in results] for p in entries]
    # Bonferroni over the entries (at 2 players one entry's loss is the other's win: one rate)
    z_joint = normal_quantile(1 - ALPHA / (2 * (1 if players == 2 else players)))
    win_ci = [wilson(x, z_joint) for x in entry_ret]
    pos_ci = [wilson(x, z_joint) for x in pos_ret]
    _, first_low, first_high = wilson(pos_ret[0])
    ends = Counter(r.end for r in results)
    # cards: plays per game, and how the players who played / held them did
    card_plays: Counter = Counter()
    card_players: dict[str, list[float]] = {}
    card_holders: dict[str, list[float]] = {}
    for r in results:
        for seat in range(players):
            for cid, times in r.played[seat].items():
                card_plays[cid] += times
                card_players.setdefault(cid, []).append(r.returns[seat])
            for cid in r.held[seat]:
                card_holders.setdefault(cid, []).append(r.returns[seat])
    cards = {}
    for cid in sorted(set(card_plays) | set(card_holders), key=card_order):
        pl, ho = card_players.get(cid, []), card_holders.get(cid, [])
        cards[cid] = CardFigures(
            plays_per_game=card_plays[cid] / n,
            played_in_games=len(pl) / n,
            players_win_rate=math.fsum(pl) / len(pl) if pl else None,
            holders_win_rate=math.fsum(ho) / len(ho) if ho else None,
            held_in_games=len(ho) / n,
        )
    think = [math.fsum(r.think[r.seat_entry.index(k)] for r in results) for k in entries]
    decisions = sum(r.decisions for r in results)
    turn_position_win_rate = [c[0] for c in pos_ci]
    return Summary(
        games=n,
        players=players,
        bots=list(bots),
        wins=[math.fsum(x) for x in entry_ret],
        win_rate=[c[0] for c in win_ci],
        win_ci95=[(c[1], c[2]) for c in win_ci],
        mean_score=[spread(x)[0] for x in entry_score],
        score_sd=[spread(x)[1] for x in entry_score],
        score_all=MeanSd.of([sc for r in results for sc in r.scores]),
        turn_position_win_rate=turn_position_win_rate,
        turn_position_ci95=[(c[1], c[2]) for c in pos_ci],
        first_seat_advantage=pos_ci[0][0] - 1 / players,
        first_seat_advantage_ci95=(first_low - 1 / players, first_high - 1 / players),
        turns=MeanSd.of([r.turns for r in results]),
        rounds=MeanSd.of([r.rounds for r in results]),
        unloads=MeanSd.of([r.unloads for r in results]),
        decisions_per_game=decisions / max(n, 1),
        end_reasons={k: v / n for k, v in sorted(ends.items())},
        end_games={
            why: sorted(r.g for r in results if r.end == why)
            for why in sorted(ends)
            if why != "supernova"
        },
        end_positions={
            why: min((r for r in results if r.end == why), key=lambda r: r.g).end_position
            for why in sorted(ends)
            if why != "supernova"
        },
        stall_rounds=STALL_ROUNDS,
        stalled_games=sum(r.longest_gap_rounds >= STALL_ROUNDS for r in results) / max(n, 1),
        longest_gap_rounds=spread([r.longest_gap_rounds for r in results])[0],
        cards=cards,
        cards_by_name=named_cards(results, players, names or card_names(players)),
        think_ms_per_decision=[1000 * t / max(decisions / players, 1) for t in think],
        arc=game_arc(results, players),
        metrics=quality_metrics(results, players, turn_position_win_rate),
        elapsed_s=elapsed,
        games_per_minute=60 * n / elapsed if elapsed > 0 else None,
    )


def game_arc(results: Sequence[GameResult], players: int) -> Arc:
    """How the games went: ends, length, Shards, where points came from, the track's movers."""
    n = max(len(results), 1)
    by_end: dict[str, list[float]] = {}
    for r in results:
        by_end.setdefault(r.end, []).append(r.rounds)

    def points(rows: list[tuple[GameResult, int]]) -> Points:
        bays = sum(r.bay_points[seat] for r, seat in rows)
        specials = sum(r.special_points[seat] for r, seat in rows)
        count = max(len(rows), 1)
        return Points(
            bays=bays / count,
            specials=specials / count,
            bay_share=bays / (bays + specials) if bays + specials else None,
        )

    everyone = [(r, seat) for r in results for seat in range(players)]
    winners = [(r, seat) for r in results for seat in range(players) if r.returns[seat] > 0]
    # Super-Nova ends the game at once (R49), in someone's turn: who brings it, and whether
    # they win, shows a seat's edge that the win rates alone do not explain
    novas = [r for r in results if r.end == "supernova"]
    nova_by_position = [
        sum(1 for r in novas if (r.ender - r.first) % players == p) / max(len(novas), 1)
        for p in range(players)
    ]
    return Arc(
        ends={end: len(xs) / n for end, xs in sorted(by_end.items())},
        rounds=quantiles([r.rounds for r in results]),
        supernova_by_turn_position=nova_by_position,
        supernova_bringer_wins=(
            math.fsum(r.returns[r.ender] for r in novas) / len(novas) if novas else None
        ),
        rounds_histogram={str(k): v for k, v in sorted(Counter(r.rounds for r in results).items())},
        rounds_by_end={end: quantiles(xs) for end, xs in sorted(by_end.items())},
        shards_entered=quantiles([r.shards_entered for r in results]),
        shards_in_bag=quantiles([r.shards_in_bag for r in results]),
        shards_banked=quantiles([r.shards_banked for r in results]),
        points_all=points(everyone),
        points_winners=points(winners),
        unloads=quantiles([r.unloads for r in results]),
        disrupts=quantiles([r.disrupts for r in results]),
        longest_no_unload_rounds=quantiles([r.longest_gap_rounds for r in results]),
        longest_dry_rounds=quantiles([r.longest_dry_rounds for r in results]),
    )
