"""A minimal PDF writer for tests: pages of text runs set in the standard Helvetica faces at given places.

No library writes these files, so what the reader is tested on is exactly what the test says: each run
at its baseline, in its size and face, raised for a superscript. Coordinates are points from the page's
top-left corner (the baseline's height), as the reader reports them.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

#: The fonts a run may use: resource name -> base font (standard 14, nothing embedded).
FONTS = {"R": "Helvetica", "B": "Helvetica-Bold", "I": "Helvetica-Oblique"}


@dataclass(frozen=True)
class Run:
    """A run of text: left edge and baseline (points from the top-left), size, face, rise (superscripts),
    and extra space after every character (letter-spaced type)."""

    x: float
    y: float
    text: str
    size: float = 10.0
    face: str = "R"
    rise: float = 0.0
    spacing: float = 0.0


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def make_pdf(path: Path, pages: list[list[Run]], width: float = 612, height: float = 792,
             encrypted: bool = False, shapes: bool = False) -> Path:
    """Write a PDF of ``pages`` (each a list of runs) to ``path``. ``encrypted``: with a standard security
    handler no empty password opens; ``shapes``: each page also draws a filled rectangle (an image-only
    page when it has no runs)."""
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    fonts = {name: add(f"<< /Type /Font /Subtype /Type1 /BaseFont /{base} /Encoding /WinAnsiEncoding >>".encode())
             for name, base in FONTS.items()}
    font_refs = " ".join(f"/{name} {number} 0 R" for name, number in fonts.items())
    pages_number = len(objects) + 2 * len(pages) + 1
    kids = []
    for runs in pages:
        ops = ["0 0 0.8 rg 100 100 200 150 re f 0 g"] if shapes else []
        for run in runs:
            ops.append(f"BT /{run.face} {run.size:g} Tf {run.rise:g} Ts {run.spacing:g} Tc "
                       f"1 0 0 1 {run.x:g} {height - run.y:g} Tm ({_escape(run.text)}) Tj ET")
        stream = "\n".join(ops).encode("latin-1")
        content = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        kids.append(add(f"<< /Type /Page /Parent {pages_number} 0 R /MediaBox [0 0 {width:g} {height:g}] "
                        f"/Resources << /Font << {font_refs} >> >> /Contents {content} 0 R >>".encode()))
    add(f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>".encode())
    catalog = add(f"<< /Type /Catalog /Pages {pages_number} 0 R >>".encode())
    trailer_extra = ""
    if encrypted:
        encrypt = add(b"<< /Filter /Standard /V 1 /R 2 /O <" + b"ab" * 32 + b"> /U <" + b"cd" * 32 + b"> /P -4 >>")
        trailer_extra = f" /Encrypt {encrypt} 0 R /ID [<{'01' * 16}> <{'01' * 16}>]"
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R{trailer_extra} >>\nstartxref\n{xref}\n%%EOF\n".encode()
    Path(path).write_bytes(bytes(out))
    return Path(path)


#: Lines of body text, about 200 points wide at 10 points.
BODY = [
    "Reading order follows the columns of the page",
    "from the top of the left column to its foot",
    "and then on at the top of the right column",
    "as a reader of a printed journal would do",
]


def article_pages(two_columns: bool = True, n_pages: int = 2, references: int = 8) -> list[list[Run]]:
    """A small article: a running head and a page number on every page, a full-width bold title, authors
    with superscript affiliation markers, affiliations, an abstract, body text in one or two columns, and a
    numbered reference list that runs over to the last page."""
    pages: list[list[Run]] = []
    refs = [f"[{i}] Author{chr(65 + i)} B, Writer C. A study of reading order number {i}. J Tests. 20{10 + i};{i}:1-9."
            for i in range(1, references + 1)]
    for number in range(1, n_pages + 1):
        runs = [Run(72, 40, "Journal of Layout Tests 12 (2024) 100-120", 8), Run(300, 760, str(100 + number), 8)]
        y = 100.0
        if number == 1:
            runs += [Run(110, y, "Columns and Superscripts in Printed Articles", 16, "B")]
            y += 30
            runs += [Run(150, y, "Ada Lovelace", 11), Run(214.5, y, "1", 7, rise=4),
                     Run(225, y, "Charles Babbage", 11), Run(306, y, "2", 7, rise=4)]
            y += 20
            runs += [Run(120, y, "1 Department of Analytical Engines, University of London, UK", 9)]
            y += 13
            runs += [Run(120, y, "2 Difference Engine Institute, Cambridge, UK", 9)]
            y += 30
            runs += [Run(72, y, "Abstract", 11, "B")]
            y += 15
            for line in ("We test how a reader of PDF files finds the columns of a page and the order",
                         "of its lines, with a running head, page numbers and superscript markers."):
                runs.append(Run(72, y, line, 10))
                y += 12
            y += 20
        columns = (72, 330) if two_columns else (72,)
        top = y
        for x in columns:
            y = top
            for paragraph in range(2):
                for line in BODY:
                    text = f"{line} {'(left)' if x == 72 else '(right)'}" if two_columns else f"{line} {line}"
                    runs.append(Run(x, y, text, 10))
                    y += 12
                y += 10
        if number == n_pages:
            y += 20
            runs.append(Run(72, y, "References", 11, "B"))
            y += 16
            for ref in refs:
                runs.append(Run(72, y, ref, 9))
                y += 14
        pages.append(runs)
    return pages
