"""The memory snapshot and the trimmed standard library (tools/build_site.py, tools/nova-shim.mjs).

Every visit boots lean (the ordinary boot, the trimmed stdlib and nova.zip) unless its address
asks for the snapshot (``?snapshot``) or the snapshot is cached already. Then the game's worker
restores a Pyodide memory snapshot with the game imported when its manifest matches; a missing,
refused or corrupt snapshot means the ordinary boot with no error for the player. The snapshot
must not replay the same random state on every load.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT, bots_play, wait_ready

sys.path.insert(0, str(ROOT / "tools"))
import snapshot_delta  # noqa: E402 (tools/snapshot_delta.py)

# the page's service worker runs in this file's pages (page_factory blocks it elsewhere)
pytestmark = pytest.mark.service_worker

PINS = json.loads((ROOT / "package.json").read_text())["dependencies"]
PYODIDE_DIR = f"runtime/pyodide-{PINS['pyodide']}"


def manifest(site_dir: Path) -> dict:
    return json.loads((site_dir / "snapshot" / "manifest.json").read_text())


def snapshot_state(page) -> str:
    return page.evaluate("document.documentElement.dataset.novaSnapshot || ''")


def assert_no_error_shown(page) -> None:
    assert page.evaluate("document.body.getAttribute('data-nova-error')") is None
    assert page.evaluate("document.querySelectorAll('.py-error').length") == 0
    assert page.nova.page_errors == [], page.nova.page_errors
    # Chromium logs the refused download itself ("Failed to load resource"); nothing else
    errors = [e for e in page.nova.console_errors if not e.startswith("Failed to load resource")]
    assert errors == [], errors
    # the game itself is there: the new-game screen with its button
    assert page.locator('[data-ui="new-game"]').count() >= 1


# --- the build -------------------------------------------------------------------------------


def test_manifest_names_the_files_it_was_made_with(site_dir: Path):
    m = manifest(site_dir)
    assert m["format"] == 3 and m["pyodide"] == PINS["pyodide"]
    stdlib = (site_dir / PYODIDE_DIR / m["stdlib"]).read_bytes()
    assert hashlib.sha256(stdlib).hexdigest() == m["stdlib_sha256"]
    nova_zip = (site_dir / "nova.zip").read_bytes()
    assert hashlib.sha256(nova_zip).hexdigest() == m["nova_zip_sha256"]
    snap = (site_dir / "snapshot" / m["snapshot"]).read_bytes()
    assert hashlib.sha256(snap).hexdigest() == m["snapshot_sha256"]
    assert len(gzip.decompress(snap)) == m["packed_bytes"] == sum(n for _, n in m["runs"])
    # the shim PyScript loads checks against this very stdlib
    shim = next((site_dir / PYODIDE_DIR).glob("nova-shim-*.mjs")).read_text()
    assert m["stdlib_sha256"] in shim and m["nova_zip_sha256"] in shim
    assert f'"{m["stdlib"]}"' in shim and f'"{m["stdlib_rest"]}"' in shim


def test_the_snapshot_is_a_delta_against_the_wasm_that_undoes_exactly(site_dir: Path):
    """The shipped heap's first megabytes are XOR-ed with the wasm's data segments: undone
    with the shipped wasm they hash as the manifest says, and the delta is mostly zeros
    (what makes it smaller than the heap: the point of shipping it so)."""
    m = manifest(site_dir)
    wasm = (site_dir / m["wasm"]).read_bytes()
    assert m["wasm"] == f"{PYODIDE_DIR}/pyodide.asm.wasm"
    packed = gzip.decompress((site_dir / "snapshot" / m["snapshot"]).read_bytes())
    delta = snapshot_delta.unpack_pages(packed, m["runs"], m["bytes"])
    start = int.from_bytes(delta[4:8], "little")
    image = bytearray(m["delta_bytes"])
    for offset, data in snapshot_delta.data_segments(wasm):
        image[offset : offset + len(data)] = data
    part = delta[start : start + m["delta_bytes"]]
    heap = bytes(a ^ b for a, b in zip(part, image, strict=True))
    assert hashlib.sha256(heap).hexdigest() == m["static_sha256"]
    assert part.count(0) > 0.9 * len(part) and heap.count(0) < 0.6 * len(heap)


def test_the_snapshot_ships_no_page_of_zeros(site_dir: Path):
    """The file holds the heap's pages that are not all zeros, in runs that put them back:
    far fewer bytes for the page to inflate than the whole heap."""
    m = manifest(site_dir)
    packed = gzip.decompress((site_dir / "snapshot" / m["snapshot"]).read_bytes())
    page = snapshot_delta.PAGE
    offsets = [offset for offset, _ in m["runs"]]
    assert offsets == sorted(offsets) and all(o % page == 0 for o in offsets)
    at = 0
    for _, length in m["runs"]:
        pages = [packed[at + i : at + i + page] for i in range(0, length, page)]
        assert bytes(page) not in pages  # a page of zeros is never shipped
        at += length
    assert at == len(packed) < 0.5 * m["bytes"]


def test_pages_pack_and_unpack_exactly():
    page = snapshot_delta.PAGE
    data = bytes(3 * page) + b"x" * (page + 5) + bytes(2 * page) + b"\x01" + bytes(page - 1)
    packed, runs = snapshot_delta.pack_pages(data)
    assert runs == [[3 * page, 2 * page], [6 * page, page]]
    assert snapshot_delta.unpack_pages(packed, runs, len(data)) == data
    assert snapshot_delta.pack_pages(bytes(10)) == (b"", [])


def test_the_snapshot_path_mounts_only_the_modules_the_snapshot_lacks(site_dir: Path):
    m = manifest(site_dir)
    with zipfile.ZipFile(site_dir / PYODIDE_DIR / m["stdlib"]) as z:
        full = set(z.namelist())
    with zipfile.ZipFile(site_dir / PYODIDE_DIR / m["stdlib_rest"]) as z:
        rest = set(z.namelist())
    assert rest < full
    # what every page imports is in the snapshot's heap, not in the zip it mounts
    for imported in (
        "json/__init__.pyc",
        "random.pyc",
        "asyncio/__init__.pyc",
        "encodings/utf_8.pyc",
    ):
        assert imported in full and imported not in rest, imported
    assert (site_dir / PYODIDE_DIR / m["stdlib_rest"]).stat().st_size < 200_000


def test_the_standard_library_is_trimmed_and_precompiled(site_dir: Path):
    m = manifest(site_dir)
    stock = zipfile.ZipFile(ROOT / "node_modules" / "pyodide" / "python_stdlib.zip").namelist()
    with zipfile.ZipFile(site_dir / PYODIDE_DIR / m["stdlib"]) as z:
        names = z.namelist()
    modules = [n for n in names if n.endswith(".pyc")]
    assert not [n for n in names if n.endswith(".py")], "sources where bytecode should be"
    # what the game needs is there; what it never imports is not
    needs = ("json/__init__.pyc", "random.pyc", "asyncio/__init__.pyc", "zipfile/__init__.pyc")
    for needed in needs:
        assert needed in names, needed
    for unused in ("tkinter/__init__.pyc", "sqlite3/__init__.pyc", "unittest/__init__.pyc"):
        assert unused not in names, unused
    assert len(modules) < len([n for n in stock if n.endswith(".py")]) / 2


def test_the_service_worker_caches_the_boot_the_browser_took(site_dir: Path):
    """Offline play needs the files of the boot the page took: the snapshot's (the snapshot,
    the rest of the stdlib) or the ordinary one's (the whole trimmed stdlib, the package),
    besides those every boot loads; never the editor's or terminal's bundles or the lock file."""
    sw = (site_dir / "sw.js").read_text()
    m = manifest(site_dir)
    groups = json.loads(re.search(r"const PRECACHE = (\{.*?\n\});", sw, re.S).group(1))
    assert set(groups) == {"common", "snapshot", "ordinary"}
    assert set(groups["snapshot"]) == {
        f"snapshot/{m['snapshot']}",
        f"{PYODIDE_DIR}/{m['stdlib_rest']}",
    }
    assert set(groups["ordinary"]) == {"nova.zip", f"{PYODIDE_DIR}/{m['stdlib']}"}
    common = set(groups["common"])
    assert {"./", "snapshot/manifest.json", f"{PYODIDE_DIR}/pyodide.asm.wasm"} <= common
    assert any(f.startswith(f"{PYODIDE_DIR}/nova-shim-") for f in common)
    every = [f for g in groups.values() for f in g]
    assert not [f for f in every if re.search(r"codemirror|xterm|pyodide-lock|\.png$", f)]
    for group in groups.values():
        for rel, sha in group.items():
            data = (site_dir / ("index.html" if rel == "./" else rel)).read_bytes()
            assert hashlib.sha256(data).hexdigest() == sha, rel


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_whole_games_with_every_bot_under_the_trimmed_stdlib(site_dir: Path, tmp_path: Path):
    """The module census must not miss a module a game needs: whole games with the random,
    greedy and search bots, every screen drawn, under the pinned Pyodide with the page's own
    trimmed stdlib and nova.zip (a missing module fails with ModuleNotFoundError)."""
    m = manifest(site_dir)
    proc = subprocess.run(
        [
            "node",
            str(ROOT / "tools" / "snapshot.mjs"),
            "play",
            str(ROOT / "node_modules" / "pyodide"),
            str(site_dir / PYODIDE_DIR / m["stdlib"]),
            str(site_dir / "nova.zip"),
            str(ROOT / "tools" / "game_workout.py"),
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, (proc.stderr or proc.stdout)[-3000:]
    result = json.loads(proc.stdout.split("workout: ", 1)[1])
    assert result["games"] == 4 and all(n > 50 for n in result["decisions"]), result


# --- in the browser --------------------------------------------------------------------------


@pytest.mark.browser
def test_page_and_worker_boot_from_the_snapshot(server_url: str, page):
    info: list[str] = []
    page.on("console", lambda msg: info.append(msg.text))
    fetched = downloads(page)
    page.goto(server_url + "?snapshot")
    wait_ready(page)
    assert snapshot_state(page) == "used"
    assert_no_error_shown(page)
    # undoing the snapshot's delta reads the wasm Pyodide runs in the game's worker: downloaded
    # once, not twice (the page's own thread runs MicroPython's wasm, and no Pyodide)
    assert sum(u.endswith("/pyodide.asm.wasm") for u in fetched) == 1, fetched
    assert sum(u.endswith("/micropython.wasm") for u in fetched) == 1, fetched
    assert sum("/snapshot/nova-" in u for u in fetched) == 1, fetched
    assert sum(t.startswith("nova: snapshot used") for t in info) == 1, info
    # the bots think in the game's worker, the same Pyodide
    bots_play(page)
    page.wait_for_function("+document.body.dataset.novaBotDecisions >= 1", timeout=120_000)
    assert page.get_attribute("body", "data-nova-bot-where") == "worker"
    assert page.nova.page_errors == []


def downloads(page) -> list[str]:
    """The URLs the page requests from now on, its workers' requests included (not the
    service worker's install: tests/test_page_offline.py counts those at the server)."""
    urls: list[str] = []

    def seen(request) -> None:
        if request.service_worker is None:
            urls.append(request.url)

    page.context.on("request", seen)
    return urls


