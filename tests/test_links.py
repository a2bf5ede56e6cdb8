"""Games in links (nova/links.py): a link opens the same game, and a bad link says why."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nova import links
from nova.links import decode, encode
from nova.record import GameRecord, RecordError
from nova_tools import links as cli
from nova_tools.links import random_record

VARIANT = Path(__file__).resolve().parent.parent / "nova" / "data" / "variants"

# A few fixed links shared by the fuzz tests (built once: replaying costs a few ms).
SAMPLES = {
    (2, 3, 25): None,
    (3, 11, 200): None,
    (4, 5, None): None,
}


def sample(players: int, seed: int, moves: int | None) -> tuple[GameRecord, str]:
    key = (players, seed, moves)
    if SAMPLES.get(key) is None:
        record = random_record(players, seed, moves)
        SAMPLES[key] = (record, encode(record))
    return SAMPLES[key]


def seal(content: bytes, deflate: bool = False, version: int = 1) -> str:
    """A link around ``content`` with a correct checksum: what a forger would make."""
    head = f"n{version}."
    body = content
    if deflate:
        squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)
        body = squeezer.compress(content) + squeezer.flush()
    rest = bytes([1 if deflate else 0]) + body
    crc = zlib.crc32(rest, zlib.crc32(head.encode()))
    return head + base64.urlsafe_b64encode(crc.to_bytes(4, "big") + rest).decode().rstrip("=")


def decodes_or_refuses(fragment: str) -> GameRecord | None:
    """The property every input must have: a record that replays, or a RecordError."""
    try:
        record = decode(fragment)
    except RecordError as exc:
        assert str(exc) and "Traceback" not in str(exc)
        return None
    record.state()  # a decoded record always replays
    return record


# -- round trips ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "players,seed,moves",
    [(2, 1, 0), (2, 2, 1), (2, 3, 57), (3, 4, 130), (3, 5, None), (4, 6, 400), (4, 7, None)]
    + [(p, 100 + i, None) for p in (2, 3, 4) for i in range(3)],
)
def test_link_reopens_the_identical_game(players: int, seed: int, moves: int | None) -> None:
    """decode(encode(r)) is r, and replays to the identical state (same decision, same view)."""
    record = random_record(players, seed, moves)
    fragment = encode(record)
    back = decode(fragment)
    assert back == record
    assert back.state() == record.state()
    seat = record.state().current_player
    assert back.state().view(seat) == record.state().view(seat)
    assert decode("#" + fragment) == record  # with the '#' of location.hash too


def test_whole_four_player_game_fits_in_2000_characters() -> None:
    """The issue's budget: a complete 4-player game's link stays under 2,000 characters."""
    for seed in range(5):
        record = random_record(4, seed)
        assert record.state().is_over()
        assert len("#" + encode(record)) < 2000


def test_link_carries_names_colours_bots_and_variant() -> None:
    variant = json.loads((VARIANT / "footnote-specials.json").read_text())
    record = GameRecord(
        players=3,
        seed=2**62 + 12345,
        variant=variant,
        names=["Zoë 🚀", "<img src=x onerror=1>", 'a"b&c'],
        colours=["#000000", "#ffffff", "#123456"],
        bots=["", "greedy", "search"],
    )
    s = record.initial_state()
    for _ in range(30):
        record.moves.append(str(s.legal_moves()[-1]))
        s = s.apply(record.moves[-1])
    back = decode(encode(record))
    assert back == record
    assert back.state() == s


def test_a_link_naming_an_unknown_computer_player_is_refused() -> None:
    """A tampered link cannot seat a bot the page does not have (nor any text as a bot)."""
    record = GameRecord(players=2, seed=1, bots=["", "greedy"])
    fragment = encode(record)
    assert decode(fragment).bots == ["", "greedy"]
    record.bots = ["", "<b>skynet</b>"]
    with pytest.raises(RecordError, match="unknown computer player"):
        decode(encode(record))
    with pytest.raises(RecordError, match="unknown computer player"):
        GameRecord.from_dict({**record.to_dict(), "bots": ["search", "deep"]})


def test_the_seat_kinds_a_record_accepts_are_the_bots_there_are() -> None:
    from nova.bots import BOT_NAMES, LEVEL_NAMES
    from nova.record import SEAT_KINDS

    assert SEAT_KINDS == ("", *BOT_NAMES, *LEVEL_NAMES)


def test_long_names_are_clipped_as_in_a_save() -> None:
    record = GameRecord(players=2, seed=1, names=["x" * 100, "y"])
    assert decode(encode(record)).names == ["x" * 24, "y"]


def test_link_command_prints_a_deterministic_fragment(capsys: pytest.CaptureFixture) -> None:
    """`python -m nova link --players 3 --seed 5 --moves 40` opens at decision 40."""
    assert cli.main(["--players", "3", "--seed", "5", "--moves", "40"]) == 0
    first = capsys.readouterr().out.strip()
    cli.main(["--players", "3", "--seed", "5", "--moves", "40"])
    assert capsys.readouterr().out.strip() == first
    assert first.startswith("#n2.")
    record = decode(first)
    assert (record.players, record.seed, len(record.moves)) == (3, 5, 40)
    assert record.state().ply == 40


def test_link_command_can_have_bots_play_the_game(capsys: pytest.CaptureFixture) -> None:
    """`--bots greedy`: a purposeful game (Shards banked), still one short replayable link."""
    assert cli.main(["--players", "2", "--seed", "3", "--moves", "150", "--bots", "greedy"]) == 0
    record = decode(capsys.readouterr().out.strip())
    assert len(record.moves) == 150
    s = record.state()
    assert any("".join(p.bays) for p in s.players)  # greedy unloads within 150 decisions
    assert record.moves != cli.random_record(2, 3, 150).moves


def test_link_stats_command_prints_figures(capsys: pytest.CaptureFixture) -> None:
    assert cli.stats_main(["--games", "1"]) == 0
    out = capsys.readouterr().out
    for players in (2, 3, 4):
        assert f"{players} players: link length median" in out


# -- bad links -----------------------------------------------------------------------------
def test_link_with_an_illegal_move_names_the_move() -> None:
    """A record that does not replay travels as tokens; the reader learns which move fails."""
    record = random_record(2, 9, 12)
    record.moves.append("b99u")
    fragment = encode(record)
    with pytest.raises(RecordError, match=r"move 13 \('b99u'\) is not legal"):
        decode(fragment)


def test_link_from_a_newer_version_says_so() -> None:
    _, fragment = sample(2, 3, 25)
    for newer in ("n3." + fragment[3:], "n999999999999." + fragment[3:], seal(b"", version=3)):
        with pytest.raises(RecordError, match="newer version"):
            decode(newer)


def test_link_from_a_different_rules_version_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """If the legal decisions change, the moves' checksum catches the different replay."""
    record, fragment = sample(3, 11, 200)
    monkeypatch.setattr(links, "_sorted_legal", lambda s: sorted(map(str, s.legal_moves()))[::-1])
    with pytest.raises(RecordError, match="different version of the rules"):
        decode(fragment)


