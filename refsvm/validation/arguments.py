"""The argument sets of the algorithm functions: ``bsgd``, ``bsca``, ``sbp.optimize`` and its water
levels, ``dual_objective`` and the online learners of :mod:`refsvm.online`; both backends call these
before any work (part of :mod:`refsvm.validation`)."""

import numbers

import numpy as np
import scipy.sparse as sp

from .arrays import _check_order, _check_warm_start, _check_X_y, check_gaussian_rows, check_sample_weight
from .parameters import (_check_kernel_parameters, check_bool, check_budget, check_int, check_merge_eps, check_nu,
                         check_option, check_positive)


def check_bsgd_arguments(X, y, order, *, n_classes, budget, lam, learning_rate, eta, radius,
                         maintenance, kernel, gamma, degree, coef0, merge_eps, projection_ridge,
                         merge_solver, sv, alpha, bias, t0, merge_compare=False):
    """Check the arguments of ``bsgd`` (both backends call this before any work).

    The function layer is public API, so it refuses what the estimator
    refuses, with an error naming the parameter, instead of looping forever
    (``merge_eps = 0``) or returning a meaningless model (``gamma <= 0``,
    ``budget < 2``).  ``merge_solver`` is checked here, once per call (a lookup
    solver needs a binary model when merging), and so is ``merge_compare``
    (merging, binary).  Returns ``(X, y, order)`` as C-contiguous float64 /
    int64 arrays.
    """
    from ..budget import BSGD_MAINTENANCE  # the algorithm layer; validation is imported by it
    X, y, order = _check_budgeted_arguments(
        X, y, order, n_classes=n_classes, budget=check_budget(budget), maintenance=maintenance, kernel=kernel,
        gamma=gamma, degree=degree, coef0=coef0, merge_eps=merge_eps, projection_ridge=projection_ridge,
        merge_solver=merge_solver, merge_compare=merge_compare, sv=sv, alpha=alpha, t0=t0,
        strategies=BSGD_MAINTENANCE)
    check_option(learning_rate, "learning_rate", ("pegasos", "norma", "perceptron"))
    if learning_rate in ("pegasos", "norma"):
        check_positive(lam, "lam")
    if learning_rate in ("norma", "perceptron"):
        check_positive(eta, "eta")
    if learning_rate == "perceptron" and not (isinstance(radius, numbers.Real) and radius > 0):
        raise ValueError(f"radius must be a number > 0 (inf switches the projection off); got {radius!r}")
    c = 1 if n_classes == 2 else n_classes
    if bias is not None and np.shape(bias) != (c,):
        raise ValueError(f"bias must have shape ({c},); got {np.shape(bias)}")
    return X, y, order


def _check_budgeted_arguments(X, y, order, *, n_classes, budget, maintenance, kernel, gamma, degree, coef0,
                              merge_eps, projection_ridge, merge_solver, merge_compare, sv, alpha, t0, strategies=None):
    """What ``bsgd`` and ``bsca`` check alike: data and labels, budget maintenance (its parameters
    only when there is a budget: ``budget=None`` never maintains; ``strategies``: the ones the
    algorithm has, section 6's :data:`refsvm.budget.MAINTENANCE` when None), kernel, warm start, ``t0``."""
    from ..budget import MAINTENANCE, check_merge_solver  # the algorithm layer; validation is imported by it
    X, y = _check_X_y(X, y)
    if y.size and not np.all(np.asarray(y, dtype=np.float64) == np.round(np.asarray(y, dtype=np.float64))):
        raise ValueError("y must hold integer labels")
    y = np.ascontiguousarray(y, dtype=np.int64)
    order = _check_order(order, X.shape[0])
    n_classes = check_int(n_classes, "n_classes", 2)
    used = y[order] if order.size else y[:0]
    if n_classes == 2:
        if used.size and not np.all(np.abs(used) == 1):
            raise ValueError("y must hold labels -1 and +1 for a binary problem (n_classes=2)")
    elif used.size and (used.min() < 0 or used.max() >= n_classes):
        raise ValueError(f"y must hold labels 0..{n_classes - 1} for n_classes={n_classes}")
    check_option(maintenance, "maintenance", MAINTENANCE if strategies is None else strategies)
    check_option(kernel, "kernel", ("rbf", "linear", "poly"))
    check_merge_solver(merge_solver, n_classes == 2 or maintenance != "merge")
    _check_kernel_parameters(kernel, gamma, degree, coef0)
    if kernel == "rbf":
        check_gaussian_rows(X)
        if sv is not None and budget is not None:
            check_gaussian_rows(sv, "sv")
    if maintenance == "merge" and budget is not None:
        if kernel != "rbf":
            raise ValueError("maintenance='merge' requires kernel='rbf' (merging relies on the Gaussian kernel)")
        check_merge_eps(merge_eps)
    if maintenance == "projection" and budget is not None:
        check_positive(projection_ridge, "projection_ridge", allow_zero=True)
    if merge_compare and (maintenance != "merge" or n_classes != 2):
        raise ValueError("merge_compare=True needs maintenance='merge' and a binary model")
    check_int(t0, "t0", 0)
    c = 1 if n_classes == 2 else n_classes
    if sv is not None and (sv.shape[0] if sp.issparse(sv) else len(sv)) > 0:
        _check_warm_start(sv, alpha, X.shape[1], c, budget)
    return X, y, order


