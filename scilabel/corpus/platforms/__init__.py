"""Page families rendered through real publishing platforms' own templates (SciELO, PMC, PLOS, eLife,
arXiv, OJS, Janeway, InvenioRDM, Quarto), read from the shared renderers folder
(:func:`~scilabel.corpus.platforms.base.renderers_dir`)."""
from __future__ import annotations

from scilabel.corpus.platforms.base import PlatformFamily, renderers_dir
from scilabel.corpus.platforms.arxiv import ArxivAbs
from scilabel.corpus.platforms.elife import ElifeArticle
from scilabel.corpus.platforms.invenio import InvenioRecord
from scilabel.corpus.platforms.janeway import Janeway
from scilabel.corpus.platforms.markup import PageDropped
from scilabel.corpus.platforms.ojs import OJS_FAMILIES
from scilabel.corpus.platforms.pmc_preview import PmcPreview
from scilabel.corpus.platforms.quarto import QuartoArticle
from scilabel.corpus.platforms.scielo import Scielo
from scilabel.corpus.platforms.wombat import PlosWombat

#: Every platform family by name.
PLATFORMS: dict[str, PlatformFamily] = {
    f.name: f for f in (PmcPreview(), Scielo(), Janeway(), PlosWombat(), *OJS_FAMILIES, ArxivAbs(), ElifeArticle(),
                        InvenioRecord(), QuartoArticle())
}

__all__ = ["PLATFORMS", "PageDropped", "PlatformFamily", "renderers_dir"]
