"""A memory snapshot as a delta against the wasm module's own initial memory.

A Pyodide snapshot (``makeMemorySnapshot``) is a header followed by the whole wasm heap. The
first ~3.2 MB of that heap are the module's data segments (libpython's static data), which the
browser already has: they are inside ``pyodide.asm.wasm``, and only ~70 KB of them change
while Python starts. XOR-ing the heap with the module's initial memory turns those megabytes
into zeros: the gzipped snapshot shrank from 5.5 MB to 4.1 MB (issue 13).

``tools/nova-shim.mjs`` undoes it in the page with the same wasm bytes (``initial_memory``
there is the same parser in JS) and checks the result against ``static_sha256``.

Two thirds of the heap's pages are then zeros (free memory, and static data Python never
wrote). They are not shipped: ``pack_pages`` keeps the other pages and says where they go, so
the page inflates 10 MB instead of 31 MB (a quarter of a second less on a slow machine, issue 13)
and the zeros come free with the new buffer the shim puts the pages back into.
"""

from __future__ import annotations

import hashlib
import struct


def _leb(data: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def data_segments(wasm: bytes) -> list[tuple[int, bytes]]:
    """The active data segments of a wasm module as (memory offset, bytes).

    Only what Emscripten emits for Pyodide's main module: active segments of memory 0 with an
    ``i32.const`` offset. Anything else is refused (ValueError): the build then ships no
    snapshot rather than a wrong one."""
    if wasm[:8] != b"\0asm\1\0\0\0":
        raise ValueError("not a wasm module (version 1)")
    i, out = 8, []
    while i < len(wasm):
        section = wasm[i]
        size, i = _leb(wasm, i + 1)
        end = i + size
        if section == 11:  # data
            count, j = _leb(wasm, i)
            for _ in range(count):
                flag, j = _leb(wasm, j)
                if flag != 0 or wasm[j] != 0x41:  # active, memory 0, i32.const
                    raise ValueError(f"data segment kind {flag}/{wasm[j]:#x} not handled")
                offset, j = _leb(wasm, j + 1)  # non-negative offsets: unsigned LEB is right
                if offset >= 1 << 31 or wasm[j] != 0x0B:
                    raise ValueError("data segment offset not understood")
                length, j = _leb(wasm, j + 1)
                out.append((offset, wasm[j : j + length]))
                j += length
        i = end
    if not out:
        raise ValueError("no data segments")
    return out


def initial_memory(wasm: bytes) -> bytes:
    """The module's memory as instantiation leaves it, up to the end of its last segment."""
    segments = data_segments(wasm)
    image = bytearray(max(off + len(d) for off, d in segments))
    for off, d in segments:
        image[off : off + len(d)] = d
    return bytes(image)


def header_length(snapshot: bytes) -> int:
    """Bytes before the heap in a Pyodide snapshot (its header's second 32-bit word)."""
    return struct.unpack_from("<I", snapshot, 4)[0]


def xor_delta(snapshot: bytes, wasm: bytes) -> tuple[bytes, dict]:
    """The snapshot with its heap's first bytes XOR-ed with the module's initial memory (the
    operation is its own inverse), and what the manifest records to check the undoing."""
    image = initial_memory(wasm)
    start = header_length(snapshot)
    if len(snapshot) < start + len(image):
        raise ValueError("snapshot smaller than the module's initial memory")
    heap = snapshot[start : start + len(image)]
    mixed = (int.from_bytes(heap, "little") ^ int.from_bytes(image, "little")).to_bytes(
        len(image), "little"
    )
    out = snapshot[:start] + mixed + snapshot[start + len(image) :]
    return out, {
        "delta": "xor-wasm-data",
        "delta_bytes": len(image),
        "static_sha256": hashlib.sha256(heap).hexdigest(),
    }


PAGE = 4096


def pack_pages(data: bytes, page: int = PAGE) -> tuple[bytes, list[list[int]]]:
    """``data`` without its all-zero pages, and the runs ``[offset, length]`` (ascending) the
    remaining bytes fill, in order; ``unpack_pages`` is the inverse.

    >>> pack_pages(bytes(8) + b"ab" + bytes(6), page=4)
    (b'ab\\x00\\x00', [[8, 4]])
    """
    zero = bytes(page)
    runs: list[list[int]] = []
    for at in range(0, len(data), page):
        if data[at : at + page] == zero[: len(data) - at]:
            continue
        length = min(page, len(data) - at)
        if runs and runs[-1][0] + runs[-1][1] == at:
            runs[-1][1] += length
        else:
            runs.append([at, length])
    return b"".join(data[a : a + n] for a, n in runs), runs


def unpack_pages(packed: bytes, runs: list[list[int]], size: int) -> bytes:
    """The ``size`` bytes ``pack_pages`` packed: each run's bytes in place, zeros elsewhere."""
    out = bytearray(size)
    at = 0
    for offset, length in runs:
        out[offset : offset + length] = packed[at : at + length]
        at += length
    if at != len(packed):
        raise ValueError("runs do not cover the packed bytes")
    return bytes(out)
