"""Generated agreement cases: data, a solver configuration, and the comparison of the two paths.

Shared by the property-based test (tests/agreement/test_properties.py, a bounded number of
examples) and the long run (benchmarks/bench_agreement.py, N configurations).  Everything is
drawn from one integer seed, so a failing case is reproduced by its seed alone
(:func:`draw_config` then :func:`check`); the configuration is also a JSON-serialisable dict.

Data (:func:`make_data`): spirals, XOR or Gaussian blobs, binary or 3 classes, 16-48 rows and 2-6
columns, then any of: exact duplicates (rows re-added), near-duplicates (rows re-added with a
relative perturbation of 1e-6 to 1e-14), a class that is one repeated row, a zero column, a
constant column, column scales spanning 1e-3..1e3.  Kernels: rbf (gamma relative to the mean
squared distance), linear and polynomial (rank-deficient once the model holds more SVs than the
feature space has dimensions).  Budgets 2, 3-10 and more than the rows; 1-10 epochs; dense and
CSR.

Solvers: BSGD (every maintenance, the removal baselines random-removal and stop among them, x merge
solver x learning rate, with and without a bias), BSCA
(every maintenance x sv_update), SBP (with and without intercept), FOGD, NOGD, and the eight
online learners with both variants, BPA-NN in place of half of BPA-S's draws.

Comparison (:func:`check`): the reference path on the dense data against the compiled path on
the dense data and, for CSR cases, the compiled path on the CSR data.  Every discrete entry of the
trace (int / bool entries and integer arrays; not the counters of kernel evaluations and caches,
which the paths count differently by design) must be equal, and the decision values must agree to
``rtol`` of their scale (the largest absolute reference value): 1e-9, or 1e-6 where DESIGN.md
documents a rank-deficient allowance (BSGD projection with a linear or polynomial kernel; there
the SV choice is not compared) and where tests/agreement/test_regimes.py allows it (BSCA
projection with ``sv_update="append"``).
"""

import json
import math
import warnings

import numpy as np
import scipy.sparse as sp

SOLVERS = ("bsgd", "bsca", "sbp", "fogd", "nogd", "online")
ONLINE = ("perceptron", "ogd", "rbp", "forgetron", "projectron", "projectron++", "bpas", "bogd")   # (+ bpann)
#: the online learners with a multi-class form (one shared SV set; Lu et al. 2016, section 5)
ONLINE_MULTICLASS = ("perceptron", "ogd", "rbp")
#: trace entries that count work, not decisions (the paths cache differently)
NOT_DECISIONS = {"kernel_evaluations", "kernel_entries", "cache_hits", "cache_misses", "feature_map_evaluations"}


def _pick(rng, options):
    return options[int(rng.integers(len(options)))]


