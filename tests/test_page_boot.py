"""The built page boots from its own origin only, under the hosted headers (netlify.toml)."""

from __future__ import annotations

import json
import sys
import tomllib
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import ROOT, wait_ready

sys.path.insert(0, str(ROOT / "tools"))
import build_site  # noqa: E402
import serve  # noqa: E402

# the page's service worker runs in this file's pages (page_factory blocks it elsewhere)
pytestmark = pytest.mark.service_worker

PINS = json.loads((ROOT / "package.json").read_text())["dependencies"]
PYODIDE_DIR = f"runtime/pyodide-{PINS['pyodide']}"
PYSCRIPT_DIR = f"runtime/pyscript-{PINS['@pyscript/core']}-{build_site.PYSCRIPT_PATCH}"


def head(url: str) -> dict[str, str]:
    with urllib.request.urlopen(url) as r:
        r.read()
        return {k.lower(): v for k, v in r.headers.items()}


# --- pure checks of the configuration and the build -------------------------------------------


def test_netlify_toml_publishes_site_and_frames_only_for_publisher():
    config = tomllib.loads((ROOT / "netlify.toml").read_text())
    assert config["build"]["publish"] == "_site"
    rules = serve.load_rules()
    h = serve.headers_for("/", rules)
    csp = h["Content-Security-Policy"]
    assert "'wasm-unsafe-eval'" in csp
    # 'unsafe-eval' only while PyScript needs it: see test_pyscript_still_needs_unsafe_eval
    assert "frame-ancestors 'self' https://rogerdogergames.com https://*.rogerdogergames.com" in csp
    assert "X-Frame-Options" not in h
    assert not any(k.lower().startswith("cross-origin-embedder") for k in h)
    assert h["X-Content-Type-Options"] == "nosniff"


def test_header_rules_follow_netlify_matching():
    rules = serve.load_rules()
    wasm = serve.headers_for(f"/{PYODIDE_DIR}/pyodide.asm.wasm", rules)
    assert wasm["Content-Type"] == "application/wasm"
    assert wasm["Cache-Control"] == "public, max-age=31536000, immutable"
    for path in ("/", "/index.html", "/pyscript.toml", "/nova.zip", "/sw.js", "/?embed"):
        assert serve.headers_for(path, rules)["Cache-Control"] == "no-cache", path
    extra = serve.headers_for("/", rules, ["http://127.0.0.2:9"])
    assert (
        extra["Content-Security-Policy"]
        .split("frame-ancestors")[1]
        .split(";")[0]
        .endswith("http://127.0.0.2:9")
    )


def test_site_has_versioned_runtime_and_package(site_dir: Path):
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm"):
        assert (site_dir / PYODIDE_DIR / name).is_file(), name
    # the shim's name carries its hash: the runtime directory is cached as immutable
    (shim,) = (site_dir / PYODIDE_DIR).glob("nova-shim-*.mjs")
    assert list((site_dir / PYODIDE_DIR).glob("python_stdlib-trim-*.zip"))
    assert (site_dir / PYSCRIPT_DIR / "core.js").is_file()
    assert not list(site_dir.rglob("*.map"))
    html = (site_dir / "index.html").read_text()
    assert "{{" not in html and f"{PYSCRIPT_DIR}/core.js" in html
    toml = tomllib.loads((site_dir / "pyscript.toml").read_text())
    assert toml["interpreter"] == f"./{PYODIDE_DIR}/{shim.name}"
    import zipfile

    with zipfile.ZipFile(site_dir / "nova.zip") as z:
        names = z.namelist()
    assert "nova/__init__.pyc" in names and "nova/rules/state.pyc" in names
    assert any(n.startswith("nova/data/") and n.endswith(".json") for n in names)
    assert not any("/tests/" in n for n in names)
    # each module's bytecode in place of its source (what the ordinary boot downloads)
    assert not [n for n in names if n.endswith(".py") or "__pycache__" in n]


def test_the_main_threads_micropython_starts_without_pyscripts_package(site_dir: Path):
    """PyScript's bootstrap before a MicroPython script (its pyscript package written out
    and imported: most of the boot's longest task, issue 52) is out of the built chunk;
    Pyodide's, in the game's worker, is as PyScript ships it; page.py never imports pyscript."""
    shipped = {
        f.name: f.read_bytes()
        for f in (ROOT / "node_modules" / "@pyscript" / "core" / "dist").glob("*.js")
    }
    changed = [
        f.name for f in (site_dir / PYSCRIPT_DIR).glob("*.js") if f.read_bytes() != shipped[f.name]
    ]
    assert len(changed) == 1, changed
    built = (site_dir / PYSCRIPT_DIR / changed[0]).read_bytes()
    m = build_site.MPY_BOOTSTRAP.search(shipped[changed[0]])
    assert m is not None
    assert b'"mpy"===%s?"":%s' % (m[2], m[3]) in built
    assert b"import pyscript as _pyscript" in built  # Pyodide's bootstrap keeps it
    for part in ("page.py", "page_board.py", "page_lab.py"):
        text = (site_dir / part).read_text()
        assert "from pyscript" not in text and "import pyscript" not in text, part


