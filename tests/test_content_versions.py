"""Rules content versions: games saved and shared under earlier content still open.

Content 2 changed the reconstructed track, board and set-up and several readings
(docs/CALIBRATION.md, docs/RULES.md). A save or link made before carries no content
version; it replays with ``nova/data/variants/content-1.json`` under it. A later content
replays the same way with its own file, ``variants/content-N.json``. The fixtures
``tests/data/contentN_games.json`` hold whole games played, linked and saved by the code of
that time (``tests/data/make_content_games.py``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from nova.links import decode, encode
from nova.record import GameRecord, RecordError
from nova.rules import CONTENT_VERSION, new_game

DATA = Path(__file__).parent / "data"
GAMES = json.loads((DATA / "content1_games.json").read_text())["games"]
GAMES3 = json.loads((DATA / "content3_games.json").read_text())["games"]
GAMES4 = json.loads((DATA / "content4_games.json").read_text())["games"]


def legal_sha1(record: GameRecord) -> str:
    h = hashlib.sha1()
    for s in record.states()[:-1]:
        h.update(" ".join(sorted(map(str, s.legal_moves()))).encode())
        h.update(b"|")
    return h.hexdigest()


def assert_replays_as_played(record: GameRecord, game: dict, content: int) -> None:
    """The same decisions were legal at every step, and the game ends (or stands) as it did."""
    assert record.content == content and len(record.moves) == game["decisions"]
    assert legal_sha1(record) == game["legal_sha1"]
    s = record.state()
    assert (s.scores(), s.is_over(), s.end_reason) == (
        game["scores"],
        game["over"],
        game["end_reason"],
    )


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g['players']}p-{g['bot']}")
def test_a_content_1_link_opens_and_replays_exactly(game: dict) -> None:
    """An n1 link opens as content 1: the same decisions were legal at every step, and the
    game ends (or stands) as it did."""
    record = decode(game["link"])
    assert_replays_as_played(record, game, 1)
    again = decode(encode(record))
    assert again == record and encode(record).startswith("n2."), "shared again, it stays content 1"


@pytest.mark.parametrize("game", GAMES3, ids=lambda g: f"{g['players']}p-{g['bot']}")
def test_a_content_3_link_and_save_open_and_replay_exactly(game: dict) -> None:
    """A link and a save made with content 3 replay as they were played, with
    ``variants/content-3.json`` under them now that content 4 is the default."""
    for record in (decode(game["link"]), GameRecord.from_dict(game["save"])):
        assert_replays_as_played(record, game, 3)
        assert decode(encode(record)) == record, "shared again, it stays content 3"


@pytest.mark.parametrize("game", GAMES4, ids=lambda g: f"{g['players']}p-{g['bot']}")
def test_a_content_4_link_and_save_open_and_replay_exactly(game: dict) -> None:
    """A link and a save made with content 4 replay as they were played. Content 4 is today's
    default, so this also fails on any edit of the data that changes a game without a new
    content version (which would break every player's saves and links)."""
    for record in (decode(game["link"]), GameRecord.from_dict(game["save"])):
        assert_replays_as_played(record, game, 4)
        assert decode(encode(record)) == record, "shared again, it stays content 4"


def test_content_3_and_4_deal_the_same_games_but_for_the_opening_specials() -> None:
    """Content 4 changed only the set-up's opening Special cards (docs/CALIBRATION.md): the
    same seed deals the same board, bag and basic hands under content 3."""
    for players in (3, 4):
        now = GameRecord(players=players, seed=9).initial_state()
        old = GameRecord(players=players, seed=9, content=3).initial_state()
        assert (now.pile, now.bag, now.first, now.face_up) == (
            old.pile,
            old.bag,
            old.first,
            old.face_up,
        )
        dealt = []
        for k, n in enumerate(now.layout.opening_specials):
            p, q = now.players[(now.first + k) % players], old.players[(old.first + k) % players]
            assert p.hand[: len(q.hand)] == q.hand and len(p.hand) == len(q.hand) + n
            dealt += p.hand[len(q.hand) :]
        assert dealt == old.academy[: len(dealt)] and now.academy == old.academy[len(dealt) :]
        assert len(dealt) == sum(now.layout.opening_specials) > 0


@pytest.mark.parametrize("game", GAMES[:3], ids=lambda g: f"{g['players']}p")
def test_a_content_1_save_opens_as_content_1(game: dict) -> None:
    record = GameRecord.from_dict(game["save"])
    assert game["save"]["v"] == 1 and record.content == 1
    assert record.state().scores() == game["scores"]
    assert GameRecord.from_dict(record.to_dict()) == record


def test_new_games_are_the_newest_content_and_differ_from_content_1() -> None:
    record = GameRecord(players=2, seed=5)
    assert record.content == CONTENT_VERSION == 4
    assert record.to_dict()["content"] == 4
    old = GameRecord(players=2, seed=5, content=1)
    assert old.initial_state().layout.settings.launch_to_open_gate is False
    assert record.initial_state().layout.settings.launch_to_open_gate is True
    assert new_game(2, 5).to_dict() == record.initial_state().to_dict()


STRANDED = json.loads((Path(__file__).parent / "data" / "content2_stranded_game.json").read_text())


def test_a_content_2_game_plays_on_as_it_did_and_content_3_ends_it_at_the_stranding_upgrade():
    """Content 3 checks our end (R49) after an Upgrade too (docs/RULES.md). A content-2
    link of a game that ran on to the round limit after an Upgrade took the last Disrupt
    anyone could power still opens and replays to that limit; the same decisions under
    content 3 end the game, stalled, at that Upgrade, in its 15th round instead of the 40th."""
    record = decode(STRANDED["link"])
    assert record.content == 2 and len(record.moves) == STRANDED["decisions"]
    s = record.state()
    assert (s.end_reason, s.round, s.scores()) == ("round limit", 40, STRANDED["scores"])
    now = GameRecord(players=2, seed=record.seed, moves=[], content=3).initial_state()
    last = ""
    for last in record.moves:
        now = now.apply(last)
        if now.is_over():
            break
    assert now.end_reason == "stalled" and now.round == 15
    assert last in ("U1", "U2", "U3", "UD"), "it ends at the Upgrade"
    assert encode(record).startswith("n2.") and decode(encode(record)).content == 2


def test_content_from_the_future_or_garbage_is_refused_with_a_message() -> None:
    data = GameRecord(players=2, seed=5).to_dict()
    with pytest.raises(RecordError, match="newer rules content"):
        GameRecord.from_dict({**data, "content": CONTENT_VERSION + 1})
    for bad in ("2", None, 0, True):
        with pytest.raises(RecordError, match="rules content"):
            GameRecord.from_dict({**data, "content": bad})
