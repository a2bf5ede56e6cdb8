"""The position notation: a whole game state as a few lines of text (think chess's FEN).

A position holds everything the rest of the game depends on, so that
``State.from_position(s.position()) == s`` for every reachable state. See
``docs/NOTATION.md`` for the grammar and examples. In short, one line per part::

    nova 2p seed=1 rng=0x5f1e... ply=0 round=0 first=A turn=A to=A track=0 removed=0
    board 6/5,y,3/2,k,9/12/16
    A dock=3 lost=0 bays=-,-,- hand=b3,b9,b1,b5,b2 draw=b4,b8,b6,b11,b10,b7 discard=- played=-
    B dock=3 lost=0 bays=-,-,- hand=... draw=... discard=- played=-
    academy face=s12,s3,s20 deck=s7,s1,...
    bag k9 r9 y8 consumed k0 r0 y0

Seats are letters (``A`` is seat 0). The board lists rings innermost first, spaces in
index order: a number is a run of empty spaces, anything else one space's stack, its
Shards bottom first and the owner's letter last when a ship sits on top. Optional lines
say what is under way: ``action`` (the action in progress), ``spawn`` (a Shard being
placed, R47), ``over`` (the end and why).

This module only turns text into field values and back; :class:`~nova.rules.state.State`
builds the state from them and checks it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .actions import REGISTRY
from .actions import from_json as action_from_json
from .content import COLOURS, Layout, layout_for

if TYPE_CHECKING:
    from .view import View

SEATS = "ABCD"
SHARDS = "".join(COLOURS)  # a stack's or a bay's letters
EMPTY = "-"  # an empty list, bay or pile
NONE = "_"  # an empty face-up place, or an unchosen part of an action
REST = "*"  # (reading only) every card or Shard not placed elsewhere

# The action in progress, by key: how each value is written (docs/NOTATION.md). A field of
# another name says its form in its own metadata (``notation``: space, int, ints, text, flag).
SPACE_KEYS = ("ship", "dest", "target")
INT_KEYS = ("leave",)
TUPLE_KEYS = ("dists", "totals", "targets")
TEXT_KEYS = ("shards", "pool", "picked", "mode")
FLAG_KEYS = ("optional",)
_FORMS = {
    **dict.fromkeys(SPACE_KEYS, "space"),
    **dict.fromkeys(INT_KEYS, "int"),
    **dict.fromkeys(TUPLE_KEYS, "ints"),
    **dict.fromkeys(TEXT_KEYS, "text"),
    **dict.fromkeys(FLAG_KEYS, "flag"),
    "dir": "dir",
    "then": "then",
}
# the keys in the order they are written (a field of another name: before ``then``)
ACTION_KEY_ORDER = (
    "ship",
    "target",
    "dest",
    "dir",
    "leave",
    "dists",
    "totals",
    "mode",
    "targets",
    "pool",
    "picked",
    "shards",
    "optional",
    "then",
)


# the words of the first line and of a seat's line: True for ``key=value``, False for a flag
HEAD_FIELDS = {
    **dict.fromkeys(("seed", "rng", "ply", "round", "first", "turn", "to", "track"), True),
    **dict.fromkeys(("removed", "variant"), True),
    "link": False,
}
SEAT_FIELDS = dict.fromkeys(("dock", "lost", "bays", "hand", "draw", "discard", "played"), True)


class PositionError(ValueError):
    """A position that cannot be read; the message names the line and the part."""


def variant_tag(variant: Any) -> str:
    """A short fingerprint of a variant, so a position names the content it was made with."""
    if variant is None:
        return ""
    text = json.dumps(variant, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:8]


# -- writing ---------------------------------------------------------------------------------
def _seat(i: int) -> str:
    return SEATS[i]


def _cards(cards: Iterable[str]) -> str:
    out = ",".join(cards)
    return out or EMPTY


def board_text(lay: Layout, pile: Sequence[str], ship: Sequence[int]) -> str:
    rings = []
    for r, size in enumerate(lay.ring_sizes):
        start = lay.ring_start[r]
        parts: list[str] = []
        run = 0
        for s in range(start, start + size):
            stack = pile[s] + (_seat(ship[s]) if ship[s] >= 0 else "")
            if not stack:
                run += 1
                continue
            if run:
                parts.append(str(run))
                run = 0
            parts.append(stack)
        if run:
            parts.append(str(run))
        rings.append(",".join(parts))
    return "/".join(rings)


def _counts(counts: Sequence[int]) -> str:
    return " ".join(f"{c}{n}" for c, n in zip(COLOURS, counts, strict=True))


def _forms(kind: str) -> dict[str, str]:
    """How each field of an action of ``kind`` is written: by its name, or by its metadata."""
    cls = REGISTRY.get(kind)
    if cls is None:
        return _FORMS
    return cls.notation_forms(_FORMS)


def _order(pending: dict[str, Any]) -> list[str]:
    known = [k for k in ACTION_KEY_ORDER[:-1] if k in pending]
    other = [k for k in pending if k not in ACTION_KEY_ORDER and k != "kind"]
    return known + other + (["then"] if "then" in pending else [])


def action_text(lay: Layout, pending: dict[str, Any]) -> str:
    """An action under way (its JSON) as ``kind key=value ...``."""
    words = [str(pending["kind"])]
    forms = _forms(pending["kind"])
    unknown = sorted(k for k in pending if k != "kind" and k not in forms)
    if unknown:
        raise ValueError(f"action fields without a notation: {unknown}")
    for key in _order(pending):
        v = pending[key]
        form = forms[key]
        if v is None:
            text = NONE
        elif form == "space":
            text = lay.space_names[v]
        elif form == "dir":
            text = "+" if v == 1 else "-"
        elif form == "ints":
            text = ",".join(str(x) for x in v) or EMPTY
        elif form == "flag":
            text = "1" if v else "0"
        elif form == "then":
            text = "+".join(v)
        else:
            text = str(v) or EMPTY
        words.append(f"{key}={text}")
    return " ".join(words)


def write(s: Any) -> str:
    """The position of state ``s`` (any object with the State's fields)."""
    lay: Layout = s.layout
    head = [
        f"nova {lay.players}p",
        f"seed={s.seed}",
        f"rng={s.rng:#x}",
        f"ply={s.ply}",
        f"round={s.round}",
        f"first={_seat(s.first)}",
        f"turn={_seat(s.turn)}",
        f"to={_seat(s.decider)}",
        f"track={s.track_pos}",
        f"removed={s.removed}",
    ]
    if s.need_link:
        head.append("link")
    tag = variant_tag(s.variant)
    if tag:
        head.append(f"variant={tag}")
    lines = [" ".join(head), "board " + board_text(lay, s.pile, s.ship)]
    for i, p in enumerate(s.players):
        lines.append(
            f"{_seat(i)} dock={p.dock} lost={p.ships_lost} "
            f"bays={','.join(b or EMPTY for b in p.bays)} hand={_cards(p.hand)} "
            f"draw={_cards(p.draw)} discard={_cards(p.discard)} "
            f"played={_cards(c + m for c, m in p.played)}"
        )
    face = ",".join(c or NONE for c in s.face_up) or EMPTY
    lines.append(f"academy face={face} deck={_cards(s.academy)}")
    lines.append(f"bag {_counts(s.bag)} consumed {_counts(s.consumed)}")
    if s.pending is not None:
        lines.append("action " + action_text(lay, s.pending.to_json()))
    if s.spawn_shard or s.spawn_queue:
        queue = "".join(_seat(q) for q in s.spawn_queue) or EMPTY
        lines.append(f"spawn shard={s.spawn_shard or NONE} queue={queue}")
    if s.over:
        lines.append(f"over {s.end_reason or NONE}")
    return "\n".join(lines)


def write_view(view: View) -> str:
    """A seat's view in the same notation, hidden parts masked: ``#5`` is five unseen cards,
    ``~b1,b4`` cards whose order is hidden, ``?`` an unseen number. For bug reports."""
    head = [
        f"nova {view.players}p",
        "seed=?",
        "rng=?",
        f"ply={view.ply}",
        f"round={view.round}",
        f"first={_seat(view.first)}",
        f"turn={_seat(view.turn)}",
        f"to={_seat(view.current)}",
        f"track={view.track_pos}",
        f"removed={view.removed}",
    ]
    if view.need_link:
        head.append("link")
    tag = variant_tag(view.variant)
    if tag:
        head.append(f"variant={tag}")
    head.append(f"view={_seat(view.seat)}")
    lay = view.layout
    lines = [" ".join(head), "board " + board_text(lay, view.pile, view.ship)]
    for i, d in enumerate(view.seats):
        if d.hand is not None:
            hand = _cards(d.hand)
            draw = "~" + _cards(d.draw_cards) if d.draw_cards else EMPTY
        else:
            hand, draw = f"#{d.hand_count}", f"#{d.draw_count}"
        lines.append(
            f"{_seat(i)} dock={d.dock} lost={d.ships_lost} "
            f"bays={','.join(b or EMPTY for b in d.bays)} hand={hand} draw={draw} "
            f"discard={_cards(d.discard)} played={_cards(c + m for c, m in d.played)}"
        )
    face = ",".join(c or NONE for c in view.face_up) or EMPTY
    lines.append(f"academy face={face} deck=#{view.academy_count}")
    lines.append(f"bag {_counts(view.bag)} consumed {_counts(view.consumed)}")
    if view.pending is not None:
        lines.append("action " + action_text(lay, view.pending.to_json()))
    if view.spawn_shard or view.spawn_queue:
        queue = "".join(_seat(q) for q in view.spawn_queue) or EMPTY
        lines.append(f"spawn shard={view.spawn_shard or NONE} queue={queue}")
    if view.over:
        lines.append(f"over {view.end_reason or NONE}")
    return "\n".join(lines)


# -- reading ---------------------------------------------------------------------------------
class _Reader:
    """Reads one position; every error names the line it is on."""

    def __init__(self, text: str):
        if not isinstance(text, str):
            raise PositionError(f"a position is text, not {type(text).__name__}")
        # lines may also be joined by " | " (one-line positions in logs)
        raw = [ln.strip() for part in text.split("\n") for ln in part.split(" | ")]
        self.lines = [(n, ln) for n, ln in enumerate(raw, 1) if ln and not ln.startswith("#")]
        if not self.lines:
            raise PositionError("an empty position")
        self.where = ""
        self.cards: set[str] = {REST}  # the game's card names, once the layout is known

    def fail(self, what: str):
        raise PositionError(f"{self.where}: {what}" if self.where else what)

    def fields(self, words: list[str], known: dict[str, bool]) -> dict[str, str]:
        """``key=value`` words (and bare flags, where ``known[key]`` is False)."""
        out: dict[str, str] = {}
        for w in words:
            key, eq, value = w.partition("=")
            if key not in known:
                self.fail(f"unknown part {key!r}")
            if known[key] != bool(eq):
                self.fail(f"{key} {'needs a value' if known[key] else 'takes no value'}")
            if key in out:
                self.fail(f"{key} given twice")
            out[key] = value
        return out

    def number(self, value: str, what: str, low: int = 0) -> int:
        try:
            n = int(value, 0)
        except ValueError:
            self.fail(f"{what}: expected a number, got {value!r}")
        if n < low:
            self.fail(f"{what}: expected at least {low}, got {n}")
        return n

    def seat(self, value: str, players: int, what: str) -> int:
        if len(value) != 1 or value not in SEATS[:players]:
            self.fail(f"{what}: expected a seat {SEATS[0]}-{SEATS[players - 1]}, got {value!r}")
        return SEATS.index(value)

    def card_list(self, value: str, what: str) -> list[str]:
        if value == EMPTY:
            return []
        cards = value.split(",")
        if not self.cards.issuperset(cards):
            wrong = next(c for c in cards if c not in self.cards)
            self.fail(f"{what}: {wrong!r} is not a card of this game (b1, s12, ...)")
        return cards

    def counts(self, words: list[str], what: str) -> list[int]:
        if len(words) != len(COLOURS):
            self.fail(f"{what}: expected {' '.join(c + 'N' for c in COLOURS)}")
        out = []
        for c, w in zip(COLOURS, words, strict=True):
            if not w.startswith(c):
                self.fail(f"{what}: expected {c} then a count, got {w!r}")
            out.append(self.number(w[1:], f"{what} {c}"))
        return out


def read(text: str, variant: Any = None) -> dict:
    """The State's field values written in ``text`` (see :func:`write`), for ``variant``.

    ``*`` may stand for "the rest" where a hand-written position would otherwise have to
    list everything: ``draw=*`` (that seat's basic cards not elsewhere, in deck order),
    ``deck=*`` (the Special cards not elsewhere), ``bag *`` (the Shards not elsewhere).
    """
    r = _Reader(text)
    lines = r.lines
    r.where = f"line {lines[0][0]}"
    head = lines[0][1].split()
    if len(head) < 2 or head[0] != "nova" or not re.fullmatch(r"[234]p", head[1]):
        r.fail("a position starts 'nova 2p', 'nova 3p' or 'nova 4p'")
    players = int(head[1][0])
    h = r.fields(head[2:], HEAD_FIELDS)
    tag = h.get("variant", "")
    if tag != variant_tag(variant):
        if tag and variant is None:
            r.fail(f"made with variant {tag}: pass that variant to read it")
        r.fail(f"made with {'variant ' + tag if tag else 'the default content'}, not this one")
    lay = layout_for(players, variant)
    r.cards.update(lay.card_order)
    # a hand-written position may leave out what is still at its start value
    turn = r.seat(h.get("turn", "A"), players, "turn")
    out: dict[str, Any] = {
        "layout": lay,
        "variant": variant,
        "seed": r.number(h.get("seed", "0"), "seed"),
        "rng": r.number(h.get("rng", "0"), "rng"),
        "ply": r.number(h.get("ply", "0"), "ply"),
        "round": r.number(h.get("round", "0"), "round"),
        "first": r.seat(h.get("first", "A"), players, "first"),
        "turn": turn,
        "decider": r.seat(h["to"], players, "to") if "to" in h else turn,
        "track_pos": r.number(h.get("track", "0"), "track"),
        "removed": r.number(h.get("removed", "0"), "removed"),
        "need_link": "link" in h,
        "pending": None,
        "spawn_shard": "",
        "spawn_queue": (),
        "over": False,
        "end_reason": "",
    }
    seats: dict[int, dict] = {}
    seen: set[str] = set()
    academy = bag = None
    for n, line in lines[1:]:
        r.where = f"line {n}"
        word, _, rest = line.partition(" ")
        if word in seen:
            r.fail(f"a second '{word}' line")
        seen.add(word)
        words = rest.split()
        if word == "board":
            out["pile"], out["ship"] = _read_board(r, lay, rest.strip())
        elif len(word) == 1 and word in SEATS:
            seat = r.seat(word, players, "seat")
            seats[seat] = r.fields(words, SEAT_FIELDS)
            seats[seat]["_where"] = r.where
        elif word == "academy":
            academy = {"face": REST, "deck": REST} if words == [REST] else {}
            academy = academy or r.fields(words, {"face": True, "deck": True})
            academy["_where"] = r.where
        elif word == "bag":
            if words == [REST]:
                bag = REST
            elif len(words) == 7 and words[3] == "consumed":
                out["bag"] = r.counts(words[:3], "bag")
                out["consumed"] = r.counts(words[4:], "consumed")
            elif len(words) >= 2 and words[0] == REST and words[1] == "consumed":
                bag = REST
                out["consumed"] = r.counts(words[2:], "consumed")
            else:
                r.fail("expected 'bag kN rN yN consumed kN rN yN'")
        elif word == "action":
            try:
                out["pending"] = action_from_json(_read_action(r, lay, words))
            except (TypeError, ValueError) as exc:
                r.fail(f"action: {exc}")
        elif word == "spawn":
            f = r.fields(words, {"shard": True, "queue": True})
            shard = f.get("shard", NONE)
            if shard != NONE and shard not in COLOURS:
                r.fail(f"spawn shard: a colour {'/'.join(COLOURS)} or _, got {shard!r}")
            out["spawn_shard"] = "" if shard == NONE else shard
            q = f.get("queue", EMPTY)
            out["spawn_queue"] = tuple(
                r.seat(c, players, "spawn queue") for c in ("" if q == EMPTY else q)
            )
        elif word == "over":
            out["over"] = True
            out["end_reason"] = "" if rest.strip() == NONE else rest.strip()
        else:
            r.fail(f"unknown line {word!r}")
    r.where = ""
    if "board" not in seen:
        r.fail("the 'board' line is missing")
    if academy is None:  # left out: the face-up cards and the deck are the rest
        academy = {"face": REST, "deck": REST, "_where": "academy"}
    if "bag" not in seen:  # left out: the bag holds the Shards not placed elsewhere
        bag = REST
    missing = [SEATS[i] for i in range(players) if i not in seats]
    if missing:
        r.fail(f"no line for seat {', '.join(missing)}")
    out["players"] = [_read_seat(r, lay, seats[i]) for i in range(players)]
    for i, p in enumerate(out["players"]):
        if p["dock"] is None:  # left out: the ships neither on the board nor lost
            p["dock"] = max(0, lay.ships - out["ship"].count(i) - p["ships_lost"])
    r.where = academy.pop("_where")
    face = academy.get("face", EMPTY)
    out["face_up"] = [] if face == EMPTY else [None if c == NONE else c for c in face.split(",")]
    face_rest = out["face_up"] == [REST]
    if face_rest:
        out["face_up"] = []
    for c in out["face_up"]:
        if c is not None and c not in lay.special:
            r.fail(f"academy face: {c!r} is not a Special card of this game")
    out["academy"] = r.card_list(academy.get("deck", EMPTY), "academy deck")
    if REST in text:
        _fill_rest(r, lay, out)
    if face_rest:  # the face-up places take the first of the rest, in card order
        if academy.get("deck") != REST:
            r.fail("academy: face=* needs deck=* too")
        out["face_up"] = out["academy"][: lay.face_up]
        out["academy"] = out["academy"][lay.face_up :]
    if bag == REST:
        out.setdefault("consumed", [0] * len(COLOURS))
        out["bag"] = _rest_of_bag(lay, out)
    return out


def _read_board(r: _Reader, lay: Layout, text: str) -> tuple[list[str], list[int]]:
    rings = text.split("/")
    if len(rings) != lay.ring_count:
        r.fail(f"board: {lay.ring_count} rings separated by '/', got {len(rings)}")
    pile: list[str] = []
    ship: list[int] = []
    for k, ring in enumerate(rings):
        size = lay.ring_sizes[k]
        start = len(pile)
        for part in ring.split(",") if ring else ():
            if part.isdigit():
                pile.extend([""] * int(part))
                ship.extend([-1] * int(part))
                continue
            owner = part[-1:]
            if owner in SEATS:
                part = part[:-1]
            else:
                owner = ""
            if (not part and not owner) or part.strip(SHARDS):
                r.fail(f"board ring {k + 1}: {part + owner!r} is not Shards (k r y) and a seat")
            pile.append(part)
            ship.append(SEATS.index(owner) if owner else -1)
        if len(pile) - start != size:
            r.fail(f"board ring {k + 1}: {size} spaces, got {len(pile) - start}")
    return pile, ship


def _read_action(r: _Reader, lay: Layout, words: list[str]) -> dict:
    if not words:
        r.fail("action: its kind is missing")
    pd: dict[str, Any] = {"kind": words[0]}
    forms = _forms(words[0])
    for w in words[1:]:
        key, eq, v = w.partition("=")
        form = forms.get(key)
        if form is None or not eq:
            r.fail(f"action: unknown part {w!r}")
        if v == NONE:
            pd[key] = None
        elif form == "space":
            if v not in lay.name_to_space:
                r.fail(f"action {key}: no space {v!r} on this board")
            pd[key] = lay.name_to_space[v]
        elif form == "dir":
            if v not in "+-" or len(v) != 1:
                r.fail("action dir: + or -")
            pd[key] = 1 if v == "+" else -1
        elif form == "int":
            pd[key] = r.number(v, f"action {key}")
        elif form == "ints":
            pd[key] = (
                () if v == EMPTY else tuple(r.number(x, f"action {key}") for x in v.split(","))
            )
        elif form == "flag":
            pd[key] = v == "1"
        elif form == "then":
            pd[key] = v.split("+")
        else:
            pd[key] = "" if v == EMPTY else v
    return pd


def _read_seat(r: _Reader, lay: Layout, f: dict) -> dict:
    r.where = f.pop("_where")
    bays = f.get("bays", "-,-,-").split(",")
    if len(bays) != 3 or any(b != EMPTY and (not b or b.strip(SHARDS)) for b in bays):
        r.fail("bays: three Cargo Bays like kr,-,y (bottom first, - for empty)")
    played = []
    for c in [] if f.get("played", EMPTY) == EMPTY else f["played"].split(","):
        if c[-1:] not in ("u", "r", "l", "s") or c[:-1] not in lay.card_order:
            r.fail(f"played: {c!r} is a card and how it was played (u r s l), like b7s")
        played.append((c[:-1], c[-1]))
    return {
        "dock": r.number(f["dock"], "dock") if "dock" in f else None,
        "ships_lost": r.number(f.get("lost", "0"), "lost"),
        "bays": ["" if b == EMPTY else b for b in bays],
        "hand": r.card_list(f.get("hand", EMPTY), "hand"),
        "draw": r.card_list(f.get("draw", EMPTY), "draw"),
        "discard": r.card_list(f.get("discard", EMPTY), "discard"),
        "played": played,
    }


def _fill_rest(r: _Reader, lay: Layout, out: dict) -> None:
    """Replace each ``*`` with the cards not written anywhere else (see :func:`read`)."""
    specials_seen = {c for c in out["face_up"] if c is not None} | set(out["academy"])
    for p in out["players"]:
        cards = p["hand"] + p["draw"] + p["discard"] + [c for c, _ in p["played"]]
        specials_seen |= {c for c in cards if c in lay.special}
    for i, p in enumerate(out["players"]):
        for key in ("hand", "draw", "discard"):
            if p[key].count(REST) > 1 or (REST in p[key] and p[key] != [REST]):
                r.fail(f"seat {SEATS[i]} {key}: * stands alone")
        if [REST] in (p["hand"], p["discard"]):
            r.fail(f"seat {SEATS[i]}: only the draw pile may be *")
        if p["draw"] == [REST]:
            have = set(p["hand"] + p["discard"] + [c for c, _ in p["played"]])
            p["draw"] = [c for c in lay.basic if c not in have]
    if out["academy"] == [REST] or REST in out["academy"]:
        if out["academy"] != [REST]:
            r.fail("academy deck: * stands alone")
        specials_seen.discard(REST)
        out["academy"] = [c for c in lay.special if c not in specials_seen]


def _rest_of_bag(lay: Layout, out: dict) -> list[int]:
    """The bag holds what the game's Shards leave after the board, the bays and the rest."""
    text = "".join(out["pile"]) + out["spawn_shard"]
    text += "".join("".join(p["bays"]) for p in out["players"])
    pd = out["pending"]
    if pd is not None:
        text += getattr(pd, "shards", "")  # an Unload's Shards on their way to the bays
    return [
        max(0, supply - text.count(c) - consumed)
        for c, supply, consumed in zip(COLOURS, lay.shard_supply, out["consumed"], strict=True)
    ]
