"""The game's content, loaded from the data files in ``nova/data`` and checked.

Nothing here knows a card or a board by heart: the rules read everything from a
:class:`Layout`, built from the data for one player count. A variant is a dict (or
a JSON file) with the same top-level keys as the data, merged over the default:
dicts merge key by key, anything else is replaced.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from .primitives import BASIC_ACTIONS, SPECIAL_ACTIONS, STEP_DISTANCES, STEP_WORDS
from .settings import Settings

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
DATA_FILES = ("boards", "tracks", "basic_deck", "academy", "scoring", "setup", "settings")
RING_LETTERS = "abcdefghij"
COLOURS = ("k", "r", "y")
COLOUR_NAMES = {"k": "black", "r": "red", "y": "yellow"}  # the Shards' colours, in words
TRACK_KINDS = {"start", "blank", "spawn", "expansion", "supernova"}
# Set-up fields that an entry of setup.players may set for its player count alone.
PER_COUNT = (
    "shard_on_each_asteroid",
    "ships_in_dock",
    "hand_size",
    "opening_extra_cards",
    "opening_bay_shards",
    "opening_special_cards",
)


class ContentError(ValueError):
    """A data file or variant is wrong; ``problems`` lists each fault by name."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("invalid game data:\n  - " + "\n  - ".join(problems))


