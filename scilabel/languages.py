"""The language a zone is written in, from its function words (the lexicons ``function_words_*``), and
which zones of a page may be a translation of its title or abstract: those of a bilingual page that are
not in the page's own language (:func:`translatable`).

The article HMM has states for a component printed again in another language (a SciELO page's English
title and abstract after its Portuguese ones: :attr:`scilabel.schema.Schema.translated`); the emissions
cannot tell a translation from the article's own text, so the decoder allows those states only where
the language does.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from .lexicons import lexicon

#: Languages with a function-word lexicon.
LANGUAGES = ("en", "pt", "es", "fr", "de", "it")
#: Fewest function words that decide a zone's language, and how many more than the next language's.
MIN_HITS = 3
MARGIN = 1.5
#: Fewest words of a zone that makes a page bilingual by being in another language than the page's.
BILINGUAL_WORDS = 15
_WORD = re.compile(r"\w+")


@lru_cache(maxsize=1)
def _function_words() -> dict[str, tuple[str, ...]]:
    """Word -> the languages it is a function word of."""
    lists = {"en": lexicon("function_words_en"), "pt": lexicon("function_words_pt"),
             "es": lexicon("function_words_es"), "fr": lexicon("function_words_fr"),
             "de": lexicon("function_words_de"), "it": lexicon("function_words_it")}
    out: dict[str, list[str]] = {}
    for language in LANGUAGES:
        for word in lists[language]:
            out.setdefault(word, []).append(language)
    return {word: tuple(languages) for word, languages in out.items()}


def zone_language(text: str) -> str | None:
    """The language ``text`` is written in, or None when its function words do not decide it (a
    heading, a name, a short line)."""
    words = _function_words()
    hits = dict.fromkeys(LANGUAGES, 0)
    for word in _WORD.findall(text.lower()):
        for language in words.get(word, ()):
            hits[language] += 1
    first, second = sorted(hits.values(), reverse=True)[:2]
    if first < MIN_HITS or first < MARGIN * second:
        return None
    return max(hits, key=hits.__getitem__)


def translatable(texts: Sequence[str]) -> np.ndarray:
    """Per zone of a page, whether it may be a translation: the page is bilingual (a zone of
    :data:`BILINGUAL_WORDS` words at least in another language than the page's, the language of most of
    its characters) and the zone is not in the page's language."""
    languages = [zone_language(t) for t in texts]
    weight: dict[str, int] = {}
    for text, language in zip(texts, languages):
        if language is not None:
            weight[language] = weight.get(language, 0) + len(text)
    if not weight:
        return np.zeros(len(texts), dtype=bool)
    own = max(weight, key=weight.__getitem__)
    bilingual = any(language not in (None, own) and len(_WORD.findall(text)) >= BILINGUAL_WORDS
                    for text, language in zip(texts, languages))
    return np.array([bilingual and language != own for language in languages], dtype=bool)
