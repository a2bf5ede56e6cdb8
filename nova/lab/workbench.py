"""The designer's workbench: what its form says, the variant being made, a run of bot games
and its result. Pure Python: the controller keeps a :class:`Workbench`, the page's adapter
plays the run's games in web workers (``nova/web/lab_worker.py``) and hands back records.

A run plays today's rules and, when the variant changes anything, the variant too, on the
same seeds and line-ups: its result is exactly the JSON ``python -m nova lab --compare
VARIANT --json`` prints for them (``nova.lab.core.result.RunResult.as_json``).

The address prefills the form (``?lab&players=2&games=40&bots=greedy,greedy&seed=7``, and
``&variant=`` a variant packed by :func:`pack_variant`); nothing in it is executed, and the
variant is checked by the content's own validation before a game is played.
"""

from __future__ import annotations

import base64
import binascii
import copy
import hashlib
import json
import zlib
from collections import deque
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlencode

from ..rules import ContentError, layout_for
from ..rules.content import load_data

if TYPE_CHECKING:
    from .core.game import GameResult
    from .core.result import RunResult
    from .levels import LevelsResult

LAB_BOTS = ("random", "greedy", "search", "best")  # docs/BOTS.md; the workbench offers these
# the runs at several opponent levels the form offers (python -m nova lab --levels); an
# address may name any two or more levels
LAB_LEVELS = (
    ("cadet", "pilot", "ace"),
    ("pilot", "ace", "admiral"),
    ("cadet", "pilot", "ace", "captain", "admiral"),
)
MAX_GAMES = 5000  # a run's games per batch (a phone's tab would take hours beyond this)
MAX_LINK_VARIANT = 65536  # bytes of a linked variant's JSON, inflated (a deflate bomb stops)
VARIANT_FILE = "workbench-variant.json"  # the name a saved variant file gets
LINK_PREFIX = "v1."  # a packed variant: v1. + base64url(deflate(JSON))
SETUP_FIELDS = ("hand_size", "ships_in_dock", "opening_extra_cards", "opening_special_cards")


@dataclass(frozen=True)
class LabForm:
    """Who plays and how many games: the same settings as ``python -m nova lab``."""

    players: int = 2
    bots: tuple[str, ...] = ("greedy", "greedy")
    games: int = 40
    seed: int = 1
    # a run at these levels (every seat the level, one batch each) instead of ``bots``
    levels: tuple[str, ...] = ()

    def with_players(self, players: int) -> LabForm:
        """The form for another player count: the seats keep their bots, new ones play greedy."""
        bots = (self.bots + ("greedy",) * players)[:players]
        return replace(self, players=players, bots=bots)

    def cli(self, variant_file: str | None) -> str:
        """The command that plays the same games in a shell."""
        if self.levels:
            return (
                f"python -m nova lab --players {self.players} --levels {','.join(self.levels)} "
                f"--games {self.games} --seed {self.seed}"
                + (f" --variant {variant_file}" if variant_file else "")
                + " --json"
            )
        line = (
            f"python -m nova lab --players {self.players} --bots {','.join(self.bots)} "
            f"--games {self.games} --seed {self.seed}"
        )
        return line + (f" --compare {variant_file}" if variant_file else "") + " --json"


def pack_variant(variant: dict) -> str:
    """A variant as link text: compact JSON, deflated, base64url (no padding)."""
    raw = json.dumps(variant, separators=(",", ":"), sort_keys=True).encode()
    return LINK_PREFIX + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def unpack_variant(text: str) -> dict:
    """A linked variant's data; ValueError with a reader's message if it is not one."""
    if not text.startswith(LINK_PREFIX):
        raise ValueError("the variant in this address is not one this page wrote")
    body = text[len(LINK_PREFIX) :]
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        inflate = zlib.decompressobj()
        raw = inflate.decompress(packed, MAX_LINK_VARIANT)
        if inflate.unconsumed_tail or not inflate.eof:
            raise ValueError("cut short or too large")
        data = json.loads(raw.decode("utf-8"))
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError):
        raise ValueError("the variant in this address is damaged (cut short or changed)") from None
    if not isinstance(data, dict):
        raise ValueError("the variant in this address is not a variant (a JSON object)")
    return data


MAX_WORKERS = 8  # each web worker is a whole Pyodide (tens of MB), whatever the cores


def worker_count(cores: int, memory_gb: float | None, games: int) -> int:
    """How many web workers a run gets: one per core, at most :data:`MAX_WORKERS`, fewer on
    a device that says it has little memory (``navigator.deviceMemory``, in GB: about one
    worker per GB), never more than the games."""
    n = min(max(1, cores), MAX_WORKERS, max(1, games))
    if memory_gb is not None and memory_gb > 0:
        n = min(n, max(1, int(memory_gb)))
    return n


