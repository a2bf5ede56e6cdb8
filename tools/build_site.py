"""Build the static site into ``_site/`` from the repository.

    python tools/build_site.py [--out _site] [--py-package]

What it does, fast and idempotent (files are rewritten only when their bytes change, and files
that no build step produced are removed):

* the pinned runtimes from ``node_modules`` (Pyodide, PyScript, Idiomorph; ``npm ci`` first if
  they are missing or not the pinned versions) into versioned paths: ``runtime/pyodide-<v>/``
  (only the files the page needs, with the standard library precompiled to ``.pyc`` by the
  pinned Pyodide itself under node, cached in ``node_modules/.cache/nova``),
  ``runtime/pyscript-<v>/`` (every .js/.css) and ``runtime/idiomorph-<v>/``;
* ``runtime/pyodide-<v>/nova-shim.mjs``: what ``pyscript.toml``'s ``interpreter`` points at; it
  wraps ``loadPyodide`` adding ``indexURL`` and ``stdLibURL`` (PyScript passes neither);
* ``index.html`` (runtime paths filled in, the start screen from
  ``nova.render.prerender.start_screen_html()`` if it exists), ``pyscript.toml``, ``main.py``,
  ``assets/``, ``nova.zip`` (the ``nova`` package: .py and data .json, no tests, caches or the
  lab-only modules (``LAB_ONLY``), plus
  ``__pycache__`` bytecode compiled by the pinned Pyodide under node, cached by content hash);
* ``bench/bare.html``: bare ``loadPyodide()`` from the same runtime, for ``bench-page``.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
CACHE = NODE_MODULES / ".cache" / "nova"
# Bump when the precompiled stdlib's recipe changes: the file name carries it, so immutable
# caches never serve an old build under a new recipe.
PYC_RECIPE = 1
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def pinned_versions() -> dict[str, str]:
    deps = json.loads((ROOT / "package.json").read_text())["dependencies"]
    return {
        "pyodide": deps["pyodide"],
        "pyscript": deps["@pyscript/core"],
        "idiomorph": deps["idiomorph"],
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
    }
    if have == pins:
        return
    print(f"build_site: runtime {have} != pinned {pins}: running npm ci", flush=True)
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True)
    have = {
        "pyodide": installed_version("pyodide"),
        "pyscript": installed_version("@pyscript/core"),
        "idiomorph": installed_version("idiomorph"),
    }
    if have != pins:
        sys.exit(f"build_site: node_modules has {have}, package.json pins {pins}")


def paths(pins: dict[str, str]) -> dict[str, str]:
    pyodide_dir = f"runtime/pyodide-{pins['pyodide']}"
    return {
        "PYODIDE_DIR": pyodide_dir,
        "PYSCRIPT_DIR": f"runtime/pyscript-{pins['pyscript']}",
        "IDIOMORPH_DIR": f"runtime/idiomorph-{pins['idiomorph']}",
        "PYODIDE_SHIM": f"{pyodide_dir}/nova-shim.mjs",
        "STDLIB": f"python_stdlib-pyc{PYC_RECIPE}.zip",
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


# The designer's lab runs under CPython only (multiprocessing, Dask, matplotlib, tqdm): the page
# never imports it, so nova.zip leaves it out and Pyodide never meets those imports.
LAB_ONLY = ("nova/lab.py", "nova/lab_*.py", "nova/benchmarks/lab_*.py")


def package_files() -> list[tuple[str, Path]]:
    """The nova package as shipped: every .py and the data .json; no tests, caches or lab."""
    files = []
    for p in sorted((ROOT / "nova").rglob("*")):
        rel = p.relative_to(ROOT).as_posix()
        parts = p.relative_to(ROOT).parts
        if not p.is_file() or "__pycache__" in parts or any(x in ("tests", "test") for x in parts):
            continue
        if p.name.startswith("test_") or any(fnmatch.fnmatch(rel, pat) for pat in LAB_ONLY):
            continue
        if p.suffix == ".py" or (p.suffix == ".json" and parts[1] == "data"):
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


def start_screen_html() -> str:
    """The renderer's start screen, if it provides one (imported with CPython)."""
    sys.path.insert(0, str(ROOT))
    try:
        from nova.render import prerender  # type: ignore[attr-defined]

        html = prerender.start_screen_html()
    except (ImportError, AttributeError) as exc:
        print(f"build_site: no prerendered start screen ({exc})", flush=True)
        return ""
    finally:
        sys.path.remove(str(ROOT))
    return str(html)


