"""Oracle traces of merging: each merge event's h (eq. 18) and weight degradation, recorded from the merge
itself on both paths (BSGD binary and multi-class, BSCA; every merge solver).  A recorded run is bitwise
the plain one; the recorded h is the maximiser of the pair's objective by an independent brute-force
search on the model just before the event, the recorded WD the closed form at the recorded h, and the
merged point is z = h x_m + (1 - h) x_n; both paths' traces agree; compare-traces finds an altered h at
its step, and the compact form carries h."""

import math

import numpy as np
import pytest

import refsvm.budget as budget_module
from refsvm import oracle
from refsvm.backend import get_module
from refsvm.recorder import merged_slot, recording_steps

GAMMA = 0.7
SOLVERS = ("gss", "gss-precise", "lookup-h", "lookup-wd")
U = 2.0 ** -53


def data(n=60, seed=3, classes=2):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3))
    if classes == 2:
        return X, np.where(X[:, 0] + 0.5 * rng.standard_normal(n) > 0, 1, -1).astype(np.int64)
    return X, (np.argmax(X[:, :classes] + 0.3 * rng.standard_normal((n, classes)), axis=1)).astype(np.int64)


def bsgd_kwargs(solver, classes=2, maintenance="merge"):
    return dict(n_classes=classes, budget=5, lam=0.01, learning_rate="pegasos", eta=1.0, radius=1.0,
                maintenance=maintenance, kernel="rbf", gamma=GAMMA, degree=3, coef0=0.0, merge_eps=0.01,
                projection_ridge=1e-10, fit_bias=False, merge_solver=solver)


def bsca_kwargs(solver):
    return dict(budget=5, C=1.0, maintenance="merge", kernel="rbf", gamma=GAMMA, degree=3, coef0=0.0,
                merge_eps=0.01, projection_ridge=1e-10, merge_solver=solver)


def run(algorithm, backend, X, y, order, kw, record=True):
    fn = getattr(get_module(algorithm, backend), algorithm)
    if not record:
        return fn(X, y, order, **kw)
    with recording_steps():
        return fn(X, y, order, **kw)


def run_with_states(algorithm, X, y, order, kw, monkeypatch):
    """The Python path's recorded run and the model (SVs, coefficients) just before each maintenance event,
    copied by a spy on refsvm.budget.maintain_with (which reads nothing the merge writes)."""
    states, real = [], budget_module.maintain_with

    def spy(opts, SV, alpha, n_sv, *args, **kwargs):
        states.append((np.array(SV[:n_sv], dtype=np.float64), np.array(alpha[:n_sv], dtype=np.float64)))
        return real(opts, SV, alpha, n_sv, *args, **kwargs)

    monkeypatch.setattr(budget_module, "maintain_with", spy)
    res = run(algorithm, "python", X, y, order, kw)
    monkeypatch.setattr(budget_module, "maintain_with", real)
    return res, states


def objective(h, a_m, a_n, kappa):
    """g(h) = ||a_m kappa^((1-h)^2) + a_n kappa^(h^2)||^2, written out (independent of refsvm.budget)."""
    a_z = a_m * kappa ** ((1.0 - h) ** 2) + a_n * kappa ** (h ** 2)
    return float(np.sum(a_z * a_z))


def brute_force_h(a_m, a_n, kappa):
    """The maximiser of g on the half of [0, 1] whose end point is better (g(1) >= g(0): [1/2, 1]): a grid of
    2001 points, then ternary refinement around the best one to 1e-13."""
    lo, hi = (0.5, 1.0) if objective(1.0, a_m, a_n, kappa) >= objective(0.0, a_m, a_n, kappa) else (0.0, 0.5)
    grid = np.linspace(lo, hi, 2001)
    k = int(np.argmax([objective(h, a_m, a_n, kappa) for h in grid]))
    a, b = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
    while b - a > 1e-13:
        c, d = a + (b - a) / 3.0, b - (b - a) / 3.0
        if objective(c, a_m, a_n, kappa) >= objective(d, a_m, a_n, kappa):
            b = d
        else:
            a = c
    return 0.5 * (a + b)