def _check_uniforms(uniforms, shape):
    """``uniforms``: one number in [0, 1) per step, drawn by the caller; a C-contiguous float64 array."""
    if uniforms is None:
        raise ValueError("uniforms must hold one number in [0, 1) per step (drawn by the caller)")
    uniforms = np.ascontiguousarray(uniforms, dtype=np.float64)
    if uniforms.shape != shape:
        raise ValueError(f"uniforms must have shape {shape} (one per step); got {uniforms.shape}")
    if uniforms.size and not (np.all(uniforms >= 0.0) and np.all(uniforms < 1.0)):
        raise ValueError("uniforms must lie in [0, 1)")
    return uniforms


def check_removal_draws(uniforms, maintenance, n_steps, budget):
    """BSGD's ``uniforms`` (both backends): required by ``maintenance="random-removal"`` with a budget
    (one ``u_t`` in [0, 1) per step, drawn by the caller; returned as a C-contiguous float64 array),
    refused by every other strategy (which reads none: a draw given there would be silently unused);
    ``None`` otherwise."""
    if maintenance == "random-removal" and budget is not None:
        return _check_uniforms(uniforms, (n_steps,))
    if uniforms is not None and maintenance != "random-removal":
        raise ValueError(f"uniforms is read by maintenance='random-removal' only; got maintenance={maintenance!r}")
    return None


def check_responses(c, volume, y=None, *, s=None):
    """Check the arguments of ``find_gamma`` / ``find_gamma_and_bias`` / ``find_gamma_weighted`` (both backends).

    Returns ``(c, volume)`` (or ``(y, c, volume)`` when ``y`` is given, ``(c, s, volume)`` when
    ``s`` is given) with ``c`` a fresh C-contiguous float64 copy (the water-level routines
    partition their own copy), ``y`` int64 and ``s`` a fresh float64 copy (the weighted routine
    swaps it along with ``c``).  ``y`` must hold both labels -1 and +1: with one class only, the
    bias of Algorithm 3 is unbounded.  ``s`` must hold one finite weight > 0 per response.
    """
    c = np.array(c, dtype=np.float64, copy=True, order="C")
    if c.ndim != 1 or c.size == 0:
        raise ValueError(f"c must be a non-empty 1-D array of responses; got shape {c.shape}")
    if not np.all(np.isfinite(c)):
        raise ValueError("c contains NaN or infinity")
    if isinstance(volume, (bool, np.bool_)) or not isinstance(volume, numbers.Real) \
            or not np.isfinite(volume) or volume < 0:
        raise ValueError(f"volume must be a finite number >= 0 (n nu); got {volume!r}")
    if s is not None:
        s = np.array(s, dtype=np.float64, copy=True, order="C")
        if s.shape != c.shape or not np.all(np.isfinite(s)) or not np.all(s > 0.0):
            raise ValueError(f"s must hold one finite weight > 0 per response, shape {c.shape}")
        return c, s, float(volume)
    if y is None:
        return c, float(volume)
    y = np.asarray(y)
    if y.shape != c.shape:
        raise ValueError(f"y must have the shape of c, {c.shape}; got {y.shape}")
    if not np.all((y == 1) | (y == -1)):
        raise ValueError("y must hold labels -1 and +1")
    if not (np.any(y == 1) and np.any(y == -1)):
        raise ValueError("y must hold both labels -1 and +1 (with one class the bias is unbounded)")
    return np.ascontiguousarray(y, dtype=np.int64), c, float(volume)


