"""What one seat may see (boardgame.io's playerView), as a typed value.

A :class:`View` holds the board, the bays, the track, the Academy's face-up cards, every
discard pile and played row, the seat's own hand and the *contents* (not the order) of
its own draw pile; of everyone else only counts. Render, the bots, the page's screens
and the tutorial read it by field. :mod:`.sampling` deals the unseen cards at random to
make a full state consistent with a view, which is how a searching bot plays without
peeking.

JSON only where a view leaves the process (to the bots' worker, to a digest or a
report): :meth:`View.to_json` and :meth:`View.from_json`, one each way, and
``View.from_json(v.to_json()) == v``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .actions import Action
from .actions import from_json as action_from_json
from .content import Layout, layout_for
from .move import Move
from .scoring import best_bay_split, special_groups

if TYPE_CHECKING:
    from .state import State

VIEW_VERSION = 1


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the viewing seat sees it: its own cards only when it is that seat."""

    dock: int
    bays: tuple[str, ...]
    hand_count: int
    draw_count: int
    discard: tuple[str, ...]
    played: tuple[tuple[str, str], ...]  # (card, how it was played: u r s l)
    ships_lost: int
    ships_in_play: int
    score_estimate: int  # bays and the Specials this viewer can see
    hand: tuple[str, ...] | None = None  # the viewing seat's own only
    draw_cards: tuple[str, ...] | None = None  # its draw pile, in card order (not its order)
    to_draw: int = 0  # a game by links: cards it has still to draw (nova.fair.table)


@dataclass(frozen=True, slots=True)
class BayScore:
    shards: str
    groups: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True)
class SpecialScore:
    colour: str
    size: int
    points: int