# --- the served site ---------------------------------------------------------------------------


@pytest.mark.browser
def test_served_headers(server_url: str):
    wasm = head(f"{server_url}{PYODIDE_DIR}/pyodide.asm.wasm")
    assert wasm["content-type"] == "application/wasm"
    assert wasm["cache-control"] == "public, max-age=31536000, immutable"
    core = head(f"{server_url}{PYSCRIPT_DIR}/core.js")
    assert core["cache-control"] == "public, max-age=31536000, immutable"
    assert core["content-type"].startswith("text/javascript")
    for path in ("", "index.html", "pyscript.toml", "nova.zip"):
        h = head(server_url + path)
        assert h["cache-control"] == "no-cache", path
        assert "frame-ancestors" in h["content-security-policy"]
        assert "x-frame-options" not in h


@pytest.mark.browser
def test_page_boots_offline_from_own_origin_under_csp(server_url: str, page):
    response = page.goto(server_url)
    assert response is not None and response.ok
    csp = response.headers.get("content-security-policy", "")
    assert "'wasm-unsafe-eval'" in csp and "script-src 'self'" in csp
    wait_ready(page)
    log = page.nova
    assert log.external == [], f"requests outside 127.0.0.1: {log.external}"
    assert log.console_errors == [], log.console_errors
    assert log.page_errors == [], log.page_errors
    assert page.evaluate("document.body.getAttribute('data-nova-error')") is None
    assert page.evaluate("typeof SharedArrayBuffer === 'undefined' || !crossOriginIsolated")


@pytest.mark.browser
def test_pyscript_still_needs_unsafe_eval(server_url: str, page):
    """Why netlify.toml's CSP has 'unsafe-eval': without it PyScript 0.7.31 cannot start.

    The same page, served with the hosted CSP minus 'unsafe-eval', reports the EvalError as
    data-nova-error. If this test fails because the page now boots, drop 'unsafe-eval'."""
    csp = serve.headers_for("/", serve.load_rules())["Content-Security-Policy"]
    strict = csp.replace(" 'unsafe-eval'", "")
    assert "'unsafe-eval'" in csp and "'unsafe-eval'" not in strict

    def strict_csp(route):
        if route.request.resource_type == "document":
            response = route.fetch()
            headers = {**response.headers, "content-security-policy": strict}
            return route.fulfill(response=response, headers=headers)
        return route.fallback()

    page.route("**/*", strict_csp)
    page.goto(server_url)
    page.wait_for_selector("body[data-nova-error], body[data-nova-ready]", state="attached")
    booted = page.evaluate("document.body.hasAttribute('data-nova-ready')")
    assert not booted, "the page booted without 'unsafe-eval': remove it from the CSP"
    # PyScript's own Function() refused (and then what it tries instead: a runtime from its
    # CDN, which the CSP refuses too); the person reads plain words, with a way to try again
    error = page.evaluate("document.body.getAttribute('data-nova-error')") or ""
    assert any("unsafe-eval" in e for e in [error, *page.nova.page_errors]), page.nova.page_errors
    said = page.inner_text("#nova-boot")
    assert "could not start" in said and "Error" not in said, said
    assert page.locator("[data-nova-retry]").is_visible()


@pytest.mark.browser
def test_python_failure_is_reported_on_body(server_url: str, page):
    """If the game's Python cannot start in its worker, <body data-nova-error="..."> carries
    the message; the person reads plain words and can try again, and no save is lost."""
    saved = {"nova:save:g1": "{}", "nova:current": "g1"}
    page.add_init_script(
        "for (const [k, v] of Object.entries(" + json.dumps(saved) + ")) localStorage.setItem(k, v)"
    )
    page.route(
        "**/game_worker.py",
        lambda route: route.fulfill(
            status=200,
            content_type="text/x-python",
            body="raise RuntimeError('boom: the game cannot start')\n",
        ),
    )
    page.goto(server_url)
    page.wait_for_selector("body[data-nova-error]", state="attached", timeout=60_000)
    error = page.evaluate("document.body.getAttribute('data-nova-error')")
    assert "boom: the game cannot start" in error
    assert page.evaluate("!document.body.hasAttribute('data-nova-ready')")
    # the person reads plain words, never the exception (issue 49), and may try again
    said = page.inner_text("#nova-boot")
    assert "could not start" in said and "Error" not in said and "boom" not in said, said
    again = page.locator("[data-nova-retry]")
    assert again.is_visible()
    assert page.evaluate("localStorage.getItem('nova:save:g1')") == "{}"
    page.unroute("**/game_worker.py")
    with page.expect_navigation():
        again.click()
    wait_ready(page)
    assert page.evaluate("document.body.getAttribute('data-nova-error')") is None
