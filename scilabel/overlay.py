"""Label overlays: coloured zone boxes drawn on a page screenshot (as in Figure 2 of the paper), with a
legend of the labels and each box's label tag set where it covers no text; and a contact sheet of
many pages' overlays."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
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
#: Height of a label tag and of the legend band above the page, in pixels.
TAG_HEIGHT = 14
LEGEND_HEIGHT = 26
FONT_SIZE = 11

Box = tuple[float, float, float, float]


def _overlaps(a: Box, b: Box) -> bool:
    """Whether two (left, top, right, bottom) rectangles share any area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def tag_position(box: Box, width: float, taken: Sequence[Box], page: tuple[float, float]) -> Box:
    """Where the tag of a zone whose box is ``box`` (left, top, right, bottom) goes: the first of just
    above it, just below it, left of it and right of it (each flush with one of the box's corners) that
    stays on the ``page`` (width, height) and covers none of the ``taken`` rectangles (the page's text
    zones and the tags placed so far); just above it when every place covers something."""
    left, top, right, bottom = box
    h = TAG_HEIGHT
    places = [
        (left, top - h, left + width, top), (right - width, top - h, right, top),
        (left, bottom, left + width, bottom + h), (right - width, bottom, right, bottom + h),
        (left - width - 2, top, left - 2, top + h), (right + 2, top, right + 2 + width, top + h),
    ]
    for place in places:
        on_page = place[0] >= 0 and place[1] >= 0 and place[2] <= page[0] and place[3] <= page[1]
        if on_page and not any(_overlaps(place, other) for other in taken):
            return place
    return (max(left, 0), max(top - h, 0), max(left, 0) + width, max(top - h, 0) + h)


def _legend(draw: ImageDraw.ImageDraw, labels: Iterable[str]) -> None:
    x = 8
    for label in labels:
        colour = LABEL_COLOURS.get(label, LABEL_COLOURS["other"])
        draw.rectangle((x, 7, x + 12, 19), fill=colour + (255,), outline=(60, 60, 60, 255))
        draw.text((x + 16, 7), label, fill=(20, 20, 20, 255), font_size=FONT_SIZE)
        x += 16 + int(draw.textlength(label, font_size=FONT_SIZE)) + 14


def draw_overlay(
    screenshot: str | Path,
    zones: Iterable[tuple[tuple[float, float, float, float], str]],
    out: str | Path,
    show_other: bool = True,
) -> Path:
    """Draw ``(bbox, label)`` boxes (bbox as ``x, y, w, h`` in page pixels) on a full-page screenshot,
    under a legend band of the labels shown, and save the result as PNG. Each labelled box gets a tag
    naming its label, placed where it covers no zone's text (:func:`tag_position`)."""
    page = Image.open(screenshot).convert("RGBA")
    zones = list(zones)
    shown = [lab for lab in LABEL_COLOURS if any(z[1] == lab for z in zones) and (show_other or lab != "other")]
    base = Image.new("RGBA", (page.width, page.height + LEGEND_HEIGHT), (255, 255, 255, 255))
    base.paste(page, (0, LEGEND_HEIGHT))
    layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    _legend(draw, shown)
    boxes = [(x - 2, y - 2 + LEGEND_HEIGHT, x + w + 2, y + h + 2 + LEGEND_HEIGHT) for (x, y, w, h), _ in zones]
    taken: list[Box] = [(x, y + LEGEND_HEIGHT, x + w, y + h + LEGEND_HEIGHT) for (x, y, w, h), _ in zones]
    for box, (_, label) in zip(boxes, zones):
        if label == "other" and not show_other:
            continue
        colour = LABEL_COLOURS.get(label, LABEL_COLOURS["other"])
        if label == "other":
            draw.rectangle(box, outline=colour + (170,), width=1)
            continue
        draw.rectangle(box, fill=colour + (55,), outline=colour + (255,), width=2)
    tags_area = (0, LEGEND_HEIGHT, base.width, base.height)
    for box, (_, label) in zip(boxes, zones):
        if label == "other":
            continue
        colour = LABEL_COLOURS.get(label, LABEL_COLOURS["other"])
        width = draw.textlength(label, font_size=FONT_SIZE) + 6
        place = tag_position(box, width, taken, (tags_area[2], tags_area[3]))
        if place[1] < LEGEND_HEIGHT:  # never over the legend
            place = (place[0], LEGEND_HEIGHT, place[2], LEGEND_HEIGHT + TAG_HEIGHT)
        taken.append(place)
        draw.rectangle(place, fill=colour + (220,))
        draw.text((place[0] + 3, place[1] + 1), label, fill=(255, 255, 255, 255), font_size=FONT_SIZE)
    target = Path(out)
    with atomic_path(target) as tmp:
        Image.alpha_composite(base, layer).convert("RGB").save(tmp, format="PNG")
    return target


def contact_sheet(overlays: Sequence[Path], out: str | Path, columns: int = 4, thumb_width: int = 320,
                  thumb_height: int = 480, root: Path | None = None) -> Path:
    """A grid of overlay pictures (the top of each page, scaled to ``thumb_width``), each captioned with
    its path (relative to ``root``), saved as PNG: a look at many pages' labels at once."""
    if not overlays:
        raise ValueError("a contact sheet needs at least one overlay")
    caption = 16
    rows = -(-len(overlays) // columns)
    sheet = Image.new("RGB", (columns * (thumb_width + 8) + 8, rows * (thumb_height + caption + 8) + 8), (240, 240, 240))
    draw = ImageDraw.Draw(sheet)
    for n, path in enumerate(overlays):
        with Image.open(path) as picture:
            scale = thumb_width / picture.width
            top = picture.crop((0, 0, picture.width, min(picture.height, int(thumb_height / scale))))
            thumb = top.convert("RGB").resize((thumb_width, max(1, int(top.height * scale))))
        x = 8 + (n % columns) * (thumb_width + 8)
        y = 8 + (n // columns) * (thumb_height + caption + 8)
        sheet.paste(thumb, (x, y + caption))
        name = str(path.relative_to(root)) if root is not None and path.is_relative_to(root) else path.name
        draw.text((x, y + 2), name[-48:], fill=(20, 20, 20), font_size=FONT_SIZE)
    target = Path(out)
    with atomic_path(target) as tmp:
        sheet.save(tmp, format="PNG")
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
