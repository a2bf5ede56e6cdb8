"""Draw the app icons (PNG, standard library only) into assets/: the favicon's design.

    python tools/make_icons.py     # writes assets/icon-192.png, icon-512.png, icon-512-maskable.png

Run by hand when the design changes; the PNGs are committed.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BG = (11, 16, 38)
RING = (58, 74, 138)
STAR = (255, 204, 51)
SHIP = (224, 82, 63)


def draw(size: int, maskable: bool) -> bytes:
    # coordinates in the favicon's 64-unit box; maskable icons keep a 20% safe margin
    scale = size / (80 if maskable else 64)
    off = (size - 64 * scale) / 2
    rows = []
    for y in range(size):
        row = bytearray([0])
        for x in range(size):
            u, v = (x + 0.5 - off) / scale, (y + 0.5 - off) / scale
            d = math.hypot(u - 32, v - 32)
            alpha = 255
            if maskable:
                color = BG
            elif d <= 30:
                color = BG
            else:
                color, alpha = BG, max(0, min(255, int((31 - d) * 255)))
            for r in (22, 14):
                if abs(d - r) <= 1:
                    color = RING
            if d <= 7:
                color = STAR
            if math.hypot(u - 54, v - 32) <= 4:
                color = SHIP
            row += bytes((*color, alpha))
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


def main() -> None:
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("icon-512-maskable.png", 512, True),
    ):
        (ROOT / "assets" / name).write_bytes(draw(size, maskable))
        print(f"assets/{name}")


if __name__ == "__main__":
    main()