#: How far a solver's h may be from the maximiser: GSS stops once its bracket (holding the maximiser of the
#: unimodal half) is narrower than eps = 0.01 and returns the midpoint; GSS-precise's Newton polish reaches
#: the root of g' to rounding (the brute force's own ternary search is limited by g's flatness, ~1e-8);
#: the lookup solvers interpolate a table of h on a grid (checked through the WD: near-optimal).
H_TOLERANCE = {"gss": 0.005 + 1e-12, "gss-precise": 1e-6}


def check_events(trace, states, X_pre=None):
    """Each merge event's recorded h and WD against the brute force on the model before the event."""
    checked = 0
    events = zip(trace["maint_index"], trace["maint_partner"], trace["maint_h"], trace["weight_degradation"],
                 trace["maint_new_coefficient"], states)
    for m, n, h, wd, new_coef, (sv, alpha) in events:
        if n < 0:
            assert math.isnan(h)
            continue
        a_m, a_n = alpha[m], alpha[n]
        kappa = math.exp(-GAMMA * float(np.sum((sv[m] - sv[n]) ** 2)))
        a_z = a_m * kappa ** ((1.0 - h) ** 2) + a_n * kappa ** (h ** 2)          # eq. 19 at the recorded h
        A, B = float(a_m @ a_m), float(a_n @ a_n)
        closed_wd = A + B + 2.0 * kappa * float(a_m @ a_n) - float(a_z @ a_z)
        bound = 2.0 * (32 + 4 * len(a_m)) * U * (A + B)                          # least_wd_partner's bound, x2
        assert abs(wd - max(closed_wd, 0.0)) <= bound + 1e-12 * abs(wd), (wd, closed_wd)
        np.testing.assert_allclose(new_coef, a_z, rtol=1e-12, atol=1e-15)
        yield h, a_m, a_n, kappa, wd, (A, B)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("solver", SOLVERS)
def test_h_and_wd_against_brute_force(solver, monkeypatch):
    X, y = data()
    order = np.random.default_rng(2).permutation(len(y))
    res, states = run_with_states("bsgd", X, y, order, bsgd_kwargs(solver), monkeypatch)
    for h, a_m, a_n, kappa, wd, (A, B) in check_events(res.trace, states):
        h_star = brute_force_h(a_m, a_n, kappa)
        if solver in H_TOLERANCE:
            assert abs(h - h_star) <= H_TOLERANCE[solver], (h, h_star)
        else:                     # a table's h: its WD is near the least (the objective is flat at the top)
            a_z = a_m * kappa ** ((1.0 - h_star) ** 2) + a_n * kappa ** (h_star ** 2)
            best_wd = A + B + 2.0 * kappa * float(a_m @ a_n) - float(a_z @ a_z)
            assert best_wd - 1e-12 <= wd <= best_wd + 1e-3 * (A + B), (wd, best_wd)


@pytest.mark.parametrize("algorithm,classes", [("bsgd", 3), ("bsca", 2)])
def test_h_multiclass_and_bsca_against_brute_force(algorithm, classes, monkeypatch):
    X, y = data(n=40, classes=classes)
    order = np.random.default_rng(5).permutation(len(y))
    kw = bsgd_kwargs("gss", classes) if algorithm == "bsgd" else bsca_kwargs("gss")
    res, states = run_with_states(algorithm, X, y, order, kw, monkeypatch)
    for h, a_m, a_n, kappa, _, _ in check_events(res.trace, states):
        assert abs(h - brute_force_h(a_m, a_n, kappa)) <= H_TOLERANCE["gss"]


