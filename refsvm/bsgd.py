"""BSGD: budgeted stochastic gradient descent (reference implementation).

Algorithm 1 of Wang, Crammer, Vucetic (2012), "Breaking the curse of
kernelization: budgeted stochastic gradient descent for large-scale SVM
training", JMLR 13, 3103-3131, with the learning rates of its Table 2, the
multi-class extension of its section 5 (Crammer–Singer) and the budget
maintenance strategies of its section 6 (:mod:`refsvm.budget`).
The compiled mirror is :mod:`refsvm._fast.bsgd`, same function, same signature.

Algorithm 1 (binary; multi-class replaces ``beta_t`` by a row vector)::

     1: Input: data S, kernel k, regularization parameter lambda, budget B
     2: Initialize: b = 0, w_1 = 0
     3: for t = 1, 2, ... do
     4:   receive (x_t, y_t)
     5:   w_{t+1} <- (1 - eta_t lambda) w_t
     6:   if l(w_t; (x_t, y_t)) > 0 then
     7:     w_{t+1} <- w_{t+1} + Phi(x_t) beta_t        // add an SV
     8:     b <- b + 1
     9:     if b > B then
    10:       w_{t+1} <- w_{t+1} - Delta_t             // budget maintenance
    11:       b <- b - 1
    12:     end if
    13:   end if
    14: end for
    15: Output: f_{t+1}(x)

Notes on the reading of the pseudo-code:

* Line 3 prints ``for i = t, 2, ...``; it means ``t = 1, 2, ...``.  ``t`` counts
  every example visited (not only SV additions) and continues across epochs.
* Line 6 uses ``w_t`` (before the scaling of line 5).
* ``beta_t = eta_t y_t`` (binary, eq. 4); multi-class: ``+eta_t`` for the true
  class ``y_t``, ``-eta_t`` for the highest-scoring wrong class ``r_t`` (sec. 5).
* Margin Perceptron (lambda = 0) is followed by the projection onto the ball of
  radius U, ``w <- min(1, U/||w||) w``, after line 12 (section 4, Theorem 3).
* The bias term is zero in the paper (footnote 2).  With ``fit_bias=True`` an
  unregularised bias takes the subgradient step ``b <- b + beta_t`` and is never
  scaled (an extension, off by default).
* The learning rate of Pegasos at ``t = 1`` is ``1/lambda``, so line 5 scales
  the (empty) model by zero, exactly as printed.
"""

import math
import time
from dataclasses import dataclass, field

import numpy as np

from .budget import check_merge_solver, find_duplicate, maintain, merge_compare as _merge_compare
from .kernels import kernel_matrix, kernel_row
from .sparse import is_sparse, n_rows, new_sv_storage
from .validation import check_bsgd_arguments, check_sample_weight

LEARNING_RATES = ("pegasos", "norma", "perceptron")


@dataclass
class BSGDResult:
    """What one pass of :func:`bsgd` returns (both backends)."""

    sv: np.ndarray        #: support vectors, shape (n_sv, d)
    alpha: np.ndarray     #: coefficients, shape (n_sv, c)
    bias: np.ndarray      #: bias, shape (c,)
    t: int                #: index of the last step taken
    trace: dict = field(default_factory=dict)  #: diagnostics, see DESIGN.md


def learning_rate_at(learning_rate, t, lam, eta):
    """``eta_t`` of Table 2: pegasos ``1/(lambda t)``, norma ``eta/sqrt(t)``, perceptron ``eta``."""
    if learning_rate == "pegasos":
        return 1.0 / (lam * t)
    if learning_rate == "norma":
        return eta / math.sqrt(t)
    if learning_rate == "perceptron":
        return eta
    raise ValueError(f"learning_rate must be one of {LEARNING_RATES}, got {learning_rate!r}")


