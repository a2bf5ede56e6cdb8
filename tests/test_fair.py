"""Fair play by links (docs/LINKS.md, "Fair play by links"): the peek test, the randomness
test, the audit test and every cheat the issue names, refused when it arrives or named by
the end-of-game audit. Pure Python."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from nova import links
from nova.fair import keys, wire
from nova.fair.audit import audit
from nova.fair.device import Device, abandon, join, receive, reveal_secret, send_turn, start
from nova.fair.record import FairRecord, Reveal
from nova.fair.table import Refused, end_turn, play_move, public_choices, replay, setup, start_turn
from nova.record import GameRecord, RecordError
from nova_tools.fair.simulate import (
    deliver,
    finish,
    honest_record,
    play_game,
    seeded_secret,
    set_up,
)


def with_secrets(record: FairRecord, secrets: list[bytes]) -> FairRecord:
    for seat, k in enumerate(secrets):
        record = record.with_secret(seat, k)
    return record


def turn_of(device: Device, rng: random.Random) -> list[str]:
    from nova_tools.fair.simulate import choose_turn

    return choose_turn(device, rng)


# -- whole games ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_by_links_between_devices(players):
    """Every turn a real link received by every device: all agree on every public fact,
    each sees its own hand only, and every device's audit passes."""
    game = finish(play_game(players, seed=players, rounds=10))
    tables = [d.table() for d in game.devices]
    assert all(t.over for t in tables)
    views = [t.view(seat) for seat, t in enumerate(tables)]
    for seat, v in enumerate(views):
        for other, sv in enumerate(v.seats):
            assert (sv.hand is not None) == (other == seat)
    # the public parts of every device's state are the same
    for a, b in zip(tables, tables[1:], strict=False):
        assert a.state.pile == b.state.pile and a.state.ship == b.state.ship
        assert a.state.scores() == b.state.scores()
        assert a.state.face_up == b.state.face_up and a.state.bag == b.state.bag
    for d in game.devices:
        assert audit(d.record).passed
    assert max(len(link) + 1 for link in game.links) < 2000


@pytest.mark.parametrize("players", [2, 3, 4])
def test_honest_games_pass_the_audit(players):
    """300 honest games per player count (short: 8 rounds at most) pass the audit."""
    for seed in range(300):
        record, secrets = honest_record(players, seed, rounds=8)
        report = audit(with_secrets(record, secrets))
        assert report.passed, (seed, report.findings)
        if seed % 25 == 0:  # and survive the wire unchanged
            assert wire.decode(wire.encode(record)).record == record


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_games_replay_on_every_device_and_fit_a_chat_message(players):
    """Whole games of uniformly random decisions (Skips included, whose legality depends on
    the rest of the hand): every link replays on a device that knows no hand, and a whole
    4-player game's link fits a chat message."""
    for seed in range(8):
        record, secrets = honest_record(players, seed, chooser=lambda legal, rng: rng.choice(legal))
        done = with_secrets(record, secrets)
        assert wire.decode(wire.encode(record)).record == record
        assert len("#" + wire.encode(done)) < 2000, seed
        assert audit(done).passed


def test_every_real_decision_is_among_the_public_choices():
    """The decisions a link counts in (the mover's hand made of its whole undrawn pool)
    include every decision the real hand allows, so a link never leaks which it was."""
    for seed in range(20):
        record, secrets = honest_record(3, seed, rounds=8)
        everyone = dict(enumerate(secrets))
        t = setup(record, everyone)
        for turn in replay(record, everyone, prepare=False).turns:
            value = record.reveals[turn.seat].at(turn.reveal_count)
            assert value is not None
            chance = start_turn(t, value, everyone)
            for i in range(turn.start, turn.end):
                real = {str(m) for m in t.state.legal_moves()}
                assert real <= set(public_choices(t.state))
                play_move(t, record.moves[i], i, audit=True)
            end_turn(
                t,
                turn.seat,
                turn.start,
                list(record.moves[turn.start : turn.end]),
                turn.reveal_count,
                chance,
            )


