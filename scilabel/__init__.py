"""scilabel: logical zone labelling of scholarly article web pages."""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("scilabel")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+unknown"


def __getattr__(name: str):
    """``scilabel.load_model`` and ``scilabel.label_many`` without importing scikit-learn on every
    ``import scilabel``."""
    if name == "load_model":
        from .persistence import load_model

        return load_model
    if name == "label_many":
        from .batch import label_many

        return label_many
    raise AttributeError(f"module 'scilabel' has no attribute {name!r}")