@pytest.mark.parametrize("solver", SOLVERS)
def test_merged_point_is_placed_by_the_recorded_h(solver):
    """z = h x_m + (1 - h) x_n, read from the model after the event (BSGD, a prefix run's model before it)."""
    X, y = data()
    order = np.random.default_rng(2).permutation(len(y))
    kw = bsgd_kwargs(solver)
    trace = run("bsgd", "python", X, y, order, kw).trace
    checked = 0
    for e, (s, m, n, h) in enumerate(zip(trace["maint_step"], trace["maint_index"], trace["maint_partner"],
                                         trace["maint_h"])):
        if n < 0 or e % 4:
            continue
        before = run("bsgd", "python", X, y, order[:s], kw, record=False)
        after = run("bsgd", "python", X, y, order[:s + 1], kw, record=False)
        sv = np.vstack([before.sv, X[order[s]]])
        z = after.sv[merged_slot(m, n, len(sv))]
        np.testing.assert_allclose(z, h * sv[m] + (1.0 - h) * sv[n], rtol=0, atol=1e-14)
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("algorithm,solver,classes,maintenance",
                         [("bsgd", s, 2, "merge") for s in SOLVERS]
                         + [("bsgd", "gss", 3, "merge"), ("bsca", "gss", 2, "merge"), ("bsca", "lookup-wd", 2, "merge")]
                         + [(a, "gss", 2, m) for a in ("bsgd", "bsca") for m in ("removal", "projection")])
def test_recorded_run_is_bitwise_and_paths_agree(algorithm, solver, classes, maintenance):
    X, y = data(n=40, classes=classes)
    order = np.random.default_rng(1).permutation(len(y))
    kw = bsgd_kwargs(solver, classes, maintenance) if algorithm == "bsgd" else dict(bsca_kwargs(solver),
                                                                                    maintenance=maintenance)
    traces = {}
    for backend in ("python", "fast"):
        plain = run(algorithm, backend, X, y, order, kw, record=False)
        rec = run(algorithm, backend, X, y, order, kw)
        assert "maint_h" not in plain.trace
        for name in ("sv", "alpha"):
            assert getattr(rec, name).tobytes() == getattr(plain, name).tobytes(), name
        h = rec.trace["maint_h"]
        merged = (rec.trace["maint_partner"] >= 0) & (maintenance == "merge")
        assert h.shape == rec.trace["maint_step"].shape and len(h) > 3
        assert np.array_equal(np.isfinite(h), merged) and ((h[merged] >= 0) & (h[merged] <= 1)).all()
        traces[backend] = rec.trace
    a, b = traces["python"], traces["fast"]
    assert np.array_equal(a["maint_partner"], b["maint_partner"])
    assert oracle.values_agree(a["maint_h"].tolist(), b["maint_h"].tolist(), 1e-9, 0.0)


@pytest.mark.parametrize("solver", ["bsgd", "bsca"])
@pytest.mark.parametrize("backend", ["python", "fast"])
def test_altered_h_found_at_its_step(solver, backend, tmp_path):
    X, y = data(n=50)
    ours, _ = oracle.trace_records(solver, X, y, seed=4, params={"budget": 5}, backend=backend)
    theirs, _ = oracle.trace_records(solver, X, y, seed=4, params={"budget": 5},
                                     backend="fast" if backend == "python" else "python")
    assert oracle.compare_traces(ours, theirs).agree
    merges = [i for i, r in enumerate(theirs) if r["record"] == "maintenance" and r.get("partner") is not None]
    assert len(merges) > 5 and all("h" in theirs[i] for i in merges)
    assert "maintenance.h" not in ours[0]["not_recorded"]
    path = tmp_path / "trace.npz"                   # the compact form carries h
    oracle.export_trace(solver, X, y, path=path, seed=4, params={"budget": 5}, backend=backend)
    compact = oracle.read_trace(path)
    assert [r.get("h") for r in compact] == [r.get("h") for r in ours]
    i = merges[len(merges) // 2]
    theirs[i] = dict(theirs[i], h=theirs[i]["h"] + 1e-6)
    result = oracle.compare_traces(ours, theirs)
    assert result.first_discrete is None
    assert (result.first_continuous.step, result.first_continuous.field) == (theirs[i]["step"], "h")
