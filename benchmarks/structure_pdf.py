"""Section headings of real PDFs: ``scilabel structure paper.pdf`` against the publisher's own JATS (issue 41).

    .venv/bin/python benchmarks/structure_pdf.py [--pdfs ../shared/data/pdfs] [--gold-out build/pdf-structure-gold]
        [--block-model models/scilabel-blocks.npz] [--model MODEL] [--records out.jsonl]

The real PDFs of ``../shared/data/pdfs`` whose gold was read from publisher XML (JATS: the SciELO and PMC
papers) give heading gold the way ``../shared/data/gold-structure`` does for web pages: every section and
subsection title of the body and back matter (levels from nesting, deeper than 3 counted as 3) and the
reference list's title, in reading order, each kept only when its words run on in the PDF's text
(a heading the publisher's XML has and the PDF does not print, such as an online-only "Supplementary
material", is left out and listed). The gold is written in ``score_structure.py``'s format, so

    python ../shared/tools/score_structure.py --gold build/pdf-structure-gold --root ../shared/data/pdfs \\
        --records out.jsonl

scores the same structures (``--records`` writes them); the figures printed here are the same counts
(:func:`scilabel.structure.gold.heading_counts`): heading precision, recall, F1 and level accuracy, per
PDF and over all.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
from collections import Counter
from pathlib import Path

import pypdfium2

from scilabel.corpus.jats import parse_jats
from scilabel.persistence import load_model, model_path
from scilabel.readers import PDFiumReader
from scilabel.references import load_parser
from scilabel.structure import structure_page
from scilabel.structure.gold import article_headings, heading_counts, heading_summary, normalise
from scilabel.structure.training import load_block_model
from scilabel.writers.json import article_json

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data" / "pdfs"


def pdf_words(pdf: Path) -> str:
    """The PDF's text as normalised words, one space apart, with spaces at both ends."""
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        text = " ".join(page.get_textpage().get_text_range() for page in document)
    finally:
        document.close()
    return f" {normalise(text.replace(chr(0xAD), ''))} "


def jats_headings(xml: Path) -> list[dict]:
    """Headings of a JATS article: its sections depth first (level = depth, at most 3), then the
    reference list's title."""
    article = parse_jats(xml)
    out = [{"text": " ".join(filter(None, (sec.label, sec.title))), "level": min(depth, 3)}
           for depth, sec in article.iter_sections() if (sec.title or sec.label or "").strip()]
    if article.references_title:
        out.append({"text": article.references_title, "level": 1})
    return out


def build_gold(pdfs: Path, out: Path) -> dict[str, list[dict]]:
    """Write the heading gold of every PDF whose gold came from publisher JATS; page -> headings."""
    gold = {}
    for path in sorted(pdfs.glob("gold/*/*.json")):
        meta = json.loads(path.read_text(encoding="utf-8"))
        if not (meta["gold_kind"].startswith("publisher") and meta["gold_source"].endswith(".xml")):
            continue
        words = pdf_words(pdfs / meta["page"])
        headings, missing = [], []
        for heading in jats_headings(pdfs / meta["gold_source"]):
            (headings if f" {normalise(heading['text'])} " in words else missing).append(heading)
        if missing:
            logging.info("%s: not printed in the PDF: %s", meta["page"], "; ".join(h["text"] for h in missing))
        record = {"page": meta["page"], "publisher": meta["publisher"], "gold_source": meta["gold_source"],
                  "headings": headings, "not_printed": [h["text"] for h in missing]}
        target = out / path.parent.name / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")
        gold[meta["page"]] = headings
    return gold


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdfs", type=Path, default=SHARED)
    parser.add_argument("--gold-out", type=Path, default=REPO / "build" / "pdf-structure-gold")
    parser.add_argument("--model", default=os.environ.get("SCILABEL_MODEL", "svm"), help="zone labeller (default: svm)")
    parser.add_argument("--block-model", type=Path, help="block model file (default: the shipped one)")
    parser.add_argument("--records", type=Path, help="write the structures as JSON lines (for score_structure.py)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    gold = build_gold(args.pdfs, args.gold_out)
    labeler, refs = load_model(model_path(args.model)), load_parser()
    blocks = load_block_model(args.block_model) if args.block_model else None
    total, lines = Counter(), []
    print(f"{'page':62} {'gold':>4} {'pred':>4} {'tp':>4} {'level':>5}")
    with PDFiumReader() as reader:
        for page, headings in gold.items():
            article = structure_page(reader, labeler, refs, args.pdfs / page, blocks)
            counts = heading_counts(headings, article_headings(article))
            total.update(counts)
            print(f"{page:62} {counts['gold']:4} {counts['pred']:4} {counts['tp']:4} {counts['level_ok']:5}")
            lines.append(json.dumps({**article_json(article), "source": os.path.realpath(args.pdfs / page)},
                                    ensure_ascii=False))
    s = heading_summary(total)
    print(f"headings of {len(gold)} PDFs: precision {s['precision']:.3f}, recall {s['recall']:.3f}, "
          f"F1 {s['f1']:.3f}, level accuracy {s['level_accuracy']:.3f} ({s['gold']} gold headings)")
    if args.records:
        args.records.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


if __name__ == "__main__":
    main()
