"""One seeded lab game: who plays it (:class:`GameJob`) and what it showed (:class:`GameResult`).

A game depends only on its job: the seed, the line-up and the variant. Fresh bots play it, so
the same job gives the same record on any machine, in any process, under CPython or Pyodide
(only the measured think times differ).
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from dataclasses import dataclass, field, fields, replace

from ...bots import BOT_NAMES, LAB_ONLY, LEVEL_NAMES, LEVEL_ONLY, make_bot
from ...bots.evaluate import evaluate
from ...rules import Move, State, new_game
from ...rules import move as mv


def game_seed(base: int, g: int) -> int:
    """The engine's seed of game ``g`` of a batch seeded ``base``."""
    return base * 1_000_003 + g


def parse_bots(spec: str, players: int) -> list[str]:
    """The line-up for ``players`` seats; ValueError with the reason when it is wrong."""
    bots = [b.strip() for b in spec.split(",") if b.strip()]
    if len(bots) == 1:
        bots *= players
    if len(bots) != players:
        raise ValueError(f"--bots: {len(bots)} names for {players} players")
    for b in bots:
        name, colon, budget = b.partition(":")
        if name in LEVEL_NAMES and colon:
            raise ValueError(f"--bots: {b!r}: a level plays at its own setting, without a budget")
        if name not in BOT_NAMES + LAB_ONLY + LEVEL_NAMES + LEVEL_ONLY:
            known = ", ".join(BOT_NAMES + LEVEL_NAMES + LEVEL_ONLY + LAB_ONLY)
            raise ValueError(f"--bots: unknown bot {b!r} ({known})")
        if colon and not (budget.isascii() and budget.isdigit() and int(budget) > 0):
            raise ValueError(f"--bots: {b!r}: a budget is a whole number, like search:200")
    return bots


@dataclass(frozen=True)
class GameJob:
    """Game ``g`` of a batch: ``bots`` lists one bot per line-up entry, ``variant`` is variant
    data (or a variant file's path, or None for today's rules), ``seed`` the batch's seed.

    ``paired``: game g is rotation g mod n of *deal* g // n (n players), and every rotation
    of a deal plays the same engine seed (the same first seat, the same cards and Shards), so
    the luck of the deal and of the seat falls on every entry alike: at 2 players each seed
    is played twice with the seats swapped. Unpaired, every game has its own seed."""

    g: int
    players: int
    bots: tuple[str, ...]
    budget: int | None
    variant: dict | str | None
    seed: int
    paired: bool = False

    @property
    def deal(self) -> int:
        """The index of the game's engine seed in its batch: g // n paired, else g."""
        return self.g // self.players if self.paired else self.g

    def engine_seed(self) -> int:
        return game_seed(self.seed, self.deal)

    def seat_entry(self) -> list[int]:
        """The line-up entry at each seat: entries rotate, entry k sits at (k + g) mod n
        (paired, g mod n is the deal's rotation: the same seats)."""
        return [(seat - self.g) % self.players for seat in range(self.players)]


@dataclass(frozen=True)
class Batch:
    """One set of seeded games: a line-up under one variant (``variant`` is data or None).
    ``start``: the first game's number (a sequential test plays a batch's games a chunk at a
    time); ``paired``: see :class:`GameJob`."""

    players: int
    bots: tuple[str, ...]
    games: int
    budget: int | None
    variant: dict | None
    seed: int
    paired: bool = False
    start: int = 0

    def jobs(self, index: int) -> list[tuple[int, GameJob]]:
        """Every game of the batch, each with the batch's ``index`` in a run of batches."""
        return [
            (
                index,
                GameJob(
                    g, self.players, self.bots, self.budget, self.variant, self.seed, self.paired
                ),
            )
            for g in range(self.start, self.start + self.games)
        ]


@dataclass(frozen=True)
class GameResult:
    """What one game showed, per seat where a list (seat 0 first)."""

    g: int
    first: int  # the seat that moved first
    ender: int  # the seat in whose turn the game ended
    seat_entry: list[int]
    returns: list[float]  # 1 for a sole winner, split on a tie (R59)
    scores: list[int]
    bay_points: list[int]
    special_points: list[int]
    turns: int
    rounds: int
    decisions: int
    unloads: int
    disrupts: int
    longest_gap_rounds: float  # the longest run of turns without an Unload, in rounds
    longest_dry_rounds: int  # the longest run of rounds with no Shard in play
    shards_entered: int
    shards_in_bag: int
    shards_banked: int
    end: str  # the engine's end reason (see END_REASONS)
    played: list[dict[str, int]]  # per seat: card id -> times played
    held: list[list[str]]  # per seat: the Special cards held at the end
    think: list[float]  # per seat: seconds of thinking (wall clock: the one figure that varies)
    # each seat's evaluation (nova.bots.evaluate, the bots' own) after each finished turn
    evaluations: list[tuple[float, ...]] = field(default_factory=list)
    # the final position of a game that did not end at Super-Nova (docs/NOTATION.md), on one
    # line: State.from_position(text, variant) opens it for study; "" for the others
    end_position: str = ""
    # the SHA-1 of the game's moves (space-separated tokens): two records of one job are the
    # same game move for move when these agree (CPython's processes, the page's workers)
    moves_sha1: str = ""
    # per seat: the decisions it made (think / decisions: a bot's time per decision)
    seat_decisions: list[int] = field(default_factory=list)

    def without_think(self) -> GameResult:
        """The record with think times zeroed: equal on any machine for the same job."""
        return replace(self, think=[0.0] * len(self.think))

    @classmethod
    def from_dict(cls, d: dict) -> GameResult:
        """A record from its dict form (``dataclasses.asdict``, or a tally written before the
        lab kept ``ender`` or ``evaluations``: the seat that ended it is derived, as every
        finished turn counts and the last turn, cut short by the end, does not)."""
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in d.items() if k in known}
        if "ender" not in values:
            values["ender"] = (d["first"] + d["turns"]) % len(d["returns"])
        # JSON has no tuples: each turn's evaluations come back as they were made
        values["evaluations"] = [tuple(v) for v in values.get("evaluations", [])]
        return cls(**values)


