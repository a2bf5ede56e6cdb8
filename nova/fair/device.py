"""One device in a game by links: its seat and secret, the record it holds, and what it
does with a link that arrives (docs/LINKS.md, "Checks when a link arrives").

Pure Python: the page keeps a :class:`Device` in its storage (the secret never leaves it
before the end) and asks this module for everything.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..rules import CONTENT_VERSION
from . import keys
from .record import FairRecord, Reveal, Rules, Stage
from .table import Refused, Table, replay

MAX_NAME = 24
_TABLES: dict[tuple, Table] = {}


@dataclass(frozen=True)
class Device:
    record: FairRecord
    seat: int = -1  # -1: this device holds no seat (it watches)
    secret: bytes = b""

    @property
    def secrets(self) -> dict[int, bytes]:
        return {self.seat: self.secret} if self.seat >= 0 else {}

    def table(self) -> Table:
        """The game replayed with this device's secret (the last few kept: a page asks for
        it several times per link and per redraw; callers never change a table)."""
        table = _TABLES.get(self._key())
        if table is None:
            table = keep_table(self, replay(self.record, self.secrets))
        return table

    def _key(self) -> tuple:
        r = self.record
        return (r.rules.canonical(), r.anchors, r.reveals, r.seals, r.moves, r.abandoned,
                self.seat, self.secret)  # fmt: skip

    def stage(self) -> Stage:
        if not self.record.started:
            return self.record.stage(False)
        return self.record.stage(self.table().over)


def keep_table(device: Device, table: Table) -> Table:
    """Keep ``table`` as ``device``'s replayed game (a link just decoded is one already)."""
    if len(_TABLES) >= 8:
        _TABLES.pop(next(iter(_TABLES)))
    _TABLES[device._key()] = table
    return table


def host(
    players: int,
    names: list[str],
    colours: list[str],
    variant: dict | None = None,
    secret: bytes | None = None,
) -> Device:
    """Seat A's device starts a game: its secret, and the invitation for the next seat."""
    if players not in (2, 3, 4):
        raise ValueError("a game by links has 2 to 4 players")
    names = [(n.strip() or f"Player {i + 1}")[:MAX_NAME] for i, n in enumerate(names[:players])]
    names += [f"Player {i + 1}" for i in range(len(names), players)]
    rules = Rules(players, tuple(names), tuple(colours[:players]), variant, CONTENT_VERSION)
    rules.engine_variant()  # a variant the engine refuses is refused here
    secret = secret or keys.new_secret()
    return Device(FairRecord(rules, (keys.anchor(secret),)), 0, secret)


def join(record: FairRecord, secret: bytes | None = None) -> Device:
    """This device takes the next free seat of an invitation."""
    seat = len(record.anchors)
    if seat >= record.players:
        raise Refused("every seat of this game is taken")
    secret = secret or keys.new_secret()
    return Device(replace(record, anchors=record.anchors + (keys.anchor(secret),)), seat, secret)


def start(device: Device) -> Device:
    """The host, holding every anchor, reveals its first value: the game begins."""
    r = device.record
    if device.seat != 0:
        raise Refused("only the host starts the game")
    if len(r.anchors) < r.players:
        raise Refused("some seats have not joined yet")
    if r.started:
        return device
    reveals = [Reveal(1, keys.reveal(device.secret, 1))] + [Reveal()] * (r.players - 1)
    record = replace(r, reveals=tuple(reveals), seals=(b"",) * r.players)
    return replace(device, record=record)


def send_turn(device: Device, moves: list[str]) -> Device:
    """This device's seat played ``moves`` (a whole turn, ending with ``E`` or the end of
    the game): the record with that turn, its reveal and its seal."""
    table = device.table()
    r = device.record
    seat = device.seat
    if table.over or table.next_seat != seat:
        raise Refused("it is not this device's turn")
    count = r.reveals[seat].count + 1
    reveals = list(r.reveals)
    reveals[seat] = Reveal(count, keys.reveal(device.secret, count))
    record = replace(r, reveals=tuple(reveals), moves=r.moves + tuple(moves))
    after = replay(record, device.secrets, prepare=False)  # the turn checked as others will
    seals = list(record.seals)
    seals[seat] = keys.seal(keys.reveal(device.secret, count + 1), after.digest)
    return replace(device, record=replace(record, seals=tuple(seals)))


def reveal_secret(device: Device) -> Device:
    """At the end: this seat's secret goes into its link, for the audit."""
    if device.seat < 0:
        return device
    return replace(device, record=device.record.with_secret(device.seat, device.secret))


def abandon(device: Device) -> Device:
    """End the game as abandoned by the seat whose turn it awaits (not this device's)."""
    table = device.table()
    if table.over:
        raise Refused("the game is already over")
    waiting = table.next_seat
    if waiting == device.seat or device.seat < 0:
        raise Refused("only another seat's device can end the game for a seat that left")
    record = replace(device.record, abandoned=waiting, abandoned_by=device.seat)
    return reveal_secret(replace(device, record=record))


