"""The documentation's relative links resolve (scripts/check_links.py)."""
import importlib.util
from pathlib import Path

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
