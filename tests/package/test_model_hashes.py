"""Model fingerprints: every solver's trained model, bit for bit, against committed hashes.

A fixed suite of configurations (every solver, maintenance, merge solver, kernel,
learning rate, variant, weights, refit, multi-class and CSR input), each trained on
both paths.  The hash covers every array of the fitted model (support vectors,
coefficients, bias, Fourier directions, projection, ...) and the discrete entries of
every pass's trace (integer and boolean values: mistakes, added, maintenance indices
and partners, counters).  ``tests/package/model_hashes.json`` holds the hashes written at the
commit it names; a refactoring that claims "models unchanged" must leave them all
matching.

Regenerate (only when a change is *meant* to change models, and say so in the commit):

    python tests/package/test_model_hashes.py --write

which keeps only this machine's record; a machine of another numeric platform adds its
own record (run it on a commit whose models match the records on their platforms, e.g. one
that landed: only the rounding differs) with

    python tests/package/test_model_hashes.py --add-platform

The hashes are not the same on every machine.  The compiled loops do the same IEEE operations
on every CPU, but the python path calls numpy, whose ufuncs (``exp``, ``sqrt``, ``sum``) are
dispatched to the CPU's widest SIMD level, and numpy / scipy's BLAS and LAPACK (dots, solves,
eigendecompositions: the python path's projection and BSCA steps, NOGD's Nystroem map on both
paths, the refit's exact solver) pick kernels by CPU: 41 of the 78 python-path models and 7 of the
fast path's differ in their last bits between an Intel Xeon with AVX-512 and an AMD EPYC with AVX2
(same numpy and OpenBLAS; the paths still agree within their tolerances, tests/agreement).  So
``model_hashes.json`` keeps one record per *numeric platform* (:func:`numeric_platform`: numpy's
version, its SIMD level, the BLAS kernels' architecture).  On a recorded platform every hash must
match its record; on another platform the hashes that are the same on every recorded platform
must match (those models do not depend on the platform as far as the records show), and the
others are skipped, the skip naming the platform and the command that records it.
"""

import hashlib
import json
import pathlib
import platform
import sys
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

HERE = pathlib.Path(__file__).resolve().parent
HASH_FILE = HERE / "model_hashes.json"


# ---------------------------------------------------------------- data

def _data():
    """Small binary / multi-class / regression sets with exact and near duplicates and a zero column."""
    rng = np.random.default_rng(20261126)
    n, d = 90, 5
    X = rng.normal(size=(n, d))
    X[:, 3] = 0.0                                         # a zero column
    X[rng.random((n, d)) < 0.3] = 0.0                     # zeros for the CSR form
    X[10:16] = X[0:6]                                     # exact duplicates
    X[20:23] = X[30:33] + 1e-9                            # near duplicates
    yb = np.where(X[:, 0] + 0.5 * X[:, 1] ** 2 - 0.3 > 0, 1, -1)
    yb[::11] *= -1                                        # label noise
    ym = (np.digitize(X[:, 0] + 0.3 * X[:, 2], [-0.4, 0.4])).astype(np.int64)
    yr = np.sin(X[:, 0]) + 0.3 * X[:, 1]
    w = 0.5 + rng.random(n)
    w[::7] = 0.0
    return X, yb, ym, yr, w


