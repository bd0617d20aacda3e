"""Main block by sentence count (Radilova et al. 2022).

An element is part of the article's main block when its text has at least five sentences. The
search looks at ``<div>`` blocks first and at every element of ``<body>`` only if no ``<div>``
qualifies. Duplicates are avoided for nested blocks: an element containing a chosen block is not
chosen again, so each sentence is extracted once (the innermost qualifying blocks win). The
chosen blocks' text and images are the result; images are recorded under sanitized file names
and never fetched.

Sentences are counted with the paper's rule (occurrences of ``". "``, plus a final period) or,
as a variant, with scilabel's sentence splitter (:mod:`scilabel.sentences`).
"""
from __future__ import annotations

import base64
import binascii
import csv
import mimetypes
import re
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from lxml import etree

from ..atomic import atomic_path, write_text
from ..sentences import split_sentences
from .base import Baseline, BaselineResult, element_text, parse_html

MIN_SENTENCES = 5
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
_ENDINGS = re.compile(r"[.!?](?:\s|$)")


def dot_sentences(text: str) -> int:
    """Sentences by the paper's rule: each ``". "`` ends one, and so does a final period."""
    text = " ".join(text.split())
    return text.count(". ") + text.endswith(".")


class SentenceBaseline(Baseline):
    """The sentence-count main block; ``splitter`` is ``"dots"`` (the paper) or ``"split"``
    (scilabel's splitter)."""

    extracts_content = True

    def __init__(self, splitter: str = "dots", min_sentences: int = MIN_SENTENCES):
        if splitter not in ("dots", "split"):
            raise ValueError(f"unknown sentence splitter {splitter!r} (dots or split)")
        self.splitter = splitter
        self.min_sentences = min_sentences
        self.name = "sentences" if splitter == "dots" else "sentences-split"

    def extract(self, html: str, url: str | None = None) -> BaselineResult:
        """Find the main block(s) and return their text and images."""
        root = parse_html(html, url)
        body = root.find("body")
        chosen, scope = [], None
        if body is not None:
            for scope, elements in (("div", list(body.iter("div"))), ("body", list(body.iter()))):
                chosen = self._innermost_qualifying(elements)
                if chosen:
                    break
        chosen.reverse()  # found innermost-last; back to document order
        texts = [element_text(el) for el in chosen]
        return BaselineResult(model=self.name, main_content="\n".join(texts), blocks=texts,
                              labels=["other"] * len(texts),
                              extras={"images": block_images(chosen), "searched": scope if chosen else None})

    def sentences(self, text: str) -> int:
        """Sentence count of ``text`` with this baseline's splitter."""
        if self.splitter == "dots":
            return dot_sentences(text)
        text = " ".join(text.split())
        if len(_ENDINGS.findall(text)) < self.min_sentences - 1:  # the splitter cannot find enough: skip it
            return 1 if text else 0
        return len(split_sentences(text))

    def _innermost_qualifying(self, elements: list[etree._Element]) -> list[etree._Element]:
        """Qualifying elements not containing another one, in reverse document order."""
        covered: set[etree._Element] = set()
        chosen = []
        for el in reversed(elements):  # descendants come before their ancestors
            if el in covered:
                continue  # duplication treatment: its sentences are in a chosen block already
            if self.sentences(element_text(el)) >= self.min_sentences:
                chosen.append(el)
                covered.update(el.iterancestors())
        return chosen


def block_images(blocks: list[etree._Element]) -> list[dict[str, str]]:
    """Images inside the chosen blocks: ``src``, ``alt`` and a sanitized, unique file name."""
    images, used = [], set()
    for block in blocks:
        for img in block.iter("img"):
            src = img.get("src") or img.get("data-src") or ""
            name = image_file_name(src, len(images) + 1)
            stem, suffix = name.rsplit(".", 1) if "." in name else (name, "")
            n = 1
            while name in used:
                n += 1
                name = f"{stem}-{n}" + (f".{suffix}" if suffix else "")
            used.add(name)
            images.append({"src": src, "alt": " ".join((img.get("alt") or "").split()), "file": name})
    return images


def image_file_name(src: str, index: int) -> str:
    """A safe local file name for an image reference (letters, digits, ``_``, ``-`` and one extension)."""
    if src.startswith("data:"):
        stem, ext = "", mimetypes.guess_extension(src[5:].split(",", 1)[0].split(";", 1)[0].strip()) or ""
    else:
        name = PurePosixPath(unquote(urlsplit(src).path).replace("\\", "/")).name
        stem, dot, ext = name.rpartition(".")
        if not (dot and stem and ext.isalnum() and len(ext) <= 5):
            stem, ext = name, ""
    stem = _UNSAFE.sub("_", stem).strip("_-")[:80] or f"image-{index}"
    ext = _UNSAFE.sub("", ext.lstrip(".")).lower()
    return f"{stem}.{ext}" if ext else stem


def export(result: BaselineResult, out_dir: str | Path) -> Path:
    """Save the main block's text (``main.txt``), the image list (``images.csv``) and images embedded
    as ``data:`` URIs under their sanitized names; other images are only listed, never fetched."""
    out = Path(out_dir)
    write_text(out / "main.txt", result.main_content + "\n")
    images = result.extras.get("images", [])
    with atomic_path(out / "images.csv") as tmp, tmp.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=["file", "src", "alt"])
        writer.writeheader()
        writer.writerows({"file": i["file"], "src": i["src"][:200], "alt": i["alt"]} for i in images)
    for image in images:
        head, _, data = image["src"].partition(",")
        if head.startswith("data:") and head.endswith(";base64"):
            try:
                payload = base64.b64decode(data, validate=True)
            except (binascii.Error, ValueError):
                continue
            with atomic_path(out / image["file"]) as tmp:
                tmp.write_bytes(payload)
    return out
