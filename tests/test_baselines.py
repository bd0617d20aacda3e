"""Baselines on hand-written pages whose right answers are known."""
from __future__ import annotations

import base64
import math
from pathlib import Path

import pandas as pd
import pytest

from scilabel.baselines import BASELINES, BaselineInputError, CaseBase, CBRBaseline, get_baseline, record
from scilabel.baselines.base import parse_html
from scilabel.baselines.cbr import similarity
from scilabel.baselines.scoring import cbr_learning_curve, load_pages, score_baselines
from scilabel.baselines.sentences import SentenceBaseline, dot_sentences, export, image_file_name
from scilabel.record_schema import validate_record

BODY = [
    ("Soil microbes fix nitrogen in many habitats. They live near plant roots. Their activity depends on "
     "moisture. Dry soils slow them down. Wet soils speed them up. We measured this over three years."),
    ("Samples were taken every month. Each sample was frozen at once. Cores came from twelve plots. Plots "
     "were chosen at random. Two teams worked in parallel. The teams swapped plots each season."),
    ("Fixation rose with moisture in all plots. The effect was strongest in spring. Autumn showed smaller "
     "gains. Winter samples were nearly inactive. Summer droughts reduced fixation sharply. Recovery took weeks."),
    ("Our results support earlier field studies. They also extend them to cold climates. Models should "
     "include soil moisture. Future work will test other microbes. Long records remain rare. We share our data."),
]
OTHER_BODY = [p.replace("microbes", "fungi").replace("nitrogen", "carbon").replace("plots", "fields") for p in BODY]


def article(title: str = "Nitrogen fixation by soil microbes", authors: str = "Ada Lovelace, Alan Turing",
            body: list[str] = BODY, refs: tuple[str, ...] = ("Smith J. Soil life. Nature 1999.", "Doe A. Roots. Cell 2001."),
            gold: bool = True, meta: bool = True) -> str:
    """A page of the 'journal A' layout; ``gold`` adds data-scilabel annotations."""
    def g(label: str) -> str:
        return f' data-scilabel="{label}"' if gold else ""
    content = ' data-scilabel-content="1"' if gold else ""
    metas = (f'<meta name="citation_title" content="{title}">'
             + "".join(f'<meta name="citation_author" content="{a.strip()}">' for a in authors.split(","))
             if meta else "")
    paragraphs = "".join(f'<p class="para"{content}>{p}</p>' for p in body)
    references = "".join(f'<li class="ref"{g("references")}>{r}</li>' for r in refs)
    return f"""<!DOCTYPE html><html><head><title>{title} | Journal A</title>{metas}
<style>.x {{ color: red }}</style><script>var nav = "script text";</script></head>
<body><div class="nav"><ul class="menu"><li><a href="/">Home</a></li><li><a href="/issues">Issues</a></li>
<li><a href="/about">About</a></li><li><a href="/login">Log in</a></li><li><a href="/help">Help</a></li>
<li><a href="/rss">RSS</a></li></ul></div>
<div class="main"><h1 class="title"{g("title")}>{title}</h1><div class="authors"{g("authors")}>{authors}</div>
<div class="article-body">{paragraphs}<img src="../img/Fig 1 (final).png?v=2" alt="Figure  1"></div>
<h2 class="refs-head"{g("references_heading")}>References</h2><ol class="refs">{references}</ol></div>
<div class="footer" style="display:none">Hidden footer text. It has sentences. Many of them. Five at least. Six.</div>
<div class="footer"><a href="/terms">Terms</a> <a href="/privacy">Privacy</a></div></body></html>"""


def gold_of(title: str = "Nitrogen fixation by soil microbes", authors: str = "Ada Lovelace, Alan Turing") -> dict:
    return {"title": title, "authors": authors, "references": "Smith J. Soil life. Nature 1999. Doe A. Roots. Cell 2001."}


# --- shared preprocessing -------------------------------------------------------------------------

def test_parse_html_removes_gold_scripts_and_hidden_content() -> None:
    root = parse_html(article())
    assert not root.xpath("//@*[starts-with(name(), 'data-scilabel')]")
    text = root.text_content()
    assert "script text" not in text and "Hidden footer" not in text and "Journal A" not in text
    assert "Soil microbes fix nitrogen" in text