def _configs():
    """(name, estimator factory, target kind, fit options) of the suite."""
    from refsvm import (BSCAClassifier, BudgetedSVC, FOGDClassifier, FOGDRegressor, NOGDClassifier,
                        NOGDRegressor, OnlineKernelClassifier, SBPClassifier)
    cfg = []

    def add(name, make, target="b", csr=False, weights=False):
        cfg.append((name, make, target, csr, weights))

    g = 0.4
    # BSGD: learning rate x maintenance (rbf, binary)
    for lr in ("pegasos", "norma", "perceptron"):
        for m in ("removal", "projection", "merge"):
            add(f"bsgd-{lr}-{m}", lambda lr=lr, m=m: BudgetedSVC(
                budget=12, lam=1e-2, gamma=g, learning_rate=lr, eta=0.5 if lr != "pegasos" else None,
                maintenance=m, epochs=3, random_state=1))
    for ms in ("gss-precise", "lookup-h", "lookup-wd"):
        add(f"bsgd-merge-{ms}", lambda ms=ms: BudgetedSVC(budget=10, lam=1e-2, gamma=g, merge_solver=ms,
                                                          epochs=2, random_state=2))
    add("bsgd-linear-removal", lambda: BudgetedSVC(budget=8, lam=1e-2, kernel="linear", maintenance="removal",
                                                   epochs=2, random_state=3))
    add("bsgd-linear-projection", lambda: BudgetedSVC(budget=8, lam=1e-2, kernel="linear",
                                                      maintenance="projection", epochs=2, random_state=3))
    add("bsgd-poly-projection", lambda: BudgetedSVC(budget=10, lam=1e-2, kernel="poly", degree=2, gamma=0.3,
                                                    coef0=1.0, maintenance="projection", epochs=2, random_state=4))
    for m in ("removal", "projection", "merge"):
        add(f"bsgd-multiclass-{m}", lambda m=m: BudgetedSVC(budget=12, lam=1e-2, gamma=g, maintenance=m,
                                                            epochs=2, random_state=5), target="m")
    add("bsgd-fit-bias", lambda: BudgetedSVC(budget=12, lam=1e-2, gamma=g, fit_bias=True, epochs=2, random_state=6))
    add("bsgd-weights", lambda: BudgetedSVC(budget=12, lam=1e-2, gamma=g, epochs=2, random_state=7), weights=True)
    add("bsgd-class-weight", lambda: BudgetedSVC(budget=12, lam=1e-2, gamma=g, class_weight="balanced",
                                                 epochs=2, random_state=7))
    add("bsgd-refit", lambda: BudgetedSVC(budget=12, lam=1e-2, gamma=g, refit_bias=True, epochs=2, random_state=8))
    add("bsgd-refit-scaled", lambda: BudgetedSVC(budget=12, lam=1e-2, gamma=g, refit_bias="scaled",
                                                 epochs=2, random_state=8))
    add("bsgd-refit-multiclass", lambda: BudgetedSVC(budget=12, lam=1e-2, gamma=g, refit_bias=True, epochs=2,
                                                     random_state=8), target="m")
    for m in ("merge", "projection", "removal"):
        add(f"bsgd-csr-{m}", lambda m=m: BudgetedSVC(budget=10, lam=1e-2, gamma=g, maintenance=m, epochs=2,
                                                     random_state=9), csr=True)
    add("bsgd-csr-lookup-wd", lambda: BudgetedSVC(budget=10, lam=1e-2, gamma=g, merge_solver="lookup-wd",
                                                  epochs=2, random_state=9), csr=True)
    add("bsgd-csr-multiclass", lambda: BudgetedSVC(budget=10, lam=1e-2, gamma=g, epochs=2, random_state=9),
        target="m", csr=True)

    # BSCA
    for m in ("merge", "projection", "removal"):
        add(f"bsca-{m}", lambda m=m: BSCAClassifier(budget=12, C=2.0, gamma=g, maintenance=m, epochs=2,
                                                    random_state=10))
    add("bsca-lookup-wd", lambda: BSCAClassifier(budget=12, C=2.0, gamma=g, merge_solver="lookup-wd", epochs=2,
                                                 random_state=11))
    add("bsca-append-permutation", lambda: BSCAClassifier(budget=12, C=2.0, gamma=g, sv_update="append",
                                                          sampling="permutation", epochs=2, random_state=12))
    add("bsca-linear-projection", lambda: BSCAClassifier(budget=8, C=1.0, kernel="linear",
                                                         maintenance="projection", epochs=2, random_state=13))
    add("bsca-multiclass", lambda: BSCAClassifier(budget=12, C=2.0, gamma=g, epochs=2, random_state=14), target="m")
    add("bsca-weights", lambda: BSCAClassifier(budget=12, C=2.0, gamma=g, epochs=2, random_state=15), weights=True)
    add("bsca-csr", lambda: BSCAClassifier(budget=10, C=2.0, gamma=g, epochs=2, random_state=16), csr=True)
    add("bsca-refit", lambda: BSCAClassifier(budget=10, C=2.0, gamma=g, epochs=2, refit_bias=True,
                                             random_state=16))

    # SBP
    add("sbp", lambda: SBPClassifier(nu=0.1, gamma=g, epochs=3, random_state=17))
    add("sbp-intercept", lambda: SBPClassifier(nu=0.1, gamma=g, epochs=3, fit_intercept=True, random_state=18))
    add("sbp-multiclass", lambda: SBPClassifier(nu=0.1, gamma=g, epochs=2, random_state=19), target="m")
    add("sbp-weights", lambda: SBPClassifier(nu=0.1, gamma=g, epochs=2, random_state=20), weights=True)
    add("sbp-linear", lambda: SBPClassifier(nu=0.1, kernel="linear", epochs=2, random_state=21))
    add("sbp-csr", lambda: SBPClassifier(nu=0.1, gamma=g, epochs=2, random_state=22), csr=True)
    add("sbp-refit", lambda: SBPClassifier(nu=0.1, gamma=g, epochs=2, refit_bias=True, random_state=23))

    # FOGD / NOGD
    add("fogd", lambda: FOGDClassifier(n_components=20, gamma=g, eta=0.1, epochs=2, random_state=24))
    add("fogd-normalize", lambda: FOGDClassifier(n_components=20, gamma=g, eta=0.1, normalize=True,
                                                 random_state=25))
    add("fogd-average", lambda: FOGDClassifier(n_components=20, gamma=g, eta=0.1, average=True, epochs=2,
                                               random_state=26))
    add("fogd-multiclass", lambda: FOGDClassifier(n_components=20, gamma=g, eta=0.1, random_state=27), target="m")
    add("fogd-csr", lambda: FOGDClassifier(n_components=20, gamma=g, eta=0.1, random_state=28), csr=True)
    add("fogd-weights", lambda: FOGDClassifier(n_components=20, gamma=g, eta=0.1, random_state=28), weights=True)
    add("fogd-regression", lambda: FOGDRegressor(n_components=20, gamma=g, eta=0.05, epochs=2, random_state=29),
        target="r")
    add("fogd-regression-average", lambda: FOGDRegressor(n_components=20, gamma=g, eta=0.05, average=True,
                                                         random_state=30), target="r")
    add("nogd", lambda: NOGDClassifier(budget=15, rank=8, gamma=g, eta=0.2, epochs=2, random_state=31))
    add("nogd-average", lambda: NOGDClassifier(budget=15, rank=8, gamma=g, eta=0.2, average=True,
                                               random_state=32))
    add("nogd-multiclass", lambda: NOGDClassifier(budget=15, rank=8, gamma=g, eta=0.2, random_state=33), target="m")
    add("nogd-csr", lambda: NOGDClassifier(budget=15, rank=8, gamma=g, eta=0.2, random_state=34), csr=True)
    add("nogd-weights", lambda: NOGDClassifier(budget=15, rank=8, gamma=g, eta=0.2, random_state=34), weights=True)
    add("nogd-regression", lambda: NOGDRegressor(budget=15, rank=8, gamma=g, eta=0.1, random_state=35), target="r")

    # the eight online baselines
    pinned = {"bogd": dict(eta=0.1)}   # BOGD's default step before it became 0.2: the same models
    for a in ("perceptron", "ogd", "rbp", "forgetron", "projectron", "projectron++", "bpas", "bogd"):
        add(f"online-{a}", lambda a=a: OnlineKernelClassifier(algorithm=a, budget=10, gamma=g, epochs=2,
                                                              random_state=36, **pinned.get(a, {})))
    for a in ("projectron", "projectron++"):
        add(f"online-{a}-authors", lambda a=a: OnlineKernelClassifier(algorithm=a, budget=10, gamma=g,
                                                                      variant="authors", random_state=37))
    for a in ("rbp", "forgetron", "bpas", "bogd"):
        add(f"online-{a}-csr", lambda a=a: OnlineKernelClassifier(algorithm=a, budget=10, gamma=g,
                                                                  random_state=38, **pinned.get(a, {})), csr=True)
    for a in ("ogd", "projectron++"):
        add(f"online-{a}-weights", lambda a=a: OnlineKernelClassifier(algorithm=a, budget=10, gamma=g,
                                                                      random_state=39), weights=True)
    add("online-projectron-linear", lambda: OnlineKernelClassifier(algorithm="projectron", budget=6,
                                                                   kernel="linear", random_state=40))
    add("online-perceptron-refit", lambda: OnlineKernelClassifier(algorithm="perceptron", budget=10, gamma=g,
                                                                  refit_bias=True, random_state=41))
    return cfg


