"""The browser shell's controller, pure Python (no browser imports; tested in CPython).

It holds the game as a :class:`GameRecord` plus every state along it, and decides only
UI things: whose view is on screen (pass-and-play), how far undo may go, the log.
Every rule question goes to the engine.
"""

from __future__ import annotations

from ..record import GameRecord, RecordError
from ..render.words import describe
from ..rules import IllegalMove, State


def reveals(before: State, after: State) -> bool:
    """Did this decision show something hidden or random (so it may not be undone)?

    A card drawn (draw pile, Academy Deck), a Shard from the bag, or the device passing
    to someone else (a new turn, another seat deciding a Spawn).
    """
    if after.turn != before.turn or after.current_player != before.current_player:
        return True
    if sum(after.bag) != sum(before.bag) or len(after.academy) != len(before.academy):
        return True
    if after.face_up != before.face_up:
        return True
    return any(
        len(a.draw) != len(b.draw) or len(a.discard) != len(b.discard)
        for a, b in zip(after.players, before.players, strict=True)
    )


class Session:
    """One game on screen: record, states, undo barrier, pass-and-play gate, log."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.states: list[State] = record.states()  # RecordError if a move is illegal
        self.log: list[str] = []
        self.barrier = 0  # moves before this index can no longer be undone
        for i, move in enumerate(record.moves):
            self._after_move(i, self.states[i], move, self.states[i + 1])
        # On a fresh start or a resume, the device may be in anyone's hands.
        self.shown: int | None = None
        self.notice = ""

    # -- set-up -----------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        players: int = 2,
        seed: int = 1,
        names: list[str] | None = None,
        colours: list[str] | None = None,
        bots: list[str] | None = None,
    ) -> Session:
        rec = GameRecord(players=players, seed=seed)
        if names:
            rec.names = [(n.strip() or f"Player {i + 1}")[:24] for i, n in enumerate(names)]
        if colours:
            rec.colours = list(colours)
        if bots:
            rec.bots = list(bots)
        return cls(rec)

    # -- reading ----------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def moves(self) -> int:
        return len(self.record.moves)

    @property
    def humans(self) -> list[int]:
        return [i for i, b in enumerate(self.record.bots) if not b]

    def is_bot(self, seat: int) -> bool:
        return bool(self.record.bots[seat])

    def bot_to_move(self) -> bool:
        s = self.state
        return not s.is_over() and self.is_bot(s.current_player)

    def needs_pass(self) -> bool:
        """Must the device be handed to the deciding human before their hand shows?"""
        s = self.state
        if s.is_over() or len(self.humans) < 2:
            return False
        seat = s.current_player
        return not self.is_bot(seat) and self.shown != seat

    def viewer(self) -> int:
        """The seat whose view is on screen (never a hand the holder may not see)."""
        s = self.state
        humans = self.humans
        if not humans:
            return 0  # bots only: watch from seat 0
        if len(humans) == 1:
            return humans[0]
        if s.is_over():
            return self.shown if self.shown is not None else humans[0]
        seat = s.current_player
        if not self.is_bot(seat) and self.shown == seat:
            return seat
        return self.shown if self.shown is not None else humans[0]

    def view(self) -> dict:
        v = self.state.view(self.viewer())
        if self.needs_pass():
            # defence in depth: the pass screen must not show anyone's cards
            v = dict(v)
            v.pop("legal", None)
        return v

    def can_undo(self) -> bool:
        if len(self.record.moves) <= self.barrier or self.needs_pass():
            return False
        return not self.is_bot(self.state.current_player)

    # -- acting -----------------------------------------------------------------------
    def ready(self) -> None:
        """Pass-and-play: the deciding player has the device."""
        self.shown = self.state.current_player

    def play(self, token: str) -> State:
        """Play ``token`` (IllegalMove says why not). Returns the new state."""
        if self.needs_pass():
            raise IllegalMove("pass the device first: the next player taps Ready")
        before = self.state
        move = before.parse_move(token)
        after = before.apply(move)
        self.record.moves.append(str(move))
        self.states.append(after)
        self._after_move(len(self.record.moves) - 1, before, str(move), after)
        return after

    def undo(self) -> bool:
        """Take back the last decision of this turn, if nothing hidden was revealed since."""
        if not self.can_undo():
            return False
        self.record.moves.pop()
        self.states.pop()
        # drop log lines written for the undone move
        while self._log_index and self._log_index[-1] >= len(self.record.moves):
            self._log_index.pop()
            self.log.pop()
        return True

    _log_index: list[int]

    def _after_move(self, i: int, before: State, move: str, after: State) -> None:
        if not hasattr(self, "_log_index"):
            self._log_index = []
        seat = before.current_player
        if reveals(before, after) or self.is_bot(seat) or after.is_over():
            self.barrier = i + 1
        line = describe(before, move, after, self.record.names)
        if line:
            self.log.append(line)
            self._log_index.append(i)

    def title(self) -> str:
        names = ", ".join(self.record.names)
        return f"{names} — {len(self.record.moves)} decisions"


def session_from_dict(data: object) -> Session:
    """A session from untrusted save data; RecordError with a player's message if bad."""
    record = GameRecord.from_dict(data)
    try:
        return Session(record)
    except RecordError:
        raise
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise RecordError(f"this game could not be replayed ({exc.__class__.__name__})") from None
