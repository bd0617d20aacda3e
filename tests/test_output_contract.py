"""One output contract for `label`, `refs` and `structure`: a page (or ``-``) gives one record, anything
that can hold several pages gives JSON lines and a failures report, and every record fits the JSON
Schema shipped in the package."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from scilabel.cli import main
from scilabel.overlay import overlay_path
from scilabel.record_schema import RECORD_KINDS, record_schema, validate_record

from .conftest import EXAMPLE_PAGE


def test_every_shipped_schema_is_a_valid_json_schema():
    import jsonschema

    for kind in RECORD_KINDS:
        jsonschema.Draft202012Validator.check_schema(record_schema(kind))
    with pytest.raises(jsonschema.ValidationError):  # a baseline's old empty strings no longer fit
        validate_record({"source": "x", "model": "m", "zones": [], "title": "", "authors": [], "affiliations": [],
                         "abstract": "", "references": [], "anchor_format": None, "warnings": []} | {"title": 3}, "label")


def test_overlays_of_same_named_pages_keep_apart(tmp_path):
    assert overlay_path(tmp_path, "pages/x/index.html") == tmp_path / "pages/x/index.png"
    assert overlay_path(tmp_path, "pages/y/index.html") != overlay_path(tmp_path, "pages/x/index.html")
    assert overlay_path(tmp_path, "/abs/../p.htm") == tmp_path / "abs/p.png"
    assert overlay_path(tmp_path, "https://example.org/a/b?id=1") == tmp_path / "example.org/a/b/id_1.png"


def test_overlay_has_a_legend_and_tags_that_cover_no_text(tmp_path):
    from scilabel.overlay import LEGEND_HEIGHT, TAG_HEIGHT, draw_overlay, tag_position

    shot = tmp_path / "page.png"
    Image.new("RGB", (400, 300), "white").save(shot)
    zones = [((20, 10, 300, 20), "title"), ((20, 34, 300, 16), "authors"), ((20, 60, 300, 80), "other")]
    out = draw_overlay(shot, zones, tmp_path / "overlay.png")
    with Image.open(out) as picture:
        assert picture.size == (400, 300 + LEGEND_HEIGHT)
        assert picture.getpixel((14, 13)) == (230, 57, 70)  # the legend's first swatch: title
    taken = [(x, y, x + w, y + h) for (x, y, w, h), _ in zones]
    # the authors' box sits between the title and a paragraph: its tag goes beside it, on no text
    place = tag_position((18, 32, 322, 52), 50, taken, (400, 300))
    assert not any(place[0] < b[2] and b[0] < place[2] and place[1] < b[3] and b[1] < place[3] for b in taken)
    assert place[3] - place[1] == TAG_HEIGHT


def test_a_directory_gives_json_lines_and_failures_whatever_the_count(capsys, tmp_path):
    pages = tmp_path / "pages"
    for folder in ("x", "y"):
        (pages / folder).mkdir(parents=True)
        (pages / folder / "index.html").write_text(EXAMPLE_PAGE.read_text(encoding="utf-8"), encoding="utf-8")
    (pages / "bad.html").write_bytes(b"\x00\xff" * 300)
    out, failures, overlays = tmp_path / "out.jsonl", tmp_path / "failed.jsonl", tmp_path / "overlays"
    sheet = tmp_path / "sheet.png"
    assert main(["label", str(pages), "-o", str(out), "--failures", str(failures), "--overlay", str(overlays),
                 "--contact-sheet", str(sheet)]) == 3
    err = capsys.readouterr().err
    assert "bad.html: not an HTML page (binary content)" in err and "1 of 3 pages failed" in err
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert sorted(Path(r["source"]).parent.name for r in records) == ["x", "y"]
    for record in records:
        validate_record(record, "label")
        assert overlay_path(overlays, record["source"]).read_bytes()[:4] == b"\x89PNG"
    with Image.open(sheet) as picture:  # two pages side by side
        assert picture.width > 2 * 320 and picture.height > 400
    [failure] = [json.loads(line) for line in failures.read_text(encoding="utf-8").splitlines()]
    validate_record(failure, "failure")
    assert failure["source"].endswith("bad.html")

    one = tmp_path / "one"
    one.mkdir()
    (one / "a.html").write_text(EXAMPLE_PAGE.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["structure", str(one)]) == 0  # one page in a directory is still a line of JSON
    [line] = capsys.readouterr().out.splitlines()
    article = json.loads(line)
    validate_record(article, "structure")
    assert article["source"].endswith("a.html") and len(article["references"]) == 4
    assert main(["structure", str(one), "--format", "jats"]) == 1  # many pages are JSON lines only
    assert "JSON lines" in capsys.readouterr().err


def test_standard_input_is_one_page(capsys, monkeypatch):
    html = EXAMPLE_PAGE.read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(html)))
    assert main(["refs", "-"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("{\n")  # pretty
    record = json.loads(out)
    validate_record(record, "refs")
    assert len(record["references"]) == 4 and record["anchor_format"] == "bracket-number"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"not a page")))
    assert main(["label", "-"]) == 1
    assert "-: standard input is not an HTML page" in capsys.readouterr().err


def test_contract_misuse_is_a_one_line_error(capsys, tmp_path):
    cases = [
        (["refs", "--string", "Heinrich B. Bumblebee economics. 2004.", "--compact", "--format", "bibtex"],
         "--compact writes a JSON record on one line: not --format bibtex"),
        (["label", str(EXAMPLE_PAGE), "--contact-sheet", str(tmp_path / "s.png")], "--contact-sheet gathers"),
        (["label", "-", str(EXAMPLE_PAGE)], "-: standard input is one page"),
        (["structure", str(tmp_path)], "no pages to read"),
    ]
    for args, message in cases:
        assert main(args) == 1
        assert message in capsys.readouterr().err
    assert main(["refs", "--string", "Heinrich B. Bumblebee economics. Cambridge, MA: Harvard University Press; 2004.",
                 "--compact"]) == 0
    [line] = capsys.readouterr().out.splitlines()
    assert json.loads(line)["publisher"] == "Harvard University Press"
