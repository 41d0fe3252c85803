"""refsvm reproduce: Qaadan, Schüler & Glasmachers (2019) Figures 1-8 (BSGD and BSCA followed over epochs):
the dual variables of BSGD by the paper's equation (4), the free-variable share of Lemma 2, and a quick run of
every registered figure (JSON and PNG)."""


import numpy as np
import pytest

from _helpers import check_json_and_png

from refsvm.reproduce import driver
from refsvm.reproduce.qaadan import CURVE_COLUMNS, _Solver, bsgd_dual, free_share

FIGURES = [f"qaadan2019-figure{i}" for i in range(1, 9)]


def _blobs(n=120, seed=0):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1, -1).astype(np.int64)
    return np.ascontiguousarray(rng.normal(size=(n, 3)) + 0.8 * y[:, None]), y


def test_bsgd_dual_of_equation_4_represents_the_unbudgeted_model():
    """Without budget BSGD's model is w = sum_i alpha_i y_i phi(x_i) with alpha_i = n C v_i / t (equation (4)):
    its decision values equal those of the dual vector's expansion (brute-force Gaussian kernel in numpy)."""
    X, y = _blobs()
    C, gamma = 2.0, 0.5
    s = _Solver("bsgd", X, y, None, C, gamma)
    rng = np.random.default_rng(1)
    for _ in range(3):
        s.step(rng.permutation(len(y)).astype(np.int64))
    sv, beta = s.model()
    alpha = s.dual()
    assert alpha.max() > 0 and np.all(alpha >= 0)
    Z = np.random.default_rng(2).normal(size=(15, 3))
    k = lambda A, B: np.exp(-gamma * ((A[:, None, :] - B[None, :, :]) ** 2).sum(-1))
    np.testing.assert_allclose(k(Z, sv) @ beta, k(Z, X) @ (alpha * y), rtol=1e-9, atol=1e-9)


def test_bsgd_dual_and_free_share_by_hand():
    assert np.allclose(bsgd_dual(np.array([0, 2, 1, 1]), 8, 0.5), [0.0, 0.5, 0.25, 0.25])   # n C v / t
    assert free_share(np.array([0.0, 0.3, 1.0, 1.0 - 1e-12, 0.0]), 1.0) == pytest.approx(2 / 5)


@pytest.mark.parametrize("name", FIGURES)
def test_quick_run_of_every_figure(name, tmp_path, monkeypatch, parsed_once):
    """Each figure is a registered name; a --quick run gives curves of every column and a PNG; the accuracy
    figures carry the exact SVM's accuracy (the paper's Table 1) as the paper column."""
    table = driver.tables()[name]
    monkeypatch.setattr(table, "quick_rows", 100)
    result = driver.run_table(name, quick=True, seeds=2)
    assert {r["dataset"] for r in result["rows"]} == {"ADULT", "IJCNN"}
    assert "data not available" in result["title"] and "SUSY" in result["note"]
    for r in result["rows"]:
        curves = np.array([s["checkpoints"] for s in r["per_seed"]])
        assert curves.shape[0] == 2 and curves.shape[2] == len(CURVE_COLUMNS)
        assert np.all(np.diff(curves[:, :, 0], axis=1) > 0) and np.all(np.diff(curves[:, :, 1], axis=1) >= 0)
        if name != "qaadan2019-figure8":
            assert r["paper"]["mean"] == pytest.approx({"ADULT": 15.18, "IJCNN": 1.23}[r["dataset"]])
    check_json_and_png(result, tmp_path, table.plot)
