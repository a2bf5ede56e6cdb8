"""Whole games by links between simulated devices, for the tests, the benchmark and the
lab: each seat a :class:`~nova.fair.device.Device`, every turn sent as a real link and
received by every other device."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from nova.fair import keys, wire
from nova.fair.audit import AuditReport, audit
from nova.fair.device import Device, host, join, receive, reveal_secret, send_turn, start
from nova.fair.record import FairRecord, Reveal
from nova.fair.table import end_turn, play_move, setup, start_turn
from nova.record import DEFAULT_COLOURS


@dataclass
class Played:
    devices: list[Device]
    links: list[str] = field(default_factory=list)  # every link sent, in order
    report: AuditReport | None = None


def deliver(device: Device | None, fragment: str) -> Device:
    return receive(device, wire.decode(fragment).record)


def set_up(players: int, seed: int, variant: dict | None = None) -> Played:
    """Invitations round the table and the host's start link, each through the wire."""
    names = [f"P{i + 1}" for i in range(players)]
    devices = [host(players, names, DEFAULT_COLOURS[:players], variant, seeded_secret(seed, 0))]
    links = []
    for seat in range(1, players):
        links.append(wire.encode(devices[-1].record))
        devices.append(join(wire.decode(links[-1]).record, seeded_secret(seed, seat)))
    links.append(wire.encode(devices[-1].record))
    devices[0] = start(deliver(devices[0], links[-1]))
    links.append(wire.encode(devices[0].record))
    devices = [devices[0]] + [deliver(d, links[-1]) for d in devices[1:]]
    return Played(devices, links)


def choose_turn(device: Device, rng: random.Random) -> list[str]:
    """A random whole turn for the device's seat, from its own legal moves."""
    table = device.table()
    s = table.state
    moves: list[str] = []
    seat = device.seat
    while not s.over and s.turn == seat:
        legal = [str(m) for m in s.legal_moves()]
        # end the turn now and then, so turns stay short and games go on
        move = _random_move(legal, rng)
        moves.append(move)
        s = s.apply(move)
        if move == "E":
            break
    return moves


def play_game(players: int, seed: int, max_turns: int = 400, rounds: int | None = None) -> Played:
    """A game by links between devices: each turn a real link, received by every device."""
    rng = random.Random(seed)
    game = set_up(players, seed, {"settings": {"max_rounds": rounds}} if rounds else None)
    for _ in range(max_turns):
        table = game.devices[0].table()
        if table.over:
            break
        seat = table.next_seat
        mover = send_turn(game.devices[seat], choose_turn(game.devices[seat], rng))
        link = wire.encode(mover.record)
        game.links.append(link)
        game.devices = [
            mover if i == seat else deliver(d, link) for i, d in enumerate(game.devices)
        ]
    return game


def finish(game: Played) -> Played:
    """Every device reveals its secret; the last link carries them all; every device audits."""
    for i in range(len(game.devices)):
        mine = reveal_secret(game.devices[i])
        link = wire.encode(mine.record)
        game.links.append(link)
        game.devices = [mine if j == i else deliver(d, link) for j, d in enumerate(game.devices)]
    game.report = audit(game.devices[0].record)
    return game


def seeded_secret(seed: int, seat: int) -> bytes:
    """A seat's secret made from a seed: for repeatable tests only (devices use secrets)."""
    return hashlib.sha256(f"nova-fair/test/{seed}/{seat}".encode()).digest()


def honest_record(
    players: int,
    seed: int,
    rounds: int | None = None,
    chooser: Callable[[list[str], random.Random], str] | None = None,
    max_turns: int | None = None,
) -> tuple[FairRecord, list[bytes]]:
    """A whole honest game by links in one pass (what the devices' links would hold), with
    every seat's secret: each turn's moves from ``chooser(state, rng)`` (random by default),
    its reveal and its seal made as :func:`device.send_turn` makes them."""
    rng = random.Random(seed)
    variant = {"settings": {"max_rounds": rounds}} if rounds else None
    names = [f"P{i + 1}" for i in range(players)]
    devices = [host(players, names, DEFAULT_COLOURS[:players], variant, seeded_secret(seed, 0))]
    for seat in range(1, players):
        devices.append(join(devices[-1].record, seeded_secret(seed, seat)))
    secrets_ = [d.secret for d in devices]
    record = start(replace(devices[0], record=devices[-1].record)).record
    everyone = dict(enumerate(secrets_))
    t = setup(record, everyone)
    reveals = list(record.reveals)
    seals = list(record.seals)
    moves: list[str] = []
    while not t.state.over and (max_turns is None or len(t.turns) < max_turns):
        seat = t.state.turn
        count = t.counts[seat] + 1
        value = keys.reveal(secrets_[seat], count)
        chance = start_turn(t, value, everyone)
        begin = len(moves)
        while True:
            legal = [str(m) for m in t.state.legal_moves()]
            move = (chooser or _random_move)(legal, rng)
            play_move(t, move, len(moves), audit=False)
            moves.append(move)
            if move == "E" or t.state.over:
                break
        end_turn(t, seat, begin, moves[begin:], count, chance)
        reveals[seat] = Reveal(count, value)
        seals[seat] = keys.seal(keys.reveal(secrets_[seat], count + 1), t.digest)
        t.record = replace(t.record, reveals=tuple(reveals))
    record = replace(record, reveals=tuple(reveals), seals=tuple(seals), moves=tuple(moves))
    return record, secrets_


def _random_move(legal: list[str], rng: random.Random) -> str:
    return "E" if "E" in legal and rng.random() < 0.25 else rng.choice(legal)
