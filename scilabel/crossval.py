"""Publisher-grouped cross-validation on the real-page gold: the project's headline yardstick.

The gold dataset (``scilabel corpus gold``) holds the headline pages (split ``test``) and training-only
pages (split ``train``), each with ``group``, its canonical publisher. The headline pages' publishers
are dealt into K folds (:func:`publisher_folds`); for each fold a labeller with the shipped model's
settings is trained on the generated corpus's training pages plus every gold page of the other
publishers (headline and training-only: a fold's own publishers' training-only pages are left out,
so that no publisher is ever on both sides), and labels the fold's headline pages. The pooled
predictions are scored with the shared data's own page scorer (``tools/score_pages.py``, its
functions imported), beside the shipped model (trained on every gold page too, so in-sample there)
and peers (baselines such as the page's meta tags and trafilatura, scored from their fields).
"""
from __future__ import annotations

import copy
import json
import logging
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.model_selection import GroupKFold

from .baselines import BaselineResult, get_baseline
from .corpus.dataset import MANIFEST_FILE, labelling_pages, load_zones
from .corpus.gold import zone_records
from .evaluation import evaluate
from .labeler import ZoneLabeler
from .readers.sources import load_source
from .rules.vetoes import Veto, without

log = logging.getLogger(__name__)
#: The system name of :func:`ceiling_labels` in a :class:`GoldCV`.
CEILING = "zone ceiling"


@dataclass(frozen=True)
class Fold:
    """One split: the gold pages trained on and the headline pages scored (``document`` ids)."""

    train: tuple[str, ...]
    test: tuple[str, ...]
    publishers: tuple[str, ...]  #: the publishers scored in this fold


def publisher_folds(pages: pd.DataFrame, n_folds: int = 5) -> list[Fold]:
    """Folds of the gold pages (columns ``document``, ``split``, ``group``): the headline (``test``)
    pages' publishers dealt into ``n_folds`` groups of about equal page counts (``GroupKFold``); each
    fold trains on every page, of either split, whose publisher it does not score."""
    headline = pages[pages["split"] == "test"]
    n_publishers = headline["group"].nunique()
    if n_publishers < n_folds:
        raise ValueError(f"{n_folds} folds need at least {n_folds} publishers; the headline pages have {n_publishers}")
    folds = []
    for _, test_rows in GroupKFold(n_splits=n_folds).split(headline, groups=headline["group"]):
        scored = set(headline["group"].iloc[test_rows])
        folds.append(Fold(train=tuple(pages.loc[~pages["group"].isin(scored), "document"]),
                          test=tuple(headline["document"].iloc[test_rows]), publishers=tuple(sorted(scored))))
    return folds


def sample_pages(zones: pd.DataFrame, n_pages: int | None, random_state: int = 0) -> pd.DataFrame:
    """The zones of ``n_pages`` pages drawn without replacement (seeded); all pages when None."""
    documents = zones["document"].unique()
    if n_pages is None or n_pages >= len(documents):
        return zones
    chosen = np.random.default_rng(random_state).choice(documents, n_pages, replace=False)
    return zones[zones["document"].isin(chosen)]


@dataclass
class GoldCV:
    """Scores of every system on the headline gold pages (per page, as ``score_pages`` gives them)."""

    #: system -> per-page results (page, publisher, labels; a labeller's also its label of every zone)
    pages: dict[str, list[dict]]
    folds: list[Fold]
    settings: dict
    #: systems that are decoding variants of the cross-validated model (summarised, not charted per publisher)
    variants: tuple[str, ...] = ()

    def summary(self, scorer: ModuleType) -> dict[str, dict]:
        """System -> ``score_pages.aggregate`` over all pages (micro and macro per field)."""
        return {name: scorer.aggregate(pages) for name, pages in self.pages.items()}

    def by_publisher(self, scorer: ModuleType) -> dict[str, dict[str, dict]]:
        """System (variants aside) -> publisher -> pages and ``aggregate`` of that publisher's pages."""
        out: dict[str, dict[str, dict]] = {}
        for name, pages in self.pages.items():
            if name in self.variants:
                continue
            for publisher in sorted({p["publisher"] for p in pages}):
                chosen = [p for p in pages if p["publisher"] == publisher]
                out.setdefault(name, {})[publisher] = {"n_pages": len(chosen), "labels": scorer.aggregate(chosen)}
        return out

    def to_json(self, scorer: ModuleType) -> dict:
        return {"settings": self.settings,
                "folds": [{"publishers": list(f.publishers), "n_train_gold": len(f.train), "test": list(f.test)}
                          for f in self.folds],
                "summary": self.summary(scorer), "variants": list(self.variants),
                "by_publisher": self.by_publisher(scorer), "pages": self.pages}


