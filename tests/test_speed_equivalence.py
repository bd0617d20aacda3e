"""The labeller's fast paths against straightforward reference computations.

Token counting (numpy tokenizer + hashed vocabularies, one lookup for several), layout features
(array code, whole-page regex scans), line units merged as arrays, the Naive Bayes and SVM
log-likelihoods must give what the plain per-text / pandas / scikit-learn computations give.
"""
from __future__ import annotations

import itertools
import pickle
import random
import re
import warnings
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.feature_extraction.text import CountVectorizer

from scilabel.emission import NaiveBayesEmission, SVMEmission
from scilabel.features import (LAYOUT_FEATURES, TokenIndex, ZoneArrays, cues, layout_features, layout_matrix,
                               page_codes, term_counts, tokenize, vocabulary_index)
from scilabel.features.chars import code_points
from scilabel.features.layout import _LAYOUT, _MARKER
from scilabel.features.text import DOI, EMAIL, URL, _hash_strings, _offsets
from scilabel.featurizer import _LOG_SCALED
from scilabel.lines import line_units, merge_units
from scilabel.schema import N_STATES

ALPHABET = list("abcXYZ0129 _<>@./:-\n\t\0") + [
    "é", "İ", "\u212a", "٣", "²", "½", "\u00a0", "\u2009", "\u3000", "—", "·", "ß", "Σ", "À", "×", "😀", "中", "\x1c",
    "\x85"]
PIECES = ["http://x.org/a", "WWW.Ex.com", "a.b@c.org", "10.1000/abc", "doi 10.12345/x.y", "<email>", "<b>",
          "<<a>>", "<a_b>", "<>", "< a>", "0000000", "1234567", "in 1999;", "20201", "[12] ", "a) ",
          "Abstract", "KEY POINTS", "works cited", "References", "Related", "Related work", "Cited by", "- similar"]


#: Words of random paragraphs: long texts, some with more capitals than prose has.
PROSE_WORDS = ["the", "roots", "grew", "in", "dry", "soil", "Lund", "DNA", "X"]


def random_text(rng: random.Random, alphabet: list[str] = ALPHABET) -> str:
    parts = [rng.choice(PIECES) if rng.random() < 0.3 else "".join(rng.choices(alphabet, k=rng.randint(1, 8)))
             for _ in range(rng.randint(0, 10))]
    return rng.choice(["", " ", "\n"]).join(parts)


def reference_counts(texts: list[str], vocabulary: dict[str, int]) -> np.ndarray:
    counts = np.zeros((len(texts), len(vocabulary)))
    for row, text in enumerate(texts):
        for token, n in Counter(tokenize(text)).items():
            if token in vocabulary:
                counts[row, vocabulary[token]] = n
    return counts


