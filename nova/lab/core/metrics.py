"""Game-quality metrics, as Ludii's evaluation metrics define them, from the bots' evaluations.

After every finished turn the lab records each seat's own evaluation of the position
(:func:`nova.bots.evaluate.evaluate`, in rough end-of-game points; :class:`GameResult`
``evaluations``). The *leaders* at a turn are the seats with the highest evaluation (several on
a tie); the *winners* are the seats that won the game (several on a tied win).

* **lead changes**: how often the set of leaders differs from the turn before (Ludii's Lead
  Change); ``lead_change_rate`` divides by the turns that could change it.
* **drama**: how far behind the eventual winner was: at each turn the leader's evaluation
  minus the winner's (0 while the winner leads; the mean over tied winners), averaged over
  the game (Ludii's Drama, average) and its largest (``drama_max``); ``winner_behind`` the
  share of turns the winner was not among the leaders.
* **decisiveness**: ``decided_at``, the share of the game's turns played before the winner's
  evaluation first rose above the best any loser ever reached in that game (Ludii's
  Decisiveness Moves and Decisiveness Threshold): near 0, clear early; 1, clear only at the end.
* **balance**: ``balance_gap``, the largest gap between the win rates of two turn positions
  (Ludii's Balance is one minus it).
* **length**: the spread of game length in turns (mean, sd, coefficient of variation, 10th,
  50th and 90th percentile, least and most).
* **cards**: per card its ``play_rate`` (share of the players in all games who played it at
  least once), plays per game, and ``win_rate_when_played_biased``: the win rate of the
  players who played it, *biased*: a player ahead plays more and better cards, and a bot
  plays a card when it suits the position, so a high figure does not say the card wins games.

Games whose every seat shares the win have no loser: they count for lead changes and length
only. A game that ended before its first turn was over has no evaluations and counts for
length and cards only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from .game import GameResult
from .stats import quantiles, spread


@dataclass(frozen=True)
class GameQuality:
    """One game's figures (see the module's description)."""

    lead_changes: int
    lead_change_rate: float
    drama: float | None
    drama_max: float | None
    winner_behind: float | None
    decided_at: float | None


@dataclass(frozen=True)
class LengthSpread:
    """Game length in turns, over a batch."""

    mean: float
    sd: float
    cv: float | None  # sd over mean: spread relative to the typical length
    p10: float
    median: float
    p90: float
    min: float
    max: float


@dataclass(frozen=True)
class CardQuality:
    play_rate: float
    plays_per_game: float
    win_rate_when_played_biased: float | None


@dataclass(frozen=True)
class QualityMetrics:
    """A batch's figures: each game's averaged over the games that have it."""

    games: int
    games_evaluated: int  # with at least one evaluated turn
    games_with_a_loser: int  # of those, with someone who did not share the win
    lead_changes: float | None
    lead_change_rate: float | None
    drama: float | None
    drama_max: float | None
    winner_behind: float | None
    decided_at: float | None
    balance_gap: float
    length_turns: LengthSpread | None
    cards: dict[str, CardQuality]

    def as_json(self) -> dict:
        return asdict(self)


def leaders(values: Sequence[float]) -> frozenset[int]:
    best = max(values)
    return frozenset(i for i, v in enumerate(values) if v == best)


def game_quality(evaluations: Sequence[Sequence[float]], returns: Sequence[float]) -> GameQuality:
    """Lead changes, drama and decisiveness of one game from its evaluations turn by turn."""
    changes = 0
    before: frozenset[int] | None = None
    for values in evaluations:
        now = leaders(values)
        changes += before is not None and now != before
        before = now
    rate = changes / (len(evaluations) - 1) if len(evaluations) > 1 else 0.0
    best = max(returns) if returns else 0.0
    winners = [i for i, r in enumerate(returns) if best > 0 and r == best]
    losers = [i for i in range(len(returns)) if i not in winners]
    if not evaluations or not winners or not losers:
        return GameQuality(changes, rate, None, None, None, None)
    gaps = [max(v) - math.fsum(v[w] for w in winners) / len(winners) for v in evaluations]
    behind = sum(1 for v in evaluations if not leaders(v) & set(winners))
    threshold = max(v[i] for v in evaluations for i in losers)
    clear = next(
        (t for t, v in enumerate(evaluations) if max(v[w] for w in winners) > threshold),
        len(evaluations),
    )
    return GameQuality(
        lead_changes=changes,
        lead_change_rate=rate,
        drama=math.fsum(gaps) / len(gaps),
        drama_max=max(gaps),
        winner_behind=behind / len(evaluations),
        decided_at=clear / len(evaluations),
    )


def balance_gap(turn_position_win_rates: Sequence[float]) -> float:
    return max(turn_position_win_rates) - min(turn_position_win_rates)


def length_spread(turns: Sequence[float]) -> LengthSpread | None:
    if not turns:
        return None
    q = quantiles(list(turns))
    mean, sd = spread(list(turns))
    assert q.p10 is not None and q.median is not None and q.p90 is not None
    assert q.min is not None and q.max is not None  # quantiles of a non-empty list
    return LengthSpread(
        mean=mean,
        sd=sd,
        cv=sd / mean if mean else None,
        p10=q.p10,
        median=q.median,
        p90=q.p90,
        min=q.min,
        max=q.max,
    )


def card_quality(records: Sequence[GameResult], players: int) -> dict[str, CardQuality]:
    n = len(records)
    plays: dict[str, int] = {}
    returns: dict[str, list[float]] = {}
    for r in records:
        for seat in range(players):
            for cid, times in r.played[seat].items():
                plays[cid] = plays.get(cid, 0) + times
                returns.setdefault(cid, []).append(r.returns[seat])
    return {
        cid: CardQuality(
            play_rate=len(returns[cid]) / (n * players),
            plays_per_game=plays[cid] / n,
            win_rate_when_played_biased=math.fsum(returns[cid]) / len(returns[cid]),
        )
        for cid in sorted(plays, key=card_order)
    }


def card_order(cid: str) -> tuple:
    """Cards in their data's order: by letter, then by number (b2 before b10)."""
    return (cid[0], int(cid[1:]) if cid[1:].isdigit() else 0, cid)


def _mean(xs: list[float]) -> float | None:
    return math.fsum(xs) / len(xs) if xs else None


def quality_metrics(
    records: Sequence[GameResult], players: int, turn_position_win_rates: Sequence[float]
) -> QualityMetrics:
    """The batch's game-quality metrics."""
    per_game = [game_quality(r.evaluations, r.returns) for r in records if r.evaluations]
    judged = [q for q in per_game if q.drama is not None]

    def mean_of(name: str, qs: list[GameQuality]) -> float | None:
        return _mean([getattr(q, name) for q in qs])

    return QualityMetrics(
        games=len(records),
        games_evaluated=len(per_game),
        games_with_a_loser=len(judged),
        lead_changes=mean_of("lead_changes", per_game),
        lead_change_rate=mean_of("lead_change_rate", per_game),
        drama=mean_of("drama", judged),
        drama_max=mean_of("drama_max", judged),
        winner_behind=mean_of("winner_behind", judged),
        decided_at=mean_of("decided_at", judged),
        balance_gap=balance_gap(turn_position_win_rates) if records else 0.0,
        length_turns=length_spread([r.turns for r in records]),
        cards=card_quality(records, players) if records else {},
    )
