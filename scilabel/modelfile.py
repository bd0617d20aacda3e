"""A model file format that runs no code from the file on load: the object graph as JSON beside its
arrays, in one ``.npz`` archive (NumPy's zip of ``.npy`` arrays, read with ``allow_pickle=False``).

The JSON holds plain values (None, booleans, numbers, strings, lists) and tagged ones: tuples, sets,
dictionaries, arrays (an index into the archive), NumPy scalars, dtypes and random generators, functions and objects.
Loading builds only objects of trusted classes (scilabel's own, and the estimators of scikit-learn,
hmmlearn and sklearn-crfsuite), refers only to functions of trusted scilabel modules, and calls no
constructor: an object is allocated and given its saved attributes (through the class's own
``__setstate__`` where it has one, as unpickling does). A file naming anything else is refused
before anything is built. A setting one of scilabel's estimators gained after the file was written
takes its default. A CRF's native model file travels as bytes and is written to a temporary
file of the CRF's own on load.

    dump(parser, "refs.npz"); parser = load("refs.npz")
"""
from __future__ import annotations

import functools
import importlib
import inspect
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from .atomic import atomic_path

#: The archive member holding the object graph (``<name>.npy`` in the zip, a uint8 array of UTF-8 JSON).
GRAPH = "scilabel_model_json"
#: Where the shipped models live (the repository's ``models/`` folder).
MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
#: Modules whose classes load whatever they are; other classes load only if they are estimators of ...
TRUSTED_CLASS_MODULES = ("scilabel.",)
#: ... these packages.
TRUSTED_ESTIMATOR_MODULES = ("sklearn.", "hmmlearn.", "sklearn_crfsuite.")
#: Helper classes of those packages that are not estimators but that their fitted estimators hold
#: (gradient-boosted trees: their trees, loss and link).
TRUSTED_HELPERS = frozenset({
    "sklearn.ensemble._hist_gradient_boosting.predictor:TreePredictor",
    "sklearn._loss.loss:HalfBinomialLoss", "sklearn._loss.loss:HalfMultinomialLoss",
    "sklearn._loss._loss:CyHalfBinomialLoss", "sklearn._loss._loss:CyHalfMultinomialLoss",
    "sklearn._loss.link:Interval", "sklearn._loss.link:LogitLink", "sklearn._loss.link:MultinomialLogit",
})
#: Modules whose functions a model may refer to (veto predicates, tokenizers).
TRUSTED_FUNCTION_MODULES = ("scilabel.constraints", "scilabel.features.", "scilabel.rules.")
#: NumPy bit generators a saved random stream may name.
_BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")
_SCALAR_TYPES = {"float": float, "int": int, "str": str, "bool": bool}


class UnsafeModelFile(ValueError):
    """A model file that is not in this format, or names something it may not load."""


def is_model_file(path: str | Path) -> bool:
    """Whether ``path`` is an archive of this format (checked without reading its contents)."""
    try:
        with zipfile.ZipFile(path) as archive:
            return f"{GRAPH}.npy" in archive.namelist()
    except (OSError, zipfile.BadZipFile):
        return False


def dump(obj: Any, path: str | Path) -> Path:
    """Write ``obj`` to ``path`` atomically; raises :class:`UnsafeModelFile` for what cannot be saved safely."""
    arrays: list[np.ndarray] = []
    graph = json.dumps(_encode(obj, arrays), separators=(",", ":")).encode("utf-8")
    members = {GRAPH: np.frombuffer(graph, dtype=np.uint8), **{f"a{i}": a for i, a in enumerate(arrays)}}
    with atomic_path(path) as tmp, open(tmp, "wb") as file:
        np.savez_compressed(file, **members)
    return Path(path)


def load(path: str | Path) -> Any:
    """Read an object written by :func:`dump`; raises :class:`UnsafeModelFile` for anything else.

    Each call builds new objects; the archive itself is read once per process while the file is
    unchanged (its arrays, shared by what is built from them, are read-only)."""
    if not is_model_file(path):
        raise UnsafeModelFile(f"{path}: not a scilabel model archive")
    stat = Path(path).stat()
    graph, arrays = _read_archive(str(Path(path).resolve()), stat.st_ino, stat.st_size, stat.st_mtime_ns)
    return _decode(graph, arrays)


