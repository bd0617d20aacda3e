"""Splitting author strings into given and family names."""
from __future__ import annotations

import pytest

from scilabel.references.names import split_authors, split_name


def pairs(text: str) -> list[tuple[str, str]]:
    return [(n["given"], n["family"]) for n in split_authors(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Smith, J. A., Jones, K. & Brown, L.", [("J. A.", "Smith"), ("K.", "Jones"), ("L.", "Brown")]),
        (
            "Kalemis A, Heinzer S, von Schulthess G, et al.",
            [("A", "Kalemis"), ("S", "Heinzer"), ("G", "von Schulthess")],
        ),
        ("J. Smith, K. Jones and L. Brown", [("J.", "Smith"), ("K.", "Jones"), ("L.", "Brown")]),
        ("Attwell D. Buchan A. M. Charpak S.", [("D.", "Attwell"), ("A. M.", "Buchan"), ("S.", "Charpak")]),
        ("LIU J; WANG K", [("J", "LIU"), ("K", "WANG")]),
        ("Morton, Suzanne", [("Suzanne", "Morton")]),
        ("Smith, John, and Jane Doe", [("John", "Smith"), ("Jane", "Doe")]),
        ("Garside, Roger and Leech, Geoffrey", [("Roger", "Garside"), ("Geoffrey", "Leech")]),
        ("J.-P. Dupont and W.-P. de Roever", [("J.-P.", "Dupont"), ("W.-P.", "de Roever")]),
        ("A. FISH", [("A.", "FISH")]),
        ("Johnson, et al.,", [("", "Johnson")]),
        ("", []),
    ],
)
def test_split_authors(text: str, expected: list[tuple[str, str]]) -> None:
    assert pairs(text) == expected


def test_split_name_orders() -> None:
    assert split_name("John A. van der Berg") == {"given": "John A.", "family": "van der Berg"}
    assert split_name("Van Essen D. C.") == {"given": "D. C.", "family": "Van Essen"}
    assert split_name("Smith, John A.") == {"given": "John A.", "family": "Smith"}
    assert split_name("Gadelha Jr.") == {"given": "", "family": "Gadelha"}