def _page_result(scorer: ModuleType, gold: dict, publisher: str, zones: list[dict],
                 zone_labels: np.ndarray | None = None) -> dict:
    labels, similarity, _ = scorer.score_page(gold, zones)
    result = {"page": gold["page"], "publisher": publisher, "title_similarity": similarity, "labels": labels}
    if zone_labels is not None:  # the labeller's label of every zone, for looking at a page's errors
        result["zone_labels"] = [str(label) for label in zone_labels]
    return result


def _best_zones(shared: np.ndarray, sizes: np.ndarray, goal: np.ndarray) -> np.ndarray:
    """Zones (rows of ``shared``: each zone's count of each gold token; ``sizes``: its token count) whose
    union scores a high token F1 against the gold counts ``goal``, the better of two greedy searches:
    each zone in order of its share of gold tokens, taken if it raises F1 (a byline with degrees after a
    bare name does not); and the zone that raises F1 most, while one does (which takes a long zone of
    common words early and keeps it)."""
    by_share, taken, size, share_f1 = np.zeros(len(sizes), dtype=bool), np.zeros(len(goal)), 0.0, 0.0
    for row in np.argsort(-shared.sum(axis=1) / sizes, kind="stable"):
        f1 = 2 * np.minimum(taken + shared[row], goal).sum() / (size + sizes[row] + goal.sum())
        if f1 > share_f1:
            share_f1, taken, size, by_share[row] = f1, taken + shared[row], size + sizes[row], True
    by_gain, taken, size, gain_f1 = np.zeros(len(sizes), dtype=bool), np.zeros(len(goal)), 0.0, 0.0
    while not by_gain.all():
        f1 = np.where(by_gain, -1.0, 2 * np.minimum(taken + shared, goal).sum(axis=1) / (size + sizes + goal.sum()))
        row = int(f1.argmax())
        if f1[row] <= gain_f1:
            break
        gain_f1, taken, size, by_gain[row] = f1[row], taken + shared[row], size + sizes[row], True
    return by_share if share_f1 >= gain_f1 else by_gain


def ceiling_labels(texts: list[str], gold: dict, scorer: ModuleType) -> list[str]:
    """A labelling of a page's zones that scores well against its gold: for each scored field in turn, the
    zones still free that share tokens with the field's gold, chosen by :func:`_best_zones`. What labelling
    these zones can reach at least (a greedy search, so not always the best labelling): the ceiling a zone
    labeller works under, as zones hold words of several kinds ("Jane Doe, MD and") that the gold leaves
    out."""
    labels = np.array(["other"] * len(texts), dtype=object)
    for field in scorer.SCORED:
        if field not in gold["fields_scored"]:
            continue
        wanted = Counter(scorer.tokens(scorer.gold_text(gold, field), field))
        vocabulary = {token: j for j, token in enumerate(wanted)}
        counts = [Counter(scorer.tokens(text, field)) for text in texts]
        free = [i for i, words in enumerate(counts) if labels[i] == "other" and any(t in vocabulary for t in words)]
        if not free:
            continue
        shared = np.zeros((len(free), len(vocabulary)))
        for row, i in enumerate(free):
            for token, n in counts[i].items():
                if token in vocabulary:
                    shared[row, vocabulary[token]] = n
        sizes = np.array([sum(counts[i].values()) for i in free], dtype=float)
        chosen = _best_zones(shared, sizes, np.array(list(wanted.values()), dtype=float))
        labels[np.array(free)[chosen]] = field
    return labels.tolist()