@pytest.mark.parametrize("name", list(BASELINES))
def test_no_baseline_reads_gold_attributes(name: str) -> None:
    decoy = article().replace('<div class="nav">', '<div class="nav" data-scilabel="title" data-scilabel-content="1">')
    with_gold = get_baseline(name).extract(decoy, "a.html")
    without = get_baseline(name).extract(article(gold=False), "a.html")
    assert record(with_gold, "a.html") == record(without, "a.html")
    assert with_gold.main_content == without.main_content


@pytest.mark.parametrize("name", list(BASELINES))
@pytest.mark.parametrize("garbage, problem", [
    ("", "empty document"),
    ("   \n ", "empty document"),
    ("just some words, no markup at all", "no markup"),
    ("%PDF-1.7\n\x00\x01binary", "binary"),
    (b"<html></html>", "expected HTML text"),
])
def test_garbage_input_gives_one_line_error(name: str, garbage, problem: str) -> None:
    with pytest.raises(BaselineInputError) as info:
        get_baseline(name).extract(garbage, "input.bin")
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert message.startswith("input.bin: ") and problem in message and "\n" not in message


def test_record_has_the_label_output_shape() -> None:
    result = CBRBaseline().extract(article(), "a.html")
    out = record(result, "a.html")
    validate_record(out, "label")  # the labeller's schema: null for what is not found, anchor_format, warnings
    assert set(out) == {"source", "model", "zones", "title", "authors", "affiliations", "abstract", "references",
                        "anchor_format", "warnings"}
    assert out["model"] == "cbr" and out["source"] == "a.html"
    assert out["title"] == "Nitrogen fixation by soil microbes"
    assert out["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert out["zones"] and all(z["state"] is None and z["bbox"] is None and z["confidence"] is None for z in out["zones"])


# --- sentence-count main block --------------------------------------------------------------------

def test_sentence_rules() -> None:
    assert dot_sentences("One here. Two there. Three.") == 3
    text = "Dr. Smith came home. He sat down. Mr. Jones left. It rained. We slept well."
    assert dot_sentences(text) == 7  # the paper's rule splits after every ". "
    assert SentenceBaseline(splitter="split").sentences(text) == 5
    with pytest.raises(ValueError):
        SentenceBaseline(splitter="nltk")


def test_sentence_baseline_takes_innermost_div_once() -> None:
    result = SentenceBaseline().extract(article(), "a.html")
    assert result.extras["searched"] == "div"
    assert result.blocks and len(result.blocks) == 1  # .article-body; .main contains it and is not taken again
    for paragraph in BODY:
        assert result.main_content.count(paragraph) == 1
    assert "Home" not in result.main_content and "Smith J." not in result.main_content
    assert result.extras["images"] == [{"src": "../img/Fig 1 (final).png?v=2", "alt": "Figure 1", "file": "Fig_1_final.png"}]


def test_sentence_baseline_searches_body_when_no_div_qualifies() -> None:
    html = f"<html><body><div>Menu</div><table><tr><td>{BODY[0]}</td><td>short</td></tr></table></body></html>"
    result = SentenceBaseline().extract(html)
    assert result.extras["searched"] == "body" and result.blocks == [BODY[0]]
    assert SentenceBaseline().extract("<html><body><p>Too short. Really.</p></body></html>").main_content == ""


def test_image_names_are_sanitized_and_only_data_uris_are_saved(tmp_path: Path) -> None:
    assert image_file_name("https://x.org/a/b/..%2F..%2Fetc%2Fpasswd", 1) == "passwd"
    assert image_file_name("C:\\figs\\Fig 2 (b).JPEG", 1) == "Fig_2_b.jpeg"
    assert image_file_name("data:image/png;base64,AAAA", 3) == "image-3.png"
    assert image_file_name("", 2) == "image-2"
    png = base64.b64encode(b"\x89PNG fake").decode()
    html = (f'<html><body><div>{BODY[0]}<img src="data:image/png;base64,{png}"><img src="https://cdn.example/f.png">'
            f'<img src="/other/f.png"></div></body></html>')
    result = SentenceBaseline().extract(html)
    assert [i["file"] for i in result.extras["images"]] == ["image-1.png", "f.png", "f-2.png"]
    export(result, tmp_path)
    assert (tmp_path / "image-1.png").read_bytes() == b"\x89PNG fake"
    assert not (tmp_path / "f.png").exists()  # remote images are listed, never fetched
    assert "https://cdn.example/f.png" in (tmp_path / "images.csv").read_text()
    assert BODY[0] in (tmp_path / "main.txt").read_text()


# --- case-based reasoning -------------------------------------------------------------------------

def test_similarity_weighs_deeper_levels_more() -> None:
    a = ("html", "body", "div", "p")
    assert similarity(a, a) == 1.0
    assert similarity(a, ("html", "body", "div", "span")) < similarity(a, ("html", "main", "div", "p"))
    assert similarity(a, ("html", "body", "div", "div", "p")) > 0.8  # an inserted wrapper still matches in order


def test_cbr_extracts_content_by_count_and_level_assumptions() -> None:
    result = CBRBaseline().extract(article(), "a.html")
    for paragraph in BODY:
        assert paragraph in result.main_content
    assert "Home" not in result.main_content and "Terms" not in result.main_content
    assert result.fields["title"] == "Nitrogen fixation by soil microbes"  # from the HEAD's meta tags
    assert result.extras["hit"] is False and result.extras["retrieved"] == 0


def test_count_assumption_takes_the_most_frequent_pattern() -> None:
    refs = tuple(f"Author {i}. A cited paper about soil number {i}. Journal {i}, 2000." for i in range(8))
    page = article(refs=refs, meta=False)
    faithful = CBRBaseline().extract(page).main_content
    assert refs[0] in faithful and BODY[0] not in faithful  # eight references outnumber four paragraphs
    by_text = CBRBaseline(anchor="text").extract(page).main_content
    assert BODY[0] in by_text and refs[0] not in by_text


def test_cbr_answers_second_page_of_a_layout_from_the_case_base() -> None:
    cbr = CBRBaseline()
    cbr.extract(article(), "a1.html")
    size = len(cbr.case_base)
    second = cbr.extract(article(title="Carbon in soil fungi", body=OTHER_BODY), "a2.html")
    assert second.extras["hit"] is True and second.extras["retrieved"] == second.extras["patterns"]
    assert len(cbr.case_base) == size
    for paragraph in OTHER_BODY:
        assert paragraph in second.main_content
    assert "Home" not in second.main_content


def test_case_base_persists(tmp_path: Path) -> None:
    cbr = CBRBaseline()
    cbr.extract(article(), "a1.html")
    path = cbr.case_base.save(tmp_path / "cases.joblib")
    loaded = CBRBaseline(CaseBase.load(path))
    assert len(loaded.case_base) == len(cbr.case_base)
    assert loaded.extract(article(body=OTHER_BODY), "a2.html").extras["hit"] is True
    (tmp_path / "bad.joblib").write_bytes(b"not a pickle")
    with pytest.raises(ValueError, match="bad.joblib: not a CBR case base"):
        CaseBase.load(tmp_path / "bad.joblib")
    with pytest.raises(ValueError, match="no such case base"):
        CaseBase.load(tmp_path / "missing.joblib")


def test_labelled_cases_label_the_next_page_of_the_layout() -> None:
    cbr = CBRBaseline(labelled=True).fit([(article(), gold_of())])
    result = cbr.extract(article(title="Carbon in soil fungi", authors="Grace Hopper", body=OTHER_BODY,
                                 meta=False), "a2.html")
    assert result.fields["title"] == "Carbon in soil fungi"
    assert result.fields["authors"] == "Grace Hopper"
    assert result.fields["references"].splitlines() == ["Smith J. Soil life. Nature 1999.", "Doe A. Roots. Cell 2001."]
    assert "abstract" not in result.fields
    assert dict(zip(result.blocks, result.labels))["Carbon in soil fungi"] == "title"


# --- peers ----------------------------------------------------------------------------------------

def test_metatags_reads_the_pages_own_metadata() -> None:
    result = get_baseline("metatags").extract(article())
    assert result.fields == {"title": "Nitrogen fixation by soil microbes", "authors": "Ada Lovelace\nAlan Turing"}
    assert get_baseline("metatags").extract(article(meta=False)).fields == {}


@pytest.mark.parametrize("name", ["trafilatura", "readability"])
def test_main_text_peers_find_the_article(name: str) -> None:
    result = get_baseline(name).extract(article(), "https://journal-a.example/article/1")
    assert "Nitrogen fixation by soil microbes" in result.fields["title"]
    assert sum(p[:40] in result.main_content for p in BODY) >= 3
    assert "Privacy" not in result.main_content


# --- scoring on a dataset folder ------------------------------------------------------------------

def write_dataset(folder: Path, pages: dict[str, str]) -> None:
    """A generated-style dataset: each page's zones are its title, authors, body paragraphs and references."""
    (folder / "pages").mkdir(parents=True)
    zones, manifest = [], []
    for name, html in pages.items():
        (folder / "pages" / name).write_text(html, encoding="utf-8")
        page = f"pages/{name}"
        body = OTHER_BODY if "fungi" in html else BODY
        title = "Carbon in soil fungi" if "fungi" in html else "Nitrogen fixation by soil microbes"
        rows = [(title, "title", False), ("Ada Lovelace, Alan Turing", "authors", False), ("Home", "other", False)]
        rows += [(p, "other", True) for p in body]
        rows += [("Smith J. Soil life. Nature 1999.", "references", False)]
        zones += [{"document": page, "split": "test", "group": "journal_a", "text": t, "label": lab, "content": c}
                  for t, lab, c in rows]
        manifest.append({"path": page, "family": "journal_a", "split": "test", "html_path": str(folder / page)})
    pd.DataFrame(zones).to_parquet(folder / "zones.parquet")
    pd.DataFrame(manifest).to_csv(folder / "manifest.csv", index=False)


def test_score_baselines_and_learning_curve(tmp_path: Path) -> None:
    write_dataset(tmp_path / "ds", {"a1.html": article(), "a2.html": article(title="Carbon in soil fungi", body=OTHER_BODY),
                                    "a3.html": article()})
    table = score_baselines([get_baseline("metatags"), get_baseline("sentences"), CBRBaseline()], [tmp_path / "ds"])
    rows = table.set_index("baseline")
    assert list(rows["pages"]) == [3, 3, 3]
    assert rows.loc["metatags", "title_f"] == 1.0 and rows.loc["metatags", "authors_f"] == 1.0
    assert math.isnan(rows.loc["metatags", "content_f"]) and math.isnan(rows.loc["sentences", "title_f"])
    assert rows.loc["sentences", "content_p"] == 1.0 and rows.loc["sentences", "content_r"] == 1.0
    assert rows.loc["sentences", "ea"] == 100.0
    assert rows.loc["cbr", "purity"] == 1.0 and rows.loc["cbr", "accuracy"] == 1.0
    assert math.isnan(rows.loc["sentences", "purity"])

    curve = cbr_learning_curve(tmp_path / "ds", "journal_a")
    assert list(curve["hit"]) == [False, True, True]
    assert list(curve["retrieved"])[1:] == [1.0, 1.0]
    assert (curve["content_f"] == 1.0).all()
    labelled = cbr_learning_curve(tmp_path / "ds", "journal_a", labelled=True)
    assert labelled["fields_f"].iloc[0] == 0.0 and labelled["fields_f"].iloc[2] > 0.9


def test_a_moved_dataset_finds_its_pages_by_their_path_inside_it(tmp_path: Path) -> None:
    write_dataset(tmp_path / "built", {"a1.html": article()})
    (tmp_path / "built").rename(tmp_path / "moved")  # html_path still names the folder it was built in
    (page,) = load_pages(tmp_path / "moved", "test")
    assert page.html_path == tmp_path / "moved" / "pages" / "a1.html"
