"""Each veto's effect on the development pages: the shipped model decoding with one veto left out in turn,
and with none (vetoes act only when decoding, so nothing is refitted).

    .venv/bin/python benchmarks/veto_ablation.py [--model svm] [--data build/corpus] [--split dev] [--out FILE]

Prints token F1 (%) per field of every variant and its difference from the full table; the real-page
side of the same question is ``evaluate.py --gold-cv ... --ablate-vetoes``. Score the development
split only: a rule is kept or dropped on these figures, never on the test split's.
"""
from __future__ import annotations

import argparse
import copy
import logging
from pathlib import Path

import pandas as pd

from scilabel.crossval import veto_ablation
from scilabel.evaluation import evaluate
from scilabel.persistence import load_model, model_path
from scilabel.schema import FIELD_LABELS


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="svm", help="model file or shipped emission name (default svm)")
    parser.add_argument("--data", type=Path, nargs="+", default=[Path("build/corpus")], help="dataset folders")
    parser.add_argument("--split", default="dev", help="split to score (default dev)")
    parser.add_argument("--out", type=Path, help="also write the table as CSV")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    model = load_model(model_path(args.model))
    decoders = {"all vetoes": model, **{name.removeprefix("cv").lstrip(", "): copy.copy(model).set_params(**params)
                                        for name, params in veto_ablation(model.vetoes).items()}}
    systems = {name: (lambda frame, d=decoder: d.label_pages(frame)[0].labels) for name, decoder in decoders.items()}
    summary = evaluate(systems, args.data, split=args.split).summary
    token = summary[summary["level"] == "token"].set_index(["dataset", "system"])[list(FIELD_LABELS)]
    base = token.xs("all vetoes", level="system")
    delta = token - base.reindex(token.index, level="dataset").to_numpy()
    table = pd.concat({"F1": token, "difference": delta}, axis=1).round(1)
    print(table.to_string())
    if args.out:
        table.to_csv(args.out)


if __name__ == "__main__":
    main()
