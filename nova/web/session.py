"""The browser shell's controller, pure Python (no browser imports; tested in CPython).

It holds the game as a :class:`GameRecord` plus every state along it, and decides only
UI things: whose view is on screen (pass-and-play), how far undo may go, the log.
Every rule question goes to the engine.
"""

from __future__ import annotations

from ..folding import Fold, check_way, folds, leave_asked, only_choice, taken_for_person
from ..record import GameRecord
from ..render.log import LogTurn
from ..render.marks import motions, touched
from ..render.words import describe
from ..rules import IllegalMove, State, View
from ..rules import move as mv

# the decisions that name a space, and how to write one for a given space
_SPACE_MOVES = {mv.SHIP: mv.ship, mv.DEST: mv.dest, mv.TARGET: mv.target, mv.SPAWN: mv.spawn}


def reveal_reason(before: State, after: State) -> str:
    """What this decision showed that was hidden or random (so it may not be undone), in
    words for Undo's tooltip; "" when nothing was revealed.

    A card drawn (draw pile, Academy Deck), a Shard from the bag, or the device passing
    to someone else (a new turn, another seat deciding a Spawn).
    """
    if after.turn != before.turn:
        return "a new turn began (new cards were drawn)"
    if after.current_player != before.current_player:
        return "another player is deciding now (Spawn Energy, R47)"
    if sum(after.bag) != sum(before.bag):
        return "a Shard was drawn from the bag (R47)"
    if len(after.academy) != len(before.academy) or after.face_up != before.face_up:
        return "a Space Academy card was revealed (R42-R43)"
    if any(
        len(a.draw) != len(b.draw) or len(a.discard) != len(b.discard)
        for a, b in zip(after.players, before.players, strict=True)
    ):
        return "a card was drawn (R15)"
    return ""


def reveals(before: State, after: State) -> bool:
    """Did this decision show something hidden or random (so it may not be undone)?"""
    return bool(reveal_reason(before, after))


# the decisions after which a moving ship's "leave Shards behind?" may be asked
_BEFORE_LEAVE = frozenset({mv.DEST, mv.TARGET, mv.DIR})