# -- the peek test -------------------------------------------------------------------------
def guess_hand(data: dict) -> list[str]:
    """A program that knows every algorithm here, guessing seat ``target``'s hand from what
    one device holds: a friendly link, or a fair link with that device's seat and secret."""
    fragment, target = data["link"], data["target"]
    if fragment.startswith("n"):
        return list(links.decode(fragment).state().players[target].hand)
    record = wire.decode(fragment).record
    seat, secret = data["seat"], data["secret"]
    # everything the device could compute: its own replay (stand-ins for the hand), and the
    # target's draws as they would be with every key this device can name
    table = replay(record, {seat: secret}, prepare=False)
    best = list(table.state.players[target].hand)
    names = (secret, record.anchors[target], record.reveals[target].value, data["storage"].encode())
    for key in names:
        try:
            trial = replay(record, {target: key}, prepare=True)
        except (Refused, AssertionError, ValueError):
            continue
        hand = trial.hand(target)
        if hand:
            best = hand
            break
    return best


def overlap(a: list[str], b: list[str]) -> int:
    return sum((Counter(a) & Counter(b)).values())


@pytest.mark.slow
def test_peek_a_device_learns_no_more_than_its_view():
    """1,000 seeded games: everything the other seat's device holds (its links, its storage,
    its secret) lets a program guess the mover's hand no better than a guesser given only
    that seat's view; from friendly links the same program guesses it perfectly."""
    rng = random.Random(0)
    attack, baseline, exact_attack, exact_base, friendly = [], [], 0, 0, 0
    for seed in range(1000):
        record, secrets = honest_record(2, seed, max_turns=rng.randrange(0, 7))
        target = replay(record, {}).next_seat  # its hand is drawn: its device knows it
        peeker = 1 - target
        truth_table = replay(record, {target: secrets[target]})
        if truth_table.over:
            continue
        truth = truth_table.hand(target)
        assert truth is not None
        link = wire.encode(record)
        storage = link + secrets[peeker].hex()  # what the peeker's storage holds
        data = {"link": link, "target": target, "seat": peeker, "secret": secrets[peeker]}
        guess = guess_hand(data | {"storage": storage})
        attack.append(overlap(guess, truth))
        exact_attack += sorted(guess) == sorted(truth)
        # the view-only guesser: a random hand of the right size from the undrawn pool
        view = replay(record, {peeker: secrets[peeker]}).view(peeker)
        seen = view.seats[target]
        p = truth_table.state.players[target]
        assert seen.hand_count == len(truth) and seen.hand is None
        blind = rng.sample(p.hand + p.draw, seen.hand_count)
        baseline.append(overlap(blind, truth))
        exact_base += sorted(blind) == sorted(truth)  # a pool of five leaves no choice
        # a friendly game's link gives it all away
        fr = GameRecord(players=2, seed=seed)
        state = fr.state()
        while state.ply < 12 and not state.over:
            move = rng.choice(state.legal_moves())
            fr.moves.append(str(move))
            state = state.apply(move)
        fdata = {"link": links.encode(fr), "target": state.turn}
        friendly += sorted(guess_hand(fdata)) == sorted(state.players[state.turn].hand)
    n = len(attack)
    assert n > 900
    mean_attack, mean_base = sum(attack) / n, sum(baseline) / n
    assert abs(mean_attack - mean_base) < 0.2, (mean_attack, mean_base)
    assert exact_attack <= exact_base + 0.02 * n, (exact_attack, exact_base)
    assert friendly == n


# -- randomness ----------------------------------------------------------------------------
def test_draws_are_distributed_as_a_shuffle():
    """Opening hands over 2,200 games: each basic card in 5 of 11 hands, chi-square."""
    counts: Counter[str] = Counter()
    games = 2200
    for seed in range(games):
        record, secrets = honest_record(2, seed, max_turns=0)
        table = replay(record, {0: secrets[0], 1: secrets[1]})
        hand = table.hand(table.next_seat)
        assert hand is not None and len(hand) == 5
        counts.update(hand)
    expected = games * 5 / 11
    chi2 = sum((counts[f"b{i}"] - expected) ** 2 / expected for i in range(1, 12))
    assert chi2 < 29.6  # p = 0.001 with 10 degrees of freedom


