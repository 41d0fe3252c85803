"""The compiled SV store's copy of its rows by feature changes no number.

``refsvm._fast.sparse`` keeps the dense layout's rows also by feature
(``Store.dense_t``, d x cap, when ``cap * d <= BY_FEATURE_ENTRIES``), so that a
Gaussian kernel row is vector adds of its rows at x's nonzeros instead of a
gather per support vector.  Every list operation (append, swap-remove, merge,
a model continued) must keep the copy in step, and the sums are the gather's
in the same order, so whole runs must be bitwise those with the copy switched
off (``BY_FEATURE_ENTRIES = 0``): BSGD with each maintenance and merge solver,
binary and multi-class, BSCA, the budgeted online learners (removals) and NOGD,
on dense and CSR rows, over two epochs and a continued ``partial_fit``.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from refsvm import BSCAClassifier, BudgetedSVC, NOGDClassifier, OnlineKernelClassifier
from refsvm._fast import sparse as fast_sparse


def data(n_classes, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(400, 6))
    X[np.abs(X) < 0.6] = 0.0                                  # zeros: the sparse rows differ from dense
    if n_classes == 2:
        return X, np.where(X[:, 0] * X[:, 1] + 0.3 * X[:, 2] > 0, 1, -1)
    return X, np.digitize(X[:, 0] + X[:, 3], [-0.8, 0.0, 0.8])       # four classes


CASES = [
    (BudgetedSVC, dict(budget=25, maintenance="merge", merge_solver="gss"), 2),
    (BudgetedSVC, dict(budget=25, maintenance="merge", merge_solver="lookup-wd"), 2),
    (BudgetedSVC, dict(budget=25, maintenance="merge", merge_solver="gss"), 4),
    (BudgetedSVC, dict(budget=25, maintenance="merge", merge_solver="lookup-h", fit_bias=True), 2),
    (BudgetedSVC, dict(budget=25, maintenance="removal"), 2),
    (BudgetedSVC, dict(budget=25, maintenance="projection"), 4),
    (BSCAClassifier, dict(budget=25, C=10.0), 2),
    (BSCAClassifier, dict(budget=25, C=10.0, merge_solver="lookup-wd"), 2),
    (BSCAClassifier, dict(budget=25, C=10.0), 4),
    (OnlineKernelClassifier, dict(algorithm="rbp", budget=25), 2),
    (OnlineKernelClassifier, dict(algorithm="forgetron", budget=25), 2),
    (OnlineKernelClassifier, dict(algorithm="bpas", budget=25), 2),
    (NOGDClassifier, dict(budget=25, rank=5), 2),
]
IDS = [f"{cls.__name__}-{'-'.join(str(v) for v in kw.values())}-{c}" for cls, kw, c in CASES]


def fitted(cls, kw, X, y):
    est = cls(gamma=0.5, random_state=3, epochs=2, **kw).fit(X, y)
    est.partial_fit(X[:150], y[:150])                          # a model continued: rows already stored
    return est


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
@pytest.mark.parametrize("cls, kw, n_classes", CASES, ids=IDS)
def test_rows_by_feature_change_no_bit(cls, kw, n_classes, sparse, monkeypatch):
    X, y = data(n_classes)
    Xin = sp.csr_matrix(X) if sparse else X
    assert fast_sparse.BY_FEATURE_ENTRIES >= 26 * X.shape[1]   # the copy is kept in the first run
    by_feature = fitted(cls, kw, Xin, y)
    monkeypatch.setattr(fast_sparse, "BY_FEATURE_ENTRIES", 0)
    gathered = fitted(cls, kw, Xin, y)
    np.testing.assert_array_equal(by_feature.decision_function(X), gathered.decision_function(X))
    for name in ("support_vectors_", "dual_coef_", "alpha_", "coef_"):
        a, b = getattr(by_feature, name, None), getattr(gathered, name, None)
        if a is not None:
            a = a.toarray() if sp.issparse(a) else a
            b = b.toarray() if sp.issparse(b) else b
            np.testing.assert_array_equal(a, b, err_msg=name)
    for ta, tb in zip(by_feature.trace_, gathered.trace_):
        for key in ("mistakes", "n_maintenance", "n_updates", "updates", "removals"):
            if key in ta:
                assert ta[key] == tb[key], key