@pytest.mark.parametrize(
    "fragment,message",
    [
        ("", "no game"),
        ("#", "no game"),
        ("hello", "not a Nova Raiders game link"),
        ("n1", "not a Nova Raiders game link"),
        ("n0.AAAA", "not a Nova Raiders game link"),
        ("x1.AAAA", "not a Nova Raiders game link"),
        ("n1.", "damaged"),
        ("n1.!!!!", "damaged"),
        ("n1.AAAAAAAAAAAA", "damaged"),
        ("n1." + "A" * 70000, "too long"),
    ],
)
def test_garbage_gets_a_clear_message(fragment: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        decode(fragment)


def test_every_truncation_and_single_edit_of_a_link_is_caught() -> None:
    """Cut short or one character changed: always refused (the CRC catches any one edit)."""
    _, fragment = sample(2, 3, 25)
    for n in range(len(fragment)):
        with pytest.raises(RecordError):
            decode(fragment[:n])
    alphabet = "ABCZabcz019-_."
    for i in range(3, len(fragment)):
        for c in alphabet:
            if c != fragment[i]:
                with pytest.raises(RecordError, match="damaged|not a Nova"):
                    decode(fragment[:i] + c + fragment[i + 1 :])


V = links._varint
FORGED = {
    "players": V(5) + V(0) + V(0) + bytes([0, 0]) + V(0) + bytes(4),
    "too many moves": V(2) + V(0) + V(10**6) + bytes([0, 0]),
    "form": V(2) + V(0) + V(0) + bytes([7, 0]),
    "fields": V(2) + V(0) + V(0) + bytes([0, 64]),
    "extra bytes": V(2) + V(0) + V(0) + bytes([0, 0]) + V(0) + bytes(4) + b"x",
    "moves beyond the blob": V(2) + V(0) + V(5) + bytes([0, 0]) + V(1) + b"\xff" + bytes(4),
    "variant not json": V(2) + V(0) + V(0) + bytes([0, 1]) + V(3) + b"{{{" + V(0) + bytes(4),
    "variant deep": V(2) + V(0) + V(0) + bytes([0, 1]) + V(60000) + b"[" * 60000,
    "bad utf8": V(2) + V(0) + V(0) + bytes([1, 2]) + (V(1) + b"\xff") * 2,
}


@pytest.mark.parametrize("deflate", [False, True])
@pytest.mark.parametrize("case", sorted(FORGED))
def test_forged_links_with_a_good_checksum_are_still_refused(case: str, deflate: bool) -> None:
    """Content a forger sealed by hand (bad fields, extra bytes, bad variant) is refused."""
    with pytest.raises(RecordError):
        decode(seal(FORGED[case], deflate))


def test_a_deflate_bomb_is_refused() -> None:
    with pytest.raises(RecordError, match="damaged"):
        decode(seal(b"\0" * 5_000_000, deflate=True))


def test_a_variant_the_engine_rejects_is_refused_cleanly() -> None:
    v = V
    for variant in ({"boards": 5}, {"setup": {"ships_in_dock": "many"}}, {"tracks": []}):
        text = json.dumps(variant).encode()
        content = v(2) + v(0) + v(0) + bytes([0, 1]) + v(len(text)) + text + v(0)
        content += zlib.crc32(b"").to_bytes(4, "big")
        with pytest.raises(RecordError, match="variant"):
            decode(seal(content))


def test_moves_after_the_end_of_the_game_are_refused() -> None:
    record = random_record(2, 4)
    forged = GameRecord(players=2, seed=4, moves=record.moves + ["E"])
    with pytest.raises(RecordError, match=r"move \d+"):
        decode(encode(forged))


# -- fuzzing -------------------------------------------------------------------------------
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.text(max_size=200))
def test_fuzz_any_text_is_a_record_or_a_record_error(text: str) -> None:
    decodes_or_refuses(text)
    decodes_or_refuses("n1." + text)


@FUZZ
@given(st.binary(max_size=300))
def test_fuzz_random_bytes_as_a_link(data: bytes) -> None:
    decodes_or_refuses("n1." + base64.urlsafe_b64encode(data).decode().rstrip("="))


@FUZZ
@given(st.binary(max_size=300), st.booleans())
def test_fuzz_sealed_random_content(data: bytes, deflate: bool) -> None:
    """Past the checksum: the parser itself must refuse cleanly."""
    decodes_or_refuses(seal(data, deflate))


@FUZZ
@given(st.data())
def test_fuzz_truncations_and_edits_of_valid_links(data: st.DataObject) -> None:
    record, fragment = sample(*data.draw(st.sampled_from([(2, 3, 25), (3, 11, 200), (4, 5, None)])))
    cut = data.draw(st.integers(0, len(fragment)))
    edited = fragment[:cut]
    if cut < len(fragment) and data.draw(st.booleans()):
        edited += data.draw(st.characters(codec="utf-8")) + fragment[cut + 1 :]
    result = decodes_or_refuses(edited)
    if result is not None:
        assert result == record