# ---------------------------------------------------------------- hashing

def _feed(h, name, value):
    h.update(name.encode())
    if sp.issparse(value):
        value = value.tocsr()
        for part in (value.data, value.indices, value.indptr):
            _feed(h, "csr", np.asarray(part))
        h.update(repr(value.shape).encode())
    elif isinstance(value, np.ndarray):
        h.update(str(value.dtype).encode() + repr(value.shape).encode())
        h.update(np.ascontiguousarray(value).tobytes())
    else:
        h.update(repr(value).encode())


def _discrete(value):
    """The trace value if it is a discrete decision (an integer or boolean scalar or array), else None."""
    if isinstance(value, (bool, int, np.integer, np.bool_)):
        return int(value)
    if isinstance(value, np.ndarray) and value.dtype.kind in "biu":
        return value
    return None


def model_hash(est):
    """sha256 of the fitted model's arrays and of the discrete entries of its traces."""
    h = hashlib.sha256()
    model = est.model_
    for key in sorted(vars(model)):
        value = getattr(model, key)
        if isinstance(value, np.ndarray) or sp.issparse(value):
            _feed(h, key, value)
    traces = getattr(est, "trace_", None) or []
    if isinstance(traces, dict):
        traces = [traces]
    for k, trace in enumerate(traces):
        for key in sorted(trace):
            value = _discrete(trace[key])
            if value is not None:
                _feed(h, f"trace{k}.{key}", value)
    return h.hexdigest()