class Session:
    """One game on screen: record, states, undo barrier, pass-and-play gate, log."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.states: list[State] = record.states()  # RecordError if a move is illegal
        self.log: list[str] = []
        self._log_index: list[int] = []  # the decision each log line tells
        self.barrier = 0  # moves before this index can no longer be undone
        self.barrier_why = ""  # what the decision at the barrier revealed (Undo's tooltip)
        self._diffs: dict[int, tuple[list[dict], list[int]]] = {}  # see _diff
        self._view: tuple[State, tuple, View] | None = None  # see view
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

    def came_this_turn(self) -> tuple[str, ...]:
        """The cards that came into the hand of the player on turn during this turn (an
        Upgrade's), in the order they came: the hand's numbers stay put through the turn
        (``render/prompts.card_slots``)."""
        seat, first = self.state.turn, len(self.states) - 1
        while first > 0 and self.states[first - 1].turn == seat:
            first -= 1
        came: list[str] = []
        for before, after in zip(self.states[first:], self.states[first + 1 :], strict=False):
            held = set(before.players[seat].hand)
            came += [c for c in after.players[seat].hand if c not in held and c not in came]
        return tuple(came)

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
        if self.is_bot(seat) or self.shown == seat:
            return False
        # a Spawn Energy placement (R47) shows no hand: the player holding the device lets
        # the placing player tap the board, with no curtain between
        return not (s.spawn_shard and self.shown is not None)

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

    def view(self) -> View:
        """What the screen shows of the game now (made once for each state and gate: the
        game's worker asks again for every key it offers and every part it draws)."""
        s = self.state
        gate = (self.viewer(), self.bot_to_move(), self.needs_pass())
        made = getattr(self, "_view", None)  # (a subclass may not call __init__)
        if made is not None and made[0] is s and made[1] == gate:
            return made[2]
        v = self._make_view(s, gate[0])
        self._view = (s, gate, v)
        return v

    def _make_view(self, s: State, viewer: int) -> View:
        v = s.view(viewer)
        if self.bot_to_move() and v.legal:
            # a bot decides: nothing on screen is anyone's choice now (a watcher of a
            # bots-only game sees from seat 0, whose options would otherwise show)
            return v.but(legal=())
        if self.needs_pass():
            # defence in depth: the pass screen must not show anyone's cards
            return v.but(legal=())
        if s.spawn_shard and v.seat != s.current_player and not self.is_bot(s.current_player):
            # another person places a Spawn Shard on the device holder's screen: the
            # holder's own view (their hand), with the placing player's public choices
            return v.but(legal=tuple(s.legal_moves()))
        return v

    def taken_for_player(self, i: int) -> bool:
        """Was decision ``i`` the only choice of a person, taken for them by the page?"""
        s = self.states[i]
        if self.is_bot(s.current_player):
            return False
        # "leave Shards behind?" is answered with the move before it (leave_asked)
        return only_choice(s) is not None or leave_asked(s) is not None

    def taken_count(self) -> int:
        """How many decisions of this game the page took for people (one option each, a
        Shards answer, a ship chosen by the tap on where it goes)."""
        moves = range(len(self.record.moves))
        return sum(1 for i in moves if i in self._joined or self.taken_for_player(i))

    def _undo_to(self) -> int:
        """The index of the last decision the player made themselves (undo goes back to
        before it, taking the decisions made for them after it too); -1 if none."""
        k = len(self.record.moves) - 1
        while k >= 0 and self.taken_for_player(k):
            k -= 1
        while k > 0 and k - 1 in self._joined:  # the decisions played with it by one tap
            k -= 1
        return k

    def can_undo(self) -> bool:
        if self.needs_pass() or self.is_bot(self.state.current_player):
            return False
        return self._undo_to() >= self.barrier

    def undo_block(self) -> str:
        """Why Undo is off now, in words ("" when it is on)."""
        if self.can_undo():
            return ""
        if self.state.is_over():
            return "Undo is off: the game is over"
        if self.needs_pass():
            return "Undo is off until the next player taps Ready"
        if self.is_bot(self.state.current_player):
            return "Undo is off while a bot decides"
        if self.moves and self.barrier_why and self._undo_to() < self.barrier:
            return f"Undo is off: {self.barrier_why}, and that cannot be taken back"
        return "Nothing to undo yet"

    def why_not(self, token: str) -> str:
        """Why ``token`` (something the player tapped) is not a choice now, in words
        naming the rule (the engine's ``why_illegal``); "" if it is legal."""
        s = self.state
        if s.is_over():
            return "The game is over."
        if self.needs_pass():
            return "Pass the device first: the next player taps Ready."
        if self.is_bot(s.current_player):
            return f"Wait: {self.record.names[s.current_player]} (a bot) is deciding."
        why = s.why_illegal(token)
        return f"Not possible: {why}." if why else ""

    def why_not_space(self, name: str) -> str:
        """ "Why not?" for a tapped space that is not highlighted: it is read as the kind of
        space choice asked now (a ship, a destination, a target, an Asteroid), or as a
        Launch onto it when no action is under way and it is one of the player's gates."""
        s = self.state
        if name not in s.layout.name_to_space:
            return ""
        legal = s.legal_moves() if not s.is_over() else []
        asked = {m.kind for m in legal if m.kind in _SPACE_MOVES}
        if len(asked) == 1:
            return self.why_not(_SPACE_MOVES[asked.pop()](name))
        gate = s.layout.gate_owner[s.layout.name_to_space[name]] == s.current_player
        if s.pending is None and not s.spawn_shard and gate:
            return self.why_not(mv.launch(name))
        return self.why_not(mv.ship(name))

    def leave_choice(self) -> tuple[int, int] | None:
        """(most, picked) when the person's decision on screen moves a ship that carries
        Shards and will then be asked how many to leave behind: the most it may leave, and
        how many the person has set on the ship's control (0: keep them all); else None."""
        s = self.state
        if s.is_over() or self.needs_pass() or self.is_bot(s.current_player):
            return None
        for m in s.legal_moves():
            if m.kind not in _BEFORE_LEAVE:
                continue
            after = s.apply(m)
            most = leave_asked(after) if after.current_player == s.current_player else None
            if most is None:
                return None  # every move of this step leads to the same kind of question
            picked = self._leave[1] if self._leave and self._leave[0] == self.moves else 0
            return most, min(picked, most)
        return None

    def folded_moves(self) -> dict[str, Fold]:
        """At a person's turn step and "choose the ship" step: space -> :class:`Fold`, the
        places one tap reaches with the decisions that lead there (``folding.py``); the
        step's own places (a Launch's gate, the ships) are left out. Worked out once per
        decision."""
        s = self.state
        if s.is_over() or self.needs_pass() or self.is_bot(s.current_player) or s.spawn_shard:
            return {}
        got = self._folds.get(self.moves)
        if got is None:
            got = folds(s)
            self._folds = {self.moves: got}
        return got

    def fold_choice(self) -> Fold | None:
        """The place the person tapped that more than one way reaches (the chooser on
        screen: one button a way), while that decision is on screen; else None."""
        if self._fold is None or self._fold[0] != self.moves:
            return None
        fold = self.folded_moves().get(self._fold[1])
        return fold if fold is not None and fold.one is None else None

    def pick_fold(self, space: str) -> None:
        """The person tapped ``space``, which several ways reach ("" closes the chooser)."""
        self._fold = (self.moves, space) if space else None

    def pick_leave(self, n: int) -> None:
        """The person sets how many Shards the moving ship leaves behind (0..most)."""
        self._leave = (self.moves, max(0, n))

    # -- acting -----------------------------------------------------------------------
    def ready(self) -> None:
        """Pass-and-play: the deciding player has the device."""
        self.shown = self.state.current_player

    def play(self, token: str) -> State:
        """Play ``token`` (IllegalMove says why not). Returns the new state."""
        if self.needs_pass():
            raise IllegalMove("pass the device first: the next player taps Ready")
        *first, token = token.split() or [token]
        if first:  # several decisions in one tap (folded_moves): the whole way checked first
            steps = check_way(self.state, " ".join([*first, token]))
            for before, move, after in steps[:-1]:
                self._push(before, str(move), after)
                self._joined = self._joined | {len(self.record.moves) - 1}
        self._fold = None
        before = self.state
        move = before.parse_move(token)
        after = before.apply(move)
        leave = self._leave[1] if self._leave and self._leave[0] == self.moves else 0
        self._leave = None
        self._push(before, str(move), after)
        # a person's decision with one option is taken for them, and so is how many Shards
        # a moving ship leaves behind (undone with the decision before)
        while not self.is_bot(after.current_player):
            nxt = taken_for_person(after, leave)
            if nxt is None:
                break
            before, after = after, after.apply(nxt)
            self._push(before, nxt, after)
        return after

    def _push(self, before: State, move: str, after: State) -> None:
        self.record.moves.append(move)
        self.states.append(after)
        self._after_move(len(self.record.moves) - 1, before, move, after)

    def undo(self) -> bool:
        """Take back the last decision of this turn, if nothing hidden was revealed since."""
        if not self.can_undo():
            return False
        keep = self._undo_to()
        del self.record.moves[keep:]
        del self.states[keep + 1 :]
        self._joined = frozenset(i for i in self._joined if i < keep)
        self._folds, self._fold = {}, None
        for i in [i for i in self._diffs if i >= keep]:
            del self._diffs[i]
        # drop log lines written for the undone move
        while self._log_index and self._log_index[-1] >= len(self.record.moves):
            self._log_index.pop()
            self.log.pop()
        return True

    _log_index: list[int]
    # (decisions so far, Shards to leave): what the person set on the moving ship's control
    # for the decision on screen (leave_choice); a class default, for subclasses too
    _leave: tuple[int, int] | None = None
    # the person's decisions played with the next one by a single tap (folded_moves)
    _joined: frozenset[int] = frozenset()
    _folds: dict[int, dict[str, Fold]] = {}  # noqa: RUF012 (replaced, never changed)
    _fold: tuple[int, str] | None = None  # (decisions so far, the place tapped): the chooser

    def _after_move(self, i: int, before: State, move: str, after: State) -> None:
        if not hasattr(self, "_log_index"):
            self._log_index = []
        seat = before.current_player
        why = reveal_reason(before, after)
        if why or self.is_bot(seat) or after.is_over():
            self.barrier = i + 1
            self.barrier_why = (
                why
                or ("the game is over" if after.is_over() else "")
                or f"{self.record.names[seat]} (a bot) decided last"
            )
        line = describe(before, move, after, self.record.names)
        if line:
            self.log.append(line)
            self._log_index.append(i)

    def note(self, line: str) -> None:
        """A line in the log about the decision on screen (e.g. a hint was shown); undo
        drops it with that decision."""
        self.log.append(line)
        self._log_index.append(len(self.record.moves))

    def turn_of(self, i: int) -> tuple[int, int]:
        """(round, seat) of the turn in which decision ``i`` was made."""
        s = self.states[i]
        return s.round, s.turn

    def marks(self) -> dict:
        """What the board marks: the previous turn's moves until the next player acts, then
        that player's moves so far; and the last decision's moves (to animate once).

        ``{"seat": whose moves, "motions": [...], "touched": [space, ...], "latest":
        {"index": i, "motions": [...]}}`` (all from the states; see :func:`motions`).
        """
        n = len(self.record.moves)
        if n == 0:
            return {"seat": -1, "motions": [], "touched": [], "latest": None}
        now = self.turn_of(n)
        # decisions of the turn on now; if none yet, those of the turn before it
        first = n
        while first > 0 and self.turn_of(first - 1) == now:
            first -= 1
        if first == n:
            key = self.turn_of(n - 1)
            while first > 0 and self.turn_of(first - 1) == key:
                first -= 1
        else:
            key = now
        moved: list[dict] = []
        spaces: list[int] = []
        for i in range(first, n):
            m, t = self._diff(i)
            moved += m
            spaces += [s for s in t if s not in spaces]
        latest = {"index": n - 1, "motions": list(self._diff(n - 1)[0])}
        return {"seat": key[1], "motions": moved, "touched": spaces, "latest": latest}

    def _diff(self, i: int) -> tuple[list[dict], list[int]]:
        """(motions, touched) of decision ``i``: each decision's, worked out once (the
        board's marks ask for the whole turn's at every update)."""
        got = self._diffs.get(i)
        if got is None:
            a, b = self.states[i], self.states[i + 1]
            got = self._diffs[i] = (motions(a, b, self.record.moves[i]), touched(a, b))
        return got

    def log_turns(self, limit: int = 12) -> list[LogTurn]:
        """The log grouped by turn and player, newest turn first (at most ``limit``)."""
        groups: list[tuple[int, int, list[str]]] = []
        for line, i in zip(self.log, self._log_index, strict=True):
            rnd, seat = self.turn_of(i)
            if not groups or groups[-1][:2] != (rnd, seat):
                groups.append((rnd, seat, []))
            groups[-1][2].append(line)
        return [LogTurn(rnd, seat, tuple(lines)) for rnd, seat, lines in groups[::-1][:limit]]

    def title(self) -> str:
        names = ", ".join(self.record.names)
        return f"{names} — {len(self.record.moves)} decisions"
