"""Draws the extension icon (images/icon.png, 128 px) and the file icon (images/file-icon.png, 32 px).

Pure Python (zlib + struct): curly braces around three stacked blocks, anti-aliased by 4x4 supersampling.
Run it from vscode-extension/: `python3 scripts/make_icon.py`.
"""
from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

BRACE = [(0.9, 0.0), (0.6, 0.08), (0.47, 0.3), (0.47, 0.78), (0.12, 1.0),
         (0.47, 1.22), (0.47, 1.7), (0.6, 1.92), (0.9, 2.0)]


def seg_dist(px: float, py: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def brace_points(x0: float, y0: float, w: float, h: float, mirror: bool) -> list[tuple[float, float]]:
    return [(x0 + (1 - u if mirror else u) * w, y0 + v / 2 * h) for u, v in BRACE]


def in_polyline(x: float, y: float, pts: list[tuple[float, float]], thick: float) -> bool:
    return any(seg_dist(x, y, pts[i], pts[i + 1]) <= thick / 2 for i in range(len(pts) - 1))


def in_round_rect(x: float, y: float, x0: float, y0: float, x1: float, y1: float, r: float) -> bool:
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return math.hypot(x - cx, y - cy) <= r


def render(size: int, background: bool) -> bytes:
    s = size / 128.0
    left = brace_points(14 * s, 22 * s, 26 * s, 84 * s, mirror=False)
    right = brace_points(88 * s, 22 * s, 26 * s, 84 * s, mirror=True)
    thick = 9 * s if size >= 64 else 12 * s
    blocks = [(50, 36, 78, 52), (50, 56, 78, 72), (50, 76, 78, 92)]
    top = (0x7B, 0x42, 0xBC)
    bottom = (0x4B, 0x2A, 0x8C)
    rows = []
    n = 4
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            cover_bg = cover_fg = cover_block = 0
            for sy in range(n):
                for sx in range(n):
                    x = px + (sx + 0.5) / n
                    y = py + (sy + 0.5) / n
                    if in_polyline(x, y, left, thick) or in_polyline(x, y, right, thick):
                        cover_fg += 1
                    elif any(in_round_rect(x, y, a * s, b * s, c * s, d * s, 3 * s) for a, b, c, d in blocks):
                        cover_block += 1
                    elif background and in_round_rect(x, y, 0, 0, size, size, 22 * s):
                        cover_bg += 1
            total = n * n
            t = py / max(1, size - 1)
            bg = tuple(round(top[i] * (1 - t) + bottom[i] * t) for i in range(3))
            fg = (255, 255, 255)
            block = (0xE8, 0xDC, 0xFF) if background else (0x84, 0x4F, 0xBA)
            fg_ = fg if background else (0x84, 0x4F, 0xBA)
            a = (cover_bg + cover_fg + cover_block) / total
            if a == 0:
                row += bytes(4)
                continue
            rgb = [
                (bg[i] * cover_bg + fg_[i] * cover_fg + block[i] * cover_block) / (cover_bg + cover_fg + cover_block)
                for i in range(3)
            ]
            if background:
                # Edge pixels of strokes blend with the background colour, not with transparency.
                inner = cover_fg + cover_block
                rgb = [(bg[i] * (total - inner) + (fg_[i] * cover_fg + block[i] * cover_block)) / total for i in range(3)]
                a = 1.0 if in_round_rect(px + 0.5, py + 0.5, 1, 1, size - 1, size - 1, 22 * s) else a
            row += bytes([round(c) for c in rgb] + [round(a * 255)])
        rows.append(bytes(row))
    return png(size, size, b"".join(rows))


def png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    out = Path("images")
    out.mkdir(exist_ok=True)
    (out / "icon.png").write_bytes(render(128, background=True))
    (out / "file-icon.png").write_bytes(render(32, background=False))