def moves_digest(batches: list[list[str]]) -> str:
    """One SHA-1 over every game's moves (each record's ``moves_sha1``, batch by batch in game
    order): two runs played the same games move for move when these agree."""
    text = "\n".join(" ".join(batch) for batch in batches)
    return hashlib.sha1(text.encode()).hexdigest()


def _whole(text: str, name: str, low: int, high: int) -> int:
    try:
        n = int(text)
    except ValueError:
        raise ValueError(f"{name}: {text!r} is not a whole number") from None
    if not low <= n <= high:
        raise ValueError(f"{name}: {n} is not between {low:,} and {high:,}")
    return n


def read_query(query: str) -> tuple[LabForm, dict, list[str]]:
    """The form, the variant and what could not be read, from the address's query."""
    args = parse_qs(query.lstrip("?"), keep_blank_values=True)
    form, notes = LabForm(), []

    def one(name: str) -> str | None:
        values = args.get(name)
        return values[-1].strip() if values else None

    try:
        text = one("players")
        if text is not None:
            form = form.with_players(_whole(text, "players", 2, 4))
    except ValueError as exc:
        notes.append(str(exc))
    for name, low, high in (("games", 1, MAX_GAMES), ("seed", 0, 2**31 - 1)):
        text = one(name)
        if text is not None:
            try:
                n = _whole(text, name, low, high)
                form = replace(form, games=n) if name == "games" else replace(form, seed=n)
            except ValueError as exc:
                notes.append(str(exc))
    text = one("bots")
    if text is not None:
        try:
            # the lab's core imports the bots: not before the workbench is opened
            from .core.game import parse_bots

            form = replace(form, bots=tuple(parse_bots(text, form.players)))  # as the CLI
        except ValueError as exc:
            notes.append(str(exc).removeprefix("--"))
    text = one("levels")
    if text:
        try:
            form = replace(form, levels=read_levels(text))
        except ValueError as exc:
            notes.append(str(exc))
    variant: dict = {}
    text = one("variant")
    if text:
        try:
            variant = unpack_variant(text)
        except ValueError as exc:
            notes.append(str(exc))
    return form, variant, notes


def read_levels(text: str) -> tuple[str, ...]:
    """A run's levels as the form and the address write them ("pilot,ace,admiral"; "" none)."""
    from ..bots.levels import LEVEL_NAMES

    levels = tuple(n.strip() for n in text.split(",") if n.strip())
    if levels and (len(levels) < 2 or len(set(levels)) < len(levels)):
        raise ValueError(f"levels: {text!r}: two or more different levels, or none")
    for name in levels:
        if name not in LEVEL_NAMES:
            raise ValueError(f"levels: {name!r} is not a level ({', '.join(LEVEL_NAMES)})")
    return levels


# -- a run --------------------------------------------------------------------------------
@dataclass
class LabRun:
    """The games of one run: today's rules (batch 0) and the variant (batch 1) if it changes
    anything, each ``form.games`` games on the same seeds; records arrive in any order.
    A run at levels (``form.levels``) has a batch per level, every seat that level, all
    under one set of rules (``variants[b]``), and its result is ``levels_result``."""

    form: LabForm
    variants: list[dict | None]
    names: list[str | None]
    pending: deque[tuple[int, int]] = field(default_factory=deque)
    records: list[dict[int, GameResult]] = field(default_factory=list)
    status: str = "running"  # running, stopped, done
    workers: int = 0  # where the games are played (0: on this page)
    elapsed: float = 0.0
    result: RunResult | None = None
    levels_result: LevelsResult | None = None
    error: str = ""
    finished: bool = False  # its last game came back (or none will after a stop)

    def __post_init__(self) -> None:
        self.records = [{} for _ in self.variants]
        # game by game across the batches, so a stopped run has both sides of what it played
        self.pending = deque(
            (b, g) for g in range(self.form.games) for b in range(len(self.variants))
        )

    @property
    def total(self) -> int:
        return self.form.games * len(self.variants)

    @property
    def done(self) -> int:
        return sum(len(rs) for rs in self.records)

    def request(self, size: int) -> str | None:
        """The next ``size`` games as a worker's request (JSON), or None when none is left."""
        if self.status != "running" or not self.pending:
            return None
        jobs = [self.pending.popleft() for _ in range(min(size, len(self.pending)))]
        f = self.form
        request = {
            "players": f.players,
            "bots": list(f.bots),
            "seed": f.seed,
            "variants": self.variants,
            "jobs": jobs,
        }
        if f.levels:  # batch b's line-up: every seat level b
            request["lineups"] = [[level] * f.players for level in f.levels]
        return json.dumps(request)

    def add(self, answer: str) -> None:
        """A worker's answer (``lab_worker.play``): its records, or its error (the run stops)."""
        data = json.loads(answer)
        if "error" in data:
            self.error = str(data["error"])
            self.status = "stopped"
            return
        from .core.game import GameResult

        for batch, record in data["records"]:
            r = GameResult.from_dict(record)
            self.records[int(batch)][r.g] = r

    def moves(self) -> str:
        """:func:`moves_digest` of the games played (in game order)."""
        return moves_digest([[rs[g].moves_sha1 for g in sorted(rs)] for rs in self.records])

    def stop(self) -> None:
        if self.status == "running":
            self.status = "stopped"
            self.pending.clear()

    def finish(self, elapsed: float) -> None:
        """The run's result from the games played: all of them, or, once stopped, the games
        played on both sides (a comparison is of the same seeds)."""
        self.elapsed, self.finished = elapsed, True
        if self.status == "running":
            self.status = "done"
        common = set.intersection(*(set(rs) for rs in self.records))
        if not common:
            return
        batches = [[rs[g] for g in sorted(common)] for rs in self.records]
        f = self.form
        if f.levels:
            from .levels import levels_result

            self.levels_result = levels_result(f.levels, batches, f.players)
            return
        from .core.result import run_result

        self.result = run_result(
            batches, self.names, f.players, f.bots, f.seed, None, elapsed, max(1, self.workers)
        )


