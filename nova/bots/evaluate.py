"""A hand-written evaluation of a position for one seat, in rough points.

Only things the seat could see in its view are used for the *other* seats (their
visible Special cards, never their hands), so evaluating a determinized state gives
the same number whatever hidden cards were dealt to the opponents.

The terms, all in "points at the end of the game" units:

* banked: the Cargo Bays (best split, R50-R54) plus a little for a bay whose open
  tail can still grow into a set, plus the seat's Special cards by symbol (R55-R58);
* carried: Shards under the seat's ships, discounted by how many actions the ship
  needs to reach one of its own Jump-Gates, by the danger of the next Star Expansion
  (R48) and by how soon Super-Nova ends the game (R49); with a ``cargo`` weight (the
  fitted weights), also by the points the stack would add to the seat's own bays;
* ships: each ship still in the game (Dock or board) is worth future Shards;
* reach: loose Shards that one of the seat's ships can orbit onto;
* threat: a stack with an opponent ship next to it on its ring can be Hijacked (R39);
* the end (R49): the seat ahead values each step the track has moved (``TEMPO``), the seat
  behind the opposite, so a leader brings the star to Super-Nova instead of sitting on a
  won position; near the round limit (our safety net, not the rulebook's) that end counts
  as a loss for every seat and every seat values the track's steps (``FINISH``); so does
  every seat in a game that drags (the track far behind the usual pace, :func:`dragging`),
  where waiting helps nobody, and there a loss at Super-Nova weighs only its margin, so the
  seat behind that holds the last Shards banks them and ends the game.

"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from functools import lru_cache

from ..rules import State
from ..rules.scoring import best_bay_split, special_groups

WIN = 1000.0
SHARD = 2.2  # a carried Shard's rough worth once unloaded well
HOME_GATE = 0.9  # on an own Jump-Gate: one Unload away
JUMP_HOME = 0.76  # on any other gate: a Jump, then an Unload
ORBIT_HOME = 0.8  # on an own gate's ring, less a step per space to orbit
STEP = 0.04
FAR = 0.4
SHIP = 2.0  # a ship's worth of future Shards at the start of the game
IN_PLAY = 0.25  # a launched ship can act this turn
REACH = 0.35  # per loose Shard within orbit reach of one of the seat's ships
OPEN_TAIL = 0.5  # share of a bay's next-Shard gain counted before it happens
THREAT = 1.3  # a Hijack takes the bottom Shard and pushes the stack away
HORIZON = 10  # rounds before the round limit from which the limit's result counts
DRY = 3.0  # per track space to the next Spawn while no Shard is in play: Disrupt toward it
TEMPO = 1.5  # per track space moved, to the seat ahead (against the seat behind): end it
FINISH = 5.0  # per track space moved, to every seat, as the round limit nears
LEAD = 10.0  # a lead of this many points counts as mostly "ahead"
# A game drags when the round is later than SLACK + PACE x the track's position (greedy
# games move about one step a round at 2 players, faster with more): from there, over
# RAMP rounds, every seat comes to value each step of the track (FINISH) and the planner
# looks two actions ahead (nova.bots.planner). Only the slowest games are touched.
PACE = 1.5
SLACK = 6.0
RAMP = 4.0


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights: the constants above by default (what ``greedy`` and
    ``search`` play with, unchanged), other values for a tuned bot (``nova.bots.tuned``).

    Frozen and hashable, so a table of per-layout lookups can be cached per weights.
    """

    shard: float = SHARD
    home_gate: float = HOME_GATE
    jump_home: float = JUMP_HOME
    orbit_home: float = ORBIT_HOME
    step: float = STEP
    far: float = FAR
    ship: float = SHIP
    in_play: float = IN_PLAY
    reach: float = REACH
    open_tail: float = OPEN_TAIL
    threat: float = THREAT
    dry: float = DRY
    tempo: float = TEMPO
    finish: float = FINISH
    lead: float = LEAD
    at_risk: float = 0.3  # what a carried Shard keeps of its worth on the ring about to go
    exposed: float = 0.5  # an empty ship on that ring loses this share of a ship's worth
    blend: float = 0.5  # the opponents as blend x best + (1 - blend) x mean
    # per point a carried stack would add to the seat's bays, unloaded now (cargo_gain), on
    # top of ``shard`` per Shard: 0 in the hand-set weights, which value every Shard alike
    cargo: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: dict[str, float]) -> Weights:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ValueError(f"unknown evaluation weights: {', '.join(unknown)}")
        return cls(**{k: float(v) for k, v in d.items()})