def check_sbp_arguments(X, y, u, *, nu, kernel, gamma, degree, coef0, fit_bias, cache_rows, state,
                        sample_weight=None):
    """Check the arguments of ``sbp.optimize`` (both backends call this before any work).

    Returns ``(X, y, u)`` as C-contiguous float64 / int64 / float64 arrays.
    """
    X, y = _check_X_y(X, y, non_empty=True)
    if not np.all((y == 1) | (y == -1)):
        raise ValueError("y must hold labels -1 and +1")
    y = np.ascontiguousarray(y, dtype=np.int64)
    u = np.ascontiguousarray(u, dtype=np.float64)
    if u.ndim != 1:
        raise ValueError(f"u must be a 1-D array of uniform numbers (one per iteration); got shape {u.shape}")
    if u.size and not (np.all(u >= 0.0) and np.all(u < 1.0)):
        raise ValueError("u must hold numbers in [0, 1)")
    check_nu(nu)
    check_option(kernel, "kernel", ("rbf", "linear", "poly"))
    _check_kernel_parameters(kernel, gamma, degree, coef0)
    if kernel == "rbf":
        check_gaussian_rows(X)
    check_bool(fit_bias, "fit_bias")
    if fit_bias and not (np.any(y == 1) and np.any(y == -1)):
        raise ValueError("y must hold both labels -1 and +1 when fit_bias=True (the bias is unbounded otherwise)")
    check_int(cache_rows, "cache_rows", 0)
    if state is not None:
        n = X.shape[0]
        for name in ("alpha", "c", "alpha_sum", "c_sum"):
            if np.shape(getattr(state, name)) != (n,):
                raise ValueError(f"state.{name} must have shape ({n},); got {np.shape(getattr(state, name))}")
        check_int(state.t, "state.t", 0)
    if sample_weight is not None:
        if fit_bias:
            raise ValueError("sample_weight: weighted SBP is implemented without a bias (fit_bias=False); the "
                             "two-basin water level of Algorithm 3 has no weighted form here")
        if not np.any(np.asarray(sample_weight) > 0):
            raise ValueError("sample_weight: at least one weight must be > 0 (the water level needs a basin)")
    return X, y, u


def _same_rows(sv, mask, X, used):
    """``sv[mask]`` equals ``X[used]`` row for row (dense or sparse, in any combination)."""
    if sp.issparse(sv) or sp.issparse(X):
        a, b = sp.csr_matrix(sp.csr_matrix(sv)[np.flatnonzero(mask)]), sp.csr_matrix(X[used])
        return a.shape == b.shape and (a != b).nnz == 0
    return np.array_equal(np.asarray(sv, dtype=np.float64)[mask], X[used])


def check_bsca_arguments(X, y, order, *, budget, C, maintenance, kernel, gamma, degree, coef0,
                         merge_eps, projection_ridge, merge_solver, sv_update, sv, alpha, dual,
                         sv_source, t0, sample_weight=None):
    """Check the arguments of ``bsca`` (both backends call this before any work).

    Returns ``(X, y, order, dual, sv_source)``: C-contiguous float64 / int64
    arrays; ``dual`` is a fresh float64 copy (zeros when ``None``) and
    ``sv_source`` an int64 array of length ``len(sv)`` (all -1 when ``None``).
    """
    X, y, order = _check_budgeted_arguments(
        X, y, order, n_classes=2, budget=None if budget is None else check_budget(budget),
        maintenance=maintenance, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, merge_eps=merge_eps,
        projection_ridge=projection_ridge, merge_solver=merge_solver, merge_compare=False, sv=sv, alpha=alpha,
        t0=t0)
    C = check_positive(C, "C")
    check_option(sv_update, "sv_update", ("accumulate", "append"))
    n = X.shape[0]
    n_sv = 0 if sv is None else (sv.shape[0] if sp.issparse(sv) else len(sv))
    if dual is None:
        dual = np.zeros(n)
    else:
        dual = np.array(dual, dtype=np.float64, copy=True, order="C")
        if dual.shape != (n,):
            raise ValueError(f"dual must have shape ({n},) to match X; got {dual.shape}")
        w = check_sample_weight(sample_weight, n)
        if not np.all((dual >= 0.0) & (dual <= (C if w is None else C * w))):
            raise ValueError(f"dual must lie in the box [0, C] = [0, {C}]"
                             + ("" if w is None else " (times sample_weight)"))
    if sv_source is None:
        sv_source = np.full(n_sv, -1, dtype=np.int64)
    else:
        sv_source = np.array(sv_source, dtype=np.int64, copy=True, order="C")
        if sv_source.shape != (n_sv,):
            raise ValueError(f"sv_source must have shape ({n_sv},) (one entry per SV); got {sv_source.shape}")
        used = sv_source[sv_source >= 0]
        if np.any(sv_source < -1) or np.any(used >= n):
            raise ValueError(f"sv_source must hold indices in 0..{n - 1} or -1")
        if used.size and not _same_rows(sv, sv_source >= 0, X, used):
            raise ValueError("sv_source must point at examples equal to their SVs (sv[s] == X[sv_source[s]])")
    return X, y, order, dual, sv_source