def compute_hashes(names=None):
    X, yb, ym, yr, w = _data()
    Xs = sp.csr_matrix(X)
    out = {}
    for name, make, target, csr, weights in _configs():
        if names is not None and name not in names:
            continue
        y = {"b": yb, "m": ym, "r": yr}[target]
        for backend in ("python", "fast"):
            est = make().set_params(backend=backend)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if weights:
                    est.fit(Xs if csr else X, y, sample_weight=w)
                else:
                    est.fit(Xs if csr else X, y)
            out[f"{name}/{backend}"] = model_hash(est)
    return out


def _machine():
    try:
        flags = next(line for line in open("/proc/cpuinfo") if line.startswith("flags")).split()
        ext = [f for f in ("avx512f", "avx2", "fma", "sse4_2") if f in flags]
        model = next(line for line in open("/proc/cpuinfo") if line.startswith("model name")).split(":", 1)[1]
    except (OSError, StopIteration):
        ext, model = [], platform.processor()
    return f"{model.strip()} ({', '.join(ext)}), numpy {np.__version__}"


def numeric_platform():
    """What the models' last bits depend on besides refsvm's code: numpy's version, the SIMD level
    numpy dispatches its ufuncs to, and the architecture of the BLAS kernels (threadpoolctl)."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as features
    except ImportError:                                       # numpy < 2
        from numpy.core._multiarray_umath import __cpu_features__ as features
    simd = next((level for level in ("AVX512F", "AVX2", "SSE42", "ASIMD") if features.get(level)),
                platform.machine())
    np.dot(np.ones((2, 2)), np.ones((2, 2)))                 # loads numpy's BLAS
    import scipy.linalg                                       # noqa: F401  (and scipy's)
    from threadpoolctl import threadpool_info
    blas = sorted({f"{info['internal_api']} {info.get('architecture')}" for info in threadpool_info()
                   if info["user_api"] == "blas"})
    return {"numpy": np.__version__, "simd": simd, "blas": ", ".join(blas)}


def _matches(recorded, current):
    """A record's platform is the current one (a record without ``blas`` matches any BLAS)."""
    return all(recorded.get(key) in (None, current[key]) for key in current)


# ---------------------------------------------------------------- the test

def _records():
    return json.loads(HASH_FILE.read_text())["records"]


