"""Test vectors for fair play by links (docs/fair-vectors.json, docs/LINKS.md "Test
vectors"): a few whole games between simulated devices, every link they sent and every value
a second program computes along the way. ``python tools/fair_vectors.py`` writes the file;
tests/test_fair_vectors.py checks that this code still makes every value."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from nova.fair import keys, wire
from nova.fair.audit import audit
from nova.fair.device import Device, abandon, reveal_secret, send_turn
from nova.fair.record import FairRecord, Reveal
from nova.fair.table import Refused, replay

from .simulate import choose_turn, deliver, seeded_secret, set_up


@dataclass(frozen=True)
class Scenario:
    name: str
    players: int
    seed: int
    rounds: int  # the variant's round limit: short whole games
    cheat: bool = False  # the last turn plays a card from the mover's draw pile
    abandon_after: int = 0  # end the game as abandoned after this many turns (0: never)


SCENARIOS = (
    Scenario("two players, a card played from the draw pile", 2, 20, 3, cheat=True),
    Scenario("three players, Spawns and Academy draws", 3, 9, 14),
    Scenario("four players, abandoned", 4, 5, 4, abandon_after=9),
)


def _cheat(device, record: FairRecord) -> FairRecord:
    """The seat's turn as a cheating program would send it: a card from its draw pile played
    as a chain link, then ``E``, with the reveal and the seal its secret makes. Its own device
    refuses such a turn (docs/LINKS.md, check 7), so the record is made by hand."""
    seat, secret = device.seat, device.secret
    card = next(c for c in device.table().state.players[seat].draw)
    count = record.reveals[seat].count + 1
    reveals = list(record.reveals)
    reveals[seat] = Reveal(count, keys.reveal(secret, count))
    cheat = replace(record, reveals=tuple(reveals), moves=record.moves + (card + "s", "E"))
    after = replay(cheat, {}, prepare=False)
    seals = list(cheat.seals)
    seals[seat] = keys.seal(keys.reveal(secret, count + 1), after.digest)
    return replace(cheat, seals=tuple(seals))


def _send(devices: list[Device], seat: int, sent: Device, links: list[str]) -> list[Device]:
    """``sent`` (seat's device after it acted) sends its link; every other device takes it
    (a cheater's own device, which would refuse the game it made, keeps what it has)."""
    links.append(wire.encode(sent.record))
    out = []
    for i, d in enumerate(devices):
        try:
            out.append(sent if i == seat else deliver(d, links[-1]))
        except Refused:
            out.append(d)
    return out


def play(sc: Scenario) -> tuple[list[str], FairRecord, list[bytes]]:
    """The scenario's game between devices: every link sent, the final record, the secrets."""
    rng = random.Random(sc.seed)
    game = set_up(sc.players, sc.seed, {"settings": {"max_rounds": sc.rounds}})
    links, devices = game.links, game.devices
    turns, cheater = 0, -1
    while True:
        table = devices[1 if cheater == 0 else 0].table()  # an honest device's
        if table.over:
            break
        seat = table.next_seat
        if sc.abandon_after and turns == sc.abandon_after:
            ender = (seat + 1) % sc.players
            devices = _send(devices, ender, abandon(devices[ender]), links)
            break
        final = table.state.round == sc.rounds - 1 and seat == (table.state.first - 1) % sc.players
        if sc.cheat and final:
            sent = replace(devices[seat], record=_cheat(devices[seat], devices[seat].record))
            cheater = seat
        else:
            sent = send_turn(devices[seat], choose_turn(devices[seat], rng))
        devices = _send(devices, seat, sent, links)
        turns += 1
    left = devices[1 if cheater == 0 else 0].record.abandoned
    for i in range(sc.players):
        if devices[i].record.secret_of(i) or i == left:
            continue
        devices = _send(devices, i, reveal_secret(devices[i]), links)
    secrets = [seeded_secret(sc.seed, seat) for seat in range(sc.players)]
    return links, devices[1 if cheater == 0 else 0].record, secrets


def describe(sc: Scenario) -> dict[str, Any]:
    """Every value of the scenario's game, as docs/LINKS.md names them (bytes in hex)."""
    links, record, secrets = play(sc)
    everyone = {seat: k for seat, k in enumerate(secrets) if seat != record.abandoned}
    host_first = record.reveals[0].at(1)
    assert host_first is not None
    p0 = keys.setup_value(list(record.anchors), host_first)
    table = replay(replace(record, secrets=()), everyone, audit=True, prepare=False)
    turns = []
    for t in table.turns:
        k = secrets[t.seat]
        turns.append(
            {
                "t": t.index,
                "seat": t.seat,
                "reveal_count": t.reveal_count,
                "reveal": keys.reveal(k, t.reveal_count).hex(),
                "P_t": t.chance.hex(),
                "bag_generator": keys.stream(t.chance, "bag"),
                "academy_generator": keys.stream(t.chance, "academy"),
                "drawn": list(t.drawn) if t.seat in everyone else None,
                "moves": list(record.moves[t.start : t.end]),
                "h": t.digest.hex(),
                "seal": keys.seal(keys.reveal(k, t.reveal_count + 1), t.digest).hex(),
            }
        )
    report = audit(record)
    return {
        "name": sc.name,
        "players": sc.players,
        "secrets": [k.hex() for k in secrets],
        "anchors": [a.hex() for a in record.anchors],
        "draw_keys": [keys.draw_key(k).hex() for k in secrets],
        "game_id": record.game_id.hex(),
        "rules_json": record.rules.canonical().decode("ascii"),
        "host_first_reveal": host_first.hex(),
        "P0": p0.hex(),
        "seed": keys.setup_seed(p0),
        "h_0": keys.history_start(p0 + record.rules.canonical()).hex(),
        "turns": turns,
        "final_reveals": [[r.count, r.value.hex()] for r in record.reveals],
        "final_seals": [s.hex() for s in record.seals],
        "abandoned": [record.abandoned, record.abandoned_by],
        "scores": table.state.scores(),
        "end_reason": table.state.end_reason,
        "audit": {
            "passed": report.passed,
            "complete": report.complete,
            "findings": list(report.findings),
            "notes": list(report.notes),
        },
        "links": links,
    }


def vectors() -> dict[str, Any]:
    return {
        "about": "Fair play by links test vectors: docs/LINKS.md, 'Test vectors'.",
        "games": [describe(sc) for sc in SCENARIOS],
    }