def check_dual_sample(dual, sample):
    """Check ``sample`` of ``dual_objective``: distinct indices of non-zero dual variables, at least 2."""
    S = np.asarray(sample)
    if S.ndim != 1 or S.size < 2 or S.dtype.kind not in "iu":
        raise ValueError("sample must be a 1-D integer array of at least 2 indices")
    if S.min() < 0 or S.max() >= len(dual) or len(np.unique(S)) != S.size or np.any(dual[S] == 0.0):
        raise ValueError("sample must hold distinct indices of non-zero dual variables")
    return np.ascontiguousarray(S, dtype=np.int64)


#: The online learners of :mod:`refsvm.online` (``refsvm.online.ALGORITHMS`` is this tuple)
ONLINE_ALGORITHMS = ("perceptron", "ogd", "rbp", "forgetron", "projectron", "projectron++", "bpas", "bogd",
                     "bpann")
#: The online learners that take a budget B (the Projectrons take one optionally)
ONLINE_BUDGETED = ("rbp", "forgetron", "bpas", "bogd", "bpann")


#: ``zero_prediction`` of the online learners: how a decision value of exactly 0 is read
ZERO_PREDICTIONS = ("mistake", "positive")
#: ``variant`` of the online learners: the papers' updates or Lu et al.'s released code
ONLINE_VARIANTS = ("paper", "authors")


def check_binary_data(X, y, order, what):
    """``(X, y, order)`` of a binary learner: X finite (dense C-contiguous float64 or canonical CSR), ``order``
    int64 indices into it, and the labels it visits exactly -1 or +1, tested before ``y`` is cast to int64 (a
    float 1.7 is no label; ``what`` names the learner in the message)."""
    X, y = _check_X_y(X, y)
    order = _check_order(order, X.shape[0])
    if order.size and not np.all((y[order] == 1) | (y[order] == -1)):
        raise ValueError(f"y must hold labels -1 and +1 ({what})")
    return X, np.ascontiguousarray(y, dtype=np.int64), order


def check_online_arguments(X, y, order, uniforms=None, *, algorithm, kernel, gamma, degree, coef0, sv, alpha, t0,
                           budget=None, eta=None, lam=None, C=None, max_coef=None, zero_prediction="mistake",
                           variant="paper"):
    """Check the arguments of the online learners of :mod:`refsvm.online` (both backends call this).

    Each learner passes the arguments it has and no others: ``budget`` (RBP,
    Forgetron, BPA-S, BOGD, BPA-NN; optional for the Projectrons), ``eta`` (OGD, the
    Projectrons, BOGD), ``lam`` and ``max_coef`` (BOGD), ``C`` (BPA-S, BPA-NN),
    ``uniforms`` (RBP, BOGD), ``variant`` (Forgetron, Projectrons, BOGD).
    Binary labels in {-1, +1}; ``budget`` an int >= 2 where the learner has
    one (``None`` allowed for the Projectrons); ``uniforms`` one number in
    [0, 1) per step.  Returns ``(X, y, order, uniforms)`` as C-contiguous
    float64 / int64 / float64 arrays (``uniforms`` may be None).
    """
    check_option(algorithm, "algorithm", ONLINE_ALGORITHMS)
    check_option(zero_prediction, "zero_prediction", ZERO_PREDICTIONS)
    check_option(variant, "variant", ONLINE_VARIANTS)
    if variant == "authors" and algorithm in ("projectron", "projectron++") and budget is None:
        raise ValueError(f"budget: variant='authors' of {algorithm} fills a budget B before it projects and "
                         "sets U from B; give an integer budget >= 2")
    X, y, order = check_binary_data(X, y, order, "binary learners")
    if algorithm in ONLINE_BUDGETED or budget is not None:
        budget = check_budget(budget)
    check_option(kernel, "kernel", ("rbf", "linear", "poly"))
    _check_kernel_parameters(kernel, gamma, degree, coef0)
    if kernel == "rbf":
        check_gaussian_rows(X)
    if algorithm in ("ogd", "bogd"):
        check_positive(eta, "eta")
    if algorithm in ("projectron", "projectron++"):
        check_positive(eta, "eta", allow_zero=True)
    if algorithm == "bogd":
        check_positive(lam, "lam", allow_zero=True)
        if eta * lam >= 1.0:
            raise ValueError(f"lam must satisfy eta * lam < 1 (the shrink factor 1 - eta lam > 0); got eta={eta}, lam={lam}")
        check_positive(max_coef, "max_coef")
    if algorithm in ("bpas", "bpann"):
        check_positive(C, "C")
    check_int(t0, "t0", 0)
    if algorithm in ("rbp", "bogd"):
        uniforms = _check_uniforms(uniforms, order.shape)
    if sv is not None and (sv.shape[0] if sp.issparse(sv) else len(sv)) > 0:
        _check_warm_start(sv, alpha, X.shape[1], 1, budget, flat_alpha=True)
    return X, y, order, uniforms
