"""Build the static site into ``_site/`` from the repository.

    python tools/build_site.py [--out _site] [--py-package]

What it does, fast and idempotent (files are rewritten only when their bytes change, and files
that no build step produced are removed):

* the pinned runtimes from ``node_modules`` (Pyodide, PyScript, Idiomorph; ``npm ci`` first if
  they are missing or not the pinned versions) into versioned paths: ``runtime/pyodide-<v>/``
  (only the files the page needs, with the standard library precompiled to ``.pyc`` by the
  pinned Pyodide itself under node, cached in ``node_modules/.cache/nova``),
  ``runtime/pyscript-<v>/`` (every .js/.css) and ``runtime/idiomorph-<v>/``;
* ``runtime/pyodide-<v>/nova-shim-<hash>.mjs``: what ``pyscript.toml``'s ``interpreter`` points
  at; it wraps ``loadPyodide`` adding ``indexURL``, ``stdLibURL`` (PyScript passes neither) and
  the memory snapshot, when the snapshot's manifest matches (else the ordinary boot);
* the standard library trimmed to what the game loads (``python_stdlib-trim-<hash>.zip``): the
  modules a census finds when ``tools/snapshot.mjs trace`` plays whole games with every bot
  under the pinned Pyodide (tools/game_workout.py), plus what PyScript's own Python imports;
* ``snapshot/nova-<hash>.bin.gz`` and ``snapshot/manifest.json``: a Pyodide memory snapshot with
  that stdlib and the game imported (``tools/snapshot.mjs make``), as a delta against the wasm's
  initial memory (``tools/snapshot_delta.py``), gzipped, and what it was made with (Pyodide
  version, stdlib name and SHA-256, its own SHA-256), which the shim checks;
* ``python_stdlib-rest-<hash>.zip``: the trimmed stdlib without the modules the snapshot holds,
  what the page mounts when it restores the snapshot (the whole trimmed one otherwise);
* ``index.html`` (runtime paths filled in, the start screen from
  ``nova.render.prerender.start_screen_html()`` if it exists), ``pyscript.toml``, ``main.py``,
  ``assets/``, ``nova-data.zip`` (the data .json only: what PyScript unpacks; the snapshot holds
  the modules), ``nova.zip`` (the ``nova`` package: each module's bytecode, compiled by the
  pinned Pyodide under node and cached by content hash, in place of its source, and the data
  .json; only the modules the page and its workers import, derived from their imports:
  ``page_modules``);
* ``bench/bare.html``: bare ``loadPyodide()`` from the same runtime, for ``bench-page``.
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import html as html_lib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
import zlib
from pathlib import Path

# tools/snapshot_delta.py: on sys.path when this runs as a script; put it there when a test
# imports this file by path (tests/test_lab.py)
sys.path.insert(0, str(Path(__file__).resolve().parent))
import snapshot_delta  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
CACHE = NODE_MODULES / ".cache" / "nova"
CENSUS = ROOT / "tools" / "stdlib-census.json"  # module_census(), kept in the repository
# Bump when the precompiled stdlib's recipe changes: the file name carries it, so immutable
# caches never serve an old build under a new recipe.
PYC_RECIPE = 4  # 2: docstrings left out; 3: Pyodide's too, no column ranges; 4: lines at each def
# (precompile_stdlib.mjs)
# Bump when the trimmed stdlib or the snapshot's recipe changes (cache keys carry it).
SNAPSHOT_RECIPE = 5  # 2: gzipped at level 9; 3: fewer modules, no column ranges; 4: PYC_RECIPE 4;
# 5: gzipped by libdeflate (gzip_best)
# Imported by PyScript 0.7.31's own bootstrap (it writes its package with pathlib and os)
# and by polyscript's JS through the interpreter (unpackArchive, pyodide.ffi/http/code), on
# top of what the pyscript package's sources import (read from the dist at build time).
PYSCRIPT_EXTRA_IMPORTS = (
    "pathlib",
    "os",
    "pyodide.code",
    "pyodide.ffi",
    "pyodide.ffi.wrappers",
    "pyodide.http",
    "pyodide.webloop",
    "pyodide.console",
    "traceback",
    "encodings.ascii",
    "encodings.latin_1",
    "encodings.utf_8_sig",
    "encodings.idna",
    "encodings.unicode_escape",
)
# Pyodide's own Python, kept whole in the trimmed stdlib: its JS API imports these on demand.
ALWAYS_KEPT = ("pyodide/", "_pyodide/")
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def pinned_versions() -> dict[str, str]:
    deps = json.loads((ROOT / "package.json").read_text())["dependencies"]
    return {
        "pyodide": deps["pyodide"],
        "pyscript": deps["@pyscript/core"],
        "idiomorph": deps["idiomorph"],
        "micropython": deps["@micropython/micropython-webassembly-pyscript"],
    }


def installed_version(pkg: str) -> str | None:
    try:
        return json.loads((NODE_MODULES / pkg / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


def ensure_node_modules(pins: dict[str, str]) -> None:
    have = {
        "pyodide": installed_version("pyodide"),
        "pyscript": installed_version("@pyscript/core"),
        "idiomorph": installed_version("idiomorph"),
        "micropython": installed_version("@micropython/micropython-webassembly-pyscript"),
    }
    if have == pins:
        return
    print(f"build_site: runtime {have} != pinned {pins}: running npm ci", flush=True)
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True)
    have = {
        "pyodide": installed_version("pyodide"),
        "pyscript": installed_version("@pyscript/core"),
        "idiomorph": installed_version("idiomorph"),
        "micropython": installed_version("@micropython/micropython-webassembly-pyscript"),
    }
    if have != pins:
        sys.exit(f"build_site: node_modules has {have}, package.json pins {pins}")


# PyScript 0.7.31 runs a bootstrap before a MicroPython script on the main thread: it
# writes its whole `pyscript` package into MicroPython's files from Python source and
# imports it (os, pathlib, 14 modules), a quarter of a second's task on a phone (4x CPU),
# before page.py's first line. page.py uses none of it (MicroPython's own js, jsffi and
# polyscript modules instead: page_board.py), so the build leaves it out of the one chunk
# that holds it; the worker's Pyodide keeps its own. The directory is renamed with it, so
# that no cache mixes the two. A PyScript whose bundle differs fails the build here.
PYSCRIPT_PATCH = "nova1"
MPY_BOOTSTRAP = re.compile(rb'const (\w+)="mpy"===(\w+)\?(\w+)\.replace\((\w+),""\):(\w+)[,;]')


def pyscript_unbooted(data: bytes) -> bytes:
    """The chunk with an empty bootstrap for MicroPython (Pyodide's unchanged)."""
    m = MPY_BOOTSTRAP.search(data)
    if m is None or m[3] != m[5] or len(MPY_BOOTSTRAP.findall(data)) != 1:
        sys.exit("build_site: PyScript's MicroPython bootstrap is not where 0.7.31 had it")
    name, kind, code = m[1], m[2], m[3]
    fixed = b'const %s="mpy"===%s?"":%s%s' % (name, kind, code, m[0][-1:])
    return data[: m.start()] + fixed + data[m.end() :]


def paths(pins: dict[str, str]) -> dict[str, str]:
    pyodide_dir = f"runtime/pyodide-{pins['pyodide']}"
    return {
        "PYODIDE_DIR": pyodide_dir,
        "PYSCRIPT_DIR": f"runtime/pyscript-{pins['pyscript']}-{PYSCRIPT_PATCH}",
        "IDIOMORPH_DIR": f"runtime/idiomorph-{pins['idiomorph']}",
        "MICROPYTHON_DIR": f"runtime/micropython-{pins['micropython']}",
    }


def fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    if "{{" in text and "}}" in text:
        start = text.index("{{")
        raise SystemExit(f"build_site: unfilled placeholder {text[start : start + 40]!r}")
    return text


class Site:
    """Writes files under ``out`` only when they change; remembers what it wrote."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.written: set[Path] = set()
        self.changed = 0

    def write(self, rel: str, data: bytes) -> None:
        dest = self.out / rel
        self.written.add(dest)
        try:
            if dest.stat().st_size == len(data) and dest.read_bytes() == data:
                return
        except OSError:
            pass
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(f"{dest.name}.tmp{os.getpid()}")
        tmp.write_bytes(data)
        os.replace(tmp, dest)
        self.changed += 1

    def copy(self, rel: str, src: Path) -> None:
        dest = self.out / rel
        self.written.add(dest)
        try:
            s, d = src.stat(), dest.stat()
            if s.st_size == d.st_size and int(s.st_mtime) == int(d.st_mtime):
                return
        except OSError:
            pass
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest)
        self.changed += 1

    def prune(self) -> int:
        removed = 0
        for p in sorted(self.out.rglob("*"), reverse=True):
            if p.is_file() and p not in self.written and ".tmp" not in p.name:
                p.unlink()
                removed += 1
            elif p.is_dir() and not any(p.iterdir()):
                p.rmdir()
        return removed


def precompiled_stdlib(pins: dict[str, str]) -> Path:
    """The pinned stdlib as .pyc, made once per Pyodide version and recipe (cached)."""
    out = CACHE / f"python_stdlib-{pins['pyodide']}-pyc{PYC_RECIPE}.zip"
    if out.exists():
        return out
    CACHE.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    tmp = out.with_name(f"{out.stem}.tmp{os.getpid()}.zip")
    subprocess.run(
        [
            "node",
            str(ROOT / "tools" / "precompile_stdlib.mjs"),
            str(NODE_MODULES / "pyodide"),
            str(tmp),
        ],
        check=True,
    )
    os.replace(tmp, out)
    print(f"build_site: precompiled stdlib in {time.perf_counter() - t0:.1f} s", flush=True)
    return out


# What the page runs: its entry and its two workers' scripts. The site ships the nova modules
# they import, and what those import in turn (inside functions too), and nothing else: not the
# command line (nova/__main__.py), the lab's CPython-only runners and reports (Dask,
# matplotlib, tqdm) or the bots' benchmarks; the tools live in nova_tools, never shipped.
PAGE_ENTRIES = ("page.py", "game_worker.py", "lab_worker.py")
# page.py's own modules (MicroPython fetches them by its config's [files] before page.py runs)
PAGE_PARTS = ("page_board.py", "page_lab.py")


def _module_name(rel: str) -> str:
    return rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def imported_modules(path: Path, name: str) -> set[str]:
    """The module names ``path`` (module ``name``) imports at run time, inside functions too,
    resolved to absolute names; ``from a import b`` gives both ``a`` and ``a.b`` (``b`` may be
    a module). Imports under ``if TYPE_CHECKING:`` never run and are left out."""
    tree = ast.parse(path.read_bytes())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


def page_modules() -> list[str]:
    """The nova modules the page and its workers import (``PAGE_ENTRIES`` and all that
    follows from their imports), with the packages that hold them, sorted."""
    files = {
        _module_name(p.relative_to(ROOT).as_posix()): p
        for p in (ROOT / "nova").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    todo: set[str] = set()
    for entry in PAGE_ENTRIES:
        todo |= imported_modules(ROOT / entry, "__main__")
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in files or name in seen:
            continue
        seen.add(name)
        todo |= imported_modules(files[name], name)
        todo |= {name.rsplit(".", k)[0] for k in range(1, name.count(".") + 1)}  # its packages
    return sorted(seen)


def package_files() -> list[tuple[str, Path]]:
    """The nova package as shipped: the modules of :func:`page_modules` and the data .json."""
    shipped = set(page_modules())
    files = []
    for p in sorted((ROOT / "nova").rglob("*")):
        rel = p.relative_to(ROOT).as_posix()
        parts = p.relative_to(ROOT).parts
        if not p.is_file() or "__pycache__" in parts:
            continue
        if (p.suffix == ".py" and _module_name(rel) in shipped) or (
            p.suffix == ".json" and parts[1] == "data"
        ):
            files.append((rel, p))
    return files


def zip_bytes(members: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            z.writestr(zipfile.ZipInfo(name, ZIP_DATE), data, compress_type=zipfile.ZIP_DEFLATED)
    return buf.getvalue()


def precompiled_package(files: list[tuple[str, Path]]) -> bytes:
    """nova's sources plus __pycache__/*.pyc compiled by the pinned Pyodide (cached by hash)."""
    h = hashlib.sha256((ROOT / "tools" / "precompile_stdlib.mjs").read_bytes())
    for rel, p in files:
        h.update(rel.encode() + b"\0" + p.read_bytes() + b"\0")
    pins = pinned_versions()
    out = CACHE / f"nova-{pins['pyodide']}-{h.hexdigest()[:16]}.zip"
    if out.exists():
        return out.read_bytes()
    CACHE.mkdir(parents=True, exist_ok=True)
    stage = CACHE / f"nova-src.tmp{os.getpid()}"
    tmp = CACHE / f"nova.tmp{os.getpid()}.zip"
    shutil.rmtree(stage, ignore_errors=True)
    try:
        for rel, p in files:
            (stage / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, stage / rel)
        subprocess.run(
            [
                "node",
                str(ROOT / "tools" / "precompile_stdlib.mjs"),
                str(NODE_MODULES / "pyodide"),
                "-",
                str(stage),
                "/home/pyodide/",
                str(tmp),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        data = tmp.read_bytes()
        for old in CACHE.glob("nova-*.zip"):  # earlier versions of the package
            old.unlink(missing_ok=True)
        os.replace(tmp, out)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
        tmp.unlink(missing_ok=True)
    return data


def sourceless(package_zip: bytes) -> bytes:
    """The package with each module's bytecode in place of its source (``x.pyc`` for ``x.py``,
    what Python imports when there is no source), data files as they are: 0.13 MB fewer to
    download on the ordinary boot. Tracebacks show no source lines, as with the snapshot."""
    members = {}
    with zipfile.ZipFile(io.BytesIO(package_zip)) as z:
        for name in z.namelist():
            head, sep, tail = name.rpartition("/__pycache__/")
            if sep and tail.endswith(".pyc"):
                members[f"{head}/{tail.split('.')[0]}.pyc"] = z.read(name)
        for name in z.namelist():
            source = name.endswith(".py") and f"{name}c" in members
            if "/__pycache__/" not in name and not name.endswith("/") and not source:
                members[name] = z.read(name)
    return zip_bytes(sorted(members.items()))


def _run_node(args: list[str]) -> None:
    """tools/snapshot.mjs under node; its (long) error output only when it fails."""
    proc = subprocess.run(
        ["node", str(ROOT / "tools" / "snapshot.mjs"), *args], capture_output=True, text=True
    )
    if proc.returncode:
        tail = (proc.stderr or proc.stdout)[-3000:]
        sys.exit(f"build_site: tools/snapshot.mjs {args[0]} failed:\n{tail}")
    for line in proc.stdout.splitlines():
        print(f"build_site: {line}", flush=True)


# The snapshot is sent as it is, gzip that the page inflates (DecompressionStream): libdeflate's
# level 12 makes it 0.10 MB smaller than zlib's 9 (the deflate format, better matches) in about
# 5 s; zopfli gains as much in 90 s. Debian's libdeflate-tools: `make site` installs it.
LIBDEFLATE = "libdeflate-gzip"


def libdeflate_version() -> str:
    """``libdeflate-gzip -V``'s first line (a snapshot's cache key: another version, other
    bytes), or zlib's when it is missing: the site still builds, its snapshot 0.1 MB larger."""
    exe = shutil.which(LIBDEFLATE)
    if exe is None:
        print(
            f"build_site: no {LIBDEFLATE}: the snapshot is gzipped by zlib, about 0.1 MB larger "
            "(`make site` installs Debian's libdeflate-tools when it runs as root)",
            file=sys.stderr,
        )
        return f"zlib {zlib.ZLIB_RUNTIME_VERSION} level 9"
    out = subprocess.run([exe, "-V"], capture_output=True, text=True, check=True).stdout
    return out.splitlines()[0]


def gzip_best(data: bytes) -> bytes:
    """``data`` gzipped by libdeflate at its strongest level (zlib's 9 without it): no name,
    no time (the same bytes at every build); checked by inflating it again."""
    if shutil.which(LIBDEFLATE) is None:
        return gzip.compress(data, compresslevel=9, mtime=0)
    out = subprocess.run(
        [LIBDEFLATE, "-12", "-c"], input=data, capture_output=True, check=True
    ).stdout
    if gzip.decompress(out) != data:
        sys.exit(f"build_site: {LIBDEFLATE}'s gzip does not inflate to what it was given")
    return out


def pyscript_imports() -> list[str]:
    """Modules PyScript's own Python imports: its package's sources ship inside core-*.js."""
    names = set(PYSCRIPT_EXTRA_IMPORTS)
    sources = 0
    for js in sorted((NODE_MODULES / "@pyscript" / "core" / "dist").glob("core-*.js")):
        for m in re.finditer(r'"([a-z_]+\.py)":"((?:[^"\\]|\\.)*)"', js.read_text()):
            tree = ast.parse(json.loads('"' + m.group(2) + '"'))
            sources += 1
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names.update(a.name for a in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module)
    if not sources:
        sys.exit("build_site: found no PyScript Python sources in its dist (a new layout?)")
    js_side = {"pyscript", "_pyscript", "polyscript", "js", "jsffi"}
    return sorted(n for n in names if n.split(".")[0] not in js_side)


def _imports_key(files: list[tuple[str, Path]]) -> str:
    """What the census depends on: every import statement of the game (not its other code),
    the workout, the Node script, PyScript's imports and the full stdlib's recipe."""
    h = hashlib.sha256(f"{SNAPSHOT_RECIPE} {PYC_RECIPE} {pinned_versions()}".encode())
    for tool in ("game_workout.py", "snapshot.mjs"):
        h.update((ROOT / "tools" / tool).read_bytes())
    h.update(json.dumps(pyscript_imports()).encode())
    for rel, path in files:
        if path.suffix != ".py":
            continue
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                h.update(f"{rel}:{ast.dump(node)}\n".encode())
    return h.hexdigest()[:16]


def module_census(full_stdlib: Path, nova_zip: bytes, files: list[tuple[str, Path]]) -> dict:
    """The stdlib files the game loads under the pinned Pyodide (kept by the game's imports).

    tools/snapshot.mjs trace: whole games with every bot through the page's code paths
    (tools/game_workout.py), then PyScript's own imports; the files the interpreter read from
    its stdlib zip. The result is kept in the repository (``CENSUS``) under the key of what it
    depends on, so that a fresh clone's build need not play the workout (18 s of the set-up);
    a change to any import, the workout or the pins changes the key, and the build takes the
    census again and writes the file anew (commit it). tests/test_page_snapshot.py plays whole
    games under the trimmed stdlib: a census that missed a module fails there."""
    key = _imports_key(files)
    if CENSUS.exists():
        kept = json.loads(CENSUS.read_text())
        if kept.pop("key", None) == key:
            return kept
    t0 = time.perf_counter()
    stage = CACHE / f"census.tmp{os.getpid()}"
    stage.mkdir(parents=True, exist_ok=True)
    try:
        (stage / "nova.zip").write_bytes(nova_zip)
        (stage / "extra.json").write_text(json.dumps(pyscript_imports()))
        _run_node(
            [
                "trace",
                str(NODE_MODULES / "pyodide"),
                str(full_stdlib),
                str(stage / "nova.zip"),
                str(ROOT / "tools" / "game_workout.py"),
                str(stage / "extra.json"),
                str(stage / "census.json"),
            ]
        )
        data = json.loads((stage / "census.json").read_text())
        CENSUS.write_text(json.dumps({"key": key, **data}, indent=1) + "\n")
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    print(f"build_site: module census in {time.perf_counter() - t0:.1f} s", flush=True)
    return data


def trimmed_stdlib(full_stdlib: Path, census: dict) -> bytes:
    """The precompiled stdlib with only the files the census saw loaded (and Pyodide's own).

    Frozen modules (os, codecs, ...) report their source name: their .pyc is kept too."""
    with zipfile.ZipFile(full_stdlib) as z:
        have = {i.filename for i in z.infolist() if not i.is_dir()}
        keep = {n for n in have if n.startswith(ALWAYS_KEPT)}
        for f in census["files"]:
            for name in (f, f + "c" if f.endswith(".py") else f):
                if name in have:
                    keep.add(name)
        return zip_bytes([(name, z.read(name)) for name in sorted(keep)])


# Of PyScript's imports (PYSCRIPT_EXTRA_IMPORTS), those the page never makes while it boots and
# plays (its sys.modules, read in the browser): the trimmed stdlib keeps them, the snapshot's
# heap does not (0.07 MB gzipped less); a later import finds them in the rest of the stdlib.
SNAPSHOT_LEAVES_OUT = ("pyodide.console", "pyodide.http", "pyodide.ffi.wrappers", "encodings.")


def snapshot_modules(files: list[tuple[str, Path]]) -> list[str]:
    """What the snapshot imports: PyScript's own imports the page makes, then every game module
    the page or a worker loads (what nova.zip holds: :func:`page_modules`); the stdlib modules
    they import come with them."""
    names = [_module_name(rel) for rel, _ in files if rel.endswith(".py")]
    pyscript = [n for n in pyscript_imports() if not n.startswith(SNAPSHOT_LEAVES_OUT)]
    return pyscript + sorted(names)


def memory_snapshot(
    pins: dict[str, str], stdlib: bytes, nova_zip: bytes, files: list[tuple[str, Path]]
) -> tuple[bytes, dict]:
    """A Pyodide memory snapshot with the game imported, as a delta against the wasm's own
    initial memory (tools/snapshot_delta.py), gzipped; and what the manifest records about it
    plus the modules it holds (``modules``). Cached by its inputs."""
    warm = {
        "modules": snapshot_modules(files),
        # the game's content tables are read once and kept (lru_cache): in the snapshot too
        "run": "from nova.rules import new_game\nnew_game(players=2, seed=1)\n",
    }
    wasm = (NODE_MODULES / "pyodide" / "pyodide.asm.wasm").read_bytes()
    h = hashlib.sha256(f"{SNAPSHOT_RECIPE} {pins} {libdeflate_version()}".encode())
    script = (ROOT / "tools" / "snapshot.mjs").read_bytes()
    delta_py = (ROOT / "tools" / "snapshot_delta.py").read_bytes()
    for part in (stdlib, nova_zip, json.dumps(warm).encode(), script, delta_py, wasm):
        h.update(hashlib.sha256(part).digest())
    out = CACHE / f"snapshot-{pins['pyodide']}-{h.hexdigest()[:16]}.bin.gz"
    meta_file = out.with_name(out.name + ".json")
    if out.exists() and meta_file.exists():
        return out.read_bytes(), json.loads(meta_file.read_text())
    t0 = time.perf_counter()
    stage = CACHE / f"snapshot.tmp{os.getpid()}"
    stage.mkdir(parents=True, exist_ok=True)
    try:
        (stage / "stdlib.zip").write_bytes(stdlib)
        (stage / "nova.zip").write_bytes(nova_zip)
        (stage / "warm.json").write_text(json.dumps(warm))
        _run_node(
            [
                "make",
                str(NODE_MODULES / "pyodide"),
                str(stage / "stdlib.zip"),
                str(stage / "nova.zip"),
                str(stage / "warm.json"),
                str(stage / "snapshot.bin"),
            ]
        )
        raw = (stage / "snapshot.bin").read_bytes()
        delta, meta = snapshot_delta.xor_delta(raw, wasm)
        meta["bytes"] = len(raw)
        delta, meta["runs"] = snapshot_delta.pack_pages(delta)
        meta["packed_bytes"] = len(delta)
        meta["modules"] = json.loads((stage / "snapshot.bin.modules.json").read_text())
        data = gzip_best(delta)
        for old in CACHE.glob("snapshot-*.bin.gz*"):
            old.unlink(missing_ok=True)
        out.write_bytes(data)
        meta_file.write_text(json.dumps(meta))
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    print(f"build_site: memory snapshot in {time.perf_counter() - t0:.1f} s", flush=True)
    return data, meta


def stdlib_rest(stdlib: bytes, modules: list[str]) -> bytes:
    """The trimmed stdlib without the modules a snapshot holds already (what the page may still
    import after restoring it), plus every file that is not a module (data files)."""
    have = set(modules)
    keep = []
    with zipfile.ZipFile(io.BytesIO(stdlib)) as z:
        for name in z.namelist():
            if name.endswith((".pyc", ".py")):
                mod = name.rsplit(".", 1)[0].replace("/", ".").removesuffix(".__init__")
                if mod in have:
                    continue
            keep.append((name, z.read(name)))
    return zip_bytes(keep)


SHIM = (ROOT / "tools" / "nova-shim.mjs").read_text


def first_screen_html() -> str:
    """The page's first screen, usable before the game's worker is up: the new-game screen
    as the controller draws it for a first visit (its clicks wait for the worker; the
    worker's first frame morphs it, so that what is the same is not drawn again)."""
    import random

    # `make site` runs this with the system Python, before the venv exists: the package
    # is imported from the checkout itself
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from nova.web.controller import Controller
    from nova.web.saves import MemoryStorage, SaveStore

    c = Controller(SaveStore(MemoryStorage()), rng=random.Random(1))
    c.start()
    return c.drawing().html


def memory_idb() -> str:
    """assets/boot.js's in-memory IndexedDB (between its ``memory-idb`` markers), for the
    shim: one source for the page and its workers."""
    text = (ROOT / "assets" / "boot.js").read_text()
    begin, end = "// memory-idb: begin\n", "// memory-idb: end\n"
    if begin not in text or end not in text:
        raise SystemExit("build_site: assets/boot.js lacks its memory-idb markers")
    return text[text.index(begin) + len(begin) : text.index(end)]


BARE_HTML = """\
<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>bare Pyodide boot (benchmark reference)</title>
  <link rel="icon" href="../assets/favicon.svg" type="image/svg+xml">
  <script type="module" src="./bare.mjs"></script>
</head>
<body><p>bare loadPyodide() from the same self-hosted runtime; sets data-bare-ready.</p></body>
</html>
"""

BARE_JS = """\
// Generated by tools/build_site.py: the runtime's floor, plain loadPyodide() (python_stdlib.zip
// with .py sources, as Pyodide ships it) and, with ?pyc, the page's trimmed precompiled
// standard library (no snapshot).
const pyc = new URLSearchParams(location.search).has("pyc");
const mod = await import("../{pyodide_dir}/pyodide.mjs");
const indexURL = new URL("../{pyodide_dir}/", import.meta.url).href;
const stdLibURL = pyc ? indexURL + "{stdlib}" : undefined;
const py = await mod.loadPyodide(pyc ? {{ indexURL, stdLibURL }} : {{ indexURL }});
py.runPython("import js; js.document.body.dataset.bareReady = ''");
"""

# The fixed stack's floor on the page's main thread (bench-page --long-tasks): PyScript and
# MicroPython as the page loads them, running two lines of Python, nothing of the game.
FLOOR_HTML = """\
<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>PyScript and MicroPython alone (benchmark reference)</title>
  <link rel="icon" href="../assets/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="../{pyscript_dir}/core.css">
  <script type="module" src="../{pyscript_dir}/core.js"></script>
</head>
<body><p>PyScript and MicroPython as the game's page loads them, and nothing else; sets
data-nova-ready.</p>
<script type="mpy" src="./floor.py" config="{config}"></script>
</body>
</html>
"""

FLOOR_PY = """\
import js

js.document.body.setAttribute("data-nova-ready", "")
"""


# PyScript's files the game loads, on the page and in the bots' worker: its core, the stubs of
# the plugins the core imports even when pyscript.toml turns them off, and the small TOML reader
# the worker reads pyscript.toml with. Its other chunks (the editor's CodeMirror, the terminal's
# xterm, zip, graph) are shipped, since core.js names them, but never loaded: not precached.
PYSCRIPT_LOADED = (
    "core.js",
    "core.css",
    "core-*.js",
    "error-*.js",
    "deprecations-manager-*.js",
    "donkey-*.js",
    "py-editor-*.js",
    "py-game-*.js",
    "py-terminal-*.js",
    "toml-*.js",
)


def pyscript_loaded(dist: Path) -> list[str]:
    """The PyScript files of ``PYSCRIPT_LOADED`` (the TOML chunk: the one core imports)."""
    core = "".join(f.read_text() for f in sorted(dist.glob("core-*.js")))
    names = []
    for pattern in PYSCRIPT_LOADED:
        found = sorted(f.name for f in dist.glob(pattern))
        if pattern == "toml-*.js":
            found = [n for n in found if f'import("./{n}")' in core]
        if not found:
            raise SystemExit(f"build_site: no PyScript file {pattern} (a new layout?)")
        names += found
    return names


def precache_groups(p: dict[str, str], manifest: dict, pyscript: list[str]) -> dict[str, list]:
    """What the service worker caches for offline play, by boot path: the files every boot
    loads (``common``: the page, its scripts and styles, the runtime, the bots' worker's script
    and config, the game's data), and those of the snapshot's boot or of the ordinary one (a
    lean visit, a refused snapshot), never both. Nothing the game never loads: no icons, no
    bench page, no lock file, no stock stdlib, no editor or terminal."""
    pyodide = p["PYODIDE_DIR"]
    common = [
        "./",
        *PAGE_ENTRIES,
        *PAGE_PARTS,
        "pyscript.toml",
        "nova-data.zip",
        "snapshot/manifest.json",
        "assets/taps.js",
        "assets/boot.js",
        "assets/site.css",
        "assets/game.css",
        "assets/favicon.svg",
        f"{p['IDIOMORPH_DIR']}/idiomorph.min.js",
        f"{p['MICROPYTHON_DIR']}/micropython.mjs",
        f"{p['MICROPYTHON_DIR']}/micropython.wasm",
        f"{pyodide}/pyodide.mjs",
        f"{pyodide}/pyodide.asm.mjs",
        f"{pyodide}/pyodide.asm.wasm",
        p["PYODIDE_SHIM"],
        *(f"{p['PYSCRIPT_DIR']}/{n}" for n in pyscript),
    ]
    return {
        "common": common,
        "snapshot": [f"snapshot/{manifest['snapshot']}", f"{pyodide}/{manifest['stdlib_rest']}"],
        "ordinary": ["nova.zip", f"{pyodide}/{manifest['stdlib']}"],
    }


def write_service_worker(site: Site, pins: dict[str, str], groups: dict[str, list]) -> None:
    """sw.js with this release's precache lists (path and SHA-256 of each file, by boot path)
    and cache names (see sw.js)."""
    digests = {}
    for group in groups.values():
        for rel in group:
            f = site.out / ("index.html" if rel == "./" else rel)
            if f not in site.written:
                raise SystemExit(f"build_site: the precache names {rel}, which the build lacks")
            digests[rel] = hashlib.sha256(f.read_bytes()).hexdigest()
    app = sorted(r for r in digests if not r.startswith("runtime/"))
    build_id = hashlib.sha256("".join(f"{r}\0{digests[r]}\0" for r in app).encode())
    values = {
        "RUNTIME_ID": (
            f"pyodide-{pins['pyodide']}-pyscript-{pins['pyscript']}-{PYSCRIPT_PATCH}"
            f"-idiomorph-{pins['idiomorph']}-pyc{PYC_RECIPE}"
        ),
        "BUILD_ID": build_id.hexdigest()[:16],
        "PRECACHE": json.dumps(
            {name: {rel: digests[rel] for rel in group} for name, group in groups.items()},
            indent=1,
        ),
    }
    site.write("sw.js", fill((ROOT / "sw.js").read_text(), values).encode())


def build(out: Path, pyc_package: bool = True) -> Site:
    t0 = time.perf_counter()
    pins = pinned_versions()
    ensure_node_modules(pins)
    p = paths(pins)
    site = Site(out)

    # runtime: Pyodide (no python_stdlib.zip: the page loads the precompiled one)
    pyodide_src = NODE_MODULES / "pyodide"
    for name in PYODIDE_FILES:
        site.copy(f"{p['PYODIDE_DIR']}/{name}", pyodide_src / name)
    # bare benchmark reference also needs the stock stdlib
    site.copy(f"{p['PYODIDE_DIR']}/python_stdlib.zip", pyodide_src / "python_stdlib.zip")
    files = package_files()
    if pyc_package:
        nova_zip = sourceless(precompiled_package(files))
    else:
        nova_zip = zip_bytes([(rel, path.read_bytes()) for rel, path in files])
    site.write("nova.zip", nova_zip)
    # What PyScript unpacks on every boot ([files] in pyscript.toml): the game's data files
    # only. A snapshot's heap holds the game's modules already; the ordinary boot fetches the
    # whole package (nova.zip) in the shim (tools/nova-shim.mjs).
    data_files = [(rel, path.read_bytes()) for rel, path in files if rel.startswith("nova/data/")]
    site.write("nova-data.zip", zip_bytes(data_files))

    # the standard library trimmed to what the game loads, and the memory snapshot
    full = precompiled_stdlib(pins)
    stdlib = trimmed_stdlib(full, module_census(full, nova_zip, files))
    stdlib_name = f"python_stdlib-trim-{hashlib.sha256(stdlib).hexdigest()[:16]}.zip"
    site.write(f"{p['PYODIDE_DIR']}/{stdlib_name}", stdlib)
    snap, meta = memory_snapshot(pins, stdlib, nova_zip, files)
    rest = stdlib_rest(stdlib, meta["modules"])
    rest_name = f"python_stdlib-rest-{hashlib.sha256(rest).hexdigest()[:16]}.zip"
    site.write(f"{p['PYODIDE_DIR']}/{rest_name}", rest)
    manifest = {
        "format": 3,
        "pyodide": pins["pyodide"],
        "stdlib": stdlib_name,
        "stdlib_sha256": hashlib.sha256(stdlib).hexdigest(),
        "stdlib_rest": rest_name,
        "nova_zip_sha256": hashlib.sha256(nova_zip).hexdigest(),
        "snapshot": f"nova-{hashlib.sha256(snap).hexdigest()[:16]}.bin.gz",
        "snapshot_sha256": hashlib.sha256(snap).hexdigest(),
        "encoding": "gzip",
        "bytes": meta["bytes"],
        # the file holds only the heap's pages that are not all zeros: these runs of it
        "packed_bytes": meta["packed_bytes"],
        "runs": meta["runs"],
        # undone in the shim with the wasm itself (tools/snapshot_delta.py)
        "wasm": f"{p['PYODIDE_DIR']}/pyodide.asm.wasm",
        "delta": meta["delta"],
        "delta_bytes": meta["delta_bytes"],
        "static_sha256": meta["static_sha256"],
    }
    site.write(f"snapshot/{manifest['snapshot']}", snap)
    site.write("snapshot/manifest.json", json.dumps(manifest, indent=1).encode())
    shim = fill(
        SHIM(),
        {
            "STDLIB": stdlib_name,
            "STDLIB_REST": rest_name,
            "STDLIB_SHA256": manifest["stdlib_sha256"],
            "NOVA_ZIP_SHA256": manifest["nova_zip_sha256"],
            # PyScript's workers get the page's in-memory IndexedDB (the shim says why)
            "MEMORY_IDB": memory_idb(),
            # the page loads no packages: Pyodide gets the lock file's "info" and no package
            # list instead of fetching the 119 KB pyodide-lock.json (the bare page still does)
            "LOCK_JSON": json.dumps(
                json.dumps(
                    {
                        "info": json.loads((pyodide_src / "pyodide-lock.json").read_text())["info"],
                        "packages": {},
                    }
                )
            ),
        },
    ).encode()
    p["PYODIDE_SHIM"] = f"{p['PYODIDE_DIR']}/nova-shim-{hashlib.sha256(shim).hexdigest()[:12]}.mjs"
    site.write(p["PYODIDE_SHIM"], shim)

    # runtime: PyScript (core.js loads its chunks by name at run time: copy them all), with
    # the main thread's MicroPython bootstrap left out (pyscript_unbooted)
    dist = NODE_MODULES / "@pyscript" / "core" / "dist"
    patched = 0
    for f in sorted(dist.iterdir()):
        if f.suffix in (".js", ".css"):
            data = f.read_bytes()
            if f.suffix == ".js" and MPY_BOOTSTRAP.search(data):
                site.write(f"{p['PYSCRIPT_DIR']}/{f.name}", pyscript_unbooted(data))
                patched += 1
            else:
                site.copy(f"{p['PYSCRIPT_DIR']}/{f.name}", f)
    if patched != 1:
        sys.exit(f"build_site: PyScript's MicroPython bootstrap found in {patched} files, not 1")

    # runtime: Idiomorph, the DOM morphing library the page updates itself with (page.py)
    idiomorph = NODE_MODULES / "idiomorph"
    site.copy(f"{p['IDIOMORPH_DIR']}/idiomorph.min.js", idiomorph / "dist" / "idiomorph.min.js")
    site.copy(f"{p['IDIOMORPH_DIR']}/LICENSE", idiomorph / "LICENSE")

    # runtime: MicroPython for the page's main thread (the game's Python is in a worker, the
    # page only draws); PyScript finds the .wasm beside the .mjs
    mpy = NODE_MODULES / "@micropython" / "micropython-webassembly-pyscript"
    for name in ("micropython.mjs", "micropython.wasm"):
        site.copy(f"{p['MICROPYTHON_DIR']}/{name}", mpy / name)

    # the page: page.py (MicroPython) on the main thread, game_worker.py (Pyodide) in a worker
    config = fill((ROOT / "pyscript.toml").read_text(), p)
    parsed = tomllib.loads(config)
    # the game's worker reads its config inline (no fetch, no TOML reader); a worker started
    # later (page.py: again after a crash, the workbench's) reads pyscript.toml
    p["WORKER_CONFIG"] = html_lib.escape(json.dumps(parsed, separators=(",", ":")))
    mpy_module = f"./{p['MICROPYTHON_DIR']}/micropython.mjs"
    mpy_config = {
        "interpreter": mpy_module,
        "plugins": parsed["plugins"],
        "files": {f"./{name}": f"./{name}" for name in PAGE_PARTS},
    }
    p["MPY_CONFIG"] = html_lib.escape(json.dumps(mpy_config, separators=(",", ":")))
    html = fill((ROOT / "index.html").read_text(), p)
    site.write("index.html", html.replace("<!--PRERENDER-->", first_screen_html(), 1).encode())
    site.write("pyscript.toml", config.encode())
    for entry in (*PAGE_ENTRIES, *PAGE_PARTS):
        site.copy(entry, ROOT / entry)
    for f in sorted((ROOT / "assets").rglob("*")):
        if f.is_file():
            site.copy(f.relative_to(ROOT).as_posix(), f)
    site.copy("manifest.webmanifest", ROOT / "manifest.webmanifest")
    write_service_worker(site, pins, precache_groups(p, manifest, pyscript_loaded(dist)))

    # benchmark reference page
    site.write("bench/bare.html", BARE_HTML.encode())
    site.write(
        "bench/bare.mjs",
        BARE_JS.format(stdlib=stdlib_name, pyodide_dir=p["PYODIDE_DIR"]).encode(),
    )
    # the page's MicroPython config, from bench/ (no [files]: two lines of Python)
    floor_config = {"interpreter": "." + mpy_module, "plugins": parsed["plugins"]}
    site.write(
        "bench/floor.html",
        FLOOR_HTML.format(
            pyscript_dir=p["PYSCRIPT_DIR"],
            config=html_lib.escape(json.dumps(floor_config, separators=(",", ":"))),
        ).encode(),
    )
    site.write("bench/floor.py", FLOOR_PY.encode())

    removed = site.prune()
    print(
        f"build_site: {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: "
        f"{len(site.written)} files, {site.changed} updated, {removed} removed, "
        f"{time.perf_counter() - t0:.1f} s",
        flush=True,
    )
    return site


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "_site")
    ap.add_argument(
        "--py-package",
        action="store_true",
        help="ship nova as .py sources only (default: bytecode compiled by the pinned Pyodide "
        "in place of the sources: importing the game took 1,300 ms from source vs 100 ms)",
    )
    args = ap.parse_args(argv)
    build(args.out.resolve(), pyc_package=not args.py_package)
    return 0


if __name__ == "__main__":
    sys.exit(main())
