"""Check that the relative links of the repository's Markdown files resolve, anchors included.

    python scripts/check_links.py [REPO]

Checks README.md, docs/*.md and data/README.md: every ``[text](target)`` that is not a URL must name
an existing file, and a ``#fragment`` into a Markdown file must match one of its headings as GitHub
turns them into anchors. Prints each broken link and exits 1 when there is one.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

_FENCE = re.compile(r"```.*?```", re.S)
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_HEADING = re.compile(r"#{1,6}\s+(.*)")


def markdown_files(repo: Path) -> list[Path]:
    """The Markdown files whose links are checked."""
    return [repo / "README.md", *sorted((repo / "docs").glob("*.md")), repo / "data" / "README.md"]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings (repeats numbered ``-1``, ``-2`` as GitHub does)."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in _FENCE.sub("", path.read_text(encoding="utf-8")).splitlines():
        match = _HEADING.match(line)
        if match:
            name = slug(match.group(1))
            found.add(f"{name}-{seen[name]}" if name in seen else name)
            seen[name] = seen.get(name, 0) + 1
    return found


def broken_links(repo: Path) -> list[str]:
    """``file: problem`` for every relative link of :func:`markdown_files` that does not resolve."""
    problems = []
    for source in markdown_files(repo):
        for target in _LINK.findall(_FENCE.sub("", source.read_text(encoding="utf-8"))):
            if re.match(r"[a-z][a-z+.-]*:", target):
                continue
            path, _, fragment = target.partition("#")
            dest = (source.parent / path).resolve() if path else source
            name = source.relative_to(repo)
            if not dest.exists():
                problems.append(f"{name}: {target}: no such file")
            elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
                problems.append(f"{name}: {target}: no heading with that anchor")
    return problems


def main() -> int:
    repo = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1])
    problems = broken_links(repo)
    for problem in problems:
        print(problem)
    print(f"{len(problems)} broken links")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
