"""Splitting an author string of a reference into names, each with a given and a family part.

Handles the usual list shapes: inverted with commas (``Smith, J. A., Jones, K. & Brown, L.``),
Vancouver (``Kalemis A, Delattre BM``), given-first (``J. Smith, K. Jones and L. Brown``),
semicolon lists and lists without any separators (``Attwell D. Buchan A. M. Charpak S.``).
"""
from __future__ import annotations

import re

from ..lexicons import lexicon

#: Lower-case particles that belong to a family name (``van Essen``, ``de la Cruz``, ``bin Laden``):
#: the lexicon ``particles``.
PARTICLES = frozenset(lexicon("particles"))
#: Generational suffixes ("Jr.", "III"), in lower case: the lexicon ``name_suffixes``.
SUFFIXES = frozenset(lexicon("name_suffixes"))
_ETAL = re.compile(r"\b(?:et\s*al\b\.?|and\s+others\b|et\s+coll\.?)", re.I)
_EDITORS = re.compile(r"\(?\b(?:eds?|editors?|hrsg|coords?)\b\.?\)?", re.I)
_CONJ = re.compile(r"\s*,?\s+(?:and|&|und|et)\s+|\s*&\s*", re.I)
_INITIALS = re.compile(r"^(?:[A-Z][a-z]?\.-?)+[A-Z]?$|^[A-Z]{1,3}$|^[A-Z]-[A-Z]\.?$")


def _is_initials(token: str) -> bool:
    """``J.``, ``J.-P.``, ``JA``, ``Th.``: initials rather than a written-out name (``FISH`` is a name)."""
    return bool(_INITIALS.match(token))


def _name(given: list[str], family: list[str]) -> dict[str, str]:
    return {"given": " ".join(given), "family": " ".join(family)}


def split_name(text: str) -> dict[str, str]:
    """One person name into ``given`` and ``family``, whichever order it is written in."""
    if "," in text:  # inverted: "Smith, John A."
        family, _, given = text.partition(",")
        return _name(given.split(), family.split())
    tokens = [t for t in text.split() if t.lower().strip(".,") not in SUFFIXES]
    if not tokens:
        return _name([], [])
    flags = [_is_initials(t) for t in tokens]
    if all(flags):  # "LIU J": the first token is the family name
        return _name(tokens[1:], tokens[:1])
    if flags[-1] and not flags[0]:  # Vancouver / inverted without comma: "Van Essen D. C."
        cut = flags.index(True)
        return _name(tokens[cut:], tokens[:cut])
    cut = len(tokens) - 1  # given-first: "J. A. van der Berg", "John Smith"
    while cut > 0 and tokens[cut - 1].lower() in PARTICLES:
        cut -= 1
    return _name(tokens[:cut], tokens[cut:])


def _runs(piece: str) -> list[str]:
    """Cut a separator-free run of several names at the switch from initials back to a name:
    ``Attwell D. Buchan A. M.`` -> ``Attwell D.``, ``Buchan A. M.`` (or the mirror for given-first)."""
    tokens = piece.split()
    flags = [_is_initials(t) for t in tokens]
    if len(tokens) < 3 or all(flags) or not any(flags) or (not flags[0] and not flags[-1]):
        return [piece]  # "John A. Smith" is one given-first name
    family_first = not flags[0]
    names: list[list[str]] = [[]]
    for i, tok in enumerate(tokens):
        if i and names[-1]:
            switch = (not flags[i] and flags[i - 1]) if family_first else (flags[i] and not flags[i - 1])
            if switch and tok.lower() not in PARTICLES:
                names.append([])
        names[-1].append(tok)
    return [" ".join(n) for n in names]


def split_authors(text: str) -> list[dict[str, str]]:
    """Names of an author string as ``{"given", "family"}`` dicts, in order; ``et al.`` is dropped."""
    text = _EDITORS.sub(" ", _ETAL.sub(" ", text))
    text = re.sub(r"\s+", " ", text).strip(" ,;:")
    last = text.split()[-1] if text else ""
    if last.endswith(".") and not _is_initials(last):
        text = text[:-1].rstrip(" ,;:")
    if not text:
        return []
    if ";" in text:
        pieces = [p.strip(" ,.") for p in re.split(r";", _CONJ.sub("; ", text))]
        return [split_name(p) for p in pieces if p]
    pieces = [p.strip() for p in _CONJ.sub(", ", text).split(",")]
    pieces = [p for p in pieces if re.search(r"[^\W\d_]", p)]  # "-" and "??" stand for no name
    if _inverted_pairs(pieces):  # "Garside, Roger and Leech, Geoffrey"
        return [_name(g.split(), f.split()) for f, g in zip(pieces[::2], pieces[1::2])]
    names: list[dict[str, str]] = []
    i = 0
    while i < len(pieces):
        piece = pieces[i]
        nxt = pieces[i + 1] if i + 1 < len(pieces) else None
        if nxt is not None and _all_initials(nxt) and not _all_initials(piece) and not _has_initials(piece):
            names.append(_name(nxt.split(), piece.split()))  # "Smith, J. A."
            i += 2
            continue
        if i == 0 and nxt is not None and _inverted_first(piece, nxt, pieces[2:]):
            names.append(_name(nxt.split(), piece.split()))  # "Morton, Suzanne" / "Smith, John, and Jane Doe"
            i += 2
            continue
        names.extend(split_name(run) for run in _runs(piece))
        i += 1
    return [n for n in names if n["family"] or n["given"]]


def _inverted_first(piece: str, nxt: str, rest: list[str]) -> bool:
    """Whether the list opens with one inverted full name: a lone family word, then given names,
    then nothing or written-out given-first names."""
    given = nxt.split()
    return (
        len(piece.split()) == 1
        and 1 <= len(given) <= 3
        and given[0][:1].isupper()
        and not _is_initials(given[0])
        and all(len(p.split()) >= 2 for p in rest)
    )


def _inverted_pairs(pieces: list[str]) -> bool:
    """Whether the pieces alternate family name (one word, particles aside) and given names."""
    if len(pieces) < 4 or len(pieces) % 2:
        return False
    families, givens = pieces[::2], pieces[1::2]
    return all(
        len([w for w in f.split() if w.lower() not in PARTICLES]) == 1 and not _has_initials(f) for f in families
    ) and all(1 <= len(g.split()) <= 3 and g[:1].isupper() for g in givens)


def _all_initials(piece: str) -> bool:
    tokens = piece.split()
    return bool(tokens) and all(_is_initials(t) for t in tokens)


def _has_initials(piece: str) -> bool:
    return any(_is_initials(t) for t in piece.split())
