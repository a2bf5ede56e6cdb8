"""Sampling what a seat cannot see: a full state that agrees with its view."""

from __future__ import annotations

from typing import Any

from .rng import Rng
from .state import _SHOWN, State, _from_fields
from .view import View


def determinize(view: View, seed: int) -> State:
    """A full state that agrees with ``view``, its unseen cards dealt at random.

    Basic cards never change hands, so another seat's unseen basics are in its hand or
    draw pile; the unseen Special cards are spread over the other hands, draw piles and
    the Academy Deck. The bag and the random generator are fresh from ``seed``.
    """
    lay = view.layout
    rng = Rng(seed)
    seat = view.seat
    fields: dict[str, Any] = {"layout": lay, "seed": seed}
    for name, key in _SHOWN.items():  # what every seat sees, as the view shows it
        value = getattr(view, key)
        if isinstance(value, tuple) and name != "spawn_queue":
            value = list(value)  # the State's lists
        fields[name] = value
    fields["pending"] = view.pending
    seen_specials = {c for c in fields["face_up"] if c is not None}
    players: list[dict[str, Any]] = []
    for i, d in enumerate(view.seats):
        p: dict[str, Any] = {
            "dock": d.dock,
            "bays": list(d.bays),
            "discard": list(d.discard),
            "played": list(d.played),
            "ships_lost": d.ships_lost,
            "hand": [],
            "draw": [],
        }
        seen_specials.update(c for c in p["discard"] if c in lay.special)
        seen_specials.update(c for c, _ in p["played"] if c in lay.special)
        if i == seat:
            p["hand"] = list(d.hand or ())
            p["draw"] = list(d.draw_cards or ())
            rng.shuffle(p["draw"])
            seen_specials.update(c for c in p["hand"] + p["draw"] if c in lay.special)
        players.append(p)
    unseen = [c for c in lay.special if c not in seen_specials]
    rng.shuffle(unseen)
    for i, d in enumerate(view.seats):
        if i == seat:
            continue
        p = players[i]
        seen_basics = set(p["discard"]) | {c for c, _ in p["played"]}
        cards = [c for c in lay.basic if c not in seen_basics]
        slots = d.hand_count + d.draw_count
        while len(cards) < slots and unseen:
            cards.append(unseen.pop())
        rng.shuffle(cards)
        p["hand"] = cards[: d.hand_count]
        p["draw"] = cards[d.hand_count : slots]
    fields["academy"] = unseen[: view.academy_count]
    fields["players"] = players
    fields["rng"] = rng.state
    return _from_fields(fields)
