"""Sampling what a seat cannot see: a full state that agrees with its view."""

from __future__ import annotations

from typing import Any

from .actions import from_json as action_from_json
from .content import layout_for
from .rng import Rng
from .state import _SHOWN, State, _from_fields


def determinize(view: dict[str, Any], seed: int) -> State:
    """A full state that agrees with ``view``, its unseen cards dealt at random.

    Basic cards never change hands, so another seat's unseen basics are in its hand or
    draw pile; the unseen Special cards are spread over the other hands, draw piles and
    the Academy Deck. The bag and the random generator are fresh from ``seed``.
    """
    lay = layout_for(view["players"], view.get("variant"))
    rng = Rng(seed)
    seat = view["seat"]
    fields: dict[str, Any] = {"layout": lay, "seed": seed}
    for name, key in _SHOWN.items():  # what every seat sees, as the view shows it
        value = view[key]
        if name == "spawn_queue":
            value = tuple(value)
        elif isinstance(value, list):
            value = list(value)
        fields[name] = value
    pd = view["pending"]
    fields["pending"] = None if pd is None else action_from_json(pd)
    seen_specials = {c for c in fields["face_up"] if c is not None}
    players: list[dict[str, Any]] = []
    for i, d in enumerate(view["seats"]):
        p: dict[str, Any] = {
            "dock": d["dock"],
            "bays": list(d["bays"]),
            "discard": list(d["discard"]),
            "played": [(c, m) for c, m in d["played"]],
            "ships_lost": d["ships_lost"],
            "hand": [],
            "draw": [],
        }
        seen_specials.update(c for c in p["discard"] if c in lay.special)
        seen_specials.update(c for c, _ in p["played"] if c in lay.special)
        if i == seat:
            p["hand"] = list(d["hand"])
            p["draw"] = list(d["draw_cards"])
            rng.shuffle(p["draw"])
            seen_specials.update(c for c in p["hand"] + p["draw"] if c in lay.special)
        players.append(p)
    unseen = [c for c in lay.special if c not in seen_specials]
    rng.shuffle(unseen)
    for i, d in enumerate(view["seats"]):
        if i == seat:
            continue
        p = players[i]
        seen_basics = set(p["discard"]) | {c for c, _ in p["played"]}
        cards = [c for c in lay.basic if c not in seen_basics]
        slots = d["hand_count"] + d["draw_count"]
        while len(cards) < slots and unseen:
            cards.append(unseen.pop())
        rng.shuffle(cards)
        p["hand"] = cards[: d["hand_count"]]
        p["draw"] = cards[d["hand_count"] : slots]
    fields["academy"] = unseen[: view["academy_count"]]
    fields["players"] = players
    fields["rng"] = rng.state
    return _from_fields(fields)