DEFAULT = Weights()

# Weights fitted to who wins at a player count (tools/texel_tune.py --players N): what a
# searching bot that takes them (``RaiderBot.fitted``: the Admiral, ``stepwise``) plays with
# at that count.
FITTED: dict[int, Weights] = {
    # tools/texel_tune.py --players 4 --games 300 --seed 11: 12,841 positions of greedy
    # self-play, K 0.0953; the loss on the held-out half 0.13398 with the hand-set weights,
    # 0.13221 with these (docs/BOTS.md, "The evaluation fitted at 4 players")
    4: Weights(
        shard=2.145,
        home_gate=0.9,
        jump_home=0.456,
        orbit_home=0.8,
        step=0.0125,
        far=0.4,
        ship=0.6,
        in_play=0.0625,
        reach=0.0962,
        open_tail=0.325,
        threat=0.325,
        at_risk=0.9675,
        exposed=0.125,
        blend=0.5,
    ),
}

# The weights of what a position holds (Shards, ships, threats, the opponents' blend), as
# against those that steer how the game ends (tempo, finish, dry, lead): what a tuner may fit
# to who wins (tools/texel_tune.py, tools/tune_weights.py).
HOLDINGS = (
    "shard",
    "home_gate",
    "jump_home",
    "orbit_home",
    "step",
    "far",
    "ship",
    "in_play",
    "reach",
    "open_tail",
    "threat",
    "at_risk",
    "exposed",
    "blend",
    "cargo",
)


@lru_cache(maxsize=4096)
def bay_points(bay: str, table: tuple[tuple[int, int], ...]) -> tuple[int, int]:
    """(points now, most one more Shard could add) for one bay, bottom first (R50)."""
    t = dict(table)
    now = best_bay_split(bay, t)[0]
    return now, max(best_bay_split(bay + c, t)[0] for c in "kry") - now


def bay_value(
    bay: str, table: tuple[tuple[int, int], ...], late: float = 1.0, open_tail: float = OPEN_TAIL
) -> float:
    """A bay's points plus part of what its open last group can still become."""
    now, gain = bay_points(bay, table)
    return now + open_tail * late * gain


@lru_cache(maxsize=8192)
def cargo_gain(bays: tuple[str, ...], stack: str, table: tuple[tuple[int, int], ...]) -> int:
    """The points ``stack`` (bottom first) adds to ``bays`` unloaded Shard by Shard, top first
    (R38), each into the bay it adds most to: what the carried Shards are worth to this seat,
    which a flat worth per Shard cannot tell (a third colour completes a set, a fourth Shard
    of one colour is a single point)."""
    t = dict(table)
    now = [best_bay_split(b, t)[0] for b in bays]
    held = list(bays)
    total = 0
    for c in reversed(stack):
        gains = [best_bay_split(b + c, t)[0] - v for b, v in zip(held, now, strict=True)]
        i = max(range(len(held)), key=gains.__getitem__)
        held[i] += c
        now[i] += gains[i]
        total += gains[i]
    return total


@lru_cache(maxsize=4096)
def specials_value(symbols: tuple[str, ...], table: tuple[tuple[int, int], ...]) -> int:
    return sum(g[2] for g in special_groups(symbols, dict(table)))