def draw_config(seed):
    """The configuration drawn from ``seed`` (a JSON-serialisable dict; the same seed, the same dict)."""
    rng = np.random.default_rng([29, int(seed)])
    solver = SOLVERS[int(rng.integers(len(SOLVERS)))]
    rbf_only = solver in ("fogd", "nogd")
    data = {
        "base": _pick(rng, ["spiral", "xor", "blobs"]),
        "n": int(rng.integers(16, 49)),
        "d": int(rng.integers(2, 7)),
        "classes": 3 if (solver in ("bsgd", "bsca", "sbp") and rng.random() < 0.2) else 2,
        "duplicates": float(_pick(rng, [0.0, 0.0, 0.3, 1.0])),
        "near_exponent": int(rng.integers(6, 15)) if rng.random() < 0.4 else None,
        "one_row_class": bool(rng.random() < 0.15),
        "zero_column": bool(rng.random() < 0.3),
        "constant_column": bool(rng.random() < 0.3),
        "column_scales": bool(rng.random() < 0.3),
        "csr": bool(rng.random() < 0.3),
        "seed": int(rng.integers(2**31)),
    }
    kernel = "rbf" if rbf_only else _pick(rng, ["rbf", "rbf", "rbf", "linear", "poly"])
    config = {"seed": int(seed), "solver": solver, "data": data, "kernel": kernel,
              "gamma_factor": float(10.0 ** rng.uniform(-1, 1)), "epochs": int(rng.integers(1, 11)),
              "random_state": int(rng.integers(1000))}
    budget_kind = _pick(rng, ["2", "small", "small", "large"])
    config["budget_kind"] = budget_kind
    params = {}
    if solver == "bsgd":
        maintenance = _pick(rng, ["removal", "projection", "merge", "merge"])
        if maintenance == "merge" and kernel != "rbf":
            maintenance = "removal"
        if maintenance == "removal" and data["seed"] % 6 in (1, 2):   # sec. 7.3's baselines, a third of removal's
            maintenance = ("random-removal", "stop")[data["seed"] % 6 - 1]   # (no extra draw: later seeds unchanged)
        params = {"maintenance": maintenance, "learning_rate": _pick(rng, ["pegasos", "norma", "perceptron"]),
                  "lam": float(10.0 ** rng.uniform(-4, -1)), "eta": float(10.0 ** rng.uniform(-2, 0)),
                  "fit_bias": bool(rng.random() < 0.3)}
        if maintenance == "merge":
            params["merge_solver"] = _pick(rng, ["gss", "gss-precise", "lookup-h", "lookup-wd"])
    elif solver == "bsca":
        maintenance = _pick(rng, ["removal", "projection", "merge", "merge"])
        if maintenance == "merge" and kernel != "rbf":
            maintenance = "removal"
        params = {"maintenance": maintenance, "sv_update": _pick(rng, ["accumulate", "append"]),
                  "C": float(10.0 ** rng.uniform(-2, 2))}
    elif solver == "sbp":
        params = {"nu": float(_pick(rng, [0.01, 0.05, 0.2])), "fit_intercept": bool(rng.random() < 0.5)}
    elif solver == "fogd":
        params = {"n_components": int(_pick(rng, [8, 32, 100])), "eta": float(10.0 ** rng.uniform(-3, 0))}
    elif solver == "nogd":
        params = {"eta": float(10.0 ** rng.uniform(-2, 0))}
    else:
        params = {"algorithm": _pick(rng, list(ONLINE)), "variant": _pick(rng, ["paper", "authors"])}
        if params["algorithm"] == "bpas" and data["seed"] % 2 == 1:   # half of BPA-S's: BPA-NN (binary only;
            params["algorithm"] = "bpann"                              # no extra draw: later seeds unchanged)
        if params["algorithm"] in ONLINE_MULTICLASS and data["seed"] % 4 == 0:
            data["classes"] = 3                    # refsvm.online.multiclass (no extra draw: later seeds unchanged)
    config["params"] = params
    return config


def _spiral(rng, n, d):
    t = rng.uniform(0.5, 3.0 * np.pi, size=n)
    label = rng.integers(0, 2, size=n)
    r = t / (3.0 * np.pi)
    X = np.zeros((n, d))
    X[:, 0] = r * np.cos(t + np.pi * label)
    X[:, 1] = r * np.sin(t + np.pi * label)
    X[:, 2:] = 0.1 * rng.normal(size=(n, d - 2))
    return X, label


