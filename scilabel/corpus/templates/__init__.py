"""Page-template families that turn a parsed JATS article into a labelled HTML page.

Each family is one way publishers build article pages (see the module docstrings); the
train/dev/test assignment of families lives in :mod:`scilabel.corpus.generate`.
"""

from __future__ import annotations

from scilabel.corpus.templates.base import Family, PageContext, RelatedItem
from scilabel.corpus.templates.bootstrap_cards import BootstrapCards
from scilabel.corpus.templates.br_runs import BrRuns
from scilabel.corpus.templates.commentary_notes import CommentaryNotes
from scilabel.corpus.templates.definition_list import DefinitionList
from scilabel.corpus.templates.div_soup import DivSoup
from scilabel.corpus.templates.magazine_grid import MagazineGrid
from scilabel.corpus.templates.pmc_classic import PmcClassic
from scilabel.corpus.templates.portal_tabs import PortalTabs
from scilabel.corpus.templates.preprint_landing import PreprintLanding
from scilabel.corpus.templates.repository_record import RepositoryRecord
from scilabel.corpus.templates.semantic_html5 import SemanticHtml5
from scilabel.corpus.templates.spa_flat import SpaFlat
from scilabel.corpus.templates.table_layout import TableLayout
from scilabel.corpus.templates.wiki_markup import WikiMarkup
from scilabel.corpus.templates.word_export import WordExport

#: Every family by name, in a fixed order.
FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        SemanticHtml5(),
        DivSoup(),
        TableLayout(),
        BrRuns(),
        DefinitionList(),
        PortalTabs(),
        PreprintLanding(),
        PmcClassic(),
        MagazineGrid(),
        BootstrapCards(),
        WordExport(),
        RepositoryRecord(),
        CommentaryNotes(),
        WikiMarkup(),
        SpaFlat(),
    )
}

__all__ = ["FAMILIES", "Family", "PageContext", "RelatedItem"]
