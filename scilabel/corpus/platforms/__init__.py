"""Page families rendered through real publishing platforms' own templates (SciELO, PMC, PLOS, eLife,
arXiv, OJS, Janeway, InvenioRDM, Quarto), read from the shared renderers folder
(:func:`~scilabel.corpus.platforms.base.renderers_dir`)."""
from __future__ import annotations

from scilabel.corpus.platforms.base import PlatformFamily, renderers_dir
from scilabel.corpus.platforms.arxiv import ArxivAbs
from scilabel.corpus.platforms.elife import ElifeArticle
from scilabel.corpus.platforms.invenio import InvenioRecord
from scilabel.corpus.platforms.ojs import OJS_FAMILIES
from scilabel.corpus.platforms.quarto import QuartoArticle

#: Every platform family by name.
PLATFORMS: dict[str, PlatformFamily] = {
    f.name: f for f in (*OJS_FAMILIES, ArxivAbs(), ElifeArticle(), InvenioRecord(), QuartoArticle())
}

__all__ = ["PLATFORMS", "PlatformFamily", "renderers_dir"]