class Geometry:
    """Per-layout tables the evaluation looks up: actions to get home, ring distances."""

    def __init__(self, lay, w: Weights = DEFAULT) -> None:
        self.lay = lay
        n = lay.space_count
        self.bay_table = tuple(sorted(lay.bay_sets.items()))
        self.special_table = tuple(sorted(lay.special_sets.items()))
        # what a carried Shard keeps of its worth on each space, by how far home is
        self.home_factor: list[list[float]] = []
        for seat in range(lay.players):
            own = set(lay.seat_gates[seat])
            row = []
            for s in range(n):
                if s in own:
                    row.append(w.home_gate)
                    continue
                d_own = min((self.ring_dist(s, g) for g in own if self.same_ring(s, g)), default=99)
                d_any = min(
                    (self.ring_dist(s, g) for g in lay.gates if self.same_ring(s, g)), default=99
                )
                # orbit home along the ring, or orbit to any gate and Jump home from it
                row.append(max(w.orbit_home - w.step * d_own, w.jump_home - w.step * d_any, w.far))
            self.home_factor.append(row)
        # spaces within orbit reach (1-4 either way) on the same ring
        self.near = [
            [t for t in range(n) if t != s and self.same_ring(s, t) and self.ring_dist(s, t) <= 4]
            for s in range(n)
        ]
        track = lay.track
        self.expansions_ahead = [
            next((k - i for k in range(i + 1, len(track)) if track[k] == "expansion"), 99)
            for i in range(len(track))
        ]
        self.track_len = len(track) - 1
        self.to_spawn = [
            next((k - i for k in range(i + 1, len(track)) if track[k] == "spawn"), 0)
            for i in range(len(track))
        ]

    def same_ring(self, a: int, b: int) -> bool:
        return self.lay.space_ring[a] == self.lay.space_ring[b]

    def ring_dist(self, a: int, b: int) -> int:
        n = self.lay.ring_sizes[self.lay.space_ring[a]]
        d = abs(self.lay.space_index[a] - self.lay.space_index[b]) % n
        return min(d, n - d)


_GEOMETRY: dict[tuple[int, Weights], Geometry] = {}


def geometry(lay, w: Weights = DEFAULT) -> Geometry:
    g = _GEOMETRY.get((id(lay), w))
    if g is None or g.lay is not lay:
        g = _GEOMETRY[(id(lay), w)] = Geometry(lay, w)
    return g


def seat_value(
    s: State, seat: int, me: int, geo: Geometry, ships=None, w: Weights = DEFAULT
) -> float:
    """How well ``seat`` is doing, in rough end-of-game points."""
    lay = s.layout
    p = s.players[seat]
    left = geo.track_len - s.track_pos  # Unloads until Super-Nova
    late = 1.0 if left >= 3 else (0.55 if left == 2 else 0.25)
    value = sum(bay_value(b, geo.bay_table, late, w.open_tail) for b in p.bays)
    if seat == me:
        symbols = s.special_symbols(seat)
    else:  # only what the evaluating seat can see
        cards = p.discard + [c for c, _ in p.played]
        symbols = [lay.special[c]["colour"] for c in cards if c in lay.special]
    value += specials_value(tuple(sorted(symbols)), geo.special_table)
    danger_ring = s.removed if geo.expansions_ahead[s.track_pos] <= 2 else -1
    alive = lay.ships - p.ships_lost
    value += w.ship * alive * (left / geo.track_len)
    home = geo.home_factor[seat]
    pile, ship, ring = s.pile, s.ship, lay.space_ring
    if ships is None:
        ships = [(sp, o) for sp, o in enumerate(ship) if o != -1]
    for sp, owner in ships:
        if owner != seat:
            continue
        value += w.in_play
        carried = len(pile[sp])
        at_risk = ring[sp] == danger_ring
        if carried:
            factor = home[sp] * late
            if at_risk:
                factor *= w.at_risk
            worth = w.shard * carried
            if w.cargo:
                worth += w.cargo * cargo_gain(tuple(p.bays), pile[sp], geo.bay_table)
            value += worth * factor
            for t in (lay.next_space[sp], lay.prev_space[sp]):
                if ship[t] not in (-1, seat):
                    value -= w.threat * late
                    break
        elif at_risk:
            value -= w.ship * w.exposed
        best = 0
        for t in geo.near[sp]:
            if pile[t] and ship[t] == -1 and ring[t] >= s.removed:
                best = max(best, len(pile[t]))
        value += w.reach * best * late
    return value