def test_first_player_and_academy_are_fair():
    first = Counter()
    for seed in range(600):
        record, secrets = honest_record(3, seed, max_turns=0)
        first[replay(record, {}).state.first] += 1
    assert all(150 < first[s] < 250 for s in range(3)), first


def test_two_orders_of_interchangeable_moves_give_the_same_draws():
    """Launching to two gates in either order: the same cards drawn next, the same Academy."""
    record, secrets = honest_record(2, 11, max_turns=0)
    everyone = dict(enumerate(secrets))
    seat = replay(record, {}).next_seat
    device = Device(record, seat, secrets[seat])
    launches = [m for m in device.table().state.legal_moves() if str(m).startswith("L")]
    assert len(launches) >= 2
    a, b = str(launches[0]), str(launches[1])
    outcomes = []
    for order in ([a, b, "E"], [b, a, "E"]):
        mover = send_turn(device, order)
        other = 1 - seat
        reply = send_turn(Device(mover.record, other, secrets[other]), ["E"])
        table = replay(reply.record, everyone)
        outcomes.append((table.hand(seat), table.state.academy, table.state.rng))
    assert outcomes[0] == outcomes[1]


# -- cheats refused when the link arrives ---------------------------------------------------
def three_devices(seed: int = 3) -> tuple[list[Device], random.Random]:
    game = set_up(3, seed)
    return game.devices, random.Random(seed)


def take_turn(devices: list[Device], rng: random.Random) -> tuple[list[Device], str]:
    seat = devices[0].table().next_seat
    mover = send_turn(devices[seat], turn_of(devices[seat], rng))
    link = wire.encode(mover.record)
    return [mover if i == seat else deliver(d, link) for i, d in enumerate(devices)], link


def test_a_damaged_link_is_refused():
    devices, rng = three_devices()
    devices, link = take_turn(devices, rng)
    for broken in (
        link[:-5],
        link[:20] + ("A" if link[20] != "A" else "B") + link[21:],
        "f1.",
        "f9.xyz",
    ):
        with pytest.raises((RecordError, Refused)):
            deliver(devices[1], broken)


def test_an_edited_turn_is_refused_by_a_device_that_has_it():
    devices, rng = three_devices()
    devices, _ = take_turn(devices, rng)
    while devices[0].table().turns[-1].end - devices[0].table().turns[-1].start < 2:
        devices, _ = take_turn(devices, rng)
    record = devices[0].record
    turn = devices[0].table().turns[-1]
    # an editor replaces the last turn by ending it at once (a turn that still replays)
    edited = replace(record, moves=record.moves[: turn.start] + ("E",))
    receiver = (turn.seat + 1) % 3
    with pytest.raises(Refused, match="changes .*turn"):
        receive(devices[receiver], edited)
    with pytest.raises(Refused, match="turn of yours"):
        receive(devices[turn.seat], edited)
    assert devices[receiver].record == record  # nothing changed


def test_an_older_link_after_a_newer_one_is_refused():
    devices, rng = three_devices()
    devices, old = take_turn(devices, rng)
    devices, new = take_turn(devices, rng)
    keeper = devices[2]
    with pytest.raises(Refused, match="older than the game you have"):
        deliver(keeper, old)
    assert deliver(keeper, new).record == keeper.record


def test_a_turn_sent_twice_with_different_moves_is_refused():
    devices, rng = three_devices(5)
    seat = devices[0].table().next_seat
    legal = [str(m) for m in devices[seat].table().state.legal_moves()]
    first = send_turn(devices[seat], ["E"])
    other_moves = [m for m in legal if m.startswith("L")][:1] + ["E"]
    second = send_turn(devices[seat], other_moves)
    receiver = (seat + 1) % 3
    got = receive(devices[receiver], first.record)
    with pytest.raises(Refused, match="sent two different turns"):
        receive(got, second.record)
    assert receive(got, first.record).record == got.record