@functools.lru_cache(maxsize=8)
def _read_archive(path: str, inode: int, size: int, mtime_ns: int) -> tuple[Any, dict[str, np.ndarray]]:
    """The object graph and the arrays of the archive at ``path`` as it is (``inode``, ``size`` and
    ``mtime_ns`` key the file's version)."""
    try:
        with np.load(path, allow_pickle=False) as archive:
            graph = json.loads(bytes(archive[GRAPH]).decode("utf-8"))
            arrays = {name: archive[name] for name in archive.files if name != GRAPH}
    except (OSError, ValueError, zipfile.BadZipFile) as exc:
        raise UnsafeModelFile(f"{path}: unreadable model archive ({exc})") from None
    for array in arrays.values():
        array.flags.writeable = False
    return graph, arrays


# -- encoding -------------------------------------------------------------------------------------
def _name(obj: Any) -> str:
    return f"{obj.__module__}:{obj.__qualname__}"


def _encode(obj: Any, arrays: list[np.ndarray]) -> Any:
    if obj is None or type(obj) in (bool, int, float, str):
        return obj
    if type(obj) is list:
        return [_encode(v, arrays) for v in obj]
    if type(obj) is tuple:
        return {"$tuple": [_encode(v, arrays) for v in obj]}
    if type(obj) in (set, frozenset):
        return {"$" + type(obj).__name__: [_encode(v, arrays) for v in obj]}
    if type(obj) is dict:
        return _encode_dict(obj, arrays)
    if isinstance(obj, np.ndarray):
        if obj.dtype.hasobject:
            return {"$objects": list(obj.shape), "items": [_encode(v, arrays) for v in obj.ravel().tolist()]}
        arrays.append(obj)
        return {"$array": f"a{len(arrays) - 1}"}
    if isinstance(obj, np.generic):
        return {"$scalar": obj.dtype.str, "value": obj.item()}
    if isinstance(obj, np.dtype):
        return {"$dtype": obj.str}
    if isinstance(obj, np.random.Generator):  # an estimator's random stream (used in fitting)
        bits = obj.bit_generator
        return {"$rng": type(bits).__name__, "state": _encode(bits.state, arrays)}
    if isinstance(obj, bytes):
        arrays.append(np.frombuffer(obj, dtype=np.uint8))
        return {"$bytes": f"a{len(arrays) - 1}"}
    if isinstance(obj, type):
        return {"$type": _type_name(obj)}
    if callable(obj) and hasattr(obj, "__code__"):
        _check_function(obj.__module__, obj.__qualname__)
        return {"$function": _name(obj)}
    if type(obj).__name__ == "FileResource" and type(obj).__module__.startswith("sklearn_crfsuite."):
        return {"$crf_model": _encode(Path(obj.name).read_bytes(), arrays)}
    _check_class(type(obj))
    state = obj.__getstate__() or {}
    if not isinstance(state, dict):
        raise UnsafeModelFile(f"cannot save a {_name(type(obj))} safely: its state is not a dictionary")
    return {"$object": _name(type(obj)), "state": _encode_dict(state, arrays)}


def _encode_dict(obj: dict, arrays: list[np.ndarray]) -> dict:
    if all(type(k) is str for k in obj):
        values = list(obj.values())
        if values and all(isinstance(v, np.generic) and v.dtype == values[0].dtype for v in values):
            arrays.append(np.array(values))  # e.g. a vectorizer's vocabulary of numpy integers
            return {"$keyed": list(obj), "values": f"a{len(arrays) - 1}"}
        return {"$dict": {k: _encode(v, arrays) for k, v in obj.items()}}
    return {"$items": [[_encode(k, arrays), _encode(v, arrays)] for k, v in obj.items()]}


def _type_name(cls: type) -> str:
    if issubclass(cls, np.generic):
        return f"numpy:{cls.__name__}"
    if cls in _SCALAR_TYPES.values():
        return f"builtins:{cls.__name__}"
    raise UnsafeModelFile(f"cannot save a reference to the type {_name(cls)} safely")


