"""The shipped word lists (scilabel/lexicons/*.txt) and their loader."""
from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

import scilabel
from scilabel import lexicons
from scilabel.lexicons import Lexicon, alternation, lexicon, load, parse

PACKAGE = Path(scilabel.__file__).parent
NAMES = lexicons.names()
#: Where the package reads a lexicon by name.
_READ = re.compile(r"""\b(?:lexicon|alternation|load)\(\s*["'](\w+)["']""")


def _readers() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        for name in _READ.findall(path.read_text(encoding="utf-8")):
            found.setdefault(name, set()).add(str(path.relative_to(PACKAGE)))
    return found


def test_lexicons_ship_as_package_data():
    assert len(NAMES) >= 20
    assert all((resources.files("scilabel.lexicons") / f"{name}.txt").is_file() for name in NAMES)
    pyproject = (PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert '"lexicons/*.txt"' in pyproject


@pytest.mark.parametrize("name", NAMES)
def test_lexicon_loads_clean(name):
    lex = load(name)
    assert lex.entries and lexicon(name) == lex.entries
    assert load(name) is lex  # read once
    assert len(set(lex.entries)) == len(lex.entries), "duplicate entries"
    assert all(entry == entry.strip() and entry for entry in lex.entries)
    if lex.ignore_case and not lex.patterns:
        assert all(entry == entry.lower() for entry in lex.entries), "entries of a case-insensitive list are lower case"


@pytest.mark.parametrize("name", NAMES)
def test_lexicon_header_names_every_module_that_reads_it(name):
    text = (resources.files("scilabel.lexicons") / f"{name}.txt").read_text(encoding="utf-8")
    header = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    assert text.startswith("# ") and "Read by" in header
    missing = sorted(path for path in _readers().get(name, ()) if path not in header)
    assert not missing, f"{name}.txt does not say these modules read it: {missing}"


@pytest.mark.parametrize("name", NAMES)
def test_compiled_lexicon_matches_its_entries(name):
    lex = load(name)
    pattern = re.compile(alternation(name))
    if lex.patterns:
        for entry in lex.entries:
            re.compile(entry)  # each pattern compiles on its own
        return
    for entry in lex.entries:
        assert pattern.fullmatch(entry), entry
        if lex.ignore_case:
            assert pattern.fullmatch(entry.upper()), entry
    assert not pattern.fullmatch("zzqx " + lex.entries[0])


def test_every_lexicon_is_read_by_a_module():
    readers = _readers()
    unread = [name for name in NAMES if name not in readers]
    assert not unread, f"lexicons no module reads: {unread}"
    unknown = sorted(set(readers) - set(NAMES))
    assert not unknown, f"modules read lexicons that do not exist: {unknown}"


def test_alternation_puts_longer_entries_first_and_escapes_words():
    lex = Lexicon("t", ("ed", "e.d.", "editor"), patterns=False, ignore_case=True)
    assert lex.alternation() == r"(?i:editor|e\.d\.|ed)"
    assert re.fullmatch(lex.alternation(), "E.D.") and not re.fullmatch(lex.alternation(), "exdx")
    assert Lexicon("p", (r"a+", "b"), patterns=True, ignore_case=False).alternation() == "(?:a+|b)"


def test_declarations_are_read_from_the_header():
    assert load("particles").ignore_case is False and not load("particles").patterns
    assert load("site_notices").patterns and load("site_notices").ignore_case
    assert not load("degrees").patterns and load("degrees").ignore_case
    parsed = parse("t", "# A list.\n# Read by nobody.\n# kind: patterns\n\n  a+  \n# a comment\nb\n")
    assert parsed == Lexicon("t", ("a+", "b"), patterns=True, ignore_case=True)
    with pytest.raises(ValueError, match="case must be one of"):
        parse("t", "# case: upper\nword\n")


def test_every_site_notice_holds_a_cue():
    """constraints.py searches for a site notice only in texts holding a cue: a notice without one
    would never be found."""
    cues = lexicon("site_notice_cues")
    for pattern in lexicon("site_notices"):
        assert any(cue in pattern.replace("\\s", " ").replace("\\b", "") for cue in cues), pattern


def test_every_credit_verb_holds_the_editor_credit_cue():
    assert all(verb.endswith("ed") for verb in lexicon("credit_verbs"))


# Each lexicon reaches the stage that reads it: every entry, as a page writes it, is seen there.

def _zones(texts):
    import pandas as pd
    return pd.DataFrame({"text": texts})


def test_share_targets_and_controls_reach_the_site_control_veto():
    from scilabel.constraints import site_controls
    texts = [w.title() for w in lexicon("share_targets")] + [f"Share on {w.title()}" for w in lexicon("share_targets")]
    assert site_controls(_zones(texts + ["Sign in", "Advanced Search", "Skip to main content"])).all()
    assert not site_controls(_zones(["Jane Roe"])).any()


def test_byline_captions_reach_the_caption_veto_and_author_names():
    from scilabel.constraints import byline_captions
    from scilabel.fields import split_author_names
    texts = [w.capitalize() for w in lexicon("byline_captions")]
    assert byline_captions(_zones(texts + ["Authors and Affiliations", "AUTHOR INFORMATION"])).all()
    assert split_author_names([f"Jane Roe, {w}" for w in texts if "(" not in w]) == ["Jane Roe"]


def test_site_notices_reach_the_notice_veto():
    from scilabel.constraints import site_notices
    found = site_notices(_zones(["© 2013 Author(s).", "Copyright 2016 Elsevier", "All rights reserved.",
                                 "This website uses cookies to improve your experience", "Accept all cookies", "Jane Roe"]))
    assert found.tolist() == [True] * 5 + [False]


@pytest.mark.parametrize("word", [*lexicon("degrees"), *lexicon("name_suffixes")])
def test_degrees_and_suffixes_are_no_author_names(word):
    from scilabel.fields import split_author_names
    assert not word.endswith(".")  # readers strip a final full stop before they look a word up
    assert split_author_names([f"Jane Roe, {word.upper()}., John Doe"]) == ["Jane Roe", "John Doe"]


@pytest.mark.parametrize("title", lexicon("editor_titles"))
def test_editor_titles_reach_the_credit_veto_and_roles(title):
    from scilabel.constraints import editor_credits
    from scilabel.fields import split_author_names
    assert editor_credits(_zones([f"{title.title()} Editor: James F. Cahill"])).all()
    assert split_author_names([f"Jane Roe, {title.title()} {role.title()}" for role in lexicon("roles")]) == ["Jane Roe"]


def test_credit_verbs_reach_the_credit_veto():
    from scilabel.constraints import editor_credits
    assert editor_credits(_zones([f"{verb.title()} by Jane Roe" for verb in lexicon("credit_verbs")])).all()


def test_particles_reach_names_and_anchors():
    from scilabel.references.anchors import _NARRATIVE
    from scilabel.references.names import split_name
    for particle in lexicon("particles"):
        assert split_name(f"Anna {particle} Berg") == {"given": "Anna", "family": f"{particle} Berg"}
    for particle in lexicon("citation_particles"):
        assert _NARRATIVE.search(f"as {particle} Berg (2001) showed").group(1) == f"{particle} Berg"
    assert set(lexicon("citation_particles")) < set(lexicon("particles"))


def test_reference_links_are_furniture_of_a_reference_list():
    from scilabel.references.split import _FURNITURE, TRAILING_FURNITURE
    for line in ("[PubMed]", "Google Scholar", "View Record in Scopus | CrossRef", "Abstract/FREE Full Text",
                 "View PDFView articleView in Scopus Google Scholar", "OpenUrlCrossRefMedlineWeb of Science",
                 "Web of Science® Times Cited: 75", "Full Text via CrossRef", "Full Article (HTML)", "Find it at CU",
                 "PubMed/NCBI", "↩"):
        assert _FURNITURE.match(line), line
    for line in ("Smith J. Article 12.", "Full text of the act", "Scopus indexing policy (2019)", "|"):
        assert not _FURNITURE.match(line), line
    for word in lexicon("reference_links_trailing"):
        assert TRAILING_FURNITURE.sub("", f"Nature 12:3-9. [{word}] {word}") == "Nature 12:3-9."


def test_headings_reach_the_stages():
    from scilabel.features.cues import PART_LINE
    from scilabel.fields import strip_caption
    from scilabel.structure.tree import ABSTRACT_TITLE
    assert all(PART_LINE.match(f"{w.title()}:") for w in lexicon("abstract_parts"))
    assert all(strip_caption("abstract", f"{w.title()}: We show") == "We show" for w in lexicon("abstract_headings"))
    assert all(ABSTRACT_TITLE.match(w.upper()) for w in lexicon("abstract_headings"))


def test_group_and_institution_words_reach_author_names():
    from scilabel.fields import split_author_names
    assert split_author_names([f"the EMAS {w.title()}" for w in lexicon("group_words")]) == [
        f"the EMAS {w.title()}" for w in lexicon("group_words")]
    assert split_author_names(["Jane Roe, Department of Physics, Max Planck Institute"]) == ["Jane Roe"]


def test_page_furniture_is_noise_in_the_body():
    from scilabel.structure.blocks import FURNITURE_START, FURNITURE_ZONE
    assert FURNITURE_ZONE.match("Views 1,024") and FURNITURE_ZONE.match("Back to top")
    assert FURNITURE_START.match("Download PDF") and not FURNITURE_START.match("Downloaded data show")


def test_sentence_and_reference_word_lists_reach_their_stages():
    from scilabel.writers.citation import entry_kind
    from scilabel.references.tokens import _kind
    from scilabel.structure.blocks import NOTES_HEADING, is_caption
    from scilabel.sentences import split_sentences
    assert set(lexicon("never_final")) <= set(lexicon("abbreviations"))
    text = " and ".join(f"in {word}. 2 of the cases" for word in lexicon("abbreviations"))
    assert len(split_sentences(f"We saw it {text}. Then more.")) == 2
    assert all(_kind(month.title()) == "month" for month in lexicon("months") if month.isalpha())
    assert all(entry_kind({"container": f"Intl {w.title()} Robotics"}) == "inproceedings"
               for w in lexicon("conference_words") if not w.endswith("."))
    assert all(NOTES_HEADING.match(h) for h in ("Footnotes", "Notes:", "Author notes", "Table footnotes"))
    assert not is_caption("Table 1 shows the patients.") and is_caption("Table 1 Patient characteristics")
