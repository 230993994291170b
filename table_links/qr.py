"""The QR code of a table link, as an SVG drawn on the server (segno; no image files, no JS)."""

from __future__ import annotations

import segno


def qr_svg(url: str) -> str:
    """An inline ``<svg>`` of ``url`` (error correction M, dark on white, a title for readers)."""
    code = segno.make(url, error="m", micro=False)
    return code.svg_inline(
        scale=6, dark="#111111", light="#ffffff", title="QR code of the table link", border=2
    )
