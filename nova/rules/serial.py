"""Reading a state back from JSON, checking every field so a tampered save fails clearly."""

from __future__ import annotations

from .content import ContentError, layout_for
from .state import FORMAT_VERSION, Player, State
from .view import _pending_from_json


class StateFormatError(ValueError):
    """A saved state that cannot be read; the message says what is wrong."""


def _need(data: dict, key: str, kind, where: str = "state"):
    if key not in data:
        raise StateFormatError(f"{where}: '{key}' is missing")
    value = data[key]
    if kind is int and isinstance(value, bool):
        raise StateFormatError(f"{where}.{key}: expected a number")
    if not isinstance(value, kind):
        raise StateFormatError(f"{where}.{key}: expected {getattr(kind, '__name__', kind)}")
    return value


def _str_list(value, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise StateFormatError(f"{where}: expected a list of text")
    return list(value)


def state_from_dict(data) -> State:
    from .invariants import problems

    if not isinstance(data, dict) or data.get("format") != "nova-state":
        raise StateFormatError("not a Nova Raiders saved state")
    version = data.get("version")
    if version != FORMAT_VERSION:
        if isinstance(version, int) and version > FORMAT_VERSION:
            raise StateFormatError(
                f"saved by a newer version of the game (format {version}, this one reads "
                f"{FORMAT_VERSION})"
            )
        raise StateFormatError(f"unknown state format version {version!r}")
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
    s = State.__new__(State)
    s.layout = lay
    s.variant = variant
    s.seed = _need(data, "seed", int)
    s.rng = _need(data, "rng", int)
    s.pile = _str_list(_need(data, "pile", list), "state.pile")
    s.ship = _need(data, "ship", list)
    if len(s.pile) != lay.space_count or len(s.ship) != lay.space_count:
        raise StateFormatError("state.pile/ship: wrong number of spaces for this board")
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in s.ship):
        raise StateFormatError("state.ship: expected numbers")
    s.removed = _need(data, "removed", int)
    s.track_pos = _need(data, "track_pos", int)
    s.bag = _need(data, "bag", list)
    s.consumed = _need(data, "consumed", list)
    for key in ("bag", "consumed"):
        v = getattr(s, key)
        if len(v) != 3 or not all(isinstance(x, int) and x >= 0 for x in v):
            raise StateFormatError(f"state.{key}: expected three counts")
    seats = _need(data, "seats", list)
    if len(seats) != players:
        raise StateFormatError("state.seats: one entry per player is needed")
    s.players = []
    for i, d in enumerate(seats):
        where = f"state.seats[{i}]"
        if not isinstance(d, dict):
            raise StateFormatError(f"{where}: expected an object")
        p = Player()
        p.dock = _need(d, "dock", int, where)
        p.bays = _str_list(_need(d, "bays", list, where), f"{where}.bays")
        if len(p.bays) != 3:
            raise StateFormatError(f"{where}.bays: three Cargo Bays are needed")
        p.hand = _str_list(_need(d, "hand", list, where), f"{where}.hand")
        p.draw = _str_list(_need(d, "draw", list, where), f"{where}.draw")
        p.discard = _str_list(_need(d, "discard", list, where), f"{where}.discard")
        played = _need(d, "played", list, where)
        if not all(
            isinstance(x, list) and len(x) == 2 and all(isinstance(y, str) for y in x)
            for x in played
        ):
            raise StateFormatError(f"{where}.played: expected [card, mode] pairs")
        p.played = [(c, m) for c, m in played]
        p.ships_lost = _need(d, "ships_lost", int, where)
        s.players.append(p)
    face_up = _need(data, "face_up", list)
    if not all(x is None or isinstance(x, str) for x in face_up):
        raise StateFormatError("state.face_up: expected card names")
    s.face_up = list(face_up)
    s.academy = _str_list(_need(data, "academy", list), "state.academy")
    s.turn = _need(data, "turn", int)
    s.decider = _need(data, "decider", int)
    s.first = _need(data, "first", int)
    s.need_link = _need(data, "need_link", bool)
    pending = data.get("pending")
    if pending is not None and not (isinstance(pending, dict) and "kind" in pending):
        raise StateFormatError("state.pending: expected an object with a 'kind'")
    s.pending = None if pending is None else _pending_from_json(pending)
    s.spawn_queue = tuple(_need(data, "spawn_queue", list))
    s.spawn_shard = _need(data, "spawn_shard", str)
    s.round = _need(data, "round", int)
    s.ply = _need(data, "ply", int)
    s.over = _need(data, "over", bool)
    s.end_reason = _need(data, "end_reason", str)
    s.last_event = ""
    s._legal = None
    try:
        wrong = problems(s)
        if not wrong:
            s.legal_moves()
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise StateFormatError(f"the saved state is inconsistent ({type(exc).__name__})") from None
    if wrong:
        raise StateFormatError("the saved state is inconsistent: " + "; ".join(wrong[:3]))
    return s