def _corrupt(route) -> None:
    body = bytearray(route.fetch().body())
    body[len(body) // 2] ^= 0xFF
    route.fulfill(status=200, body=bytes(body), content_type="application/gzip")


def _restorable_garbage(context) -> None:
    """A manifest whose hash and size match a snapshot of zeros: restoring it must fail."""
    state: dict[str, bytes] = {}

    def manifest_route(route) -> None:
        m = json.loads(route.fetch().text())
        # a whole heap of zeros, not a delta: nothing the shim checks can refuse it
        m["format"] = 1
        for key in ("delta", "delta_bytes", "static_sha256", "wasm"):
            m.pop(key, None)
        state["heap"] = gzip.compress(bytes(m["bytes"]), 1)
        m["snapshot"] = "nova-zeros.bin.gz"
        m["snapshot_sha256"] = hashlib.sha256(state["heap"]).hexdigest()
        route.fulfill(status=200, body=json.dumps(m), content_type="application/json")

    context.route("**/snapshot/manifest.json", manifest_route)
    context.route(
        "**/snapshot/nova-zeros.bin.gz",
        lambda r: r.fulfill(status=200, body=state["heap"], content_type="application/gzip"),
    )


def _other_pyodide(route) -> None:
    m = json.loads(route.fetch().text())
    m["pyodide"] = "0.0.1"
    route.fulfill(status=200, body=json.dumps(m), content_type="application/json")


@pytest.mark.browser
@pytest.mark.parametrize(
    "pattern, handler, reason",
    [
        ("**/snapshot/nova-*", lambda r: r.fulfill(status=404, body="gone"), "no snapshot file"),
        ("**/snapshot/manifest.json", lambda r: r.abort(), "no manifest"),
        ("**/snapshot/nova-*", _corrupt, "corrupt"),
        ("**/snapshot/manifest.json", _other_pyodide, "other Pyodide"),
        (None, _restorable_garbage, "restore failed"),
    ],
    ids=["missing", "no-manifest", "corrupt", "other-pyodide", "zeros"],
)
def test_page_boots_without_a_usable_snapshot_and_shows_no_error(
    server_url: str, page, pattern, handler, reason
):
    if pattern is None:
        handler(page.context)
    else:
        page.context.route(pattern, handler)
    fetched = downloads(page)
    page.goto(server_url + "?snapshot")
    wait_ready(page)
    state = snapshot_state(page)
    assert state.startswith("none") and reason in state, state
    assert_no_error_shown(page)
    # the ordinary boot uses the wasm the shim started downloading for the snapshot
    assert sum(u.endswith("/pyodide.asm.wasm") for u in fetched) == 1, fetched
    # and the game plays
    page.click('[data-ui="new-game"]')
    page.click('[data-ui="ready"]')
    page.locator('[data-move^="L"]').first.click()
    assert page.evaluate("+document.body.dataset.novaMoves") == 1
    # the service worker's precache may still be fetching through these routes
    page.context.unroute_all(behavior="ignoreErrors")


def _new_game_deal(page_factory, server_url: str) -> tuple[str, str]:
    page = page_factory()
    page.goto(server_url + "?snapshot")
    wait_ready(page)
    assert snapshot_state(page) == "used"
    seed = page.input_value("#nova-seed")
    page.click('[data-ui="new-game"]')
    page.click('[data-ui="ready"]')
    hand = page.evaluate(
        "[...document.querySelectorAll('[data-move]')].map((e) => e.dataset.move).join(' ')"
    )
    return seed, hand


@pytest.mark.browser
def test_two_page_loads_deal_different_games(server_url: str, page_factory):
    """The snapshot restores `random` as it was saved: the shim reseeds it, else every load
    would offer the same seed and so the same shuffle."""
    (seed1, deal1), (seed2, deal2) = (_new_game_deal(page_factory, server_url) for _ in "12")
    assert seed1 != seed2
    assert deal1 and deal2


@pytest.mark.browser
def test_a_first_visit_never_downloads_the_snapshot_a_returning_player_boots_from_it(
    server_url: str, page
):
    """A first visit boots the ordinary way without downloading the snapshot, and its service
    worker's install does not fetch it either (issue 52 counts a first visit's bytes). The
    next visit, which the service worker controls, boots the same way and then fetches the
    snapshot in the background (assets/boot.js prefetchSnapshot), kept by the service worker;
    the visit after boots from it. (Each lean visit asks for the snapshot from the caches
    only: a request that fails, no download.)"""
    fetched: list[str] = []
    page.context.on("requestfinished", lambda r: fetched.append(r.url))
    page.goto(server_url)
    wait_ready(page)
    assert snapshot_state(page) == "none: lean visit, not cached yet"
    assert_no_error_shown(page)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    assert [u for u in fetched if "/snapshot/nova-" in u] == []
    said: list[str] = []
    page.on("console", lambda msg: said.append(msg.text))
    page.goto(server_url)
    wait_ready(page)
    assert snapshot_state(page) == "none: lean visit, not cached yet"
    cached = "nova: the snapshot is cached for the next visit"
    for _ in range(240):  # boot.js starts 3 s after the game is up
        if cached in said:
            break
        page.wait_for_timeout(250)
    assert cached in said, said
    page.goto(server_url)
    wait_ready(page)
    assert snapshot_state(page) == "used"
    assert_no_error_shown(page)
