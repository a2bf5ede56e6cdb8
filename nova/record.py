"""A game as a record: its set-up and the decisions played, in move notation.

This is what saves and links carry. Replaying the moves from the set-up rebuilds the
exact state (the rules are deterministic), so a record is small, readable and
survives engine refactors that keep the notation.

>>> r = GameRecord(players=2, seed=7)
>>> r.moves.append(r.state().legal_moves()[0])
>>> GameRecord.from_dict(r.to_dict()).state().ply
1
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .rules import CONTENT_VERSION, ContentError, IllegalMove, State, content_variant, new_game

# 2: records name their rules content ("content"); a version-1 record is content 1
RECORD_VERSION = 2
DEFAULT_COLOURS = ["#e8553d", "#3d8be8", "#3dbf6e", "#b45ce0"]
MAX_MOVES = 20000
# who may sit at a seat: a person ("") or one of the bots or levels (nova.bots.BOT_NAMES and
# LEVEL_NAMES; a test keeps them the same, and this module does not import the bots so that
# the page starts fast)
SEAT_KINDS = (
    *("", "random", "greedy", "search", "raider", "best"),
    *("cadet", "pilot", "ace", "captain", "admiral"),
)


class RecordError(ValueError):
    """A record (save or link) that cannot be used; the message is for a player."""


@dataclass
class GameRecord:
    players: int = 2
    seed: int = 0
    variant: dict | None = None
    names: list[str] = field(default_factory=list)
    colours: list[str] = field(default_factory=list)
    bots: list[str] = field(default_factory=list)  # "" for a human, else a bot name
    moves: list[str] = field(default_factory=list)
    content: int = CONTENT_VERSION  # the rules content (board, tracks, deck, settings) it uses

    def __post_init__(self) -> None:
        if not self.names:
            self.names = [f"Player {i + 1}" for i in range(self.players)]
        if not self.colours:
            self.colours = DEFAULT_COLOURS[: self.players]
        if not self.bots:
            self.bots = [""] * self.players

    def initial_state(self) -> State:
        try:
            variant = content_variant(self.content, self.variant)
            return new_game(players=self.players, seed=self.seed, variant=variant)
        except ContentError as exc:
            raise RecordError(f"this game's variant is not valid: {exc.problems[0]}") from None

    def variant_name(self) -> str:
        """What a player is told the game's variant is: its ``_name`` if it has one (a note
        the rules skip, as ``_doc``), else a short fingerprint of its data; "" for today's
        rules."""
        if self.variant is None:
            return ""
        name = self.variant.get("_name")
        if isinstance(name, str) and name.strip():
            return " ".join(name.split())[:40]
        from .rules.position import variant_tag

        return variant_tag(self.variant)

    def state(self, upto: int | None = None) -> State:
        """The state after the first ``upto`` moves (all of them by default)."""
        s = self.initial_state()
        for i, move in enumerate(self.moves[:upto]):
            try:
                s = s.apply(move)
            except IllegalMove as exc:
                raise RecordError(f"move {i + 1} ({move!r}) is not legal there: {exc}") from None
        return s

    def states(self) -> list[State]:
        """Every state of the game, from the set-up to the last move."""
        s = self.initial_state()
        out = [s]
        for i, move in enumerate(self.moves):
            try:
                s = s.apply(move)
            except IllegalMove as exc:
                raise RecordError(f"move {i + 1} ({move!r}) is not legal there: {exc}") from None
            out.append(s)
        return out

    def to_dict(self) -> dict:
        return {
            "format": "nova-game",
            "v": RECORD_VERSION,
            "players": self.players,
            "seed": self.seed,
            "variant": self.variant,
            "names": list(self.names),
            "colours": list(self.colours),
            "bots": list(self.bots),
            "moves": list(self.moves),
            "content": self.content,
        }

    @classmethod
    def from_dict(cls, data) -> GameRecord:
        """A record from untrusted data (a save or a link), checked field by field."""
        if not isinstance(data, dict) or data.get("format") != "nova-game":
            raise RecordError("this is not a Nova Raiders game")
        v = data.get("v")
        if not isinstance(v, int) or isinstance(v, bool):
            raise RecordError("this game has no version number")
        if v > RECORD_VERSION:
            raise RecordError(
                "this game was made by a newer version of Nova Raiders; reload the page to update"
            )
        if v < 1:
            raise RecordError(f"unknown game version {v}")
        content = data.get("content", 1) if v >= 2 else 1
        if not isinstance(content, int) or isinstance(content, bool) or content < 1:
            raise RecordError("the game's rules content version is not readable")
        if content > CONTENT_VERSION:
            raise RecordError(
                "this game uses newer rules content than this version of Nova Raiders; "
                "reload the page to update"
            )
        players = data.get("players")
        if players not in (2, 3, 4) or isinstance(players, bool):
            raise RecordError("a game needs 2 to 4 players")
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise RecordError("the game's seed is missing or not a whole number")
        variant = data.get("variant")
        if variant is not None and not isinstance(variant, dict):
            raise RecordError("the game's variant is not readable")

        def texts(key: str, limit: int) -> list[str]:
            value = data.get(key, [])
            if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
                raise RecordError(f"the game's {key} are not readable")
            if value and len(value) != players:
                raise RecordError(f"the game has {len(value)} {key} for {players} players")
            return [x[:limit] for x in value]

        names, colours, bots = texts("names", 24), texts("colours", 16), texts("bots", 16)
        for bot in bots:
            if bot not in SEAT_KINDS:
                raise RecordError(f"the game has an unknown computer player {bot!r}")
        moves = data.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("the game's moves are not readable")
        if len(moves) > MAX_MOVES:
            raise RecordError("the game is too long to be real")
        moves = [m[:12] for m in moves]
        return cls(players, seed, variant, names, colours, bots, moves, content)