END_REASONS = ("supernova", "stalled", "round limit", "no ships left")
"""Every end the engine writes (``State.end_reason``), in the order reports show them."""


def pending_kind(s: State) -> str | None:
    """The kind of action the state waits on a decision within, or None."""
    return None if s.pending is None else s.pending.kind


def action_kind(s: State, move: Move) -> str | None:
    """The primitive a card move starts with (``"disrupt"``, ...), or None."""
    action = s.card_action(move.card, move.mode)
    return None if action is None else action.name


def seat_evaluations(s: State) -> tuple[float, ...]:
    """Every seat's own evaluation of the position (what the greedy and search bots weigh)."""
    return tuple(evaluate(s, seat) for seat in range(s.num_players))


def play_game(job: GameJob) -> GameResult:
    """Play one game and record what the lab tallies."""
    players, g = job.players, job.g
    seed = job.engine_seed()
    seat_entry = job.seat_entry()
    agents = [make_bot(job.bots[seat_entry[seat]], job.budget) for seat in range(players)]
    # a lab-only ceiling bot (``peeks``) is shown the true state before each decision; every
    # other bot sees only its seat's view
    peeks = [getattr(a, "peeks", False) is True for a in agents]
    s = new_game(players=players, seed=seed, variant=job.variant)
    unloads = disrupts = turns = gap = longest_gap = 0
    dry = longest_dry = 0  # rounds in a row with no Shard in play: nothing to unload
    round_had_shard = any(s.pile)
    played: list[Counter] = [Counter() for _ in range(players)]
    think = [0.0] * players
    seat_decisions = [0] * players
    evaluations: list[tuple[float, ...]] = []
    moves = hashlib.sha1()
    k = 0
    while not s.is_over():
        seat = s.current_player
        t0 = time.perf_counter()
        if peeks[seat]:
            agents[seat].see(s)  # type: ignore[union-attr]
        move = Move(agents[seat].choose(s.view(seat), seed * 7_777_777 + k))
        think[seat] += time.perf_counter() - t0
        seat_decisions[seat] += 1
        k += 1
        if pending_kind(s) == "unload":
            unloads += 1
            gap = 0
        elif move.kind == mv.END:
            turns += 1
            gap += 1
            longest_gap = max(longest_gap, gap)
        if move.kind == mv.PLAY and move.card in s.layout.card_order:
            played[seat][move.card] += 1
            disrupts += pending_kind(s) is None and action_kind(s, move) == "disrupt"
        before_round = s.round
        moves.update(move.encode() + b" ")
        s = s.apply(move)
        if move.kind == mv.END and not s.is_over():
            # once a turn, not once a decision: a few evaluations per turn against the
            # hundreds a greedy decision weighs, so the lab's pace hardly changes
            evaluations.append(seat_evaluations(s))
        round_had_shard = round_had_shard or any(s.pile)
        if s.round != before_round:
            dry = 0 if round_had_shard else dry + 1
            longest_dry = max(longest_dry, dry)
            round_had_shard = any(s.pile)
    lay = s.layout
    held = [sorted({c for c in p.cards() if c in lay.special}) for p in s.players]
    breakdowns = [s.score_breakdown(p) for p in range(players)]
    return GameResult(
        g=g,
        first=s.first,
        ender=s.turn,
        seat_entry=seat_entry,
        returns=s.returns(),
        scores=[b["total"] for b in breakdowns],
        bay_points=[sum(bay["points"] for bay in b["bays"]) for b in breakdowns],
        special_points=[sum(grp["points"] for grp in b["specials"]) for b in breakdowns],
        turns=turns,
        rounds=s.round,
        decisions=s.ply,
        unloads=unloads,
        disrupts=disrupts,
        longest_gap_rounds=longest_gap / players,
        longest_dry_rounds=longest_dry,
        shards_entered=sum(lay.shard_supply) - sum(s.bag),
        shards_in_bag=sum(s.bag),
        shards_banked=sum(len(bay) for p in s.players for bay in p.bays),
        end=s.end_reason,
        played=[dict(c) for c in played],
        held=held,
        think=think,
        evaluations=evaluations,
        end_position="" if s.end_reason == "supernova" else " | ".join(s.position().splitlines()),
        moves_sha1=moves.hexdigest(),
        seat_decisions=seat_decisions,
    )