def cross_validate_gold(gold_dir: Path, train_datasets: list[Path], scorer: ModuleType, template: ZoneLabeler,
                        shipped: ZoneLabeler | None = None, collections: Path | None = None, n_folds: int = 5,
                        generated_pages: int | None = None, peers: tuple[str, ...] = ("metatags", "trafilatura"),
                        random_state: int = 0, variants: dict[str, dict] | None = None,
                        platforms: bool = False) -> GoldCV:
    """Run the publisher-grouped cross-validation (module docstring).

    ``template`` is cloned (unfitted, same parameters) for each fold; ``train_datasets`` give their
    ``train`` split (real-platform families only with ``platforms``, as the shipped labeller trains:
    :func:`~scilabel.corpus.dataset.labelling_pages`), ``generated_pages`` of their pages at most (seeded
    sample; None: all);
    ``shipped`` (optional) is scored as it is on every headline page; ``peers`` are baselines by name
    (:data:`~scilabel.baselines.BASELINES`) scored on the same pages from the fields they fill
    (:func:`field_zones`). ``variants`` (name -> parameters that act only when decoding, such as
    ``vetoes``) are scored too, each fold's fitted model decoding again with those parameters set: e.g.
    each veto left out in turn (:func:`veto_ablation`).
    """
    manifest = pd.read_csv(Path(gold_dir) / MANIFEST_FILE)
    manifest = manifest[manifest["render_error"].isna()]
    golds = {row.document: json.loads(Path(row.gold_file).read_text(encoding="utf-8")) for row in manifest.itertuples()}
    gold_zones = load_zones([gold_dir])
    generated = load_zones(train_datasets)
    generated = sample_pages(labelling_pages(generated, "train", platforms), generated_pages, random_state)
    texts = pd.read_parquet(collections) if collections else None
    folds = publisher_folds(manifest, n_folds)
    headline = manifest[manifest["split"] == "test"]
    publisher_of = dict(zip(manifest["document"], manifest["group"]))
    test_zones = {doc: frame for doc, frame in gold_zones[gold_zones["document"].isin(headline["document"])]
                  .groupby("document", sort=False)}
    variants = variants or {}
    pages: dict[str, list[dict]] = {"cv": [], **{name: [] for name in variants}}

    def score(system: str, doc: str, zones: list[dict], zone_labels: np.ndarray | None = None) -> None:
        pages.setdefault(system, []).append(_page_result(scorer, golds[doc], publisher_of[doc], zones, zone_labels))

    def score_labeler(system: str, doc: str, frame: pd.DataFrame, labeler: ZoneLabeler) -> None:
        predicted = labeler.predict(frame)
        score(system, doc, zone_records(frame["text"], predicted), predicted)

    for k, fold in enumerate(folds, 1):
        train = pd.concat([generated, gold_zones[gold_zones["document"].isin(fold.train)]], ignore_index=True)
        train["label"] = train["label"].fillna("other")
        start = time.perf_counter()
        labeler = clone(template).fit(train, collections=texts, remembered=list(fold.train))
        log.info("fold %d/%d: trained on %d pages (%d gold) in %.0fs; scoring %d pages of %s", k, len(folds),
                 train["document"].nunique(), len(fold.train), time.perf_counter() - start, len(fold.test),
                 ", ".join(fold.publishers))
        decoders = {"cv": labeler, **{name: copy.copy(labeler).set_params(**params) for name, params in variants.items()}}
        for doc in fold.test:
            frame = test_zones[doc].reset_index(drop=True)
            for name, decoder in decoders.items():
                score_labeler(name, doc, frame, decoder)
    if shipped is not None:
        for doc, frame in test_zones.items():
            score_labeler("shipped", doc, frame.reset_index(drop=True), shipped)
    for doc, frame in test_zones.items():
        best = ceiling_labels(frame["text"].tolist(), golds[doc], scorer)
        score(CEILING, doc, zone_records(frame["text"], best))
    html_of = dict(zip(manifest["document"], manifest["html_path"]))
    for name in peers:
        baseline = get_baseline(name)
        for doc in test_zones:
            page = load_source(html_of[doc])
            score(name, doc, field_zones(baseline.extract(page.html, page.url)))
    settings = {"gold": str(gold_dir), "train_datasets": [str(d) for d in train_datasets],
                "collections": str(collections) if collections else None, "n_folds": n_folds,
                "generated_pages": int(generated["document"].nunique()), "platforms": platforms,
                "random_state": random_state,
                "labeler": {k: repr(v) for k, v in template.get_params(deep=False).items() if k != "vetoes"},
                "vetoes": [v.name for v in template.vetoes], "shipped": getattr(shipped, "model_card_", {}).get("name")}
    return GoldCV(pages, folds, settings, tuple(variants))


def generated_table(labeler: ZoneLabeler, datasets: list[Path]) -> pd.DataFrame:
    """Zone F per label of ``labeler`` (with the pages' declared metadata and without, when it reads
    them) on the test split of the generated ``datasets``: the second table of a gold cross-validation."""
    systems = {"model as given": labeler.predict}
    if labeler.page_metadata:
        systems["layout only"] = copy.copy(labeler).set_params(page_metadata=False).predict
    summary = evaluate(systems, datasets, split="test").summary
    return summary[summary["level"] == "zone"].drop(columns="level").round(1)