SHIM = """\
// Generated by tools/build_site.py. PyScript's `interpreter` points here: PyScript calls
// loadPyodide() with a few options of its own; we add the precompiled standard library
// (stdLibURL) and pin indexURL to this versioned directory.
import {{ loadPyodide as load, version }} from "./pyodide.mjs";

const base = new URL("./", import.meta.url).href;
export {{ version }};
export const stdLibURL = base + "{stdlib}";
export const loadPyodide = (options = {{}}) =>
  load({{ ...options, indexURL: base, stdLibURL }});
"""

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
// with .py sources, as Pyodide ships it) and, with ?pyc, the same shim the game page uses.
const pyc = new URLSearchParams(location.search).has("pyc");
const mod = await import(pyc ? "../{shim}" : "../{pyodide_dir}/pyodide.mjs");
const indexURL = new URL("../{pyodide_dir}/", import.meta.url).href;
const py = await mod.loadPyodide(pyc ? {{}} : {{ indexURL }});
py.runPython("import js; js.document.body.dataset.bareReady = ''");
"""


def write_service_worker(site: Site, pins: dict[str, str], p: dict[str, str]) -> None:
    """sw.js with this release's file lists and cache names (see sw.js)."""
    rels = sorted(f.relative_to(site.out).as_posix() for f in site.written)
    runtime = [r for r in rels if r.startswith("runtime/") and not r.endswith("/python_stdlib.zip")]
    app = ["./"] + [r for r in rels if not r.startswith(("runtime/", "bench/"))]
    digest = hashlib.sha256()
    for r in app[1:]:
        digest.update(r.encode() + b"\0" + (site.out / r).read_bytes() + b"\0")
    values = {
        "RUNTIME_ID": (
            f"pyodide-{pins['pyodide']}-pyscript-{pins['pyscript']}"
            f"-idiomorph-{pins['idiomorph']}-pyc{PYC_RECIPE}"
        ),
        "BUILD_ID": digest.hexdigest()[:16],
        "RUNTIME_FILES": json.dumps(runtime),
        "APP_FILES": json.dumps(app),
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
    site.copy(f"{p['PYODIDE_DIR']}/{p['STDLIB']}", precompiled_stdlib(pins))
    site.write(p["PYODIDE_SHIM"], SHIM.format(stdlib=p["STDLIB"]).encode())

    # runtime: PyScript (core.js loads its chunks by name at run time: copy them all)
    dist = NODE_MODULES / "@pyscript" / "core" / "dist"
    for f in sorted(dist.iterdir()):
        if f.suffix in (".js", ".css"):
            site.copy(f"{p['PYSCRIPT_DIR']}/{f.name}", f)

    # runtime: Idiomorph, the DOM morphing library the page updates itself with (app.py)
    idiomorph = NODE_MODULES / "idiomorph"
    site.copy(f"{p['IDIOMORPH_DIR']}/idiomorph.min.js", idiomorph / "dist" / "idiomorph.min.js")
    site.copy(f"{p['IDIOMORPH_DIR']}/LICENSE", idiomorph / "LICENSE")

    # the page
    html = fill((ROOT / "index.html").read_text(), p)
    html = html.replace("<!--PRERENDER-->", start_screen_html(), 1)
    site.write("index.html", html.encode())
    site.write("pyscript.toml", fill((ROOT / "pyscript.toml").read_text(), p).encode())
    site.copy("main.py", ROOT / "main.py")
    site.copy("bots_worker.py", ROOT / "bots_worker.py")
    for f in sorted((ROOT / "assets").rglob("*")):
        if f.is_file():
            site.copy(f.relative_to(ROOT).as_posix(), f)
    site.copy("manifest.webmanifest", ROOT / "manifest.webmanifest")
    files = package_files()
    if pyc_package:
        site.write("nova.zip", precompiled_package(files))
    else:
        site.write("nova.zip", zip_bytes([(rel, path.read_bytes()) for rel, path in files]))
    write_service_worker(site, pins, p)

    # benchmark reference page
    site.write("bench/bare.html", BARE_HTML.encode())
    site.write(
        "bench/bare.mjs",
        BARE_JS.format(shim=p["PYODIDE_SHIM"], pyodide_dir=p["PYODIDE_DIR"]).encode(),
    )

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
        help="ship nova as .py sources only (default: sources plus __pycache__ bytecode compiled "
        "by the pinned Pyodide: importing the game took 1,300 ms from source vs 100 ms)",
    )
    args = ap.parse_args(argv)
    build(args.out.resolve(), pyc_package=not args.py_package)
    return 0


if __name__ == "__main__":
    sys.exit(main())
