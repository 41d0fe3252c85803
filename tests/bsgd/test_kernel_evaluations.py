"""``kernel_evaluations`` in the trace of BSGD (both backends).

The count is defined in DESIGN.md: values k(x, x') of two different points
that the algorithm needs with the SV kernel matrix kept up to date (margin
rows, merge partner kernels, the new row of K for a merged point, the matrix
of a continued model); diagonal values are not counted.

* both paths report the same count for every learning rate x maintenance,
  binary and multi-class, for a fresh and a continued model;
* an independent count in the reference: the kernel rows actually requested
  by the margin (``kernel_row`` wrapped) plus, for merging, the candidate
  partners counted from the coefficients handed to budget maintenance.
"""

import numpy as np
import pytest

import refsvm._fast.bsgd as fast_bsgd
import refsvm.bsgd as ref_bsgd
import refsvm.budget as ref_budget
import refsvm.kernels as ref_kernels
from _helpers import blobs, checkerboard


def kwargs(n_classes, learning_rate, maintenance):
    return dict(n_classes=n_classes, budget=15, lam=1e-3, learning_rate=learning_rate, eta=0.5,
                radius=10.0, maintenance=maintenance, kernel="rbf", gamma=2.0, degree=3, coef0=0.0,
                merge_eps=0.01, projection_ridge=1e-10, fit_bias=False)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("learning_rate", ["pegasos", "perceptron"])
@pytest.mark.parametrize("maintenance", ["removal", "projection", "merge"])
def test_bsgd_count_equal_on_both_paths(n_classes, learning_rate, maintenance):
    X, y = checkerboard(150, 0) if n_classes == 2 else blobs(150, 3, 0)
    order = np.random.default_rng(0).permutation(150)
    kw = kwargs(n_classes, learning_rate, maintenance)
    a, b = ref_bsgd.bsgd(X, y, order, **kw), fast_bsgd.bsgd(X, y, order, **kw)
    assert a.trace["kernel_evaluations"] == b.trace["kernel_evaluations"] > 0
    cont = dict(sv=a.sv, alpha=a.alpha, bias=a.bias, t0=a.t)
    a2, b2 = ref_bsgd.bsgd(X, y, order, **cont, **kw), fast_bsgd.bsgd(X, y, order, **cont, **kw)
    assert a2.trace["kernel_evaluations"] == b2.trace["kernel_evaluations"]


@pytest.mark.parametrize("maintenance", ["removal", "merge"])
def test_bsgd_count_against_instrumented_reference(monkeypatch, maintenance):
    X, y = checkerboard(200, 1)
    order = np.random.default_rng(1).permutation(200)
    counted = {"rows": 0, "merge": 0}
    # the margin's rows go through kernels.kernel_row (Kernel.row), maintenance through budget.maintain_with
    real_row, real_maintain = ref_kernels.kernel_row, ref_budget.maintain_with

    def counting_row(SV, x, *args):
        counted["rows"] += len(SV)
        return real_row(SV, x, *args)

    def counting_maintain(opts, SV, A, n_sv, **kw):
        if opts.strategy == "merge":                    # binary: partners of equal sign to m = argmin alpha^2
            a = A[:n_sv, 0]
            m = int(np.argmin(a * a))
            counted["merge"] += sum(1 for j in range(n_sv) if j != m and a[m] * a[j] >= 0)
        return real_maintain(opts, SV, A, n_sv, **kw)

    monkeypatch.setattr(ref_kernels, "kernel_row", counting_row)
    monkeypatch.setattr(ref_budget, "maintain_with", counting_maintain)
    res = ref_bsgd.bsgd(X, y, order, **kwargs(2, "pegasos", maintenance))
    assert len(res.trace["maint_step"]) > 0
    assert res.trace["kernel_evaluations"] == counted["rows"] + counted["merge"]
    if maintenance == "removal":
        assert counted["merge"] == 0


@pytest.mark.parametrize("module", [ref_bsgd, fast_bsgd], ids=["python", "fast"])
@pytest.mark.parametrize("learning_rate,maintenance", [("pegasos", "merge"), ("perceptron", "projection")])
def test_bsgd_count_of_a_pass_split_in_chunks(module, learning_rate, maintenance):
    X, y = checkerboard(160, 2)
    order = np.random.default_rng(2).permutation(160)
    kw = kwargs(2, learning_rate, maintenance)
    whole = module.bsgd(X, y, order, **kw)
    first = module.bsgd(X, y, order[:70], **kw)
    second = module.bsgd(X, y, order[70:], sv=first.sv, alpha=first.alpha, bias=first.bias, t0=first.t, **kw)
    assert (first.trace["kernel_evaluations"] + second.trace["kernel_evaluations"]
            == whole.trace["kernel_evaluations"])
