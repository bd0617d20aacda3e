"""The documentation: its relative links resolve (scripts/check_links.py), and its result tables are
the kept evaluation JSON (scripts/results_tables.py)."""
import importlib.util
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("check_links", REPO / "scripts" / "check_links.py")
check_links = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_links)


def test_repository_links_resolve():
    assert check_links.broken_links(REPO) == []


def test_broken_links_are_found(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "README.md").write_text("# Data\n")
    (tmp_path / "docs" / "a.md").write_text("# Title\n### With `--baseline NAME`\n```\n# not a heading\n```\n")
    (tmp_path / "README.md").write_text(
        "[ok](docs/a.md#with---baseline-name) [ok](docs/a.md#title) [web](https://example.org/x)\n"
        "[bad](docs/a.md#not-a-heading) [gone](docs/missing.md)\n"
    )
    assert check_links.broken_links(tmp_path) == [
        "README.md: docs/a.md#not-a-heading: no heading with that anchor",
        "README.md: docs/missing.md: no such file",
    ]


def test_slug_follows_github():
    assert check_links.slug("Labelling rules (vetoes)") == "labelling-rules-vetoes"
    assert check_links.slug("Errors and exit codes") == "errors-and-exit-codes"


_spec = importlib.util.spec_from_file_location("results_tables", REPO / "scripts" / "results_tables.py")
results_tables = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(results_tables)


def _kept() -> tuple[dict, dict]:
    return json.loads(results_tables.KEPT.read_text()), json.loads(results_tables.KEPT_GOLD.read_text())


def test_result_tables_match_the_kept_evaluation_json():
    assert results_tables.stale_pages(*_kept()) == []


def test_a_changed_figure_makes_the_tables_stale():
    kept, kept_gold = _kept()
    for row in kept["summary"]:
        if row["system"] == "scilabel-svm" and row["level"] == "zone":
            row["title"] = 12.3
    assert results_tables.stale_pages(kept, kept_gold) == ["README.md", "docs/evaluation.md"]
    kept, kept_gold = _kept()
    kept_gold["summary"]["cv"]["authors"]["F1_macro"] = 0.123
    assert results_tables.stale_pages(kept, kept_gold) == ["README.md", "docs/evaluation.md"]


def test_tables_are_written_between_their_markers():
    rows = [{"system": "scilabel-svm", "dataset": "corpus", "level": "zone", "title": 99.04, "authors": None,
             "affiliations": 1.0, "abstract": 50.0, "references": 75.55}]
    text = "intro\n<!-- results:t -->\nold\n<!-- /results -->\nend\n"
    table = results_tables.table(rows, "zone", results_tables.FIELDS, ("scilabel-svm",))
    out = results_tables.rewrite(text, {"t": table})
    assert out.startswith("intro\n<!-- results:t -->\n| system | pages | title |")
    assert "| HMM + SVM (default) | generated | 99.0 | – | 1.0 | 50.0 | 75.5 |\n<!-- /results -->\nend\n" in out
    with pytest.raises(KeyError, match="no generated table named 'x'"):
        results_tables.rewrite("<!-- results:x -->\n<!-- /results -->", {"t": table})