# -- decoding -------------------------------------------------------------------------------------
def _decode(node: Any, arrays: dict[str, np.ndarray]) -> Any:
    if isinstance(node, list):
        return [_decode(v, arrays) for v in node]
    if not isinstance(node, dict):
        return node
    tag = next(iter(node), None)
    if tag == "$dict":
        return {k: _decode(v, arrays) for k, v in node[tag].items()}
    if tag == "$items":
        return {_decode(k, arrays): _decode(v, arrays) for k, v in node[tag]}
    if tag == "$keyed":
        return dict(zip(node[tag], _array(node["values"], arrays)))
    if tag == "$tuple":
        return tuple(_decode(v, arrays) for v in node[tag])
    if tag == "$set":
        return {_decode(v, arrays) for v in node[tag]}
    if tag == "$frozenset":
        return frozenset(_decode(v, arrays) for v in node[tag])
    if tag == "$array":
        return _array(node[tag], arrays)
    if tag == "$bytes":
        return _array(node[tag], arrays).tobytes()
    if tag == "$objects":
        out = np.empty(len(node["items"]), dtype=object)
        for i, item in enumerate(node["items"]):
            out[i] = _decode(item, arrays)
        return out.reshape(node[tag])
    if tag == "$scalar":
        return np.dtype(node[tag]).type(node["value"])
    if tag == "$dtype":
        return np.dtype(node[tag])
    if tag == "$type":
        module, name = node[tag].split(":")
        if module == "numpy" and isinstance(getattr(np, name, None), type) and issubclass(getattr(np, name), np.generic):
            return getattr(np, name)
        if module == "builtins" and name in _SCALAR_TYPES:
            return _SCALAR_TYPES[name]
        raise UnsafeModelFile(f"the file refers to the type {node[tag]}, which a model may not")
    if tag == "$function":
        module, name = node[tag].split(":")
        _check_function(module, name)
        return _resolve(module, name)
    if tag == "$rng":
        if node[tag] not in _BIT_GENERATORS:
            raise UnsafeModelFile(f"the file names the random generator {node[tag]}, which a model may not")
        bits = getattr(np.random, node[tag])()
        bits.state = _decode(node["state"], arrays)
        return np.random.Generator(bits)
    if tag == "$crf_model":
        return _crf_model(_decode(node[tag], arrays))
    if tag == "$object":
        module, name = node[tag].split(":")
        cls = _resolve(module, name)
        if not isinstance(cls, type):
            raise UnsafeModelFile(f"the file names {node[tag]}, which is not a class")
        _check_class(cls)
        state = _decode(node["state"], arrays)
        obj = cls.__new__(cls)
        if state and hasattr(cls, "__setstate__"):
            obj.__setstate__(state)
        elif state:  # (a compiled helper without state is left as allocated)
            obj.__dict__.update(state)
        if module.startswith(TRUSTED_CLASS_MODULES) and hasattr(cls, "get_params"):
            _default_settings(obj)
        return obj
    raise UnsafeModelFile(f"unknown entry {tag!r} in the model file")


def _default_settings(estimator: Any) -> None:
    """Give ``estimator`` the default of each constructor setting it lacks (one added to its class
    after the file was written)."""
    for name, param in inspect.signature(type(estimator).__init__).parameters.items():
        if param.default is not inspect.Parameter.empty and name not in vars(estimator):
            setattr(estimator, name, param.default)


def _array(name: str, arrays: dict[str, np.ndarray]) -> np.ndarray:
    if name not in arrays:
        raise UnsafeModelFile(f"the model file lacks its array {name}")
    return arrays[name]


def _resolve(module: str, name: str) -> Any:
    if not (module + ".").startswith(TRUSTED_CLASS_MODULES + TRUSTED_ESTIMATOR_MODULES) or "<" in name:
        raise UnsafeModelFile(f"the file names {module}:{name}, outside what a model may use")
    obj: Any = importlib.import_module(module)
    for part in name.split("."):
        obj = getattr(obj, part, None)
    if obj is None:
        raise UnsafeModelFile(f"the file names {module}:{name}, which this scilabel does not have")
    return obj


def _check_class(cls: type) -> None:
    from sklearn.base import BaseEstimator  # here, not at import: the CLI starts without scikit-learn

    module = cls.__module__ + "."
    if module.startswith(TRUSTED_CLASS_MODULES):
        return
    if module.startswith(TRUSTED_ESTIMATOR_MODULES) and (issubclass(cls, BaseEstimator) or _name(cls) in TRUSTED_HELPERS):
        return
    raise UnsafeModelFile(f"a model may not hold a {_name(cls)}")


def _check_function(module: str, qualname: str) -> None:
    if not (module + ".").startswith(TRUSTED_FUNCTION_MODULES) or "<" in qualname:
        raise UnsafeModelFile(f"a model may refer only to functions of {', '.join(TRUSTED_FUNCTION_MODULES)}, "
                              f"not {module}:{qualname}")


def _crf_model(data: bytes) -> Any:
    """A CRF's native model file (crfsuite's binary format, read by crfsuite, not executed)."""
    from sklearn_crfsuite._fileresource import FileResource

    resource = FileResource(suffix=".crfsuite", prefix="scilabel-")
    resource.ensure_name()
    with open(resource.name, "wb") as file:
        file.write(data)
    return resource
