"""A platform's own style sheets, compiled from its LESS or SCSS sources and made safe to inline.

Compilers are Debian's ``lessc`` (node-less) and ``sassc``. Compiled style sheets are kept for the
process (compiling Bootstrap takes a second or two). What an offline page cannot load goes:
``@font-face`` rules and ``@import`` of remote fonts (the fonts are not in the renderers folder), and
``url(...)`` references to files (images, icons) become ``none``; ``data:`` URLs stay.
"""
from __future__ import annotations

import functools
import logging
import os
import re
import subprocess
import html
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

log = logging.getLogger(__name__)

#: Where Debian keeps node modules; its ``lessc`` needs them on NODE_PATH (it does not look there itself).
NODE_MODULES = "/usr/share/nodejs"
_FONT_FACE = re.compile(r"@font-face\s*\{[^{}]*\}", re.I)
_IMPORT = re.compile(r"@import\s+(?:url\()?[^;]*;", re.I)
_URL = re.compile(r"url\(\s*(?!['\"]?data:)[^)]*\)", re.I)
_MAP = re.compile(r"/\*#\s*sourceMappingURL=[^*]*\*/")


class StyleError(RuntimeError):
    """A style sheet did not compile."""


@functools.lru_cache(maxsize=None)
def compile_less(
    entry: Path,
    include_paths: tuple[Path, ...] = (),
    global_vars: tuple[tuple[str, str], ...] = (),
    modify_vars: tuple[tuple[str, str], ...] = (),
) -> str:
    """CSS compiled from the LESS file ``entry`` (variables as ``(name, value)`` pairs), made offline-safe."""
    cmd = ["lessc", "--no-color"]
    if include_paths:
        cmd.append("--include-path=" + os.pathsep.join(str(p) for p in include_paths))
    cmd += [f"--global-var={k}={v}" for k, v in global_vars]
    cmd += [f"--modify-var={k}={v}" for k, v in modify_vars]
    env = {**os.environ, "NODE_PATH": os.pathsep.join(filter(None, [NODE_MODULES, os.environ.get("NODE_PATH")]))}
    done = subprocess.run([*cmd, str(entry)], capture_output=True, text=True, env=env, timeout=300)
    if done.returncode:
        raise StyleError(f"lessc {entry}: {done.stderr.strip()[:500]}")
    return offline_css(done.stdout)


@functools.lru_cache(maxsize=None)
def compile_scss(entry: Path, include_paths: tuple[Path, ...] = ()) -> str:
    """CSS compiled from the SCSS file ``entry`` with sassc, made offline-safe."""
    cmd = ["sassc", *(f"--load-path={p}" for p in include_paths), str(entry)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if done.returncode:
        raise StyleError(f"sassc {entry}: {done.stderr.strip()[:500]}")
    return offline_css(done.stdout)


def read_css(path: Path) -> str:
    """A platform's precompiled CSS file, made offline-safe."""
    return offline_css(path.read_text(encoding="utf-8", errors="replace"))


def offline_css(css: str) -> str:
    """CSS without what an offline page cannot load (module docstring)."""
    css = _FONT_FACE.sub("", css)
    css = _IMPORT.sub("", css)
    css = _MAP.sub("", css)
    return _URL.sub("none", css).strip()


def style_block(sheets: Iterable[str]) -> str:
    """One ``<style>`` element holding ``sheets`` in order, in the shape the corpus generator can move
    into a linked file (:func:`scilabel.corpus.generate.externalise_styles`)."""
    css = "\n".join(s.strip() for s in sheets if s.strip()).replace("</style", "<\\/style")
    return f"<style>\n{css}\n</style>\n"


def pairs(mapping: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """A mapping as sorted pairs (hashable, for the compile caches)."""
    return tuple(sorted(mapping.items()))


_LINK = re.compile(r"<link\b[^>]*>\s*", re.I)
_HREF = re.compile(r"""href\s*=\s*["']([^"']+)["']""", re.I)


def inline_stylesheets(page: str, css_for: Callable[[str], str | None]) -> str:
    """``page`` with the style sheets it links (``<link rel="stylesheet">`` whose ``href`` ``css_for``
    knows) moved into one style block (:func:`style_block`) at the end of ``<head>``, in their order."""
    sheets: list[str] = []

    def take(match: re.Match) -> str:
        tag = match.group(0)
        href = _HREF.search(tag)
        if "stylesheet" not in tag.lower() or href is None:
            return tag
        css = css_for(html.unescape(href.group(1)))
        if css is None:
            return tag
        sheets.append(css)
        return ""

    page = _LINK.sub(take, page)
    return page.replace("</head>", style_block(sheets) + "</head>", 1)