def _merge(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = _merge(base.get(key), value) if key in base else copy.deepcopy(value)
        return out
    return copy.deepcopy(over)


@lru_cache(maxsize=1)
def _default_data() -> dict:
    data = {}
    for name in DATA_FILES:
        with open(DATA_DIR / f"{name}.json", encoding="utf-8") as fh:
            data[name] = json.load(fh)
    return data


def load_data(variant: str | Path | dict | None = None) -> dict:
    """The default data with ``variant`` (a dict, or a path to a JSON file) merged over it."""
    data = copy.deepcopy(_default_data())
    if variant is None:
        return data
    if not isinstance(variant, dict):
        try:
            with open(variant, encoding="utf-8") as fh:
                variant = json.load(fh)
        except OSError as exc:
            raise ContentError([f"variant file {variant}: {exc.strerror}"]) from None
        except json.JSONDecodeError as exc:
            raise ContentError([f"variant file {variant}: not JSON ({exc})"]) from None
    if not isinstance(variant, dict):
        raise ContentError(["variant: must be a JSON object"])
    unknown = [k for k in variant if k not in DATA_FILES and not k.startswith("_")]
    if unknown:
        raise ContentError([f"variant: unknown section {k!r}" for k in unknown])
    merged = _merge(data, variant)
    shapes = {
        "boards": dict,
        "tracks": dict,
        "basic_deck": dict,
        "academy": dict,
        "scoring": dict,
        "setup": dict,
        "settings": dict,
    }
    wrong = [
        f"{key}: must be a JSON object, got {type(merged[key]).__name__}"
        for key, kind in shapes.items()
        if not isinstance(merged.get(key), kind)
    ]
    for key in ("basic_deck", "academy"):
        if isinstance(merged.get(key), dict) and not isinstance(merged[key].get("cards"), list):
            wrong.append(f"{key}.cards: must be a list of cards")
    if wrong:
        raise ContentError(wrong)
    return merged


CONTENT_VERSION = 4  # the rules content in nova/data; earlier ones are variants/content-N.json


def content_variant(version: int, variant: dict | None = None) -> dict | None:
    """The variant that plays rules content ``version`` with ``variant`` over it.

    The default data is the newest content; a save or link made with an earlier one
    replays with that content's file (``variants/content-N.json``) merged under its own
    variant, so old games open exactly as they were played.
    """
    if version == CONTENT_VERSION:
        return variant
    return _merge(_old_content(version), variant or {})


@lru_cache(maxsize=4)
def _old_content(version: int) -> dict:
    path = DATA_DIR / "variants" / f"content-{version}.json"
    if not isinstance(version, int) or not 1 <= version < CONTENT_VERSION or not path.exists():
        raise ContentError([f"rules content {version!r} is not known to this version"])
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


# The rulebook's primitives (R28-R44, R60-R69): a card's action is one of them or a sequence
# ("then") of them, written "push+orbit:1-2" in the data (docs/RULES.md, "Composed actions").
# Their names, words and distances are registered by their modules (nova/rules/primitives.py).
# the data's older names for a sequence: "hijack_orbit:1-3" is "hijack+orbit:1-3" (R68)
ALIASES = {"hijack_orbit": ("hijack", "orbit")}


class Step(NamedTuple):
    """One primitive of a card's action, with its distances where it takes them (a named
    tuple: legal-move generation hashes and compares these all the time)."""

    name: str
    dists: tuple[int, ...] = ()

    def text(self) -> str:
        """The data's own spelling: ``orbit:1-3``, ``jump``."""
        if not self.dists:
            return self.name
        lo, hi = self.dists[0], self.dists[-1]
        return f"{self.name}:{lo}" if lo == hi else f"{self.name}:{lo}-{hi}"

    def label(self) -> str:
        """Plain words: ``Orbit 1-3``."""
        word = STEP_WORDS[self.name]
        if not self.dists or STEP_DISTANCES.get(self.name) == self.dists:
            return word
        lo, hi = self.dists[0], self.dists[-1]
        return f"{word} {lo}" if lo == hi else f"{word} {lo}-{hi}"

    @classmethod
    def parse(cls, text: str) -> Step:
        """The inverse of :meth:`text` (for saves); ValueError when it is not one."""
        problems: list[str] = []
        action = parse_action(text, "step", problems, set(STEP_WORDS))
        if action is None or len(action.steps) != 1:
            raise ValueError(problems[0] if problems else f"not one step: {text!r}")
        return action.steps[0]


class CardAction(NamedTuple):
    """What a card does when played upright or rotated: its steps, carried out in order."""

    steps: tuple[Step, ...]

    @property
    def name(self) -> str:
        """The first step's primitive: what decides whether the card can be played now."""
        return self.steps[0].name

    @property
    def dists(self) -> tuple[int, ...]:
        return self.steps[0].dists

    def names(self) -> tuple[str, ...]:
        return tuple(step.name for step in self.steps)

    def text(self) -> str:
        return "+".join(step.text() for step in self.steps)

    def label(self) -> str:
        """Short words, for a card's face: ``Hijack + Orbit 1-3``."""
        return " + ".join(step.label() for step in self.steps)

    def words(self) -> str:
        """As a sentence says it: ``Hijack, then Orbit 1-3``."""
        return ", then ".join(step.label() for step in self.steps)


def parse_action(
    text: Any, where: str, problems: list[str], allowed: set[str]
) -> CardAction | None:
    """'orbit:4' -> Orbit 4; 'orbit:1-3' -> Orbit 1-3; 'push+orbit:1-2' -> Push, then Orbit 1-2.

    A sequence may also be a JSON list of steps. Each fault is added to ``problems``."""
    if text is None:
        return None
    if isinstance(text, list) and text and all(isinstance(x, str) for x in text):
        text = "+".join(text)
    if not isinstance(text, str) or not text:
        problems.append(f"{where}: action must be a string like 'orbit:2' or 'push+orbit:1-2'")
        return None
    steps: list[Step] = []
    for part in text.split("+"):
        name, _, arg = part.partition(":")
        names = ALIASES.get(name, (name,))
        if name in ALIASES:
            arg = arg or "1-3"  # Hijack 1-3 (R68)
        if any(n not in allowed for n in names):
            problems.append(f"{where}: unknown action {name!r}")
            return None
        for k, n in enumerate(names):
            steps.append(
                Step(n, _distances(n, arg if k == len(names) - 1 else "", where, problems))
            )
    if any(s.dists == (-1,) for s in steps):
        return None
    return CardAction(tuple(steps))


def _distances(name: str, arg: str, where: str, problems: list[str]) -> tuple[int, ...]:
    if name not in STEP_DISTANCES:
        if arg:
            problems.append(f"{where}: {name!r} takes no distance, got {name}:{arg}")
            return (-1,)
        return ()
    if not arg:
        default = STEP_DISTANCES[name]
        if default is None:
            problems.append(f"{where}: {name!r} needs a distance like {name}:4 or {name}:1-3")
            return (-1,)
        return default
    try:
        lo, _, hi = arg.partition("-")
        lo_i = int(lo)
        hi_i = int(hi) if hi else lo_i
        if not 1 <= lo_i <= hi_i <= 30:
            raise ValueError
    except ValueError:
        problems.append(f"{where}: {name}:{arg} needs a distance like {name}:4 or {name}:1-3")
        return (-1,)
    return tuple(range(lo_i, hi_i + 1))


def action_label(action: CardAction | None) -> str:
    """Plain words for a card's action: 'Orbit 1-3', 'Hijack + Orbit 1-3'."""
    if action is None:
        return "-"
    return action.label()


class Layout:
    """Everything the rules need for one player count, precomputed from the data."""

    def __init__(self, data: dict, players: int):
        problems: list[str] = []
        self.data = data
        self.players = players
        setup = data.get("setup", {})
        per = setup.get("players", {}).get(str(players))
        if per is None:
            raise ContentError([f"setup.players: no entry for {players} players"])
        board_name, track_name = per.get("board"), per.get("track")
        board = data.get("boards", {}).get(board_name)
        track = data.get("tracks", {}).get(track_name)
        if board is None:
            problems.append(f"setup.players.{players}.board: no board named {board_name!r}")
        if track is None:
            problems.append(f"setup.players.{players}.track: no track named {track_name!r}")
        if problems:
            raise ContentError(problems)
        self.board_name = board_name
        self.board_title = board.get("name", board_name)
        self.settings = Settings.read(data.get("settings"), _default_data()["settings"], problems)
        self._load_board(board, per, problems)
        self._load_track(track, track_name, problems)
        self._load_cards(data, problems)
        self._load_setup({**setup, **{k: v for k, v in per.items() if k in PER_COUNT}}, problems)
        self._load_scoring(data.get("scoring", {}), problems)
        if problems:
            raise ContentError(problems)

    # -- board ------------------------------------------------------------------------
    def _load_board(self, board: dict, per: dict, problems: list[str]) -> None:
        rings = board.get("rings")
        if not isinstance(rings, list) or not rings:
            problems.append("boards.rings: a non-empty list of rings is needed")
            rings = []
        if len(rings) > len(RING_LETTERS):
            problems.append(f"boards.rings: at most {len(RING_LETTERS)} rings")
        self.ring_sizes: list[int] = []
        self.ring_offsets: list[float] = []
        for r, ring in enumerate(rings):
            size = ring.get("spaces") if isinstance(ring, dict) else None
            if not isinstance(size, int) or size < 3:
                problems.append(f"boards.rings[{r}].spaces: an integer of 3 or more is needed")
                size = 3
            offset = ring.get("offset", 0.0) if isinstance(ring, dict) else 0.0
            self.ring_sizes.append(size)
            self.ring_offsets.append(float(offset))
        self.ring_count = len(self.ring_sizes)
        self.ring_start = []
        total = 0
        for size in self.ring_sizes:
            self.ring_start.append(total)
            total += size
        self.space_count = total
        self.space_ring = [r for r, size in enumerate(self.ring_sizes) for _ in range(size)]
        self.space_index = [i for size in self.ring_sizes for i in range(size)]
        self.space_names = [
            f"{RING_LETTERS[r]}{i}" for r, size in enumerate(self.ring_sizes) for i in range(size)
        ]
        self.name_to_space = {name: s for s, name in enumerate(self.space_names)}
        self.space_angle = [
            (self.space_index[s] + self.ring_offsets[self.space_ring[s]])
            * 360.0
            / self.ring_sizes[self.space_ring[s]]
            for s in range(total)
        ]

        def space_of(ref: Any, where: str) -> int | None:
            if (
                isinstance(ref, list)
                and len(ref) == 2
                and all(isinstance(x, int) for x in ref)
                and 0 <= ref[0] < self.ring_count
                and 0 <= ref[1] < self.ring_sizes[ref[0]]
            ):
                return self.ring_start[ref[0]] + ref[1]
            problems.append(f"{where}: {ref!r} is not a [ring, index] on this board")
            return None

        bases = board.get("bases", [])
        self.base_angles = [float(b.get("angle", 0)) for b in bases]
        seat_bases = per.get("bases")
        if not isinstance(seat_bases, list) or len(seat_bases) != self.players:
            problems.append(f"setup.players.{self.players}.bases: one base per seat is needed")
            seat_bases = list(range(self.players))
        for b in seat_bases:
            if not isinstance(b, int) or not 0 <= b < len(bases):
                problems.append(f"setup.players.{self.players}.bases: no base {b!r} on the board")
        if len(set(seat_bases)) != len(seat_bases):
            problems.append(f"setup.players.{self.players}.bases: a base is used twice")
        self.seat_base = list(seat_bases)
        # gate_owner[space] = seat owning it, -1 a gate of an unused base, -2 not a gate
        self.gate_owner = [-2] * total
        self.gate_base = [-1] * total
        self.seat_gates: list[list[int]] = [[] for _ in range(self.players)]
        for g, gate in enumerate(board.get("gates", [])):
            s = space_of(gate.get("space") if isinstance(gate, dict) else None, f"gates[{g}]")
            base = gate.get("base") if isinstance(gate, dict) else None
            if s is None:
                continue
            if not isinstance(base, int) or not 0 <= base < len(bases):
                problems.append(f"boards.gates[{g}].base: no base {base!r}")
                continue
            if self.gate_owner[s] != -2:
                problems.append(f"boards.gates[{g}]: space {self.space_names[s]} is already a gate")
            seat = seat_bases.index(base) if base in seat_bases else -1
            if seat < 0 and self.settings.unused_base_gates == "closed":
                continue  # a base nobody sits at has no gates: its spaces are plain orbit spaces
            self.gate_base[s] = base
            self.gate_owner[s] = seat
            if seat >= 0:
                self.seat_gates[seat].append(s)
        self.gates = [s for s in range(total) if self.gate_owner[s] != -2]
        for seat, gates in enumerate(self.seat_gates):
            if not gates:
                problems.append(f"boards.gates: seat {seat} (base {seat_bases[seat]}) has no gate")
        self.asteroids = []
        for a, ref in enumerate(board.get("asteroids", [])):
            s = space_of(ref, f"boards.asteroids[{a}]")
            if s is not None:
                self.asteroids.append(s)
        if len(set(self.asteroids)) != len(self.asteroids):
            problems.append("boards.asteroids: a space is listed twice")
        self.is_asteroid = [False] * total
        for s in self.asteroids:
            self.is_asteroid[s] = True
        # Ring moves: step[s][+1 / -1]
        self.next_space = [0] * total
        self.prev_space = [0] * total
        for s in range(total):
            r, i = self.space_ring[s], self.space_index[s]
            n = self.ring_sizes[r]
            self.next_space[s] = self.ring_start[r] + (i + 1) % n
            self.prev_space[s] = self.ring_start[r] + (i - 1) % n
        self.phase_adjacent: list[list[int]] = [[] for _ in range(total)]
        explicit = board.get("adjacency")
        if explicit is not None:
            for k, pair in enumerate(explicit):
                ok = isinstance(pair, list) and len(pair) == 2
                one = space_of(pair[0], f"boards.adjacency[{k}]") if ok else None
                two = space_of(pair[1], f"boards.adjacency[{k}]") if ok else None
                if one is not None and two is not None:
                    self.phase_adjacent[one].append(two)
                    self.phase_adjacent[two].append(one)
        else:
            for s in range(total):
                r = self.space_ring[s]
                for r2 in (r - 1, r + 1):
                    if 0 <= r2 < self.ring_count:
                        self.phase_adjacent[s].extend(self._overlapping(s, r2))
        for s in range(total):
            self.phase_adjacent[s].sort()

    def _overlapping(self, s: int, ring: int) -> list[int]:
        """Spaces of ``ring`` whose arc overlaps the arc of space ``s`` (R62's 'adjacent')."""
        r = self.space_ring[s]
        width = 360.0 / self.ring_sizes[r]
        lo = self.space_angle[s] - width / 2
        hi = lo + width
        out = []
        w2 = 360.0 / self.ring_sizes[ring]
        start = self.ring_start[ring]
        for i in range(self.ring_sizes[ring]):
            c = (i + self.ring_offsets[ring]) * w2
            for shift in (-360.0, 0.0, 360.0):
                a, b = c - w2 / 2 + shift, c + w2 / 2 + shift
                if min(hi, b) - max(lo, a) > 1e-6:
                    out.append(start + i)
                    break
        return out

    # -- track, cards, set-up, scoring ------------------------------------------------------
    def _load_track(self, track: Any, name: str, problems: list[str]) -> None:
        if not isinstance(track, list) or len(track) < 2:
            problems.append(f"tracks.{name}: a list of at least two spaces is needed")
            track = ["start", "supernova"]
        for k, kind in enumerate(track):
            if kind not in TRACK_KINDS:
                problems.append(f"tracks.{name}[{k}]: unknown space kind {kind!r}")
        if track[-1] != "supernova":
            problems.append(f"tracks.{name}: the last space must be 'supernova'")
        expansions = sum(1 for k in track if k == "expansion")
        if expansions >= self.ring_count:
            problems.append(
                f"tracks.{name}: {expansions} Star Expansions would cover all "
                f"{self.ring_count} rings"
            )
        self.track = list(track)

    def _load_cards(self, data: dict, problems: list[str]) -> None:
        self.basic: dict[str, tuple[CardAction | None, CardAction | None]] = {}
        for k, card in enumerate(data.get("basic_deck", {}).get("cards", [])):
            cid = card.get("id") if isinstance(card, dict) else None
            if not isinstance(cid, str) or not cid.startswith("b") or not cid[1:].isdigit():
                problems.append(f"basic_deck.cards[{k}].id: must look like 'b1', got {cid!r}")
                continue
            if cid in self.basic:
                problems.append(f"basic_deck.cards[{k}].id: {cid!r} is used twice")
            top = parse_action(card.get("top"), f"basic_deck {cid}.top", problems, BASIC_ACTIONS)
            bottom = parse_action(
                card.get("bottom"), f"basic_deck {cid}.bottom", problems, BASIC_ACTIONS
            )
            self.basic[cid] = (top, bottom)
        if not self.basic:
            problems.append("basic_deck.cards: the basic deck is empty")
        self.special: dict[str, dict] = {}
        for k, card in enumerate(data.get("academy", {}).get("cards", [])):
            cid = card.get("id") if isinstance(card, dict) else None
            if not isinstance(cid, str) or not cid.startswith("s") or not cid[1:].isdigit():
                problems.append(f"academy.cards[{k}].id: must look like 's1', got {cid!r}")
                continue
            if cid in self.special:
                problems.append(f"academy.cards[{k}].id: {cid!r} is used twice")
            colour = card.get("colour")
            if colour not in COLOURS:
                problems.append(f"academy {cid}.colour: must be one of k, r, y; got {colour!r}")
            self.special[cid] = {
                "name": str(card.get("name", cid)),
                "colour": colour,
                "action": parse_action(
                    card.get("action"), f"academy {cid}.action", problems, SPECIAL_ACTIONS
                ),
                "alternate": parse_action(
                    card.get("alternate"), f"academy {cid}.alternate", problems, SPECIAL_ACTIONS
                ),
                "ocr": card.get("ocr"),
            }
        self.card_order = {cid: n for n, cid in enumerate(list(self.basic) + list(self.special))}

    def _load_setup(self, setup: dict, problems: list[str]) -> None:
        def int_field(key: str, default: int, low: int) -> int:
            value = setup.get(key, default)
            if not isinstance(value, int) or value < low:
                problems.append(f"setup.{key}: an integer of at least {low} is needed")
                return default
            return value

        self.ships = int_field("ships_per_player", 3, 1)
        self.ships_in_dock = min(int_field("ships_in_dock", self.ships, 0), self.ships)
        self.hand_size = int_field("hand_size", 5, 1)
        self.face_up = int_field("academy_face_up", 3, 0)
        self.shard_per_asteroid = int_field("shard_on_each_asteroid", 1, 0)
        shards = setup.get("shards", {})
        self.shard_supply = []
        for c in COLOURS:
            n = shards.get(c, 0) if isinstance(shards, dict) else 0
            if not isinstance(n, int) or n < 0:
                problems.append(f"setup.shards.{c}: a count of 0 or more is needed")
                n = 0
            self.shard_supply.append(n)
        if sum(self.shard_supply) < len(self.asteroids) * self.shard_per_asteroid:
            problems.append("setup.shards: fewer Shards than the Asteroids need at set-up")
        if len(self.special) < self.face_up:
            problems.append("academy.cards: fewer Special cards than face-up places")
        # Set-up's answers to the early seats' head start, one number per turn position
        # (0 = the first player), chosen by the lab (docs/CALIBRATION.md): extra basic cards
        # in the opening hand (gone after the first turn: hands are drawn back to five, R15);
        # Shards from the bag banked in the first Cargo Bay (a point and a colour that powers
        # Specials, R70, all game); Special cards from the top of the Academy Deck (between
        # the two, and taking nothing from the bag, which at 4 players has no Shard to spare)
        asteroid_shards = len(self.asteroids) * self.shard_per_asteroid
        self.opening_extra = self._per_position(
            setup,
            "opening_extra_cards",
            "that the basic deck can deal",
            lambda xs: self.hand_size + max(xs) <= len(self.basic),
            problems,
        )
        self.opening_banked = self._per_position(
            setup,
            "opening_bay_shards",
            "that the bag can supply after the Asteroids",
            lambda xs: sum(xs) + asteroid_shards <= sum(self.shard_supply),
            problems,
        )
        self.opening_specials = self._per_position(
            setup,
            "opening_special_cards",
            "that the Academy Deck can deal after the face-up cards",
            lambda xs: sum(xs) + self.face_up <= len(self.special),
            problems,
        )

    def _per_position(
        self, setup: dict, key: str, limit: str, fits: Callable[[list[int]], bool], problems: list
    ) -> list[int]:
        """A set-up list of whole numbers, one per turn position; all zero, and a problem
        naming ``key``, when it is not one or ``fits`` says the game cannot supply it."""
        xs = setup.get(key, [0] * self.players)
        if (
            isinstance(xs, list)
            and len(xs) == self.players
            and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in xs)
            and fits(xs)
        ):
            return list(xs)
        problems.append(
            f"setup.{key}: {self.players} whole numbers of 0 or more, one per turn position, "
            + limit
        )
        return [0] * self.players

    def _load_scoring(self, scoring: dict, problems: list[str]) -> None:
        def table(key: str) -> dict[int, int]:
            raw = scoring.get(key)
            try:
                if not isinstance(raw, dict):
                    raise TypeError
                out = {int(k): int(v) for k, v in raw.items()}
                if not out or min(out) < 1:
                    raise ValueError
                return out
            except (AttributeError, TypeError, ValueError):
                problems.append(f"scoring.{key}: a table like {{'1': 1, '2': 5}} is needed")
                return {1: 1}

        self.bay_sets = table("bay_sets")
        self.special_sets = table("special_sets")

    # -- geometry helpers used by the renderer ----------------------------------------------
    def polar(self, s: int) -> tuple[float, float]:
        """(ring, angle in radians) of a space, for drawing."""
        return self.space_ring[s], math.radians(self.space_angle[s])


_LAYOUTS: dict[tuple, Layout] = {}


def layout_for(players: int, variant: str | Path | dict | None = None) -> Layout:
    """The checked :class:`Layout` for a player count, cached per variant."""
    key = (players, json.dumps(variant, sort_keys=True) if isinstance(variant, dict) else variant)
    lay = _LAYOUTS.get(key)
    if lay is None:
        if players not in (2, 3, 4):
            raise ContentError([f"players: Nova Raiders is for 2 to 4 players, not {players}"])
        data = load_data(variant)
        try:
            lay = Layout(data, players)
        except ContentError:
            raise
        except (AttributeError, TypeError, KeyError, IndexError, ValueError) as exc:
            # a field of the wrong JSON type somewhere the checks above did not reach
            raise ContentError([f"the data has a field of the wrong type ({exc})"]) from None
        _LAYOUTS[key] = lay
    return lay
