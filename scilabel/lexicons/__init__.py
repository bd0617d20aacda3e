"""Word lists shared by every stage, kept as data: one ``NAME.txt`` file per list in this package.

A file holds one entry per line; blank lines and lines starting with ``#`` are skipped. Its header
comment says what the list is for and which modules read it, and may declare two things about it:

``# kind: words`` (the default) or ``# kind: patterns``
    whether the entries are literal words and phrases (escaped when compiled) or regular expressions;
``# case: insensitive`` (the default) or ``# case: sensitive``
    whether the list is matched in any case (its entries are then written in lower case) or as written.

Adding an entry is a one-line edit of the file; every reader sees it on its next import.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

#: The declarations a lexicon's header may make, with their allowed values (the first is the default).
DECLARATIONS: dict[str, tuple[str, ...]] = {"kind": ("words", "patterns"), "case": ("insensitive", "sensitive")}
_DECLARATION = re.compile(r"#\s*(\w+)\s*:\s*(\w+)\s*$")


@dataclass(frozen=True)
class Lexicon:
    """One word list: its ``name`` (the file's stem), its ``entries`` in file order, whether they are
    regular expressions (``patterns``) and whether they are matched in any case (``ignore_case``)."""

    name: str
    entries: tuple[str, ...]
    patterns: bool = False
    ignore_case: bool = True

    def alternation(self) -> str:
        """The entries as one non-capturing regular-expression group, longest first (so that a phrase
        wins over a word it starts with), escaped unless they are patterns, in any case unless the list
        is case-sensitive: ``(?i:editors|editor)``."""
        parts = self.entries if self.patterns else map(re.escape, sorted(self.entries, key=len, reverse=True))
        return f"(?{'i' if self.ignore_case else ''}:{'|'.join(parts)})"


def names() -> tuple[str, ...]:
    """The names of every shipped lexicon, sorted."""
    return tuple(sorted(p.name[:-4] for p in resources.files(__name__).iterdir() if p.name.endswith(".txt")))


def parse(name: str, text: str) -> Lexicon:
    """The lexicon ``name`` written as ``text`` (the file format above)."""
    declared = {key: values[0] for key, values in DECLARATIONS.items()}
    entries = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("#"):
            found = _DECLARATION.match(line)
            if found and found.group(1) in DECLARATIONS:
                if found.group(2) not in DECLARATIONS[found.group(1)]:
                    raise ValueError(f"lexicon {name}: {found.group(1)} must be one of {DECLARATIONS[found.group(1)]}")
                declared[found.group(1)] = found.group(2)
        elif line:
            entries.append(line)
    return Lexicon(name, tuple(entries), declared["kind"] == "patterns", declared["case"] == "insensitive")


@cache
def load(name: str) -> Lexicon:
    """The lexicon ``name`` (``scilabel/lexicons/<name>.txt``), read once."""
    return parse(name, resources.files(__name__).joinpath(f"{name}.txt").read_text(encoding="utf-8"))


def lexicon(name: str) -> tuple[str, ...]:
    """The entries of the lexicon ``name``, in file order."""
    return load(name).entries


def alternation(name: str) -> str:
    """The lexicon ``name`` as a regular-expression group to build a caller's pattern from
    (:meth:`Lexicon.alternation`)."""
    return load(name).alternation()