def expected_hashes(records, current):
    """(hashes to check, keys skipped): the record of the current platform if there is one, else
    the hashes that every recorded platform shares; the rest are skipped."""
    for record in records:
        if _matches(record["platform"], current):
            return dict(record["hashes"]), set()
    keys = set(records[0]["hashes"])
    shared = {k: records[0]["hashes"][k] for k in keys
              if all(r["hashes"].get(k) == records[0]["hashes"][k] for r in records)}
    return shared, keys - set(shared)


def test_suite_size():
    """The suite covers at least 60 configurations, each on both paths, in every record."""
    assert len(_configs()) >= 60
    for record in _records():
        assert len(record["hashes"]) == 2 * len(_configs())


def test_expected_hashes_rule():
    """On an unrecorded platform the shared hashes are checked and the differing ones skipped; on a
    recorded one (a record without blas matching any BLAS) every hash is checked."""
    a = {"platform": {"numpy": "2", "simd": "AVX2", "blas": "openblas Haswell"}, "hashes": {"x": "1", "y": "2"}}
    b = {"platform": {"numpy": "2", "simd": "AVX512F", "blas": None}, "hashes": {"x": "1", "y": "3"}}
    assert expected_hashes([a, b], {"numpy": "2", "simd": "AVX2", "blas": "openblas Haswell"}) == ({"x": "1", "y": "2"}, set())
    assert expected_hashes([a, b], {"numpy": "2", "simd": "AVX512F", "blas": "openblas SkylakeX"}) == ({"x": "1", "y": "3"}, set())
    assert expected_hashes([a, b], {"numpy": "3", "simd": "AVX2", "blas": "openblas Zen"}) == ({"x": "1"}, {"y"})


_NAMES = [c[0] for c in _configs()] if HASH_FILE.exists() else []


@pytest.fixture(scope="module")
def expected():
    current = numeric_platform()
    hashes, skipped = expected_hashes(_records(), current)
    return current, hashes, skipped


@pytest.mark.parametrize("name", _NAMES)
def test_model_unchanged(name, expected):
    current, hashes, skipped = expected
    got = compute_hashes({name})
    checked = [key for key in got if key in hashes]
    for key in checked:
        assert got[key] == hashes[key], f"{key}: the model or its trace changed (platform {current})"
    if len(checked) < len(got):
        pytest.skip(f"{sorted(set(got) - set(checked))}: differ between the recorded numeric platforms and "
                    f"none is this one ({current}); record it with "
                    "python tests/package/test_model_hashes.py --add-platform")


def test_hash_sees_a_change():
    """The fingerprint is not vacuous: one changed coefficient bit changes it."""
    from refsvm import BudgetedSVC
    X, yb, *_ = _data()
    est = BudgetedSVC(budget=10, lam=1e-2, gamma=0.4, random_state=0, backend="fast").fit(X, yb)
    before = model_hash(est)
    est.model_.coef[0, 0] = np.nextafter(est.model_.coef[0, 0], np.inf)
    assert model_hash(est) != before


if __name__ == "__main__":
    if not {"--write", "--add-platform"} & set(sys.argv):
        sys.exit("usage: python tests/package/test_model_hashes.py --write | --add-platform")
    import subprocess
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=HERE).stdout.strip()
    current = numeric_platform()
    hashes = compute_hashes()
    records = []
    if "--add-platform" in sys.argv:
        records = [r for r in _records() if not _matches(r["platform"], current)]
        # only for a tree whose models match the records on their platforms (a landed commit);
        # with two or more records, the hashes they share must match here too
        shared, _ = expected_hashes(records, current) if len(records) > 1 else ({}, set())
        changed = sorted(k for k, v in shared.items() if hashes[k] != v)
        if changed:
            sys.exit(f"{len(changed)} hashes shared by the recorded platforms differ here ({changed[:5]} ...): "
                     "a model changed; use --write if that is meant")
        for record in records:
            differ = sorted(k for k in hashes if record["hashes"].get(k) != hashes[k])
            print(f"{len(differ)} of {len(hashes)} hashes differ from the record of {record['platform']}")
    records.append({"platform": current, "machine": _machine(), "commit": commit, "hashes": hashes})
    HASH_FILE.write_text(json.dumps({"records": records}, indent=1, sort_keys=True) + "\n")
    print(f"{len(hashes)} hashes of {current} written to {HASH_FILE} ({len(records)} record(s))")
