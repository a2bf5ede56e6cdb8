"""What one seat may see (boardgame.io's playerView), and sampling what it cannot.

A view is a plain JSON-ready dict. It holds the board, the bays, the track, the
Academy's face-up cards, every discard pile and played row, the seat's own hand and
the *contents* (not the order) of its own draw pile; of everyone else only counts.
:func:`determinize` deals the unseen cards at random to make a full :class:`State`
consistent with a view, which is how a searching bot plays without peeking.
"""

from __future__ import annotations

from .content import layout_for
from .rng import Rng
from .scoring import best_bay_split, special_groups
from .state import NO_SHIP, Player, State, _pending_to_json

VIEW_VERSION = 1


def make_view(s: State, seat: int) -> dict:
    if not 0 <= seat < s.num_players:
        raise ValueError(f"no seat {seat} in a {s.num_players}-player game")
    lay = s.layout
    order = lay.card_order
    players = []
    for i, p in enumerate(s.players):
        d = {
            "dock": p.dock,
            "bays": list(p.bays),
            "hand_count": len(p.hand),
            "draw_count": len(p.draw),
            "discard": list(p.discard),
            "played": [[c, m] for c, m in p.played],
            "ships_lost": p.ships_lost,
            "ships_in_play": sum(1 for o in s.ship if o == i),
        }
        visible_specials = [c for c in p.discard + [c for c, _ in p.played] if c in lay.special]
        if i == seat:
            d["hand"] = list(p.hand)
            d["draw_cards"] = sorted(p.draw, key=order.__getitem__)
            visible_specials += [c for c in p.hand + p.draw if c in lay.special]
        bay_points = sum(best_bay_split(b, lay.bay_sets)[0] for b in p.bays)
        symbols = [lay.special[c]["colour"] for c in visible_specials]
        special_points = sum(g[2] for g in special_groups(symbols, lay.special_sets))
        d["score_estimate"] = bay_points + special_points
        players.append(d)
    view = {
        "format": "nova-view",
        "version": VIEW_VERSION,
        "seat": seat,
        "players": s.num_players,
        "variant": s.variant,
        "board": lay.board_name,
        "seed_hidden": True,
        "turn": s.turn,
        "current": s.decider,
        "first": s.first,
        "round": s.round,
        "ply": s.ply,
        "pile": list(s.pile),
        "ship": list(s.ship),
        "removed": s.removed,
        "track": list(lay.track),
        "track_pos": s.track_pos,
        "bag": list(s.bag),
        "consumed": list(s.consumed),
        "face_up": list(s.face_up),
        "academy_count": len(s.academy),
        "need_link": s.need_link,
        "pending": _pending_to_json(s.pending),
        "spawn_shard": s.spawn_shard,
        "spawn_queue": list(s.spawn_queue),
        "seats": players,
        "over": s.over,
        "end_reason": s.end_reason,
        "last_event": s.last_event,
        "max_rounds": lay.settings.get("max_rounds"),
    }
    if s.over:
        view["scores"] = s.scores()
        view["winners"] = s.winners()
        view["breakdown"] = [s.score_breakdown(p) for p in range(s.num_players)]
    if seat == s.decider and not s.over:
        view["legal"] = [str(m) for m in s.legal_moves()]
    return view


def determinize(view: dict, seed: int) -> State:
    """A full state that agrees with ``view``, its unseen cards dealt at random.

    Basic cards never change hands, so another seat's unseen basics are in its hand or
    draw pile; the unseen Special cards are spread over the other hands, draw piles and
    the Academy Deck. The bag and the random generator are fresh from ``seed``.
    """
    lay = layout_for(view["players"], view.get("variant"))
    rng = Rng(seed)
    seat = view["seat"]
    s = State.__new__(State)
    s.layout = lay
    s.variant = view.get("variant")
    s.seed = seed
    s.pile = list(view["pile"])
    s.ship = list(view["ship"])
    s.removed = view["removed"]
    s.track_pos = view["track_pos"]
    s.bag = list(view["bag"])
    s.consumed = list(view["consumed"])
    s.face_up = list(view["face_up"])
    s.turn = view["turn"]
    s.decider = view["current"]
    s.first = view["first"]
    s.need_link = view["need_link"]
    pd = view["pending"]
    s.pending = None if pd is None else _pending_from_json(pd)
    s.spawn_queue = tuple(view["spawn_queue"])
    s.spawn_shard = view["spawn_shard"]
    s.round = view["round"]
    s.ply = view["ply"]
    s.over = view["over"]
    s.end_reason = view["end_reason"]
    s.last_event = ""
    s._legal = None
    seen_specials = {c for c in s.face_up if c is not None}
    players = []
    for i, d in enumerate(view["seats"]):
        p = Player()
        p.dock = d["dock"]
        p.bays = list(d["bays"])
        p.discard = list(d["discard"])
        p.played = [(c, m) for c, m in d["played"]]
        p.ships_lost = d["ships_lost"]
        seen_specials.update(c for c in p.discard if c in lay.special)
        seen_specials.update(c for c, _ in p.played if c in lay.special)
        if i == seat:
            p.hand = list(d["hand"])
            p.draw = list(d["draw_cards"])
            rng.shuffle(p.draw)
            seen_specials.update(c for c in p.hand + p.draw if c in lay.special)
        players.append(p)
    unseen = [c for c in lay.special if c not in seen_specials]
    rng.shuffle(unseen)
    for i, d in enumerate(view["seats"]):
        if i == seat:
            continue
        p = players[i]
        seen_basics = set(p.discard) | {c for c, _ in p.played}
        cards = [c for c in lay.basic if c not in seen_basics]
        slots = d["hand_count"] + d["draw_count"]
        while len(cards) < slots and unseen:
            cards.append(unseen.pop())
        rng.shuffle(cards)
        p.hand = cards[: d["hand_count"]]
        p.draw = cards[d["hand_count"] : slots]
    s.academy = unseen[: view["academy_count"]]
    s.players = players
    s.rng = rng.state
    return s


def _pending_from_json(pd: dict) -> dict:
    out = dict(pd)
    for key in ("dists", "targets", "totals"):
        if key in out and isinstance(out[key], list):
            out[key] = tuple(out[key])
    if out.get("kind") == "skip" and "total" in out:  # a Skip saved before ranges counted
        out["totals"] = (out.pop("total"),)
    return out


__all__ = ["make_view", "determinize", "NO_SHIP"]
