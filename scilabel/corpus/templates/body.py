"""Article content (abstract, sections, captions, footnotes) in a family's own markup idiom.

A :class:`BodySpec` holds format strings; ``{attrs}`` receives the gold content/structure
attributes, ``{html}`` escaped inline HTML, ``{text}`` escaped plain text. A table's ``{grid}``
receives its cells in the family's grid markup (tables are ``other``: no gold attributes).
"""

from __future__ import annotations

from dataclasses import dataclass

from scilabel.corpus.jats import Article, Caption, ItemList, Paragraph, Section
from scilabel.corpus.templates.base import content, esc, section_attrs
from scilabel.corpus.templates.citations import Citer


@dataclass(frozen=True)
class BodySpec:
    section: str = '<section id="{id}"{attrs}>\n{inner}</section>\n'
    #: Container for nested sections (level 2 and 3); ``section`` when None.
    subsection: str | None = None
    headings: tuple[str, str, str] = (
        "<h2{attrs}>{text}</h2>\n",
        "<h3{attrs}>{text}</h3>\n",
        "<h4{attrs}>{text}</h4>\n",
    )
    paragraph: str = "<p{attrs}>{html}</p>\n"
    ulist: str = "<ul>\n{items}</ul>\n"
    olist: str = "<ol>\n{items}</ol>\n"
    item: str = "<li{attrs}>{html}</li>\n"
    figure: str = (
        '<figure class="fig" id="{id}"><div class="fig-img"></div>'
        "<figcaption{attrs}><b>{label}</b> {text}</figcaption></figure>\n"
    )
    table: str = '<div class="tbl" id="{id}"><p class="tbl-cap"{attrs}><b>{label}</b> {text}</p>{grid}</div>\n'
    #: A table's cells: ``grid`` holds the ``{rows}``, each row the ``{cells}``, header row first.
    grid: str = '<table class="data">\n{rows}</table>\n'
    grid_row: str = "<tr>{cells}</tr>\n"
    grid_head_cell: str = "<th>{text}</th>"
    grid_cell: str = "<td>{text}</td>"
    #: Section numbers from JATS labels are shown when present.
    show_labels: bool = True


def heading_text(sec: Section, show_labels: bool = True) -> str:
    label = sec.label if show_labels and sec.label else ""
    return f"{label} {sec.title}".strip() if sec.title else label


def render_blocks(blocks: list, citer: Citer, spec: BodySpec) -> str:
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Paragraph):
            out.append(spec.paragraph.format(attrs=content("paragraph"), html=citer.runs(block.runs)))
        elif isinstance(block, ItemList):
            items = "".join(spec.item.format(attrs=content("item"), html=citer.runs(i.runs)) for i in block.items)
            out.append((spec.olist if block.ordered else spec.ulist).format(items=items))
        elif isinstance(block, Caption):
            out.append(caption_html(block, spec))
    return "".join(out)


def caption_html(cap: Caption, spec: BodySpec) -> str:
    fmt = spec.table if cap.kind == "table" else spec.figure
    return fmt.format(
        id=esc(cap.float_id or "float"), attrs=content("caption"), label=esc(cap.label), text=esc(cap.text),
        grid=grid_html(cap.rows, spec),
    )


def grid_html(rows: list[list[str]], spec: BodySpec) -> str:
    """A table's cells in the family's grid markup; empty for a table without cells."""
    if not rows:
        return ""
    out = []
    for i, row in enumerate(rows):
        cell = spec.grid_head_cell if i == 0 else spec.grid_cell
        out.append(spec.grid_row.format(cells="".join(cell.format(text=esc(text)) for text in row)))
    return spec.grid.format(rows="".join(out))


def render_sections(
    sections: list[Section], citer: Citer, spec: BodySpec, level: int = 1, prefix: str = "sec"
) -> str:
    out: list[str] = []
    for i, sec in enumerate(sections, 1):
        sid = f"{prefix}-{i}"
        head = heading_text(sec, spec.show_labels)
        inner = ""
        if head:
            fmt = spec.headings[min(level, 3) - 1]
            inner += fmt.format(attrs=content("heading"), text=esc(head), id=sid)
        inner += render_blocks(sec.paragraphs, citer, spec)
        inner += render_sections(sec.subsections, citer, spec, level + 1, sid)
        container = spec.subsection if level > 1 and spec.subsection else spec.section
        out.append(container.format(id=sid, attrs=section_attrs(level), inner=inner, level=min(level, 3)))
    return "".join(out)


def render_body(article: Article, citer: Citer, spec: BodySpec = BodySpec()) -> str:
    return render_sections(article.sections, citer, spec)


def render_abstract(
    article: Article,
    citer: Citer,
    *,
    paragraph: str = "<p{attrs}>{html}</p>\n",
    part_title: str = "<h3{attrs}>{text}</h3>\n",
    inline_titles: bool = False,
) -> str:
    """Inner HTML of the abstract; structured-abstract titles are headed parts or run-in bold."""
    out: list[str] = []
    for part in article.abstract:
        paras = [citer.runs(p.runs) for p in part.paragraphs]
        if part.title and inline_titles and paras:
            paras[0] = f"<b>{esc(part.title)}:</b> {paras[0]}"
        elif part.title:
            out.append(part_title.format(attrs=content(), text=esc(part.title)))
        out.extend(paragraph.format(attrs=content(), html=p) for p in paras)
    return "".join(out)


def render_footnotes(article: Article, item: str = "<li{attrs}>{text}</li>\n") -> str:
    return "".join(
        item.format(attrs=content("footnote"), text=esc(t), n=i) for i, t in enumerate(article.footnotes, 1)
    )


def section_titles(article: Article) -> list[tuple[str, str]]:
    """(anchor id, title) of the titled top-level sections, for tables of contents."""
    return [(f"sec-{i}", heading_text(s)) for i, s in enumerate(article.sections, 1) if s.title]
