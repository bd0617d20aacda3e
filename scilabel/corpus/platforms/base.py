"""What every real-platform family shares: where the platforms' templates are, and how gold is set.

The templates are third-party data (several GPL) read from the shared renderers folder, never copied
into this package: ``$SCILABEL_RENDERERS``, else ``$SCILABEL_DATA/renderers``, else
``../shared/data/renderers``. A family whose templates or tools are missing says so through
:meth:`PlatformFamily.missing` and is left out of a corpus run with that reason.
"""
from __future__ import annotations

import os
from abc import abstractmethod
from pathlib import Path
from typing import ClassVar

from scilabel.corpus.templates.base import Family


def renderers_dir() -> Path:
    """The folder of third-party platform templates (module docstring)."""
    if os.environ.get("SCILABEL_RENDERERS"):
        return Path(os.environ["SCILABEL_RENDERERS"])
    return Path(os.environ.get("SCILABEL_DATA", "../shared/data")) / "renderers"


class PlatformFamily(Family):
    """A family rendered through a real platform's own templates (:func:`renderers_dir`), with its own
    style sheet, and gold set on the rendered page by the platform's own markup."""

    #: The renderer folders (``<owner>__<repo>``) the family reads.
    folders: ClassVar[tuple[str, ...]]

    def missing(self) -> str | None:
        """Why the family cannot render here (a folder or tool it needs is absent), or None."""
        root = renderers_dir()
        absent = [f for f in self.folders if not (root / f).is_dir()]
        if absent:
            return f"renderer folders absent under {root}: {', '.join(absent)}"
        return self.missing_tools()

    @abstractmethod
    def missing_tools(self) -> str | None:
        """Why a program or library the family runs is unavailable, or None."""
