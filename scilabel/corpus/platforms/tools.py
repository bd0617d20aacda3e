"""What the platform families share to run third-party engines: a scratch folder for the process,
checks that a program or Python package is there, and the text of an HTML fragment."""
from __future__ import annotations

import atexit
import functools
import html
import importlib.util
import re
import shutil
import tempfile
from pathlib import Path


@functools.lru_cache(maxsize=None)
def scratch_dir(name: str) -> Path:
    """A folder of this process for engine by-products (compiled templates, shims), removed at exit."""
    root = _scratch_root() / name
    root.mkdir(parents=True, exist_ok=True)
    return root


@functools.lru_cache(maxsize=1)
def _scratch_root() -> Path:
    root = Path(tempfile.mkdtemp(prefix="scilabel-platforms-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return root


def missing_programs(*names: str) -> str | None:
    """Why one of the programs ``names`` cannot run here (not on PATH), or None."""
    absent = [n for n in names if shutil.which(n) is None]
    return f"not installed: {', '.join(absent)}" if absent else None


def missing_modules(*names: str) -> str | None:
    """Why one of the Python packages ``names`` cannot be imported here (the ``corpus`` extra), or None."""
    absent = [n for n in names if importlib.util.find_spec(n) is None]
    return f"Python packages not installed: {', '.join(absent)} (pip install scilabel[corpus])" if absent else None


def plain_text(markup: str) -> str:
    """The text of an HTML fragment (tags dropped, entities resolved)."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup)).strip()


def with_variant(page: str, variant: str) -> str:
    """``page`` with its seeded layout named on ``<html>`` (``data-scilabel-variant``, letters, ``_``
    and ``-`` only), as the corpus manifest reads it."""
    name = re.sub(r"[^a-z_-]+", "-", variant.lower()).strip("-")
    return re.sub(r"<html\b", f'<html data-scilabel-variant="{name}"', page, count=1)
