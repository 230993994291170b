"""Writes static/root/favicon.ico (served at /favicon.ico by WhiteNoise, WHITENOISE_ROOT): the
site's green square with a white "J", 32 x 32, as an ICO holding one PNG. Pure standard library
(zlib, struct), so it needs nothing installed; static/favicon.svg is the same mark for browsers
that take an SVG icon. Run it again only to change the mark.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

SIZE = 32
GREEN = (11, 110, 79, 255)  # --accent in jink.css
WHITE = (255, 255, 255, 255)
# The "J", in a 32 x 32 grid: (x from, x to, y from, y to) rectangles, ends included.
LETTER = [(10, 24, 6, 9), (18, 22, 6, 23), (8, 12, 18, 23), (8, 22, 22, 26)]


def _pixel(x: int, y: int) -> tuple[int, int, int, int]:
    corner = min(x, SIZE - 1 - x) + min(y, SIZE - 1 - y)
    if corner < 3:  # rounded corners: transparent
        return (0, 0, 0, 0)
    for x0, x1, y0, y1 in LETTER:
        if x0 <= x <= x1 and y0 <= y <= y1:
            return WHITE
    return GREEN


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def png() -> bytes:
    rows = b"".join(
        b"\x00" + b"".join(bytes(_pixel(x, y)) for x in range(SIZE)) for y in range(SIZE)
    )
    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows, 9))
        + _chunk(b"IEND", b"")
    )


def ico(image: bytes) -> bytes:
    directory = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", SIZE, SIZE, 0, 0, 1, 32, len(image), 6 + 16)
    return directory + entry + image


if __name__ == "__main__":
    target = Path(__file__).resolve().parents[1] / "static" / "root" / "favicon.ico"
    target.write_bytes(ico(png()))
    print(f"wrote {target} ({target.stat().st_size} bytes)")
