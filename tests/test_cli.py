"""The command line end to end, with real Chromium and the shipped models."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from scilabel.cli import HMM_SETTINGS, build_parser, main
from scilabel.hmm import TRANSITION_SETTINGS
from scilabel.labeler import ZoneLabeler
from scilabel.record_schema import validate_record
from scilabel.readers.render import Renderer
from scilabel.schema import DEFAULT_TOPOLOGY, LABELS, TOPOLOGIES
from scilabel.zones import collect_zones

from .conftest import EXAMPLE_PAGE


@pytest.fixture(scope="module")
def gold_labels(renderer) -> list[str]:
    return [z.label for z in collect_zones(renderer.render(EXAMPLE_PAGE))]


def label_example(capsys, *extra: str) -> dict:
    assert main(["label", str(EXAMPLE_PAGE), *extra]) == 0
    record = json.loads(capsys.readouterr().out)
    validate_record(record, "label")
    return record


def test_default_model_labels_example_page_exactly_as_its_gold(capsys, gold_labels):
    record = label_example(capsys)
    assert record["model"] == "scilabel-svm"
    zones = record["zones"]
    assert [z["label"] for z in zones] == gold_labels
    assert all(set(z) == {"label", "state", "text", "bbox", "page", "confidence"} and len(z["bbox"]) == 4 for z in zones)
    assert {z["page"] for z in zones} == {1}  # a web page is one page
    assert all(z["label"] in LABELS and 0.0 <= z["confidence"] <= 1.0 for z in zones)
    assert record["title"] == "Seasonal shifts in nectar foraging by urban Bombus bumblebees"
    assert record["authors"] == ["Marta Kowalczyk", "Daniel O. Reyes", "Ingrid Halvorsen"]
    assert record["affiliations"] == ["Department of Biology, Northfield University, Northfield, UK",
                                      "Institute for Urban Ecology, Lakeside Research Centre, Oslo, Norway"]
    assert record["abstract"].startswith("Cities offer bumblebees")
    refs = record["references"]
    assert [r["year"] for r in refs] == ["2015", "2019", "2010", "2021"]
    assert record["anchor_format"] == "bracket-number"
    assert [a["family"] for a in refs[1]["authors"]] == ["Timberlake", "Vaughan", "Memmott"]
    assert (refs[1]["container"], refs[1]["volume"], refs[1]["issue"], refs[1]["pages"]) == ("J Appl Ecol", "56", "7", "1585–1596")
    # "[2, 3]" cites the second and third entries from one sentence; every entry is cited once
    assert refs[1]["contexts"] == refs[2]["contexts"] and "[2, 3]" in refs[1]["contexts"][0]
    assert all(len(r["contexts"]) == 1 for r in refs)


def test_no_references_leaves_them_unparsed_and_the_header_as_it_was(capsys):
    record = label_example(capsys, "--no-references")
    assert record["references"] is None and record["anchor_format"] is None
    assert record["title"] == "Seasonal shifts in nectar foraging by urban Bombus bumblebees"
    assert record["authors"] == ["Marta Kowalczyk", "Daniel O. Reyes", "Ingrid Halvorsen"]
    assert any(z["label"] == "references" for z in record["zones"])  # the zones are still labelled
    assert main(["label", str(EXAMPLE_PAGE), "--no-references", "--format", "bibtex"]) == 1
    assert "--no-references" in capsys.readouterr().err


def test_naive_bayes_model_finds_the_front_matter_and_references(capsys, gold_labels):
    record = label_example(capsys, "--model", "nb")
    assert record["model"] == "scilabel-nb"
    assert record["title"] == "Seasonal shifts in nectar foraging by urban Bombus bumblebees"
    assert record["authors"] == ["Marta Kowalczyk", "Daniel O. Reyes", "Ingrid Halvorsen"]
    assert len(record["references"]) == 4
    agree = sum(z["label"] == g for z, g in zip(record["zones"], gold_labels))
    assert agree / len(gold_labels) >= 0.85


def test_label_tsv_and_overlay(capsys, tmp_path):
    overlay = tmp_path / "overlay.png"
    assert main(["label", str(EXAMPLE_PAGE), "--format", "tsv", "--overlay", str(overlay)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("\t") == ["label", "state", "confidence", "x", "y", "w", "h", "text"]
    assert any(line.startswith("title\tTitle\t") for line in lines)
    assert overlay.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_command_ends_with_its_output_whole():
    """The process ends without tearing its modules down (``cli.run``), after flushing: the record on a
    pipe, which Python buffers whole until the end, arrives complete."""
    run = subprocess.run([sys.executable, "-m", "scilabel", "label", str(EXAMPLE_PAGE), "--format", "jsonl"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    (line,) = run.stdout.splitlines()
    assert json.loads(line)["title"].startswith("Seasonal shifts in nectar foraging")


def test_the_command_runs_exit_handlers_and_flushes_before_it_ends():
    """``cli.run`` ends the process itself: the status is kept, exit handlers (logging's, multiprocessing's)
    still run, and text printed to a pipe, buffered until the end, is flushed first."""
    script = ("import atexit, sys, scilabel.cli as cli\n"
              "def main():\n"
              "    atexit.register(lambda: print('handler ran', file=sys.stderr))\n"
              "    print('printed, not flushed')\n"
              "    return 3\n"
              "cli.main = main\n"
              "cli.run()\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # buffered, as a pipe is by default
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=env)
    assert (run.returncode, run.stdout, run.stderr) == (3, "printed, not flushed\n", "handler ran\n")


def test_the_command_waits_for_a_thread_still_running():
    """Where ``main`` leaves a thread that is no daemon running, the process ends the usual way: the
    thread finishes its work."""
    script = ("import sys, threading, time, scilabel.cli as cli\n"
              "def work():\n"
              "    time.sleep(0.3)\n"
              "    print('thread done', flush=True)\n"
              "def main():\n"
              "    threading.Thread(target=work).start()\n"
              "    return 0\n"
              "cli.main = main\n"
              "cli.run()\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stdout) == (0, "thread done\n")


def test_errors_are_one_line_and_exit_non_zero(capsys, tmp_path):
    bad_model = tmp_path / "bad.npz"
    bad_model.write_text("nonsense")
    binary = tmp_path / "binary.html"
    binary.write_bytes(b"\x00\xff" * 500)
    cases = [
        (["label", str(tmp_path / "missing.html")], "missing.html: no such file"),
        (["label", str(binary)], "binary content"),  # found by the reader's thread while the models load
        (["label", str(EXAMPLE_PAGE), "--model", str(bad_model)], "bad.npz: not a scilabel model"),
        (["refs", "--string", "A. Author. A title. 2001.", "--refs-model", str(bad_model)],
         "bad.npz: not a scilabel reference model"),
        (["zones", str(tmp_path / "missing.html")], "no such file"),
    ]
    # one case in a process of its own (nothing else reaches stderr: no traceback, no log line) ...
    run = subprocess.run([sys.executable, "-m", "scilabel", *cases[1][0]], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [f"scilabel: error: {run.stderr.split('error: ', 1)[1].strip()}"]
    assert cases[1][1] in run.stderr
    # ... and every case through the same entry point in this one
    for args, message in cases:
        assert main(args) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("scilabel: error: ") and message in err[0]


def test_refs_command_on_a_page_and_a_string(capsys, tmp_path):
    assert main(["refs", str(EXAMPLE_PAGE)]) == 0
    record = json.loads(capsys.readouterr().out)
    validate_record(record, "refs")
    assert record["anchor_format"] == "bracket-number" and len(record["references"]) == 4
    assert record["references"][3]["contexts"] == [
        "Plant identity, origin and flower counts were recorded for each visit, following the protocol of earlier "
        "surveys [4]."
    ]
    out = tmp_path / "refs.bib"
    assert main(["refs", str(EXAMPLE_PAGE), "--format", "bibtex", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").count("@") == 4
    text = "Smith JA, Jones K. Growth of cells in culture. J Biol. 2001;12(3):45-67. doi:10.1000/jb.2001.12"
    assert main(["refs", "--string", text, "--format", "csl"]) == 0
    [item] = json.loads(capsys.readouterr().out)
    assert item["type"] == "article-journal" and item["DOI"] == "10.1000/jb.2001.12"
    assert [a["family"] for a in item["author"]] == ["Smith", "Jones"] and item["issue"] == "3"
    for args in (["refs"], ["refs", str(EXAMPLE_PAGE), "--string", text], ["refs", "--string", " "]):
        assert main(args) == 1
    assert capsys.readouterr().err.count("scilabel: error:") == 3


def test_train_refs_writes_a_parser_with_its_card(shared_data, capsys, tmp_path):
    from scilabel.references import load_parser

    from .conftest import SHARED_DATA

    lines = (SHARED_DATA / "references" / "ParsCit" / "cora.tagged.txt").read_text(encoding="utf-8").splitlines()
    data = tmp_path / "data"
    (data / "references" / "ParsCit").mkdir(parents=True)
    (data / "jats").mkdir()
    (data / "references" / "ParsCit" / "cora.tagged.txt").write_text("\n".join(lines[:120]) + "\n", encoding="utf-8")
    out = tmp_path / "refs.npz"
    assert main(["train-refs", "--data", str(data), "--out", str(out)]) == 0
    card = json.loads(capsys.readouterr().out)
    parser = load_parser(out)
    assert card["training_references"]["parscit"] == parser.model_card_["training_references"]["parscit"] > 50
    assert parser.parse("J. Smith. Learning to parse. In Proc. of ICML, 1999.")["year"] == "1999"


def test_zones_command_formats(capsys):
    assert main(["zones", str(EXAMPLE_PAGE), "--format", "jsonl"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[4]["text"].startswith("Seasonal shifts") and rows[4]["label"] == "title"
    assert main(["zones", str(EXAMPLE_PAGE)]) == 0
    assert "Seasonal shifts" in capsys.readouterr().out


def test_baselines_share_the_output_schema(capsys, tmp_path):
    record = label_example(capsys, "--baseline", "metatags")
    assert record["model"] == "metatags" and record["title"] == "Seasonal shifts in nectar foraging by urban bumblebees"
    assert record["authors"] == ["Marta Kowalczyk", "Daniel O. Reyes", "Ingrid Halvorsen"]
    assert all(z["bbox"] is None and z["label"] in LABELS for z in record["zones"])
    assert record["abstract"] is None and record["anchor_format"] is None and record["warnings"] == []
    case_base = tmp_path / "cases.joblib"
    label_example(capsys, "--baseline", "cbr", "--case-base", str(case_base))
    assert case_base.stat().st_size > 0
    assert main(["label", str(EXAMPLE_PAGE), "--baseline", "trafilatura", "--model", "nb"]) == 1


def test_evaluate_puts_models_and_baselines_in_one_table(capsys, tmp_path, renderer):
    from scilabel.zones import zones_frame

    folder = tmp_path / "example"
    folder.mkdir()
    page = renderer.render(EXAMPLE_PAGE)
    zones = zones_frame(collect_zones(page), page).assign(document="example", split="test", group="example")
    zones.to_parquet(folder / "zones.parquet")
    (folder / "manifest.csv").write_text(f"document,split,family,html_path\nexample,test,example,{EXAMPLE_PAGE}\n")
    out = tmp_path / "eval"
    assert main(["evaluate", "--model", "svm", "--data", str(folder), "--baselines", "metatags", "sentences",
                 "--out", str(out)]) == 0
    table = json.loads((out / "systems.json").read_text())
    rows = {row["system"]: row for row in table}
    assert set(rows) == {"scilabel-svm", "metatags", "sentences"}
    assert rows["scilabel-svm"]["title"] == 100.0 and rows["metatags"]["title"] > 90
    assert rows["sentences"]["title"] is None and rows["sentences"]["content"] > 50
    assert rows["scilabel-svm"]["content"] > 90  # abstract and body, as the structure keeps them
    # the model's time per page counts the browser, timed on the dataset's own pages
    assert 0 < rows["scilabel-svm"]["render_ms"] < rows["scilabel-svm"]["ms_per_page"]
    assert rows["metatags"]["render_ms"] is None


def test_structure_command_formats(capsys, tmp_path):
    from lxml import etree

    assert main(["structure", str(EXAMPLE_PAGE)]) == 0
    paper = etree.fromstring(capsys.readouterr().out.encode("utf-8"))
    assert paper.tag == "paper" and paper.findtext("title").startswith("Seasonal shifts")
    assert [(s.get("number"), s.findtext("title")) for s in paper.iter("section")] == [
        ("1", "Introduction"), ("2", "Methods"), (None, "References")]  # the bibliography's heading is a section
    cited = [s.get("cites") for s in paper.iter("sentence") if s.get("cites")]
    assert cited == ["r1", "r2 r3", "r4"]
    out = tmp_path / "paper.jats.xml"
    assert main(["structure", str(EXAMPLE_PAGE), "--format", "jats", "-o", str(out)]) == 0
    jats = etree.parse(str(out)).getroot()
    assert jats.tag == "article" and len(jats.findall("back/ref-list/ref")) == 4
    assert jats.find("front/article-meta") is not None and len(jats.findall("body/sec")) == 2  # no References section
    assert main(["structure", str(EXAMPLE_PAGE), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    validate_record(data, "structure")
    assert data["title"].startswith("Seasonal shifts") and len(data["references"]) == 4
    assert main(["structure", str(tmp_path / "missing.html"), "-o", str(tmp_path / "x.xml")]) == 1
    assert not (tmp_path / "x.xml").exists()


def test_train_takes_hmm_transition_settings():
    parse = build_parser().parse_args
    base = ["train", "--data", "d", "--out", "m.joblib"]
    assert not any(hasattr(parse(base), name) for name in HMM_SETTINGS)  # ZoneLabeler's defaults apply
    args = parse([*base, "--br-self-loop", "counted", "--barh-to-references", "0.02", "--gap-self-loop", "0.5",
                  "--affiliations-to-barh", "counted"])
    assert (args.br_self_loop, args.barh_to_references, args.gap_self_loop, args.affiliations_to_barh) == (
        None, 0.02, 0.5, None)
    assert set(HMM_SETTINGS) == set(TRANSITION_SETTINGS) and set(HMM_SETTINGS) <= set(ZoneLabeler().get_params())
    for bad in ("1", "0", "-0.2", "often"):
        with pytest.raises(SystemExit):
            parse([*base, "--br-self-loop", bad])


def test_train_takes_a_seed():
    parse = build_parser().parse_args
    base = ["train", "--data", "d", "--out", "m.joblib"]
    assert parse(base).random_state == 0 and parse([*base, "--random-state", "2"]).random_state == 2


def test_train_offers_every_hmm_topology():
    parse = build_parser().parse_args
    base = ["train", "--data", "d", "--out", "m.joblib"]
    assert parse(base).topology == "end_matter" == DEFAULT_TOPOLOGY == ZoneLabeler().topology
    for name in TOPOLOGIES:
        assert parse([*base, "--topology", name]).topology == name
    with pytest.raises(SystemExit):
        parse([*base, "--topology", "loopy"])


def test_stale_tags_are_outvoted_by_the_layout_and_flagged(capsys, tmp_path, gold_labels):
    """A page whose tags describe another article keeps its visible title, and says they disagree; the
    layout-only mode labels it as if it declared nothing."""
    html = re.sub(r'<meta name="citation_(?:title|author)" [^>]*>\n', "", EXAMPLE_PAGE.read_text(encoding="utf-8"))
    stale = tmp_path / "stale.html"
    stale.write_text(html.replace("</head>", '<meta name="citation_title" content="Leaf litter decay in boreal '
                                  'streams">\n<meta name="citation_author" content="Quinn, Zoe">\n</head>', 1))
    assert main(["label", str(stale)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert [z["label"] for z in record["zones"]] == gold_labels
    assert record["title"].startswith("Seasonal shifts in nectar foraging")
    assert {c["field"] for c in record["metadata_conflicts"]} >= {"title", "authors"}
    assert record["provenance"]["title"] == "page"
    assert main(["label", str(stale), "--no-page-metadata"]) == 0
    blind = json.loads(capsys.readouterr().out)
    assert "metadata" not in blind and "provenance" not in blind
    assert [z["label"] for z in blind["zones"]] == gold_labels