def bsgd(X, y, order, *, n_classes, budget, lam, learning_rate, eta, radius,
         maintenance, kernel, gamma, degree, coef0, merge_eps, projection_ridge,
         fit_bias, sv=None, alpha=None, bias=None, t0=0, merge_solver="gss", merge_compare=False,
         sample_weight=None):
    """One pass of BSGD (Algorithm 1) over the examples ``X[order]``.

    Parameters
    ----------
    X : ndarray of shape (n, d), float64, or scipy sparse matrix
        A sparse X is read as CSR without a dense copy and gives sparse SVs
        (:mod:`refsvm.sparse`); ``result.sv`` is then a CSR matrix.
    y : ndarray of shape (n,), int64
        Binary problems (``n_classes == 2``): labels in {-1, +1}.
        Multi-class problems: labels in ``0 .. n_classes - 1``.
    order : ndarray of int64
        Visiting order (indices into X), drawn by the caller.
    n_classes : int
        2 for a binary model (one coefficient column), c >= 3 for Crammer–Singer.
    budget : int
        B, the maximal number of SVs after each step.
    lam : float
        lambda of eq. (1); ignored (taken as 0) for the perceptron.
    learning_rate : {"pegasos", "norma", "perceptron"}
        Table 2.
    eta : float
        The constant eta of Norma and Margin Perceptron.
    radius : float
        U, the radius of the ball the perceptron's w is projected onto.
    maintenance : {"removal", "projection", "merge"}
        Budget maintenance of Algorithm 2 (:mod:`refsvm.budget`).
    kernel, gamma, degree, coef0
        See :mod:`refsvm.kernels`.
    merge_eps : float
        Precision of the golden-section search of merging with
        ``merge_solver="gss"`` (and of the ``gss`` column of the comparison mode).
    projection_ridge : float
        Ridge added to ``K_p`` in projection.
    fit_bias : bool
        Learn an unregularised bias (extension; the paper has none).
    sv, alpha, bias, t0
        Model to continue from (``None`` = empty model, ``t0 = 0``).
    merge_solver : {"gss", "gss-precise", "lookup-h", "lookup-wd"}
        How merging solves each candidate pair (:func:`refsvm.budget.maintain_merge`):
        golden-section search to ``merge_eps`` or to ``1e-10``, or the lookup
        tables of :mod:`refsvm.lookup` (binary only; ValueError otherwise).
    merge_compare : bool
        Comparison mode (binary merging only): on every maintenance event also
        evaluate the decisions of all four solvers on the same candidate set
        (:func:`refsvm.budget.merge_compare`, before the merge; the run itself is
        unchanged and the time is not counted) and add ``compare_same_decision``,
        ``compare_wd_factor`` and ``compare_wd`` (n_events x 4, columns
        gss, gss-precise, lookup-h, lookup-wd) to the trace.
    sample_weight : ndarray of shape (n,), float64, or None
        Weight ``s_i >= 0`` of example ``X[i]`` (``None``: all 1).  The
        weighted loss ``s_i l(w; (x_i, y_i))`` scales the subgradient, so
        Alg. 1, line 7 adds the SV with ``beta_t = s_i eta_t y_t`` (binary;
        multi-class ``+-s_i eta_t``; the bias step likewise); an example with
        ``s_i = 0`` has zero loss and adds nothing (line 6).  Line 5 (the
        regulariser) and the online mistake count are unchanged.

    Returns
    -------
    BSGDResult
    """
    X, y, order = check_bsgd_arguments(
        X, y, order, n_classes=n_classes, budget=budget, lam=lam, learning_rate=learning_rate,
        eta=eta, radius=radius, maintenance=maintenance, kernel=kernel, gamma=gamma, degree=degree,
        coef0=coef0, merge_eps=merge_eps, projection_ridge=projection_ridge, merge_solver=merge_solver,
        sv=sv, alpha=alpha, bias=bias, t0=t0)
    sample_weight = check_sample_weight(sample_weight, X.shape[0])
    binary = n_classes == 2
    c = 1 if binary else n_classes
    if learning_rate == "perceptron":
        lam = 0.0
    check_merge_solver(merge_solver, binary or maintenance != "merge")
    if merge_compare and (maintenance != "merge" or not binary):
        raise ValueError("merge_compare=True needs maintenance='merge' and a binary model")
    tables = None
    if maintenance == "merge" and (merge_compare or merge_solver in ("lookup-h", "lookup-wd")):
        from .lookup import get_tables
        tables = get_tables()                                 # loaded once per pass

    # The model M: room for min(B, n_sv + len(order)) + 1 SVs (b never exceeds n_sv + len(order):
    # a huge budget allocates nothing up front); the first b rows are in use.
    # Sparse X: sparse SV slots (refsvm.sparse), the same list operations.
    n_sv0 = n_rows(sv) if sv is not None else 0
    capacity = min(budget, n_sv0 + len(order)) + 1
    SV = new_sv_storage(capacity, X)
    A = np.zeros((capacity, c))
    b = 0                                                     # Alg. 1, line 2: b = 0, w_1 = 0
    if n_sv0 > 0:
        b = n_sv0
        SV[:b] = sv
        A[:b] = alpha
    w0 = np.zeros(c) if bias is None else np.array(bias, dtype=np.float64)

    added = np.zeros(len(order), dtype=np.int8)
    maint_step, maint_index, maint_partner, weight_degradation = [], [], [], []
    gradient_error_sum = 0.0
    maintenance_seconds = 0.0
    merge_seconds = 0.0
    compare_same, compare_factor, compare_wd = [], [], []
    mistakes = 0
    keep_K = maintenance == "projection" or learning_rate == "perceptron"
    kernel_evaluations = 0                                    # k(x, x') of x != x' (DESIGN.md)
    duplicate_additions = 0                                   # projection: x_t equal to an SV (DESIGN.md)
    kernel_entries = 0                                        # entries the margins' kernel rows read
    sparse = is_sparse(X)

    t = t0
    for step, i in enumerate(order):                          # Alg. 1, line 3
        t += 1
        x_t, y_t = X[i], int(y[i])                            # Alg. 1, line 4
        s_t = 1.0 if sample_weight is None else float(sample_weight[i])   # example weight (1: unweighted)
        eta_t = learning_rate_at(learning_rate, t, lam, eta)

        # f_t(x_t) = sum_j alpha_j k(x_j, x_t) (+ bias), computed with w_t
        k_t = kernel_row(SV[:b], x_t, kernel, gamma, degree, coef0)
        f = k_t @ A[:b] + w0
        kernel_evaluations += b                               # the margin's kernel row
        if b > 0:                                             # the entries it reads (trace, DESIGN.md)
            kernel_entries += SV[:b].nnz + x_t.nnz if sparse else b * X.shape[1]

        if binary:
            mistakes += y_t * f[0] <= 0.0
            violates = y_t * f[0] < 1.0 and s_t > 0.0        # hinge loss l(w_t; (x_t, y_t)) > 0, weighted: s_t l > 0
            beta_t = np.array([eta_t * y_t * s_t])            # eq. 4, scaled by the weight
        else:
            others = f.copy()
            others[y_t] = -np.inf
            r_t = int(np.argmax(others))                      # r_t = argmax_{i != y_t} f^(i)(x_t), eq. 11
            mistakes += f[r_t] >= f[y_t]
            violates = 1.0 + f[r_t] - f[y_t] > 0.0 and s_t > 0.0   # multi-class hinge loss (11) > 0, weighted: s_t l > 0
            beta_t = np.zeros(c)
            beta_t[y_t] = eta_t * s_t                         # beta^(i) = +eta_t s_t for i = y_t
            beta_t[r_t] = -(eta_t * s_t)                      #            -eta_t s_t for i = r_t

        A[:b] *= 1.0 - eta_t * lam                            # Alg. 1, line 5
        j_dup = find_duplicate(SV, b, x_t) if violates and maintenance == "projection" else -1
        if j_dup >= 0:                                        # Alg. 1, line 7 for x_t = x_j: the same w_{t+1}
            A[j_dup] += beta_t                                # as appending, with no duplicate SV (DESIGN.md)
            added[step] = 1
            duplicate_additions += 1
            if fit_bias:
                w0 += beta_t
        elif violates:                                        # Alg. 1, line 6
            SV[b] = x_t                                       # Alg. 1, line 7: add an SV
            A[b] = beta_t
            b += 1                                            # Alg. 1, line 8
            added[step] = 1
            if fit_bias:
                w0 += beta_t
            if b > budget:                                    # Alg. 1, line 9
                if merge_compare:                             # diagnostics only, not timed
                    same, factor, wds = _merge_compare(SV, A, b, gamma, merge_eps, tables)
                    compare_same.append(same)
                    compare_factor.append(factor)
                    compare_wd.append(wds)
                signs = A[:b, 0].copy() if binary else None      # for the count of merge candidates
                b_old = b
                start = time.perf_counter()
                b, p, n, wd = maintain(maintenance, SV, A, b, kernel, gamma, degree,
                                       coef0, merge_eps, projection_ridge,
                                       merge_solver, tables)  # Alg. 1, lines 10-11
                elapsed = time.perf_counter() - start
                maintenance_seconds += elapsed
                if maintenance == "merge":
                    merge_seconds += elapsed
                if maintenance == "merge":                    # k(x_m, x_n) of every candidate partner n
                    kernel_evaluations += (int(np.count_nonzero(signs * signs[p] >= 0.0)) - 1
                                           if binary else b_old - 1)
                    if keep_K and n >= 0:                     # the new row of K for z
                        kernel_evaluations += b - 1
                maint_step.append(step)
                maint_index.append(p)
                maint_partner.append(n)
                weight_degradation.append(wd)
                gradient_error_sum += math.sqrt(wd) / eta_t   # ||E_t|| = ||Delta_t|| / eta_t (Theorem 1)

        if learning_rate == "perceptron" and b > 0:           # projection onto the ball of radius U (sec. 4)
            K = kernel_matrix(SV[:b], SV[:b], kernel, gamma, degree, coef0)
            norm_w = math.sqrt(max(float(np.sum(A[:b] * (K @ A[:b]))), 0.0))
            if norm_w > radius:
                A[:b] *= radius / norm_w

    trace = {
        "mistakes": int(mistakes),
        "n_steps": len(order),
        "added": added,
        "maint_step": np.array(maint_step, dtype=np.int64),
        "maint_index": np.array(maint_index, dtype=np.int64),
        "maint_partner": np.array(maint_partner, dtype=np.int64),
        "weight_degradation": np.array(weight_degradation, dtype=np.float64),
        "gradient_error_sum": gradient_error_sum,
        "maintenance_seconds": maintenance_seconds,
        "merge_seconds": merge_seconds,
        "kernel_evaluations": int(kernel_evaluations),
        "duplicate_additions": int(duplicate_additions),
        "kernel_entries": int(kernel_entries),
    }
    if merge_compare:
        trace["compare_same_decision"] = np.array(compare_same, dtype=bool).reshape(-1, 4)
        trace["compare_wd_factor"] = np.array(compare_factor, dtype=np.float64).reshape(-1, 4)
        trace["compare_wd"] = np.array(compare_wd, dtype=np.float64).reshape(-1, 4)
    return BSGDResult(sv=SV[:b].copy(), alpha=A[:b].copy(), bias=w0, t=t, trace=trace)