def _first_difference(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return min(len(a), len(b))


def receive(device: Device | None, incoming: FairRecord) -> Device:
    """What this device holds after a link arrives; :class:`Refused` (nothing changes) if
    the link is edited, older, contradicts what it holds, or breaks a rule."""
    if device is None or device.record.game_id != incoming.game_id:
        if incoming.started:
            Device(incoming).table()  # every rule checked at once
        return Device(incoming)
    mine = device.record
    if incoming.rules != mine.rules:
        raise Refused("this link changes the game's set-up (names, rules): it was edited")
    if incoming.anchors[: len(mine.anchors)] != mine.anchors:
        raise Refused("this link changes a player's key from the set-up: it was edited")
    if len(incoming.anchors) < len(mine.anchors) or (mine.started and not incoming.started):
        raise Refused("this link is older than the game you have: nothing changed")
    # every reveal must come down the chain to what this device already holds
    for seat, new in enumerate(incoming.reveals):
        if new.count == 0:
            continue
        if keys.chain_down(new.value, new.count) != incoming.anchors[seat]:
            raise Refused(
                f"this link carries a turn for {incoming.who(seat)} that was not made on "
                f"{incoming.name(seat)}'s device (its key is wrong)"
            )
    if (
        len(incoming.moves) < len(mine.moves)
        and mine.moves[: len(incoming.moves)] == incoming.moves
    ):
        if incoming.abandoned >= 0 and mine.abandoned < 0:
            # an ending that crossed a turn wins: its seat has shown its secret already
            replace(device, record=incoming).table()
            shown = tuple(incoming.secret_of(i) for i in range(mine.players))
            return replace(device, record=replace(incoming, secrets=shown))
        news = any(incoming.secret_of(i) and not mine.secret_of(i) for i in range(mine.players))
        if not news:  # an end link that comes late still brings its secrets
            raise Refused(
                f"this link is older than the game you have (it ends at move "
                f"{len(incoming.moves)}, you have {len(mine.moves)}): nothing changed"
            )
    if mine.abandoned >= 0 and incoming.abandoned < 0 and len(incoming.moves) > len(mine.moves):
        raise Refused(
            f"{mine.who(mine.abandoned_by)} ended this game without "
            f"{mine.who(mine.abandoned)} at move {len(mine.moves)}: a turn after that does not "
            "count. Nothing changed"
        )
    diff = _first_difference(mine.moves, incoming.moves)
    if diff < min(len(mine.moves), len(incoming.moves)):
        table = replay(mine, device.secrets, prepare=False)
        turn = next(t for t in table.turns if t.start <= diff < t.end)
        who = mine.who(turn.seat)
        if turn.seat == device.seat:
            raise Refused(
                f"this link has a turn of yours (turn {turn.index + 1}, move {diff + 1}) "
                "that this device did not make: it was edited"
            )
        raise Refused(
            f"this link changes {who}'s turn {turn.index + 1} (move {diff + 1}, "
            f"'{mine.moves[diff]}' became '{incoming.moves[diff]}'), which you already have: "
            f"{mine.name(turn.seat)} sent two different turns, or the link was edited"
        )
    longer = len(incoming.moves) >= len(mine.moves)
    record = incoming if longer else mine
    if longer and mine.started:
        _check_seals(device, mine, incoming)
        if device.seat >= 0 and incoming.reveals[device.seat] != mine.reveals[device.seat]:
            raise Refused("this link has a turn of yours that this device did not make")
    if longer and incoming.started:
        replace(device, record=incoming).table()  # every rule, every card held
    # merge what only the end adds: the revealed secrets and an abandonment
    secrets = [incoming.secret_of(i) or mine.secret_of(i) for i in range(mine.players)]
    if any(secrets):
        record = replace(record, secrets=tuple(secrets))
    if record.abandoned < 0 and mine.abandoned >= 0:
        record = replace(record, abandoned=mine.abandoned, abandoned_by=mine.abandoned_by)
    return replace(device, record=record)


def _check_seals(device: Device, mine: FairRecord, incoming: FairRecord) -> None:
    """A seat's seal on its last turn, checkable now that its next reveal has come."""
    table = device.table()
    for seat in range(mine.players):
        old, new = mine.reveals[seat], incoming.reveals[seat]
        sealed = mine.seals[seat] if seat < len(mine.seals) else b""
        if new.count <= old.count or not sealed:
            continue
        key = new.at(old.count + 1)
        assert key is not None
        if keys.seal(key, table.last_digest[seat]) != sealed:
            raise Refused(
                f"{mine.who(seat)}'s last turn as you have it does not match their seal: "
                "one of the two links was edited"
            )