def outcome(s: State, me: int, at_limit: bool = False, w: Weights = DEFAULT) -> float:
    """The game's result for ``me`` if it ended now: a win or a loss, and the margin.

    An end at the round limit (``at_limit``, or a game that ended there) counts as a loss
    for every seat, whatever the scores: the rulebook's game ends only at Super-Nova, so a
    leader that waits for the limit has not won, and no seat gains by keeping the star from
    it. (A draw for every seat, as before, made the seat behind hold the last Shards from
    the seat ahead for ever: the limit paid it a share of a win, Super-Nova a loss.)

    In a game that drags (:func:`dragging`) a loss at Super-Nova weighs less and less, down
    to what the evaluation of a game still on would say of the same scores (:func:`standing`):
    the seat behind that holds the last Shards then banks them and ends the game a closer
    loser, instead of keeping them from the seat ahead.
    """
    scores = s.scores()
    others = max(sc for i, sc in enumerate(scores) if i != me)
    margin = scores[me] - others
    if at_limit or s.end_reason == "round limit":
        return -WIN + margin
    winners = s.winners()
    if me in winners:
        return WIN / len(winners) + margin
    d = dragging(s)
    if d <= 0:
        return -WIN + margin
    return (1 - d) * (-WIN + margin) + d * standing(s, me, scores, w)


def standing(s: State, me: int, scores: list[int], w: Weights = DEFAULT) -> float:
    """The scores as :func:`evaluate` weighs a position in a game that drags, at full drag.

    The same blend of the best and the mean opponent, and the same worth of the track's
    steps (``TEMPO`` for the seat ahead or behind, ``FINISH`` for every seat), so that an
    ended game and one still going are judged on one scale.
    """
    others = [sc for i, sc in enumerate(scores) if i != me]
    value = scores[me] - (w.blend * max(others) + (1 - w.blend) * sum(others) / len(others))
    value += w.tempo * math.tanh(value / w.lead) * s.track_pos
    return value + w.finish * s.track_pos


def dragging(s: State) -> float:
    """How far the game has fallen behind the usual pace of the track, 0 (not) to 1.

    A stand-off (each seat parked where the other must go, the seat behind holding back
    its cargo, every seat passing) shows in the state as many rounds for few track steps;
    the round limit's own horizon counts as dragging too.
    """
    onset = SLACK + PACE * s.track_pos
    limit = s.layout.settings.max_rounds
    if limit:
        onset = min(onset, limit - HORIZON)
    return min(max((s.round - onset) / RAMP, 0.0), 1.0)


def evaluate(s: State, me: int, weights: Weights = DEFAULT) -> float:
    """The position for seat ``me``: its value minus the opponents' (a blend of best and mean).

    Near the round limit (setting ``max_rounds``, known to every player) the game will end
    with the scores as they stand, whatever anyone does: the value turns into that end's
    result, a loss for every seat (see :func:`outcome`), so every seat that could end the
    game the rulebook's way does so rather than wait for the limit.
    """
    if s.over:
        return outcome(s, me, w=weights)
    geo = geometry(s.layout, weights)
    ships = [(sp, o) for sp, o in enumerate(s.ship) if o != -1]
    mine = seat_value(s, me, me, geo, ships, weights)
    others = [seat_value(s, i, me, geo, ships, weights) for i in range(s.num_players) if i != me]
    value = mine - (weights.blend * max(others) + (1 - weights.blend) * sum(others) / len(others))
    if not any(s.pile):
        # A dry board: no Shard to fetch until the next Spawn Energy, which only the track
        # brings and no Unload can move; the seat that Disrupts toward it gets the game going.
        value -= weights.dry * geo.to_spawn[s.track_pos]
    # The seat ahead wants the star to go Super-Nova while it leads (and the seat behind
    # wants time): without this a leader happily sits on a won position (parked on an
    # opponent's gate, holding the last Shards) and the game never reaches Super-Nova.
    value += weights.tempo * math.tanh(value / weights.lead) * s.track_pos
    limit = s.layout.settings.max_rounds
    if limit:
        w = (s.round - (limit - HORIZON)) / (HORIZON / 2)
        if w > 0:
            w = min(w, 1.0)
            value = (1 - w / 2) * value + w / 2 * outcome(s, me, True, weights)
    # A game that drags (a stand-off, or the limit near) ends in nobody's favour by waiting:
    # every seat now values each step the star has moved, more than the seat behind fears
    # it (TEMPO), so a mutual blockade breaks up and the seat behind unloads its cargo.
    value += dragging(s) * weights.finish * s.track_pos
    return value