def test_a_turn_made_without_the_seats_device_is_refused():
    devices, rng = three_devices(7)
    seat = devices[0].table().next_seat
    forger = devices[(seat + 1) % 3]
    r = forger.record
    # the forger makes the turn for the seat: it cannot make the seat's next reveal
    reveals = list(r.reveals)
    reveals[seat] = Reveal(r.reveals[seat].count + 1, bytes(16))
    forged = replace(r, reveals=tuple(reveals), moves=r.moves + ("E",))
    with pytest.raises(Refused, match="not made on .*device"):
        receive(devices[(seat + 2) % 3], forged)
    # nor reuse the seat's last reveal for a new turn
    reused = replace(r, moves=r.moves + ("E",))
    with pytest.raises(Refused, match="does not carry|not made"):
        receive(devices[(seat + 2) % 3], reused)


def test_a_card_the_seat_does_not_hold_is_refused():
    devices, rng = three_devices(9)
    seat = devices[0].table().next_seat
    table = devices[seat].table()
    s = table.state
    owned = set(s.players[seat].cards())
    # a Special nobody owns, played upright as a link
    alien = next(c for c in s.layout.special if c not in owned)
    r = devices[seat].record
    count = r.reveals[seat].count + 1
    reveals = list(r.reveals)
    reveals[seat] = Reveal(count, keys.reveal(devices[seat].secret, count))
    cheat = replace(r, reveals=tuple(reveals), moves=r.moves + (alien + "l", "E"))
    with pytest.raises(Refused, match="not legal there|do not hold"):
        receive(devices[(seat + 1) % 3], cheat)


def cheat_from_draw_pile(seed: int) -> tuple[FairRecord, list[bytes], int, str]:
    """A seat whose device plays a card from its draw pile (the others cannot tell)."""
    record, secrets = honest_record(2, seed, max_turns=2)
    seat = replay(record, {}).next_seat
    table = replay(record, {seat: secrets[seat]})
    p = table.state.players[seat]
    card = next(c for c in p.draw)
    r = record
    count = r.reveals[seat].count + 1
    reveals = list(r.reveals)
    reveals[seat] = Reveal(count, keys.reveal(secrets[seat], count))
    cheat = replace(r, reveals=tuple(reveals), moves=r.moves + (card + "s", "E"))
    after = replay(cheat, {}, prepare=False)
    seals = list(cheat.seals)
    seals[seat] = keys.seal(keys.reveal(secrets[seat], count + 1), after.digest)
    return replace(cheat, seals=tuple(seals)), secrets, seat, card


def test_a_card_played_from_the_draw_pile_is_named_by_the_audit():
    record, secrets, seat, card = cheat_from_draw_pile(21)
    # the other device accepts it: it cannot see the cheater's hand
    receiver = receive(None, record)
    assert receiver.record == record
    report = audit(with_secrets(record, secrets))
    assert not report.passed
    assert any(
        f"played {card} from the draw pile" in f and record.who(seat) in f for f in report.findings
    )


def test_a_wrong_secret_and_a_missing_reveal_are_named_by_the_audit():
    record, secrets = honest_record(3, 4, rounds=6)
    wrong = with_secrets(record, [secrets[0], seeded_secret(99, 1), secrets[2]])
    report = audit(wrong)
    assert not report.passed and any("P2 (B) revealed a wrong secret" in f for f in report.findings)
    missing = record.with_secret(0, secrets[0]).with_secret(1, secrets[1])
    report = audit(missing)
    assert not report.passed and any(
        "P3 (C)" in f and "missing reveal" in f for f in report.findings
    )
    assert audit(with_secrets(record, secrets)).passed


def test_an_edited_seal_is_named():
    record, secrets = honest_record(2, 8, rounds=6)
    seals = list(record.seals)
    seals[0] = bytes(16)
    report = audit(with_secrets(replace(record, seals=tuple(seals)), secrets))
    assert not report.passed and any("seal" in f for f in report.findings)


