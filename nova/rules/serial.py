"""Reading a saved state's JSON back into field values, checking every field so that a
tampered save fails with a message that says what is wrong."""

from __future__ import annotations

from typing import Any

from .actions import from_json as action_from_json
from .content import ContentError, layout_for


class StateFormatError(ValueError):
    """A saved state that cannot be read; the message says what is wrong."""


def _need(data: dict[str, Any], key: str, kind: type, where: str = "state") -> Any:
    if key not in data:
        raise StateFormatError(f"{where}: '{key}' is missing")
    value = data[key]
    if kind is int and isinstance(value, bool):
        raise StateFormatError(f"{where}.{key}: expected a number")
    if not isinstance(value, kind):
        raise StateFormatError(f"{where}.{key}: expected {kind.__name__}")
    return value


def _str_list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise StateFormatError(f"{where}: expected a list of text")
    return list(value)


def _counts(value: Any, where: str) -> list[int]:
    if (
        not isinstance(value, list)
        or len(value) != 3
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in value)
    ):
        raise StateFormatError(f"{where}: expected three counts")
    return list(value)


def fields_from_dict(data: Any, version: int) -> dict[str, Any]:
    """The State's field values saved in ``data`` (``State.to_dict``), format ``version``."""
    if not isinstance(data, dict) or data.get("format") != "nova-state":
        raise StateFormatError("not a Nova Raiders saved state")
    saved = data.get("version")
    if saved != version:
        if isinstance(saved, int) and saved > version:
            raise StateFormatError(
                f"saved by a newer version of the game (format {saved}, this one reads {version})"
            )
        raise StateFormatError(f"unknown state format version {saved!r}")
    players = _need(data, "players", int)
    variant = data.get("variant")
    if variant is not None and not isinstance(variant, (dict, str)):
        raise StateFormatError("state.variant: expected a variant name or object")
    if isinstance(variant, str):
        raise StateFormatError("state.variant: a variant file path cannot be loaded from a save")
    try:
        lay = layout_for(players, variant)
    except ContentError as exc:
        raise StateFormatError(str(exc)) from None
    out: dict[str, Any] = {"layout": lay, "variant": variant}
    for key in ("seed", "rng", "removed", "track_pos", "turn", "decider", "first", "round", "ply"):
        out[key] = _need(data, key, int)
    for key in ("need_link", "over"):
        out[key] = _need(data, key, bool)
    for key in ("spawn_shard", "end_reason"):
        out[key] = _need(data, key, str)
    out["pile"] = _str_list(_need(data, "pile", list), "state.pile")
    ship = _need(data, "ship", list)
    if len(out["pile"]) != lay.space_count or len(ship) != lay.space_count:
        raise StateFormatError("state.pile/ship: wrong number of spaces for this board")
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in ship):
        raise StateFormatError("state.ship: expected numbers")
    out["ship"] = list(ship)
    out["bag"] = _counts(_need(data, "bag", list), "state.bag")
    out["consumed"] = _counts(_need(data, "consumed", list), "state.consumed")
    seats = _need(data, "seats", list)
    if len(seats) != players:
        raise StateFormatError("state.seats: one entry per player is needed")
    out["players"] = [_seat(d, f"state.seats[{i}]") for i, d in enumerate(seats)]
    face_up = _need(data, "face_up", list)
    if not all(x is None or isinstance(x, str) for x in face_up):
        raise StateFormatError("state.face_up: expected card names")
    out["face_up"] = list(face_up)
    out["academy"] = _str_list(_need(data, "academy", list), "state.academy")
    queue = _need(data, "spawn_queue", list)
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in queue):
        raise StateFormatError("state.spawn_queue: expected seats")
    out["spawn_queue"] = tuple(queue)
    pending = data.get("pending")
    try:
        out["pending"] = None if pending is None else action_from_json(pending)
    except (TypeError, ValueError) as exc:
        raise StateFormatError(f"state.pending: {exc}") from None
    return out


def _seat(d: Any, where: str) -> dict[str, Any]:
    if not isinstance(d, dict):
        raise StateFormatError(f"{where}: expected an object")
    bays = _str_list(_need(d, "bays", list, where), f"{where}.bays")
    if len(bays) != 3:
        raise StateFormatError(f"{where}.bays: three Cargo Bays are needed")
    played = _need(d, "played", list, where)
    if not all(
        isinstance(x, list) and len(x) == 2 and all(isinstance(y, str) for y in x) for x in played
    ):
        raise StateFormatError(f"{where}.played: expected [card, mode] pairs")
    return {
        "dock": _need(d, "dock", int, where),
        "bays": bays,
        "hand": _str_list(_need(d, "hand", list, where), f"{where}.hand"),
        "draw": _str_list(_need(d, "draw", list, where), f"{where}.draw"),
        "discard": _str_list(_need(d, "discard", list, where), f"{where}.discard"),
        "played": [(c, m) for c, m in played],
        "ships_lost": _need(d, "ships_lost", int, where),
    }
