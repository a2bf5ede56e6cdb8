"""Whole games by links between simulated devices, for the tests, the benchmark and the
lab: each seat a :class:`~nova.fair.device.Device`, every turn sent as a real link and
received by every other device."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..record import DEFAULT_COLOURS
from . import wire
from .audit import AuditReport, audit
from .device import Device, host, join, receive, reveal_secret, send_turn, start


@dataclass
class Played:
    devices: list[Device]
    links: list[str] = field(default_factory=list)  # every link sent, in order
    report: AuditReport | None = None


def deliver(device: Device | None, fragment: str) -> Device:
    return receive(device, wire.decode(fragment).record)


def set_up(players: int, rng: random.Random | None = None) -> Played:
    """Invitations round the table and the host's start link, each through the wire."""
    names = [f"P{i + 1}" for i in range(players)]
    devices = [host(players, names, DEFAULT_COLOURS[:players])]
    links = []
    for _ in range(1, players):
        links.append(wire.encode(devices[-1].record))
        devices.append(join(wire.decode(links[-1]).record))
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
        move = "E" if "E" in legal and rng.random() < 0.25 else rng.choice(legal)
        moves.append(move)
        s = s.apply(move)
        if move == "E":
            break
    return moves


def play_game(players: int, seed: int, max_turns: int = 400) -> Played:
    rng = random.Random(seed)
    game = set_up(players, rng)
    for _ in range(max_turns):
        table = game.devices[0].table()
        if table.over:
            break
        seat = table.next_seat
        mover = send_turn(game.devices[seat], choose_turn(game.devices[seat], rng))
        link = wire.encode(mover.record)
        game.links.append(link)
        game.devices = [mover if i == seat else deliver(d, link) for i, d in enumerate(game.devices)]
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
