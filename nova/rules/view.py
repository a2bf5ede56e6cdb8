"""What one seat may see (boardgame.io's playerView).

A view is a plain JSON-ready dict. It holds the board, the bays, the track, the
Academy's face-up cards, every discard pile and played row, the seat's own hand and
the *contents* (not the order) of its own draw pile; of everyone else only counts.
:mod:`.sampling` deals the unseen cards at random to make a full state consistent
with a view, which is how a searching bot plays without peeking.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .scoring import best_bay_split, special_groups

if TYPE_CHECKING:
    from .state import State

VIEW_VERSION = 1


def _json(value: Any) -> Any:
    return list(value) if isinstance(value, (list, tuple)) else value


def make_view(s: State, seat: int, shown: dict[str, str]) -> dict[str, Any]:
    """``seat``'s view of ``s``; ``shown`` maps the fields every seat sees to their names."""
    if not 0 <= seat < s.num_players:
        raise ValueError(f"no seat {seat} in a {s.num_players}-player game")
    lay = s.layout
    order = lay.card_order
    players = []
    for i, p in enumerate(s.players):
        d: dict[str, Any] = {
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
    view: dict[str, Any] = {
        "format": "nova-view",
        "version": VIEW_VERSION,
        "seat": seat,
        "players": s.num_players,
        "board": lay.board_name,
        "seed_hidden": True,
        "track": list(lay.track),
        "academy_count": len(s.academy),
        "pending": None if s.pending is None else s.pending.to_json(),
        "seats": players,
        "max_rounds": lay.settings.max_rounds,
    }
    for name, key in shown.items():
        view[key] = _json(getattr(s, name))
    if s.over:
        view["scores"] = s.scores()
        view["winners"] = s.winners()
        view["breakdown"] = [s.score_breakdown(p) for p in range(s.num_players)]
    if seat == s.decider and not s.over:
        view["legal"] = [str(m) for m in s.legal_moves()]
    return view
