"""Saving and loading trained models (joblib pickles with their versions and model card).

Loading a pickle runs code from the file: load only models you trust (the ones shipped in
``models/`` or trained yourself).
"""
from __future__ import annotations

import logging
import os
import warnings
from pathlib import Path

import joblib
import sklearn

from . import __version__
from .atomic import atomic_path
from .emission import EMISSIONS
from .labeler import MODEL_FORMAT, ZoneLabeler

log = logging.getLogger(__name__)
#: Where the shipped models live (the repository's ``models/`` folder).
MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
#: Emission name -> the model shipped with it (:data:`scilabel.emission.EMISSIONS`).
SHIPPED_MODELS = {name: MODELS_DIR / kind.model_file for name, kind in EMISSIONS.items() if kind.model_file}
MODEL_ENV = "SCILABEL_MODEL"


class ModelError(ValueError):
    """A model file that is missing or is not a scilabel model."""


#: The shipped model used when none is named: the SVM emission (see the model cards for why).
DEFAULT_EMISSION = "svm"


def default_model_path(emission: str | None = None) -> Path:
    """The shipped model for ``emission``; with none named, $SCILABEL_MODEL if set, else the default."""
    if emission is None and os.environ.get(MODEL_ENV):
        return Path(os.environ[MODEL_ENV])
    return SHIPPED_MODELS[emission or DEFAULT_EMISSION]


def model_path(spec: str | Path | None = None) -> Path:
    """The model file ``spec`` names: an emission name (``nb``, ``svm``) for its shipped model, None for
    the default (:func:`default_model_path`), anything else a path."""
    if spec is None or spec in SHIPPED_MODELS:
        return default_model_path(spec)
    return Path(spec)


def save_model(labeler: ZoneLabeler, path: str | Path, card: dict) -> Path:
    """Attach ``card`` (training data summary, test metrics ...) as ``model_card_`` and write atomically."""
    labeler.model_card_ = dict(card)
    with atomic_path(path) as tmp:
        joblib.dump(labeler, tmp, compress=3)
    return Path(path)


def load_model(path: str | Path | None = None) -> ZoneLabeler:
    """Load a trusted model file (default: the shipped default model).

    Warns when it was saved with another scilabel or scikit-learn version; raises
    :class:`ModelError` with a one-line reason when the file is missing, not a model, or a model of
    another format (:data:`~scilabel.labeler.MODEL_FORMAT`).
    """
    path = Path(path) if path is not None else default_model_path()
    if not path.is_file():
        raise ModelError(f"{path}: no such model file")
    try:
        model = joblib.load(path)
    except Exception as exc:  # any unpickling failure means "not a model we can use"
        raise ModelError(f"{path}: not a scilabel model ({type(exc).__name__}: {str(exc)[:120]})") from None
    if not isinstance(model, ZoneLabeler) or not hasattr(model, "hmm_"):
        raise ModelError(f"{path}: not a fitted scilabel ZoneLabeler (found {type(model).__name__})")
    saved = dict(getattr(model, "versions_", {}))
    found = saved.pop("model_format", 1)
    if found != MODEL_FORMAT:
        raise ModelError(f"{path}: a scilabel model of format {found}; this scilabel reads format {MODEL_FORMAT} "
                         f"(retrain it with train.py, or use the scilabel version it was saved with, {saved.get('scilabel')})")
    running = {"scilabel": __version__, "scikit-learn": sklearn.__version__}
    if saved != running:
        warnings.warn(
            f"{path} was saved with {saved} and is loaded with {running}; predictions may differ "
            "(retrain, or install the versions it was saved with)",
            stacklevel=2,
        )
    return model
