"""BSCA projection with a linear kernel on unscaled data: the relative ridge keeps K_p + r I solvable.

Unscaled breast cancer (diagonal of the linear kernel up to ~6e6), budget 50, ``sv_update="append"``:
the same example can hold several slots, so K_p has exactly repeated rows; the absolute ridge 1e-10
was below one ulp of the diagonal and both paths raised ``LinAlgError: Singular matrix``.  With the
ridge ``projection_ridge * max diag K_p`` both paths train and agree (decision values within 1e-9 of
their scale, the same predictions and the same projection events).
"""

import warnings

import numpy as np
import pytest

from refsvm import BSCAClassifier


@pytest.mark.parametrize("C", [1e-2, 1.0, 100.0])
def test_linear_projection_append_unscaled_breast_cancer(C):
    datasets = pytest.importorskip("sklearn.datasets")
    pytest.importorskip("refsvm._fast.bsca")
    X, y = datasets.load_breast_cancer(return_X_y=True)
    fits = {}
    for backend in ("python", "fast"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fits[backend] = BSCAClassifier(budget=50, C=C, kernel="linear", maintenance="projection",
                                           sv_update="append", random_state=0, backend=backend).fit(X, y)
    d = {b: e.decision_function(X) for b, e in fits.items()}
    scale = np.max(np.abs(d["python"]))
    assert np.max(np.abs(d["python"] - d["fast"])) <= 1e-9 * scale
    np.testing.assert_array_equal(fits["python"].predict(X), fits["fast"].predict(X))
    for tp, tf in zip(fits["python"].trace_, fits["fast"].trace_):
        np.testing.assert_array_equal(tp["maint_index"], tf["maint_index"])
        assert len(tp["maint_index"]) > 0