def veto_ablation(vetoes: tuple[Veto, ...]) -> dict[str, dict]:
    """Decoding variants that leave each veto out in turn, and all of them: ``cross_validate_gold``'s
    ``variants``, so that every hand rule's effect on the real-page folds is measured."""
    return {"cv, no vetoes": {"vetoes": ()},
            **{f"cv without {veto.name}": {"vetoes": without(vetoes, veto.name)} for veto in vetoes}}


def format_table(result: GoldCV, scorer: ModuleType) -> str:
    """Token F1 per field, micro and macro, one row per system; then micro F1 per publisher."""
    fields = scorer.SCORED
    summary = result.summary(scorer)
    width = max(map(len, summary)) + 2
    lines = [f"{'system':{width}}" + "".join(f"{f[:12]:>13}" for f in fields) + "   (token F1 micro / macro)"]
    for name, table in summary.items():
        cells = [f"{table[f]['F1_micro']:.3f}/{table[f]['F1_macro']:.3f}".rjust(13) if f in table else f"{'-':>13}"
                 for f in fields]
        lines.append(f"{name:{width}}" + "".join(cells))
    lines.append("pages per field: " + ", ".join(f"{f} {t['n_pages']}" for f, t in next(iter(summary.values())).items()))
    by_publisher = result.by_publisher(scorer)
    systems = list(by_publisher)
    lines.append("")
    lines.append(f"micro F1 by publisher ({' | '.join(systems)})")
    lines.append(f"{'publisher':34} {'n':>3} " + "".join(f"{f[:12]:>{7 * len(systems)}}" for f in fields))
    for publisher in sorted(next(iter(by_publisher.values()))):
        row = f"{publisher[:34]:34} {by_publisher['cv'][publisher]['n_pages']:3d} "
        for f in fields:
            cells = [by_publisher[name][publisher]["labels"].get(f, {}).get("F1_micro") for name in systems]
            row += "".join(f"{c:7.2f}" if c is not None else f"{'-':>7}" for c in cells)
        lines.append(row)
    return "\n".join(lines)


def field_zones(result: BaselineResult) -> list[dict]:
    """A baseline's fields as labelled zones, one per field, as the page scorer reads a labeller's: the
    same for every peer, whether it labels blocks (the meta tags) or only fills fields (trafilatura)."""
    return [{"label": label, "text": text} for label, text in result.fields.items() if text]


def plot_publishers(result: GoldCV, scorer: ModuleType, path: Path) -> None:
    """Save a chart of micro token F1 per publisher and field, one bar per system (cross-validated model,
    the model as given, peers), publishers by number of headline pages, as PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .atomic import atomic_path

    fields = scorer.SCORED
    by_publisher = result.by_publisher(scorer)
    systems = list(by_publisher)
    publishers = sorted(by_publisher[systems[0]], key=lambda p: (-by_publisher[systems[0]][p]["n_pages"], p))
    fig, axes = plt.subplots(1, len(fields), figsize=(3.2 * len(fields), 0.32 * len(publishers) + 1.6), sharey=True)
    height = 0.8 / len(systems)
    for ax, field in zip(axes, fields):
        for k, system in enumerate(systems):
            scores = [by_publisher[system][p]["labels"].get(field, {}).get("F1_micro") for p in publishers]
            rows = [i for i, s in enumerate(scores) if s is not None]
            offsets = [i + (k - (len(systems) - 1) / 2) * height for i in rows]
            bars = ax.barh(offsets, [scores[i] for i in rows], height=height, label=system)
            zeros = [o for o, i in zip(offsets, rows) if scores[i] == 0]
            ax.plot([0.01] * len(zeros), zeros, "x", color=bars.patches[0].get_facecolor() if rows else None, ms=4)
        ax.set_title(field)
        ax.set_xlim(0, 1)
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(range(len(publishers)),
                       [f"{p[:28]} ({by_publisher[systems[0]][p]['n_pages']})" for p in publishers], fontsize=8)
    axes[0].invert_yaxis()
    fig.legend(*axes[0].get_legend_handles_labels(), loc="lower center", ncol=len(systems), frameon=False)
    fig.suptitle("micro token F1 per publisher (headline pages in brackets; x: F1 0; nothing: field not shown)")
    fig.tight_layout(rect=(0, 0.04, 1, 0.97))
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=110)
    plt.close(fig)