def test_a_seat_that_leaves_can_be_ended_as_abandoned():
    devices, rng = three_devices(13)
    devices, _ = take_turn(devices, rng)
    waiting = devices[0].table().next_seat
    ender = devices[(waiting + 1) % 3]
    ended = abandon(ender)
    assert ended.table().over and ended.record.abandoned == waiting
    link = wire.encode(ended.record)
    others = [deliver(d, link) for i, d in enumerate(devices) if i != waiting]
    assert all(d.record.abandoned == waiting for d in others)
    # the remaining seats reveal; the audit passes, saying the leaver's cards were not checked
    record = others[0].record
    for i, d in enumerate(devices):
        if i != waiting:
            record = record.with_secret(i, d.secret)
    report = audit(record)
    assert report.passed and any("left the game" in n for n in report.notes)
    with pytest.raises(Refused):
        abandon(devices[waiting])


def test_a_move_code_moves_a_seat_to_another_device():
    devices, rng = three_devices(15)
    seat = 1
    code = wire.encode(devices[seat].record, seat, devices[seat].secret)
    got = wire.decode(code)
    moved = Device(got.record, got.seat, got.secret)
    assert moved.table().hand(seat) == devices[seat].table().hand(seat)
    # an ordinary link never carries a secret before the end
    assert wire.decode(wire.encode(devices[seat].record)).secret == b""


def test_start_needs_every_seat_and_only_the_host_starts():
    game = set_up(2, 1)
    assert game.devices[0].record.started
    with pytest.raises(Refused):
        start(game.devices[1])
    with pytest.raises(Refused, match="taken"):
        join(game.devices[0].record)


def test_reveal_secret_only_at_the_end_is_merged():
    game = finish(play_game(2, seed=17, rounds=4))
    assert all(audit(d.record).passed for d in game.devices)
    assert all(all(d.record.secrets) for d in game.devices)
    # a device's own early reveal is just its record with its secret: the audit waits
    early = reveal_secret(set_up(2, 3).devices[1])
    assert not audit(early.record).passed


def test_r43_by_links_the_top_card_is_shown():
    """R43 by links (setting academy_top_card = shown): every device knows which card the
    Academy Deck's top card was, so no refill can turn up a card someone holds."""
    for seed in range(60):
        record, secrets = honest_record(2, seed, rounds=20)
        table = replay(record, {})
        if "UD" not in record.moves:
            continue
        assert table.state.layout.settings.academy_top_card == "shown"
        # the spectator's replay (no secrets) knows every Special each seat holds
        for seat in range(2):
            audit_table = replay(record, dict(enumerate(secrets)), prepare=False)
            specials = [c for c in audit_table.state.players[seat].cards() if c.startswith("s")]
            public = [c for c in table.state.players[seat].cards() if c.startswith("s")]
            assert sorted(specials) == sorted(public)
        return
    pytest.fail("no game drew the Academy Deck's top card")


@pytest.mark.parametrize(("players", "seed"), [(3, 17), (4, 26), (4, 37)])
def test_a_skip_replays_on_a_device_that_does_not_know_the_hand(players, seed):
    """Skip (R66) is offered only when the rest of the hand can make a move: a device that
    does not know the hand checks it with the seat's whole undrawn pool (these games play
    one upright or rotated; in 4-player seed 37 the stand-in hand could not, and the game
    did not replay)."""
    record, secrets = honest_record(players, seed, chooser=lambda legal, rng: rng.choice(legal))
    assert {"s7u", "s8u", "s7r", "s8r"} & set(record.moves)
    assert wire.decode(wire.encode(record)).record == record
    assert audit(with_secrets(record, secrets)).passed


def test_an_ending_that_crosses_a_turn_wins():
    """The awaited seat's turn and another seat's ending of the game cross: the ending wins
    on both devices (its seat's secret is out already), and the turn after it is refused."""
    devices, rng = three_devices(19)
    waiting = devices[0].table().next_seat
    ender = abandon(devices[(waiting + 1) % 3])
    turn = send_turn(devices[waiting], turn_of(devices[waiting], rng))
    took = receive(turn, ender.record)
    assert took.record.abandoned == waiting and took.table().over
    assert took.record.moves == ender.record.moves
    with pytest.raises(Refused, match="does not count"):
        receive(ender, turn.record)