@dataclass(frozen=True, slots=True)
class Breakdown:
    """How one seat's final score is made (the score screen)."""

    bays: tuple[BayScore, ...]
    specials: tuple[SpecialScore, ...]
    total: int

    @classmethod
    def of(cls, d: dict[str, Any]) -> Breakdown:
        """From :meth:`State.score_breakdown`'s JSON form."""
        return cls(
            tuple(BayScore(b["shards"], tuple(b["groups"]), b["points"]) for b in d["bays"]),
            tuple(SpecialScore(g["colour"], g["size"], g["points"]) for g in d["specials"]),
            d["total"],
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "bays": [
                {"shards": b.shards, "groups": list(b.groups), "points": b.points}
                for b in self.bays
            ],
            "specials": [
                {"colour": g.colour, "size": g.size, "points": g.points} for g in self.specials
            ],
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class View:
    """What ``seat`` sees. The fields from ``variant`` to ``last_event`` are the State's own
    that every seat sees (named by their ``shown`` metadata; ``current`` is the decider)."""

    seat: int
    players: int
    board: str  # the board's name
    track: tuple[str, ...]
    academy_count: int
    pending: Action | None  # the action under way
    seats: tuple[SeatView, ...]
    max_rounds: int | None  # the round limit, if any
    variant: Any
    pile: tuple[str, ...]  # each space's Shards, bottom first
    ship: tuple[int, ...]  # each space's ship: a seat, or -1
    removed: int
    track_pos: int
    bag: tuple[int, ...]
    consumed: tuple[int, ...]
    face_up: tuple[str | None, ...]
    turn: int
    current: int  # whose decision it is
    first: int
    need_link: bool
    spawn_queue: tuple[int, ...]
    spawn_shard: str
    round: int
    ply: int
    over: bool
    end_reason: str
    last_event: str
    scores: tuple[int, ...] = ()  # once over
    winners: tuple[int, ...] = ()  # once over
    breakdown: tuple[Breakdown, ...] = ()  # once over, per seat
    legal: tuple[Move, ...] = ()  # the deciding seat's decisions (empty: not its to make)
    spectator: bool = False  # a device with no seat in a game by links

    @property
    def layout(self) -> Layout:
        return layout_for(self.players, self.variant)

    @property
    def me(self) -> SeatView:
        """The viewing seat."""
        return self.seats[self.seat]

    def but(self, **changes: Any) -> View:
        """A copy with ``changes`` (what the page shows differs from what the seat sees)."""
        return dataclasses.replace(self, **changes)

    # -- the JSON boundary ------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """This view as JSON-ready data (to a worker, a digest): :meth:`from_json` reads it."""
        out: dict[str, Any] = {
            "format": "nova-view",
            "version": VIEW_VERSION,
            "seed_hidden": True,
            "pending": None if self.pending is None else self.pending.to_json(),
            "seats": [_seat_json(d) for d in self.seats],
        }
        for f in _PLAIN:
            value = getattr(self, f)
            out[f] = list(value) if isinstance(value, tuple) else value
        if self.scores:
            out["scores"] = list(self.scores)
        if self.winners:
            out["winners"] = list(self.winners)
        if self.breakdown:
            out["breakdown"] = [b.to_json() for b in self.breakdown]
        if self.legal:
            out["legal"] = [str(m) for m in self.legal]
        if self.spectator:
            out["spectator"] = True
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> View:
        """The view :meth:`to_json` wrote; ValueError if ``data`` is not one."""
        if not isinstance(data, dict) or data.get("format") != "nova-view":
            raise ValueError("not a view")
        if data.get("version") != VIEW_VERSION:
            raise ValueError(f"a view of version {data.get('version')}, not {VIEW_VERSION}")
        try:
            fields = {f: _frozen(data[f]) for f in _PLAIN}
            pd = data["pending"]
            return cls(
                **fields,
                pending=None if pd is None else action_from_json(pd),
                seats=tuple(_seat_from_json(d) for d in data["seats"]),
                scores=tuple(data.get("scores", ())),
                winners=tuple(data.get("winners", ())),
                breakdown=tuple(Breakdown.of(b) for b in data.get("breakdown", ())),
                legal=tuple(Move(m) for m in data.get("legal", ())),
                spectator=bool(data.get("spectator", False)),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a view: {exc!r}") from None


# the fields written as they are (tuples as lists); the others have their own form
_OWN_FORM = ("pending", "seats", "scores", "winners", "breakdown", "legal", "spectator")
_PLAIN = tuple(f.name for f in dataclasses.fields(View) if f.name not in _OWN_FORM)


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, (list, tuple)) else value


def _seat_json(d: SeatView) -> dict[str, Any]:
    out: dict[str, Any] = {
        "dock": d.dock,
        "bays": list(d.bays),
        "hand_count": d.hand_count,
        "draw_count": d.draw_count,
        "discard": list(d.discard),
        "played": [[c, m] for c, m in d.played],
        "ships_lost": d.ships_lost,
        "ships_in_play": d.ships_in_play,
        "score_estimate": d.score_estimate,
    }
    if d.hand is not None:
        out["hand"] = list(d.hand)
    if d.draw_cards is not None:
        out["draw_cards"] = list(d.draw_cards)
    if d.to_draw:
        out["to_draw"] = d.to_draw
    return out


def _seat_from_json(d: dict[str, Any]) -> SeatView:
    hand, draw = d.get("hand"), d.get("draw_cards")
    return SeatView(
        dock=d["dock"],
        bays=tuple(d["bays"]),
        hand_count=d["hand_count"],
        draw_count=d["draw_count"],
        discard=tuple(d["discard"]),
        played=tuple((c, m) for c, m in d["played"]),
        ships_lost=d["ships_lost"],
        ships_in_play=d["ships_in_play"],
        score_estimate=d["score_estimate"],
        hand=None if hand is None else tuple(hand),
        draw_cards=None if draw is None else tuple(draw),
        to_draw=d.get("to_draw", 0),
    )


def make_view(s: State, seat: int, shown: dict[str, str]) -> View:
    """``seat``'s view of ``s``; ``shown`` maps the fields every seat sees to their names."""
    if not 0 <= seat < s.num_players:
        raise ValueError(f"no seat {seat} in a {s.num_players}-player game")
    lay = s.layout
    order = lay.card_order
    seats = []
    for i, p in enumerate(s.players):
        visible_specials = [c for c in p.discard + [c for c, _ in p.played] if c in lay.special]
        hand = draw_cards = None
        if i == seat:
            hand = tuple(p.hand)
            draw_cards = tuple(sorted(p.draw, key=order.__getitem__))
            visible_specials += [c for c in p.hand + p.draw if c in lay.special]
        bay_points = sum(best_bay_split(b, lay.bay_sets)[0] for b in p.bays)
        symbols = [lay.special[c]["colour"] for c in visible_specials]
        special_points = sum(g[2] for g in special_groups(symbols, lay.special_sets))
        seats.append(
            SeatView(
                dock=p.dock,
                bays=tuple(p.bays),
                hand_count=len(p.hand),
                draw_count=len(p.draw),
                discard=tuple(p.discard),
                played=tuple((c, m) for c, m in p.played),
                ships_lost=p.ships_lost,
                ships_in_play=sum(1 for o in s.ship if o == i),
                score_estimate=bay_points + special_points,
                hand=hand,
                draw_cards=draw_cards,
            )
        )
    over = s.over
    return View(
        seat=seat,
        players=s.num_players,
        board=lay.board_name,
        track=tuple(lay.track),
        academy_count=len(s.academy),
        pending=s.pending,
        seats=tuple(seats),
        max_rounds=lay.settings.max_rounds,
        **{key: _frozen(getattr(s, name)) for name, key in shown.items()},
        scores=tuple(s.scores()) if over else (),
        winners=tuple(s.winners()) if over else (),
        breakdown=tuple(Breakdown.of(s.score_breakdown(p)) for p in range(s.num_players))
        if over
        else (),
        legal=tuple(s.legal_moves()) if seat == s.decider and not over else (),
    )