@pytest.mark.parametrize("seed", range(40))
def test_token_index_counts_equal_tokenize(seed):
    rng = random.Random(seed)
    texts = [random_text(rng, ALPHABET + ["\ud800"]) for _ in range(rng.randint(0, 12))]  # a lone surrogate too
    tokens = sorted({t for text in texts for t in tokenize(text)} | {"zzz", "0000", "<url>"})
    rng.shuffle(tokens)
    vocabulary = {t: i for i, t in enumerate(tokens[: max(1, 2 * len(tokens) // 3)])}
    counts = term_counts(texts, vocabulary)
    np.testing.assert_array_equal(counts.toarray(), reference_counts(texts, vocabulary))
    assert counts.has_sorted_indices
    # one index over several overlapping vocabularies counts each as if alone
    rng.shuffle(tokens)
    other = {t: i for i, t in enumerate(tokens[: len(tokens) // 2] + ["only-here"])}
    for got, vocab in zip(TokenIndex(vocabulary, other, {}).counts(texts), (vocabulary, other, {})):
        np.testing.assert_array_equal(got.toarray(), reference_counts(texts, vocab))
        assert got.has_sorted_indices


def test_token_index_equals_count_vectorizer_and_handles_empty_input():
    texts = ["Ana Silva1,2 (2019)", "Mail a.b@c.org, see https://x.y/z or 10.1000/abc", "", "line\nbreak 1234567",
             "<b><i>x</i></b> <<a>> a<br>b <a_1> <é>", "x@y.io,www.a.b;10.1234/z 00000012 ²½ 中文"]
    vectorizer = CountVectorizer(analyzer=tokenize, min_df=1).fit(texts)
    np.testing.assert_array_equal(term_counts(texts, vectorizer.vocabulary_).toarray(),
                                  vectorizer.transform(texts).toarray())
    assert term_counts([], vectorizer.vocabulary_).shape == (0, len(vectorizer.vocabulary_))
    assert term_counts(["a b"], {}).shape == (1, 0)


def thue_morse(n: int) -> list[int]:
    bits = [0]
    for _ in range(n):
        bits += [1 - b for b in bits]
    return bits


def test_hash_collisions_do_not_miscount():
    # Thue-Morse strings and their complements collide under any polynomial hash modulo 2**64
    word = "".join("ab"[b] for b in thue_morse(11))
    twin = "".join("ba"[b] for b in thue_morse(11))
    index = TokenIndex({word: 0, "c": 1})
    chars = [code_points(w).astype(np.uint64) for w in (word, twin)]
    lengths = np.array([len(word)])
    hashes = [_hash_strings(c, _offsets(lengths), lengths, index.base) for c in chars]
    assert hashes[0] == hashes[1]
    np.testing.assert_array_equal(index.counts([word, twin, f"c {twin} {word}"])[0].toarray(), [[1, 0], [0, 0], [1, 1]])


def test_rewritten_doi_pattern_matches_like_the_plain_one():
    plain = re.compile(r"\b10\.\d{4,9}/\S+")
    for n in range(1, 6):
        for chars in itertools.product(["1", "0", ".", "/", "a", " ", "_", "٣", "0000"], repeat=n):
            text = "".join(chars)
            assert [m.span() for m in DOI.finditer(text)] == [m.span() for m in plain.finditer(text)], text


def test_years_equal_the_year_regex_on_every_short_text():
    texts = ["".join(chars) for n in range(1, 7) for chars in itertools.product("12890a٣\n", repeat=n)]
    plain = re.compile(r"(?<!\d)(?:1[89]|20)\d\d(?!\d)")
    expected = [len(plain.findall(text.replace("\n", " "))) for text in texts]
    np.testing.assert_array_equal(ZoneArrays({"text": np.array(texts, dtype=object)}).years, expected)


def reference_layout(zones: pd.DataFrame) -> pd.DataFrame:
    """The text features of :func:`layout_features`, one text at a time."""
    rows = []
    texts = zones["text"].astype(str).tolist()
    for text in texts:
        clean = text.replace("\n", " ").replace("\0", " ")
        codes = [ord(c) for c in clean]
        upper = sum(65 <= c <= 90 for c in codes)
        symbol = lambda c: 0x2010 <= c <= 0x2BFF or c in (0xD7, 0xF7)  # noqa: E731
        space = lambda c: c <= 32 or c == 160 or 0x2000 <= c <= 0x200B or c == 0x3000  # noqa: E731
        letter = lambda c: 65 <= c <= 90 or 97 <= c <= 122 or (c >= 0xC0 and not symbol(c))  # noqa: E731
        digits = sum(48 <= c <= 57 for c in codes)
        punct = sum(not (letter(c) or 48 <= c <= 57 or space(c) or c == 95) and c > 32 for c in codes)
        chars = max(len(text), 1)
        rows.append({
            "n_words": len(clean.split()), "chars": len(text),
            "caps": upper / max(sum(map(letter, codes)), 1), "digits": digits / chars, "punct": punct / chars,
            "email": len(EMAIL.findall(clean)), "url": len(URL.findall(clean)),
            "doi": len(re.findall(r"\b10\.\d{4,9}/\S+", clean)),
            "years": len(re.findall(r"(?<!\d)(?:1[89]|20)\d\d(?!\d)", clean)),
            "marker": float(_MARKER.match(clean) is not None),
        })
    table = pd.DataFrame(rows, index=zones.index)
    for name, cue in (("prev_abstract_cue", cues._ABSTRACT_CUE), ("prev_references_cue", cues._REFERENCES_CUE)):
        hit = [n <= 4 and cue.search(t) is not None for n, t in zip(table["n_words"], texts)]
        same_page = zones["document"].eq(zones["document"].shift())
        table[name] = (same_page & pd.Series([False] + hit[:-1], index=zones.index)).astype(float)
    related_cue = re.compile(r"(?im)^[^\w\n]*(?:related(?!\s+work)|similar\b|recommended\b|you may also|"
                             r"more like this|people also|cited by|citing articles|read next|more from)")
    after_related = []
    for _, page in table.groupby(zones["document"], sort=False):
        rows = [zones.index.get_loc(r) for r in page.index]
        sizes, chars = zones["font_size"].to_numpy()[rows], [len(texts[r]) for r in rows]
        weight = {size: sum(c for s, c in zip(sizes, chars) if s == size) for size in sorted(set(sizes))}
        body = max(weight, key=weight.get)
        late = early = False
        for i, (n, caps, r) in enumerate(zip(page["n_words"], page["caps"], rows)):
            text, font_rel = texts[r], sizes[i] / body
            prose = n >= cues.PROSE_MIN_WORDS and caps <= cues.PROSE_MAX_CAPS
            cue = n <= 6 and related_cue.search(text) is not None
            heading = n <= 4 and bool(cues._REFERENCES_CUE.search(text) or cues._ABSTRACT_CUE.search(text))
            first_half = i / max(len(page) - 1, 1) < 0.5
            value = 0.0
            if cue and not first_half:
                late = True
            elif heading:
                late = False
            else:
                value = float(late)
            if cue or heading or prose or (font_rel >= cues.RELATED_END_SCALE and n >= 2):
                early = cue and first_half and zones["link_chars"].iat[r] < 0.5 * max(len(text), 1) and (
                    zones["font_weight"].iat[r] >= 600 or font_rel >= cues.RELATED_END_SCALE)
            else:
                value = max(value, float(early))
            after_related.append(value)
    table["after_related_cue"] = after_related
    first_prose = []
    for _, page in table.groupby(zones["document"], sort=False):
        seen = False
        for n, caps in zip(page["n_words"], page["caps"]):
            first = not seen and n >= cues.PROSE_MIN_WORDS and caps <= cues.PROSE_MAX_CAPS
            seen |= first
            first_prose.append(float(first))
    table["first_prose"] = first_prose
    return table


@pytest.mark.parametrize("seed", range(10))
def test_layout_features_equal_per_text_reference(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 30)
    zones = pd.DataFrame({
        "text": [random_text(rng) if rng.random() < 0.7 else " ".join(rng.choices(PROSE_WORDS, k=rng.randint(25, 40)))
                 for _ in range(n)],
        "document": sorted(rng.choice("pq") for _ in range(n)),
        "x": [rng.uniform(0, 900) for _ in range(n)], "y": [40.0 * i for i in range(n)], "w": 300.0, "h": 20.0,
        "font_size": [rng.choice([12.0, 16.0, 24.0]) for _ in range(n)],
        "font_weight": [rng.choice([400, 700]) for _ in range(n)],
        "link_chars": [rng.choice([0, 0, 40]) for _ in range(n)], "sup_chars": 1, "italic_chars": 2,
    })
    table = layout_features(zones)
    assert list(table.columns) == list(LAYOUT_FEATURES)
    expected = reference_layout(zones)
    pd.testing.assert_frame_equal(table[expected.columns], expected, check_dtype=False)


def test_layout_features_of_columns_equal_those_of_the_frame():
    rng = random.Random(3)
    zones = frame_of([random_text(rng) for _ in range(40)]).assign(document=[rng.choice("pq") for _ in range(40)])
    columns = {name: zones[name].to_numpy() for name in zones}
    np.testing.assert_array_equal(layout_matrix(columns), layout_features(zones).to_numpy())
    np.testing.assert_array_equal(layout_matrix(ZoneArrays(columns)), layout_features(zones).to_numpy())


def reference_merge(zones: pd.DataFrame, units: np.ndarray) -> pd.DataFrame:
    """:func:`merge_units` with pandas, unit by unit."""
    rows = []
    for unit in range(units.max() + 1):
        members = zones[units == unit]
        lead = members.iloc[int(np.argmax(members["text"].str.len().to_numpy()))]
        right, bottom = (members["x"] + members["w"]).max(), (members["y"] + members["h"]).max()
        row = lead.to_dict() | {"text": " ".join(members["text"]), "x": members["x"].min(), "y": members["y"].min()}
        row |= {"w": right - row["x"], "h": bottom - row["y"]}
        rows.append(row | {c: float(members[c].sum()) for c in ("link_chars", "sup_chars", "italic_chars")})
    return pd.DataFrame(rows, columns=zones.columns)


@pytest.mark.parametrize("seed", range(20))
def test_merged_line_units_equal_a_pandas_reference(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40))
    zones = pd.DataFrame({
        "text": [" ".join(["ab", "c", "defg", "1,2"][:int(k)]) for k in rng.integers(0, 5, n)],
        "x": np.arange(n) % 3 * 30.0 + rng.choice([0.0, 10.0, 200.0], n), "y": np.arange(n) // 3 * 10.0,
        "w": rng.choice([20.0, 25.0], n), "h": rng.choice([9.0, 12.0, 20.0], n), "font_size": rng.choice([10.0, 16.0], n),
        "font_weight": 400, "link_chars": rng.integers(0, 3, n), "sup_chars": 1, "italic_chars": 0,
        "document": np.where(rng.random(n) < 0.15, "q", "p"), "label": rng.choice(["title", "other"], n),
    })
    units = line_units(zones)
    expected = reference_merge(zones.iloc[np.argsort(units, kind="stable")].reset_index(drop=True), np.sort(units))
    merged = pd.DataFrame(merge_units(zones, units))
    pd.testing.assert_frame_equal(merged, expected, check_dtype=False)
    assert n < 10 or len(merged) < n  # fragments did merge


def test_layout_table_covers_every_feature_and_page_codes_equal_factorize():
    assert tuple(_LAYOUT) == LAYOUT_FEATURES
    for pages in (["a", "a", "a"], ["a", "b", "a"], []):
        frame = pd.DataFrame({"document": pd.Series(pages, dtype="str")})
        np.testing.assert_array_equal(page_codes(frame), pd.factorize(frame["document"], sort=False)[0])


def frame_of(texts: list[str], seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = len(texts)
    return pd.DataFrame({"text": texts, "x": rng.uniform(0, 900, n), "y": np.arange(n) * 40.0, "w": 300.0,
                         "h": rng.uniform(10, 60, n), "font_size": 16.0, "font_weight": 400, "link_chars": 0,
                         "sup_chars": 0, "italic_chars": 0, "document": "p"})


TRAIN_TEXTS = ["Effects of drought on root growth", "Ana Silva, Bo Chen", "Lund University, Sweden",
               "Abstract", "We measured roots in 2019 and 2020 (n = 12).", "References",
               "1. Smith J. Roots. J Bot. 1999;12:1-9. doi 10.1000/abc", "Home | About | Contact"] * 5
TRAIN_STATES = ["Title", "Authors", "Affiliations", "AbstractHeading", "Abstract", "ReferenceHeading",
                "References", "AR"] * 5
TEST_TEXTS = ["Effects of roots", "unseen wörds 1234567 <b>", "", "Bo Chen and Ana Silva",
              "2. Lee K. Leaves. 2001;3:4-5. https://x.org/a"]


def test_naive_bayes_log_likelihood_equals_scikit_learn_products():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        em = NaiveBayesEmission(n_bins=3).fit(frame_of(TRAIN_TEXTS), TRAIN_STATES)
    zones = frame_of(TEST_TEXTS, seed=1)
    expected = np.asarray(em.vocabulary_.transform(zones["text"]) @ em.word_log_prob_.T)
    bins = em.bins_.transform(layout_features(zones)[list(em.layout)].to_numpy()).astype(int)
    for f, table in enumerate(em.layout_log_prob_):
        expected += table[:, bins[:, f]].T
    np.testing.assert_array_equal(em.log_likelihood(zones), expected)
    assert em.log_likelihood(zones.iloc[:0]).shape == (0, N_STATES)


def test_naive_bayes_layout_bins_come_from_every_zone():
    """Past scikit-learn's default sample of 200,000 rows the quantile bins were drawn from the global
    random state: two fits on the same zones gave different models."""
    zones = frame_of(TRAIN_TEXTS * 5_250, seed=2)  # 210,000 zones
    states = TRAIN_STATES * 5_250
    edges = []
    for seed in (0, 1):
        np.random.seed(seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            edges.append(NaiveBayesEmission(n_bins=10).fit(zones, states).bins_.bin_edges_)
    for a, b in zip(*edges):
        np.testing.assert_array_equal(a, b)


def test_svm_log_likelihood_equals_predict_proba_of_the_feature_matrix():
    em = SVMEmission(max_per_label=None, calibration_cv=2).fit(frame_of(TRAIN_TEXTS), TRAIN_STATES)
    zones = frame_of(TEST_TEXTS, seed=1)
    X = em.featurizer_.transform(zones)
    np.testing.assert_allclose(X[:, :len(em.featurizer_.words_.vocabulary_)].toarray(),
                               em.featurizer_.words_.transform(zones["text"]).toarray(), atol=1e-12)
    scaled = np.maximum(np.log(np.clip(em.predict_proba(X), em.min_proba, None)) - em.label_log_prior_,
                        em.min_log_likelihood)
    cols = em.state_columns_
    expected = np.where(cols >= 0, scaled[:, np.maximum(cols, 0)], np.log(1e-9))
    np.testing.assert_allclose(em.log_likelihood(zones), expected, atol=1e-12)


def test_svm_dense_block_equals_layout_and_field_scores_counted_apart():
    collections = pd.DataFrame({"field": ["title", "authors", "affiliations", "abstract", "references", "other"] * 2,
                                "text": TRAIN_TEXTS[:12]})
    em = SVMEmission(max_per_label=None, calibration_cv=2).fit(frame_of(TRAIN_TEXTS), TRAIN_STATES, collections)
    featurizer, zones = em.featurizer_, frame_of(TEST_TEXTS + TRAIN_TEXTS[:6], seed=2)
    words, dense = featurizer.transform_blocks(zones)
    layout = layout_features(zones)[list(featurizer.layout)].to_numpy(copy=True)
    logged = [i for i, name in enumerate(featurizer.layout) if name in _LOG_SCALED]
    layout[:, logged] = np.log1p(layout[:, logged])
    expected = featurizer.scaler_.transform(np.hstack([layout, featurizer.field_words_.scores(zones)]))
    np.testing.assert_allclose(dense, expected, atol=1e-12)
    np.testing.assert_allclose(words.toarray(), featurizer.words_.transform(zones["text"]).toarray(), atol=1e-12)


def test_vocabulary_index_is_cached_per_fit_and_never_pickled():
    em = NaiveBayesEmission(n_bins=2).fit(frame_of(TRAIN_TEXTS), TRAIN_STATES)
    size = len(pickle.dumps(em))
    index = vocabulary_index(em.vocabulary_)
    assert vocabulary_index(em.vocabulary_) is index
    other = CountVectorizer(analyzer=tokenize).fit(TEST_TEXTS)
    union = vocabulary_index(other, em.vocabulary_)
    assert vocabulary_index(other, em.vocabulary_) is union and union.sizes == (len(other.vocabulary_), index.size)
    copy = pickle.loads(pickle.dumps(em))
    assert vocabulary_index(copy.vocabulary_) is not index
    np.testing.assert_array_equal(copy.log_likelihood(frame_of(TEST_TEXTS)), em.log_likelihood(frame_of(TEST_TEXTS)))
    refit = clone(em).fit(frame_of(TRAIN_TEXTS[:8]), TRAIN_STATES[:8])
    assert vocabulary_index(refit.vocabulary_).size == len(refit.vocabulary_.vocabulary_)
    assert len(pickle.dumps(em)) == size  # the caches stay out of saved models
