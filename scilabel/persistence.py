"""Saving and loading trained models with their versions and model card.

Models are saved in :mod:`scilabel.modelfile`'s format, which runs no code from the file on load.
A joblib pickle (the format of scilabel 0.3 and earlier) runs code from the file when it is loaded:
it is read only with ``trust=True`` (``--trust-model``), with a warning; :func:`convert_model` turns
one into the safe format (``scilabel model convert OLD.joblib NEW.npz``).
"""
from __future__ import annotations

import logging
import os
import warnings
from pathlib import Path

import joblib
import sklearn

from . import __version__, modelfile
from .emission import EMISSIONS
from .labeler import MODEL_FORMAT, ZoneLabeler
from .modelfile import MODELS_DIR

log = logging.getLogger(__name__)
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
    """Attach ``card`` (training data summary, test metrics ...) as ``model_card_`` and write atomically
    in the safe format."""
    labeler.model_card_ = dict(card)
    return modelfile.dump(labeler, path)


def read_model_file(path: str | Path, trust: bool = False, what: str = "model") -> object:
    """The object in a model file: the safe format always; a joblib pickle only with ``trust``.

    Raises :class:`ModelError` with a one-line reason for a missing file, a pickle not trusted, or
    a file that is neither format.
    """
    path = Path(path)
    if not path.is_file():
        raise ModelError(f"{path}: no such {what} file")
    if modelfile.is_model_file(path):
        try:
            return modelfile.load(path)
        except Exception as exc:  # a damaged archive or one naming what a model may not hold
            raise ModelError(f"{path}: not a usable scilabel {what} ({_reason(exc)})") from None
    if not trust:
        raise ModelError(f"{path}: not a scilabel {what} in the safe format; if it is a joblib pickle you trust, "
                         f"pass --trust-model (loading a pickle runs code from the file) or convert it once with "
                         f"`scilabel model convert {path} NEW.npz`")
    log.warning("%s: loading a pickle, which runs code from the file: only do this for files you trust", path)
    try:
        return joblib.load(path)
    except Exception as exc:  # any unpickling failure means "not a model we can use"
        raise ModelError(f"{path}: not a scilabel {what} ({_reason(exc)})") from None


def _reason(exc: Exception) -> str:
    return f"{type(exc).__name__}: {str(exc)[:120]}"


def convert_model(source: str | Path, target: str | Path) -> Path:
    """Rewrite a trusted joblib pickle of a zone labeller, reference parser or block model in the safe format.

    Unpickling ``source`` runs code from it: convert only files you trust.
    """
    from .references import save_parser
    from .references.parser import ReferenceParser
    from .structure.model import BlockModel

    model = read_model_file(source, trust=True)
    if isinstance(model, ReferenceParser):
        return save_parser(model, target)
    if isinstance(model, (ZoneLabeler, BlockModel)):
        return modelfile.dump(model, target)
    raise ModelError(f"{source}: not a scilabel ZoneLabeler, ReferenceParser or BlockModel (found {type(model).__name__})")


def load_model(path: str | Path | None = None, trust: bool = False) -> ZoneLabeler:
    """Load a model file (default: the shipped default model); a pickle only with ``trust``.

    Warns when it was saved with another scilabel or scikit-learn version; raises
    :class:`ModelError` with a one-line reason when the file is missing, not a model, a pickle not
    trusted, or a model of another format (:data:`~scilabel.labeler.MODEL_FORMAT`).
    """
    path = Path(path) if path is not None else default_model_path()
    model = read_model_file(path, trust)
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