def make_data(config):
    """``(X, y)`` of the configuration: dense float64 X and integer labels (0..c-1)."""
    spec = config["data"]
    rng = np.random.default_rng(spec["seed"])
    n, d = spec["n"], spec["d"]
    if spec["base"] == "spiral":
        X, y = _spiral(rng, n, d)
    elif spec["base"] == "xor":
        X = rng.uniform(-1, 1, size=(n, d))
        y = (X[:, 0] * X[:, 1] > 0).astype(np.int64)
    else:
        y = rng.integers(0, 2, size=n)
        X = rng.normal(size=(n, d)) + 1.5 * y[:, None]
    if spec["classes"] == 3:
        angle = np.arctan2(X[:, 1], X[:, 0])
        y = np.digitize(angle, [-np.pi / 3, np.pi / 3]).astype(np.int64)
    y = np.asarray(y, dtype=np.int64)
    if spec["one_row_class"]:                      # the first class is one repeated row
        rows = np.flatnonzero(y == y.min())
        X[rows] = X[rows[0]]
    if spec["zero_column"]:
        X[:, -1] = 0.0
    if spec["constant_column"]:
        X[:, 0] = 3.7
    if spec["column_scales"]:
        X = X * 10.0 ** rng.uniform(-3, 3, size=d)
    if spec["duplicates"]:
        pick = rng.choice(n, max(1, int(spec["duplicates"] * n)), replace=spec["duplicates"] > 0.5)
        X, y = np.vstack([X, X[pick]]), np.concatenate([y, y[pick]])
    if spec["near_exponent"] is not None:
        pick = rng.choice(n, max(1, n // 3), replace=False)
        noise = 10.0 ** -spec["near_exponent"] * np.abs(X[pick]) * rng.normal(size=(pick.size, d))
        X, y = np.vstack([X, X[pick] + noise]), np.concatenate([y, y[pick]])
    if len(np.unique(y)) < 2:                      # keep two classes
        y[0] = 1 - y[0] if y[0] < 2 else 0
    return np.ascontiguousarray(X), y


def _gamma(X, factor):
    sq = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    mean = float(sq.mean())
    return factor / mean if mean > 0 else factor


def _budget(config, n):
    kind = config["budget_kind"]
    if kind == "2":
        return 2
    if kind == "large":
        return n + 5
    return 3 + config["seed"] % 8


def make_estimator(config, n, gamma, backend):
    """The estimator of the configuration (not fitted)."""
    from refsvm import (BSCAClassifier, BudgetedSVC, FOGDClassifier, NOGDClassifier, OnlineKernelClassifier,
                        SBPClassifier)

    solver, params = config["solver"], dict(config["params"])
    common = dict(random_state=config["random_state"], backend=backend, epochs=config["epochs"])
    kernel = dict(kernel=config["kernel"], gamma=gamma, degree=2, coef0=1.0)
    budget = _budget(config, n)
    if solver == "bsgd":
        return BudgetedSVC(budget=budget, **kernel, **params, **common)
    if solver == "bsca":
        return BSCAClassifier(budget=budget, **kernel, **params, **common)
    if solver == "sbp":
        return SBPClassifier(**kernel, **params, **common)
    if solver == "fogd":
        return FOGDClassifier(gamma=gamma, **params, **common)
    if solver == "nogd":
        return NOGDClassifier(budget=budget, gamma=gamma, **params, **common)
    return OnlineKernelClassifier(budget=budget, **kernel, **params, **common)


def fit_on_paths(seed):
    """Configuration ``seed`` fitted on the reference, the compiled dense and the compiled CSR paths:
    ``{"python": est, "fast": est, "fast-csr": est}`` (warnings silenced: the generated data warns)."""
    config = draw_config(seed)
    X, y = make_data(config)
    gamma = _gamma(X, config["gamma_factor"])
    fitted = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, backend, data in (("python", "python", X), ("fast", "fast", X),
                                    ("fast-csr", "fast", sp.csr_matrix(X))):
            fitted[name] = make_estimator(config, X.shape[0], gamma, backend).fit(data, y)
    return fitted


def tolerance(config):
    """``(rtol, compare_choices, allowance)`` of the configuration (module notes)."""
    p = config["params"]
    if config["solver"] in ("bsgd", "bsca") and p.get("maintenance") == "projection":
        # DESIGN.md, "Rank-deficient kernels (projection)": near duplicates make cond(K_p + r I) reach
        # 1 / projection_ridge; the 1-ulp differences of the two paths' kernel values grow by it
        return PROJECTION_RTOL, True, "projection: u / projection_ridge (the conditioning of K_p + r I)"
    return 1e-9, True, None


#: Regimes where the paths are known to part (DESIGN.md, "Open disagreements"): the CI test leaves
#: them out by name; the long run (benchmarks/bench_agreement.py) keeps them and counts them apart.
#: None today: the last one, "bsca-merge" (values on near duplicates, the choice of m among exact ties), agrees
#: since 32808f4 / 9335c09.
OPEN_REGIMES = {}


def open_regime(config):
    """The reason the configuration's regime is an open disagreement (:data:`OPEN_REGIMES`), or None."""
    s, p = config["solver"], config["params"]
    key = {"online": f"online-{p.get('algorithm')}",
           "sbp": "sbp-intercept" if p.get("fit_intercept") else "sbp",
           "bsca": f"bsca-{p.get('maintenance')}"}.get(s, s)
    return OPEN_REGIMES.get(key)


from refsvm.constants import UNIT_ROUNDOFF as _U  # noqa: E402 (u = 2^-53)
#: The agreement tolerance of projection runs: u / projection_ridge (its default, 1e-10), the
#: worst-case growth of a 1-ulp kernel difference through (K_p + r I)^-1 (cond <= 1 + 1/ridge).
PROJECTION_RTOL = _U / 1e-10


def kernel_error_bound(config, X, gamma):
    """A bound of the relative error of one Gaussian kernel value computed through the norms
    (``gamma`` times the squared distance's error ``(d + 2) u (||s||^2 + ||x||^2)``, DESIGN.md); the
    two paths (and the blocked prediction) may differ by about this much in every kernel value.  Where
    it exceeds the tolerance, agreement to the tolerance is not promised ("outside-bound": a constant
    column with near duplicates once drove gamma to 5e16).  0 for the other kernels."""
    if config["kernel"] != "rbf" and config["solver"] not in ("fogd", "nogd"):
        return 0.0
    d = X.shape[1]
    return float(gamma * (d + 2) * _U * 2.0 * np.max(np.sum(X * X, axis=1)))


#: statuses where the decision values part but every discrete decision is the same
VALUE_STATUSES = ("values", "predict", "csr-values", "csr-predict")


def value_error_bound(config, est, X):
    """A bound of the absolute rounding error of the fitted model's decision values on ``X`` (both
    paths compute them with different operations, so they may differ by about this much; where it
    exceeds ``rtol`` times the values' scale, agreement to ``rtol`` is not promised: "outside-bound").

    * A kernel expansion ``f(x) = sum_j a_j K(s_j, x) + b`` (m terms): the sum's rounding
      ``(m + 4) u (sum_j |a_j| |K(s_j, x)| + |b|)`` plus ``eps_K sum_j |a_j|`` (one kernel value's
      error, ``refsvm.kernels.kernel_value_error``).  Large where the terms cancel: a polynomial kernel
      on columns scaled by 1e3 sums terms of 1e11 to a value of 10 (SBP, 2e-5 apart).
    * FOGD ``f(x) = W'z(x)``: W is the sum of ``N`` updates ``eta y z_t`` (``N`` = ``n_updates``),
      so each ``W_k`` carries ``N u sum_t eta |z_tk|``, the product ``2D u sum_k |W_k z_k|``, and
      the sin / cos values (4.5e-16 <= 4u apart) ``8 u eta N ||z||_1``; with ``|z_t|.|z| <= ||z||^2
      = D`` and ``||z||_1 <= 2D``: ``u eta N (N + 2D + 16) D`` (divided by D with ``normalize``).
    * NOGD: ``N`` updates of ``eta`` on kernel values (then on Nystroem features, ``||phi||^2 <=
      k(x, x) = 1``): ``u eta N (N + B + 8) + eta N eps_K``.
    Where all rows are one row with both labels (a zero and a constant column of d = 2), the exact
    FOGD / NOGD model is 0 and the computed decision values are this rounding alone (12-13 % apart
    at a scale of 1e-18 .. 1e-15).
    """
    from refsvm.kernels import Kernel
    from refsvm.kernels import kernel_value_error

    solver, p = config["solver"], config["params"]
    if solver in ("fogd", "nogd"):
        N = sum(int(entry.get("n_updates", 0)) for entry in est.trace_)
        eta = float(p["eta"])
        if solver == "fogd":
            D = int(p["n_components"])
            return _U * eta * N * (N + 2 * D + 16) * (1.0 if getattr(est, "normalize", False) else D)
        eps_k = kernel_value_error(X, Kernel("rbf", float(est.gamma)))
        return _U * eta * N * (N + int(est.budget) + 8) + eta * N * eps_k
    model = getattr(est, "model_", None)
    if model is None or not (hasattr(model, "support_vectors") and hasattr(model, "coef")):
        return 0.0
    sv = model.support_vectors
    sv = sv.toarray() if sp.issparse(sv) else np.asarray(sv, dtype=np.float64)
    bias = np.abs(np.asarray(getattr(model, "bias", 0.0), dtype=np.float64))
    if sv.shape[0] == 0:                                  # no SV (e.g. seed 69633): f = b, its rounding only
        return float(4 * _U * np.max(bias, initial=0.0))
    coef = np.abs(np.asarray(model.coef, dtype=np.float64).reshape(sv.shape[0], -1))
    kernel = Kernel(config["kernel"], float(est.gamma), getattr(est, "degree", 2), getattr(est, "coef0", 1.0))
    K = kernel.matrix(X, sv)
    terms = np.abs(K) @ coef + bias.reshape(1, -1)
    bound = np.max((sv.shape[0] + 4) * _U * terms + kernel_value_error(X, kernel) * coef.sum(axis=0))
    return float(bound + _coefficient_error_bound(est, K))


def _coefficient_error_bound(est, K):
    """The Projectrons' coefficients' own errors in the decision values (0 for the other solvers):
    ``2 u max_x (sum_j e_j |K(x, s_j)| + diag_max c(x) sum_j e_j)``.

    ``e_j``: the error weights the learner carries in its state (``coef_error``,
    refsvm.online.projection.projectron_margin_tolerance).  Each coefficient is a running sum of projection
    steps ``c_t d*_t``: ``u e_j`` bounds the additions' and products' rounding (the first term).  The solves
    add more where ``K`` is ill-conditioned: the two substitutions are backward stable, ``(K_t + E) d*_t =
    k_t`` with ``|E| <= gamma_{b+2} |L| |L'|`` (Higham, Thm 8.5 and 10.3; ``|L||L'|_ij <= sqrt(K_ii K_jj)``),
    so the step's error moves ``f(x)`` by ``|c_t| (K_t^{-1} k_t(x))' E d*_t``, at most ``|c_t| (b_t + 2) u
    diag_max ||K_t^{-1} k_t(x)||_1 ||d*_t||_1``; summed over the steps, ``sum_t (b_t + 2) |c_t| ||d*_t||_1 <=
    sum_j e_j``, and ``c(x) = max_t ||K_t^{-1} k_t(x)||_1`` over the SV sets the steps saw (every prefix of
    the final SVs: the Projectrons only append), computed from the final factor ``L``.  With near
    duplicates and a budget above n (cond(K) 1e13-1e14) this is the exact problem's conditioning: the
    authors' Projectrons' values 1e-9..9e-9 apart (generated seeds 5603, 10660, 10701, 10820); where cond(K)
    is moderate the term stays near rounding (tests/agreement/test_value_bound.py).  Where the steps cancel (a
    repeated row projected back and forth: the exact coefficient is 0, computed as noise, seed 5089) the
    values are the first term's noise alone."""
    from scipy.linalg import solve_triangular

    state = getattr(est, "_learner_state", None) or {}
    errors, L = state.get("coef_error"), state.get("L")
    if errors is None or L is None or K.shape[1] != len(errors) or L.shape != (len(errors),) * 2:
        return 0.0
    errors = np.asarray(errors, dtype=np.float64)
    rounding = np.abs(K) @ errors
    with np.errstate(all="ignore"):
        Z = solve_triangular(L, K.T, lower=True)          # L^{-1} k(x): its first p rows serve every prefix p
        c = np.zeros(K.shape[0])
        for p in range(1, len(errors) + 1):
            c = np.fmax(c, np.sum(np.abs(solve_triangular(L[:p, :p].T, Z[:p], lower=False)), axis=0))
    solves = float(state.get("diag_max", 0.0)) * c * float(np.sum(errors))
    return float(2.0 * _U * np.max(rounding + solves))


def regime(config):
    """Short labels of the regimes a configuration exercises (for the per-regime table)."""
    s, p, d = config["solver"], config["params"], config["data"]
    name = s
    if s in ("bsgd", "bsca"):
        name += "-" + p["maintenance"]
        if s == "bsgd" and p["maintenance"] == "merge":
            name += "-" + p["merge_solver"]
        if s == "bsca":
            name += "-" + p["sv_update"]
    elif s == "sbp":
        name += "-intercept" if p["fit_intercept"] else "-nointercept"
    elif s == "online":
        name += "-" + p["algorithm"] + "-" + p["variant"]
    tags = [name, f"kernel={config['kernel']}"]
    for key in ("one_row_class", "zero_column", "constant_column", "column_scales", "csr"):
        if d[key]:
            tags.append(key)
    if d["duplicates"]:
        tags.append("duplicates")
    if d["near_exponent"] is not None:
        tags.append(f"near-dup-1e-{d['near_exponent']}")
    tags.append(f"budget={config['budget_kind']}")
    return tags


def _discrete(trace):
    out = []
    for entry in trace:
        keep = {}
        for key, value in entry.items():
            if key in NOT_DECISIONS:
                continue
            if isinstance(value, (bool, int, np.integer)) or (
                    isinstance(value, np.ndarray) and value.dtype.kind in "biu"):
                keep[key] = np.asarray(value)
        out.append(keep)
    return out


def _trace_difference(a, b, choices):
    """The first discrete trace entry that differs, as text, or None."""
    if len(a) != len(b):
        return f"trace length {len(a)} != {len(b)}"
    for i, (ta, tb) in enumerate(zip(_discrete(a), _discrete(b))):
        for key in sorted(set(ta) & set(tb)):
            if not choices and key in ("maint_index", "maint_partner", "weight_degradation"):
                continue
            x, y = ta[key], tb[key]
            if x.shape != y.shape or not np.array_equal(x, y):
                where = ""
                if x.shape == y.shape and x.ndim:
                    first = int(np.flatnonzero(np.ravel(x != y))[0])
                    where = f" at {first}: {np.ravel(x)[first]} != {np.ravel(y)[first]}"
                return f"trace[{i}].{key}{where}"
    return None


def check(config):
    """Run the configuration on both paths; a dict: ``ok``, ``status`` and the measured differences.

    ``status``: ``"agree"``; ``"decision"`` (a discrete trace entry differs); ``"values"`` (decision
    values beyond ``rtol``); ``"predict"`` (the fitted models are bitwise equal but their decision
    values differ beyond ``rtol``: the prediction paths part, not the training); ``"csr-decision"`` /
    ``"csr-values"`` / ``"csr-predict"`` (the compiled CSR run against the reference); ``"refused"``
    (every run refuses the configuration with the same ValueError message: not a disagreement);
    ``"error"`` (a run raises anything else, or the runs raise differently).
    """
    X, y = make_data(config)
    n = X.shape[0]
    gamma = _gamma(X, config["gamma_factor"])
    rtol, choices, allowance = tolerance(config)
    out = {"seed": config["seed"], "regime": regime(config), "rtol": rtol, "allowance": allowance,
           "n": n, "budget": _budget(config, n), "open": open_regime(config),
           "kernel_error_bound": kernel_error_bound(config, X, gamma)}
    result = _compare(config, X, y, n, gamma, rtol, choices, out)
    if not result["ok"] and result["status"] != "error" and result["kernel_error_bound"] > rtol:
        result.update(ok=True, status="outside-bound", parted=result["status"])
    elif not result["ok"] and result["status"] in VALUE_STATUSES and result["value_error_bound"] > rtol:
        result.update(ok=True, status="outside-bound", parted=result["status"])
    return result


def _compare(config, X, y, n, gamma, rtol, choices, out):
    """The runs of :func:`check` and their comparison."""
    runs = {}
    errors = {}
    forms = [("python", X), ("fast", X)] + ([("fast-csr", sp.csr_matrix(X))] if config["data"]["csr"] else [])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, data in forms:
            try:
                est = make_estimator(config, n, gamma, name.split("-")[0]).fit(data, y)
                runs[name] = (est.decision_function(X), est.trace_, _model_arrays(est))
                if name == "python":
                    ref_est = est
            except Exception as exc:              # noqa: BLE001 -- reported, compared between the paths
                errors[name] = f"{type(exc).__name__}: {exc}"
    if errors:
        same = (len(errors) == len(forms) and len(set(errors.values())) == 1
                and next(iter(errors.values())).startswith("ValueError"))
        out.update(ok=same, status="refused" if same else "error", errors=errors)
        return out
    d_ref, t_ref, m_ref = runs["python"]
    scale = float(np.max(np.abs(d_ref))) if d_ref.size else 0.0
    out["scale"] = scale
    bound = value_error_bound(config, ref_est, X)
    out["value_error_bound"] = bound / scale if scale > 0 else (0.0 if bound == 0 else math.inf)
    for name in [f for f, _ in forms if f != "python"]:
        d, t, m = runs[name]
        prefix = "csr-" if name == "fast-csr" else ""
        diff = float(np.max(np.abs(d - d_ref))) if d.size else 0.0
        rel = diff / scale if scale > 0 else diff
        out[prefix + "rel_diff"] = rel
        mismatch = _trace_difference(t_ref, t, choices)
        if mismatch is not None:
            out.update(ok=False, status=prefix + "decision", where=mismatch)
            return out
        if not rel <= rtol:
            same_model = m is not None and m_ref is not None and all(
                a.shape == b.shape and np.array_equal(a, b) for a, b in zip(m, m_ref))
            out.update(ok=False, status=prefix + ("predict" if same_model else "values"))
            return out
        if name == "fast-csr":
            out["csr_bitwise"] = bool(np.array_equal(d, runs["fast"][0]))
    out.update(ok=True, status="agree")
    return out


def _model_arrays(est):
    """The fitted kernel expansion's arrays (SVs dense, coefficients, bias), or None (FOGD / NOGD)."""
    model = getattr(est, "model_", None)
    if model is None or not (hasattr(model, "support_vectors") and hasattr(model, "coef")):
        return None
    sv = model.support_vectors
    sv = sv.toarray() if sp.issparse(sv) else np.asarray(sv)
    return [sv, np.asarray(model.coef), np.asarray(getattr(model, "bias", 0.0))]


def describe(config):
    """One line of JSON: the configuration (to reproduce: ``check(draw_config(seed))``)."""
    return json.dumps(config, sort_keys=True)
