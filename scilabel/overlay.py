"""Label overlays: coloured zone boxes drawn on a page screenshot (as in Figure 2 of the paper)."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from PIL import Image, ImageDraw

from .atomic import atomic_path

#: One colour per label (RGB); ``other`` zones get a thin grey outline.
LABEL_COLOURS: dict[str, tuple[int, int, int]] = {
    "title": (230, 57, 70),
    "authors": (42, 157, 143),
    "affiliations": (233, 196, 106),
    "abstract_heading": (131, 56, 236),
    "abstract": (58, 134, 255),
    "references_heading": (255, 0, 110),
    "references": (244, 162, 97),
    "other": (160, 160, 160),
}


def draw_overlay(
    screenshot: str | Path,
    zones: Iterable[tuple[tuple[float, float, float, float], str]],
    out: str | Path,
    show_other: bool = True,
) -> Path:
    """Draw ``(bbox, label)`` boxes on a full-page screenshot and save the result as PNG."""
    base = Image.open(screenshot).convert("RGBA")
    layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    for (x, y, w, h), label in zones:
        if label == "other" and not show_other:
            continue
        colour = LABEL_COLOURS.get(label, LABEL_COLOURS["other"])
        box = (x - 2, y - 2, x + w + 2, y + h + 2)
        if label == "other":
            draw.rectangle(box, outline=colour + (170,), width=1)
            continue
        draw.rectangle(box, fill=colour + (55,), outline=colour + (255,), width=2)
        tag_w = draw.textlength(label, font_size=11) + 6  # the tag sits in the box's top-right corner
        draw.rectangle((box[2] - tag_w, box[1], box[2], box[1] + 14), fill=colour + (200,))
        draw.text((box[2] - tag_w + 3, box[1] + 1), label, fill=(255, 255, 255, 255), font_size=11)
    target = Path(out)
    with atomic_path(target) as tmp:
        Image.alpha_composite(base, layer).convert("RGB").save(tmp, format="PNG")
    return target


def overlay_path(folder: Path, source: str) -> Path:
    """Where a run over many pages saves the overlay of ``source``: under ``folder`` at the page's own
    path as given (``pages/x/index.html`` -> ``folder/pages/x/index.png``; an absolute path without its
    root, ``..`` and ``.`` left out; a URL as ``host/path``), so that pages of the same name in different
    folders keep apart."""
    from urllib.parse import urlsplit

    if source.startswith(("http://", "https://")):
        url = urlsplit(source)
        parts = [url.netloc, *url.path.split("/")] + ([url.query] if url.query else [])
    else:
        parts = list(Path(source).parts)
    safe = ["".join(c if c.isalnum() or c in "-_.@" else "_" for c in part) for part in parts]
    safe = [part for part in safe if part.strip("._")] or ["page"]
    return folder.joinpath(*safe[:-1], Path(safe[-1]).stem + ".png")
