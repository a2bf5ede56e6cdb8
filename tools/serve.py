"""Serve ``_site/`` locally with the same headers as ``netlify.toml`` declares for the host.

    python tools/serve.py [--port 8000] [--host 127.0.0.1] [--root _site]
                          [--frame-ancestor ORIGIN ...] [--gzip] [--log-requests FILE]
                          [--latency-ms MS]

The port defaults to $PORT or 8000; ``--port 0`` picks a free one. The first line printed is
``serving <url>`` (tests read it). ``--frame-ancestor`` (or $NOVA_FRAME_ANCESTORS, space
separated) adds origins to the CSP ``frame-ancestors`` of this local server only, for the embed
test; netlify.toml itself is not changed.

``--latency-ms MS`` waits that long before answering each request, as a distant host would.
With ``$NOVA_SERVE_LOG`` set, each request is printed to stderr as it arrives and as it is
answered, with the time in milliseconds (``Date.now() % 100000``, the clock a page or a
service worker can log: ``tools/probe_release_reload.py`` lines them up).

``--log-requests FILE`` appends one JSON line per request served: its path (with the query),
status and the bytes of the body sent (``bench-page`` and the tests count a visit's downloads
here, where every request of the page, its workers and the service worker arrives).

Header rules follow Netlify's: every ``[[headers]]`` block whose ``for`` matches the request
path applies (``*`` matches anything, ``:name`` one path segment); the same header from several
blocks is joined with ", ".
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import os
import re
import sys
import threading
import time
import tomllib
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent

MIME = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".toml": "application/toml",
    ".py": "text/x-python",
    ".zip": "application/zip",
}


def _pattern(rule: str) -> re.Pattern[str]:
    out = []
    for token in re.split(r"(\*|:[A-Za-z_][A-Za-z0-9_]*)", rule):
        if token == "*":
            out.append(".*")
        elif token.startswith(":"):
            out.append("[^/]+")
        else:
            out.append(re.escape(token))
    return re.compile("^" + "".join(out) + "$")


def load_rules(netlify_toml: Path = ROOT / "netlify.toml") -> list[tuple[re.Pattern[str], dict]]:
    """The ``[[headers]]`` rules of netlify.toml as (compiled path pattern, header values)."""
    config = tomllib.loads(netlify_toml.read_text())
    rules = []
    for block in config.get("headers", []):
        values = {str(k): " ".join(str(v).split()) for k, v in block.get("values", {}).items()}
        rules.append((_pattern(block["for"]), values))
    return rules


def headers_for(path: str, rules, extra_ancestors: list[str] | tuple[str, ...] = ()) -> dict:
    """The headers netlify.toml gives a request path (query string ignored)."""
    path = unquote(urlsplit(path).path) or "/"
    merged: dict[str, str] = {}
    names: dict[str, str] = {}
    for pattern, values in rules:
        if pattern.match(path):
            for k, v in values.items():
                key = k.lower()
                names.setdefault(key, k)
                merged[key] = f"{merged[key]}, {v}" if key in merged else v
    if extra_ancestors and "content-security-policy" in merged:
        merged["content-security-policy"] = re.sub(
            r"(frame-ancestors[^;]*)",
            lambda m: m.group(1) + " " + " ".join(extra_ancestors),
            merged["content-security-policy"],
        )
    return {names[k]: v for k, v in merged.items()}


# Sent as they are by --gzip: compressing them again gains under 1% (zips of deflated files).
ALREADY_COMPRESSED = (".gz", ".zip", ".png", ".ico")


@functools.lru_cache(maxsize=64)
def _gzipped_cached(path: str, mtime: float, size: int) -> bytes:
    return gzip.compress(Path(path).read_bytes(), 6, mtime=0)


def _gzipped(path: Path) -> bytes:
    st = path.stat()
    return _gzipped_cached(str(path), st.st_mtime, st.st_size)


_LOG_LOCK = threading.Lock()


class SiteHandler(SimpleHTTPRequestHandler):
    gzip = False
    rules: list = []
    extra_ancestors: tuple[str, ...] = ()
    request_log: Path | None = None
    latency = 0.0  # seconds before each answer (--latency-ms)
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME}
    _status: int | None = None
    _length = 0

    def send_response(self, code: int, message: str | None = None) -> None:
        self._status = code
        super().send_response(code, message)

    def send_header(self, keyword: str, value: str) -> None:
        if keyword.lower() == "content-length":
            self._length = int(value)
        super().send_header(keyword, value)

    def handle_one_request(self) -> None:
        self._status, self._length = None, 0
        super().handle_one_request()
        if self.request_log is None or self._status is None:
            return
        sent = self._length if self.command == "GET" and self._status == 200 else 0
        line = json.dumps({"path": self.path, "status": self._status, "bytes": sent})
        with _LOG_LOCK, open(self.request_log, "a") as log:
            log.write(line + "\n")

    def end_headers(self) -> None:
        for k, v in headers_for(self.path, self.rules, self.extra_ancestors).items():
            if k.lower() != "content-type":
                self.send_header(k, v)
        super().end_headers()

    def guess_type(self, path):  # Content-Type from netlify.toml wins over the guess
        for k, v in headers_for(self.path, self.rules).items():
            if k.lower() == "content-type":
                return v
        return super().guess_type(path)

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        """With ``--gzip``: files sent gzipped (-6) to a client that accepts it, as a static host
        compresses them (already compressed ones as they are); else the plain handler's reply."""
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if (
            not self.gzip
            or "gzip" not in self.headers.get("Accept-Encoding", "")
            or not path.is_file()
            or path.suffix in ALREADY_COMPRESSED
        ):
            super().do_GET()
            return
        body = _gzipped(path)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def parse_request(self) -> bool:
        parsed = super().parse_request()
        if parsed and self.latency:
            time.sleep(self.latency)
        if parsed and os.environ.get("NOVA_SERVE_LOG"):
            self.log_message("got %s", self.path)
        return parsed

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - stdlib signature
        # with $NOVA_SERVE_LOG: each request as it arrives and as it is answered, the time in
        # milliseconds (Date.now() % 100000, as a page or a service worker can log it)
        if os.environ.get("NOVA_SERVE_LOG"):
            ms = int(time.time() * 1000) % 100_000
            sys.stderr.write(f"{ms} {threading.get_ident() % 10000} {format % args}\n")


