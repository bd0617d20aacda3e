"""The quick-start notebook runs without errors and shows what it promises; its committed outputs are
those it makes now (refresh them with ``jupyter execute --inplace notebooks/quickstart.ipynb``)."""
from __future__ import annotations

import os

import nbformat
import pytest
from nbclient import NotebookClient

from .conftest import REPO

pytestmark = pytest.mark.slow  # a kernel and a browser: about ten seconds

NOTEBOOK = REPO / "notebooks" / "quickstart.ipynb"


def outputs(notebook) -> list[dict]:
    """Every output of every code cell, in order."""
    return [out for cell in notebook.cells if cell.cell_type == "code" for out in cell.outputs]


def label_table(notebook) -> str:
    return next(o.data["text/plain"] for o in outputs(notebook) if "confidence" in o.get("data", {}).get("text/plain", ""))


def confusion_table(notebook) -> str:
    return next(o.data["text/plain"] for o in outputs(notebook) if o.get("data", {}).get("text/plain", "").startswith("predicted"))


@pytest.fixture(scope="module")
def executed():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    with pytest.MonkeyPatch.context() as mp:  # the kernel imports this repository's scilabel, as the tests do
        mp.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
        NotebookClient(notebook, timeout=120, kernel_name="python3",
                       resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()  # raises on a cell's error
    return notebook


def test_the_notebook_runs_and_shows_an_overlay_a_label_table_and_a_confusion_matrix(executed):
    assert not [o for o in outputs(executed) if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs(executed))
    table = label_table(executed)
    assert all(column in table for column in ("predicted", "state", "confidence", "gold", "text"))
    assert "Seasonal shifts in nectar foraging" in table
    matrix = confusion_table(executed).splitlines()
    assert matrix[1].split() == ["gold"] and matrix[2].split()[0] == "title"


def test_the_committed_outputs_are_the_current_ones(executed):
    committed = nbformat.read(NOTEBOOK, as_version=4)
    assert any("image/png" in o.get("data", {}) for o in outputs(committed))
    assert label_table(committed) == label_table(executed)
    assert confusion_table(committed) == confusion_table(executed)
