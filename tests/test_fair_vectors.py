"""The test vectors of fair play by links (docs/fair-vectors.json, docs/LINKS.md "Test
vectors"): our code makes every value again, and the hashes follow from the document's
formulas written out here with hashlib and hmac alone, as a second program would."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import zlib
from pathlib import Path

import pytest

from nova.fair import wire
from nova_tools.fair.vectors import SCENARIOS, describe

PATH = Path(__file__).resolve().parent.parent / "docs" / "fair-vectors.json"
STORED = json.loads(PATH.read_text(encoding="utf-8"))["games"]
REGENERATE = "regenerate with `python tools/fair_vectors.py` if the rules content changed"


def sha(*parts: bytes) -> bytes:
    return hashlib.sha256(b"".join(parts)).digest()


def mac(key: bytes, *parts: bytes) -> bytes:
    return hmac.new(key, b"".join(parts), hashlib.sha256).digest()


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def chain(secret: bytes) -> list[bytes]:
    """y[0] … y[256] of a secret (docs/LINKS.md, "What each device holds")."""
    y = [mac(secret, b"nova-fair/chain")[:16]]
    for _ in range(256):
        y.append(sha(b"nova-fair/link", y[-1])[:16])
    return y[::-1]


@pytest.mark.parametrize("index", range(len(SCENARIOS)))
def test_our_code_makes_every_value_of_the_vectors(index):
    assert describe(SCENARIOS[index]) == STORED[index], REGENERATE


@pytest.mark.parametrize("game", STORED, ids=[g["name"] for g in STORED])
def test_the_vectors_follow_from_the_documents_formulas(game):
    secrets = [bytes.fromhex(k) for k in game["secrets"]]
    chains = [chain(k) for k in secrets]
    assert [c[0].hex() for c in chains] == game["anchors"]
    assert game["draw_keys"] == [mac(k, b"nova-fair/draw").hex() for k in secrets]
    assert game["game_id"] == sha(b"nova-fair/game", chains[0][0])[:8].hex()
    assert game["host_first_reveal"] == chains[0][1].hex()
    p0 = sha(b"nova-fair/setup", *(c[0] for c in chains), chains[0][1])
    assert game["P0"] == p0.hex()
    assert game["seed"] == int.from_bytes(mac(p0, b"nova-fair/seed")[:8], "big") % 2**63
    rules = game["rules_json"].encode("ascii")
    h = sha(b"nova-fair/history", p0, rules)
    assert game["h_0"] == h.hex()
    counts = [1] + [0] * (game["players"] - 1)  # the host's start reveal is its first
    for turn in game["turns"]:
        seat = turn["seat"]
        counts[seat] += 1
        assert turn["reveal_count"] == counts[seat]
        assert turn["reveal"] == chains[seat][counts[seat]].hex()
        parts = [b"nova-fair/turn", u32(turn["t"])]
        for s, n in enumerate(counts):
            parts += [u32(n), chains[s][n] if n else b""]
        p = sha(*parts)
        assert turn["P_t"] == p.hex()
        assert turn["bag_generator"] == int.from_bytes(mac(p, b"nova-fair/bag")[:8], "big")
        academy = int.from_bytes(mac(p, b"nova-fair/academy")[:8], "big")
        assert turn["academy_generator"] == academy
        h = sha(h, " ".join(turn["moves"]).encode())  # turn t makes h_{t+1}
        assert turn["h"] == h.hex()
        assert turn["seal"] == mac(chains[seat][counts[seat] + 1], h)[:16].hex()
    assert [n for n, _ in game["final_reveals"]] == counts


@pytest.mark.parametrize("game", STORED, ids=[g["name"] for g in STORED])
def test_each_link_is_enveloped_as_the_document_says(game):
    """CRC-32 (big-endian) of ``f1.`` and of the stored bytes (flags, then the body as
    stored, deflated or not); bit 0 of the flags: raw deflate; each link decodes."""
    for link in game["links"]:
        head, b64 = link[:3], link[3:]
        assert head == "f1."
        raw = base64.urlsafe_b64decode(b64 + "=" * (-len(b64) % 4))
        assert int.from_bytes(raw[:4], "big") == zlib.crc32(raw[4:], zlib.crc32(b"f1."))
        assert raw[4] in (0, 1)
        wire.decode(link)
    last = wire.decode(game["links"][-1]).record
    assert [s.hex() for s in last.seals] == game["final_seals"]
    assert [last.abandoned, last.abandoned_by] == game["abandoned"]