# -- the workbench --------------------------------------------------------------------------
def _parse_value(text: str):
    """A set-up field's text: a whole number, a list of them, or the text as typed (then
    the content's own check says what is wrong with it)."""
    parts = [p.strip() for p in text.replace(",", " ").split()]
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        return text
    if "," in text or len(numbers) != 1:
        return numbers
    return numbers[0]


class Workbench:
    """The workbench's form, its variant (a dict over today's data: ``{}`` changes nothing),
    what the content's validation says of it, and the last run."""

    def __init__(self, form: LabForm | None = None, variant: dict | None = None) -> None:
        self.form = form or LabForm()
        self.variant: dict = variant or {}
        self.variant_text = ""  # what was pasted and could not be read (kept to be fixed)
        self.note = ""  # the last message: a link or paste that could not be read
        self.run: LabRun | None = None
        self.problems: list[str] = []
        self.check()

    @classmethod
    def from_query(cls, query: str) -> Workbench:
        form, variant, notes = read_query(query)
        bench = cls(form, variant)
        bench.note = "; ".join(notes)
        return bench

    # -- the variant ------------------------------------------------------------------------
    def check(self) -> None:
        """The content's own validation of the variant for the chosen player count."""
        try:
            layout_for(self.form.players, self.variant or None)
        except ContentError as exc:
            self.problems = list(exc.problems)
        else:
            self.problems = []

    def data(self) -> dict:
        """Today's data with the variant over it (what the form shows), or today's data
        alone when the variant's shape cannot even be merged."""
        try:
            return load_data(self.variant or None)
        except ContentError:
            return load_data(None)

    def changes(self) -> bool:
        return bool({k: v for k, v in self.variant.items() if not k.startswith("_")})

    def track_name(self) -> str:
        entry = self.data()["setup"]["players"].get(str(self.form.players), {})
        return str(entry.get("track", ""))

    def _set(self, path: tuple[str, ...], value) -> None:
        """Set ``value`` at ``path`` in the variant, or drop it when it is today's value."""
        today: Any = load_data(None)
        for key in path:
            today = today.get(key) if isinstance(today, dict) else None
        if value == today:
            node = self.variant
            trail = []
            for key in path[:-1]:
                if not isinstance(node.get(key), dict):
                    return
                trail.append((node, key))
                node = node[key]
            node.pop(path[-1], None)
            for parent, key in reversed(trail):  # empty sections go too
                if not parent[key]:
                    del parent[key]
            return
        node = self.variant
        for key in path[:-1]:
            if not isinstance(node.get(key), dict):
                node[key] = {}
            node = node[key]
        node[path[-1]] = value

    def edit(self, name: str, value: str) -> None:
        """One field of the form changed (``data-lab`` names it)."""
        self.note = ""
        value = value.strip()
        kind, _, arg = name.partition(":")
        try:
            if kind == "players":
                self.form = self.form.with_players(_whole(value, "players", 2, 4))
            elif kind == "games":
                self.form = replace(self.form, games=_whole(value, "games", 1, MAX_GAMES))
            elif kind == "seed":
                self.form = replace(self.form, seed=_whole(value, "seed", 0, 2**31 - 1))
            elif kind == "levels":
                self.form = replace(self.form, levels=read_levels(value))
            elif kind == "bot":
                seat = _whole(arg, "seat", 0, self.form.players - 1)
                if value not in LAB_BOTS:
                    raise ValueError(f"bot: one of {', '.join(LAB_BOTS)}")
                bots = list(self.form.bots)
                bots[seat] = value
                self.form = replace(self.form, bots=tuple(bots))
            elif kind == "card":
                self.edit_card(arg, value)
            elif kind == "track":
                self._set(("tracks", self.track_name()), value.replace(",", " ").split())
            elif kind == "setup" and arg in SETUP_FIELDS:
                self._set(("setup", "players", str(self.form.players), arg), _parse_value(value))
            elif kind == "variant":
                self.paste(value)
            else:
                return
        except ValueError as exc:
            self.note = str(exc)
        self.check()

    def edit_card(self, spec: str, value: str) -> None:
        """``spec`` is ``<card id>.<field>`` (name, colour, action or alternate)."""
        cid, _, key = spec.partition(".")
        if key not in ("name", "colour", "action", "alternate"):
            raise ValueError(f"card field {key!r}")
        cards = copy.deepcopy(self.data()["academy"]["cards"])
        for card in cards:
            if isinstance(card, dict) and card.get("id") == cid:
                card[key] = value or None if key == "alternate" else value
                break
        else:
            raise ValueError(f"no Academy card {cid!r}")
        self._set(("academy", "cards"), cards)

    def paste(self, text: str) -> None:
        """A variant file's text replaces the variant (nothing changes if it is not JSON)."""
        if not text:
            self.variant, self.variant_text = {}, ""
            return
        try:
            data = json.loads(text)
        except ValueError as exc:
            self.variant_text = text
            raise ValueError(f"the pasted variant is not JSON ({exc})") from None
        if not isinstance(data, dict):
            self.variant_text = text
            raise ValueError("the pasted variant is not a variant (a JSON object)")
        self.variant, self.variant_text = data, ""

    def reset(self) -> None:
        self.variant, self.variant_text, self.note = {}, "", ""
        self.check()

    def play_link(self) -> str:
        """The link fragment (``#...``) of a new game under the variant, for a playtester:
        seat 1 a person, the others the form's bots where the page has them (else a Pilot);
        "" when there is no variant, or it cannot be played."""
        if not self.changes() or self.problems or self.variant_text:
            return ""
        from ..links import encode
        from ..record import SEAT_KINDS, GameRecord

        f = self.form
        seats = [b if b in SEAT_KINDS else "pilot" for b in f.bots[1 : f.players]]
        record = GameRecord(
            players=f.players, seed=f.seed, variant=copy.deepcopy(self.variant), bots=["", *seats]
        )
        return "#" + encode(record)

    def variant_json(self) -> str:
        """The variant as a file's text (what "Save" downloads, and the paste box shows)."""
        return json.dumps(self.variant, indent=1, ensure_ascii=False)

    def query(self) -> str:
        """The address's query that opens the workbench as it is now (form and variant)."""
        f = self.form
        args = {"players": f.players, "games": f.games, "bots": ",".join(f.bots), "seed": f.seed}
        if f.levels:
            args["levels"] = ",".join(f.levels)
        if self.changes():
            args["variant"] = pack_variant(self.variant)
        return "lab&" + urlencode(args, safe=",")

    # -- running ----------------------------------------------------------------------------
    def why_not_run(self) -> str:
        """Why the run cannot start now ("" if it can)."""
        if self.run is not None and self.run.status == "running":
            return "a run is under way"
        if self.variant_text:  # a run now would play the variant as it was before the paste
            return "the pasted variant cannot be read: fix it or reset the variant"
        if self.problems:
            return "the variant has problems (listed above): fix them or reset it"
        return ""

    def start_run(self) -> LabRun | None:
        if self.why_not_run():
            return None
        if self.form.levels:  # every level under the rules as they stand in the form
            rules = copy.deepcopy(self.variant) if self.changes() else None
            name = VARIANT_FILE if self.changes() else None
            n = len(self.form.levels)
            self.run = LabRun(self.form, [rules] * n, [name] * n)
            return self.run
        variants: list[dict | None] = [None]
        names: list[str | None] = [None]
        if self.changes():
            variants.append(copy.deepcopy(self.variant))
            names.append(VARIANT_FILE)
        self.run = LabRun(self.form, variants, names)
        return self.run
