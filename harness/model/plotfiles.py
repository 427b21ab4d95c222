"""Writing a figure: a PNG for reading (and the README) and an SVG for papers.

The PNG is written with a palette of at most 256 colours, which line plots
need no more than, so that it is a third of the size and can be committed
(docs/*.png); the SVG keeps everything as vectors.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

DPI = 100


def save(fig: Any, paths: list[Path]) -> None:
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix != ".png":
            fig.savefig(path, dpi=DPI)
            continue
        from PIL import Image                # matplotlib's own dependency
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=DPI)
        buf.seek(0)
        with Image.open(buf) as img:
            img.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT) \
                .save(path, optimize=True)