class _Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        # a browser that closes a connection mid-download (a page closed, a route aborted)
        # is not the server's error: no traceback for it
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


def make_server(
    root: Path = ROOT / "_site",
    host: str = "127.0.0.1",
    port: int = 8000,
    extra_ancestors: list[str] | tuple[str, ...] = (),
    netlify_toml: Path = ROOT / "netlify.toml",
    compress: bool = False,
    request_log: Path | None = None,
    latency_ms: int = 0,
) -> ThreadingHTTPServer:
    """A server for ``root`` (not started: call ``serve_forever``)."""
    handler = type(
        "Handler",
        (SiteHandler,),
        {
            "rules": load_rules(netlify_toml),
            "extra_ancestors": tuple(extra_ancestors),
            "gzip": compress,
            "request_log": request_log,
            "latency": latency_ms / 1000,
        },
    )
    server = _Server((host, port), functools.partial(handler, directory=str(root)))
    server.daemon_threads = True
    return server


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="serve _site/ with netlify.toml's headers")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    ap.add_argument("--root", type=Path, default=ROOT / "_site")
    ap.add_argument("--frame-ancestor", action="append", default=[], metavar="ORIGIN")
    ap.add_argument(
        "--gzip",
        action="store_true",
        help="send files gzipped as a static host would (for Lighthouse); tests use plain files",
    )
    ap.add_argument(
        "--log-requests",
        type=Path,
        metavar="FILE",
        help="append a JSON line per request served (path, status, body bytes) to FILE",
    )
    ap.add_argument(
        "--latency-ms",
        type=int,
        default=0,
        metavar="MS",
        help="wait MS milliseconds before answering each request, as a distant host would",
    )
    args = ap.parse_args(argv)
    if not (args.root / "index.html").is_file():
        print(f"{args.root}/index.html missing: run `make site` first", file=sys.stderr)
        return 2
    extra = args.frame_ancestor + os.environ.get("NOVA_FRAME_ANCESTORS", "").split()
    server = make_server(
        args.root,
        args.host,
        args.port,
        extra,
        compress=args.gzip,
        request_log=args.log_requests,
        latency_ms=args.latency_ms,
    )
    host, port = server.server_address[:2]
    print(f"serving http://{host}:{port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
