"""refsvm reproduce: Lu et al. (2016)'s Table 7 (online multi-class) and Table 9 (online regression):
the paper's numbers as printed, the data as the authors prepared them, the regression metric, the relative
gap rule, rows a build does not run, and the --quick runs end to end."""

import os
import re
from pathlib import Path

import numpy as np
import pytest

from refsvm.reproduce import format_table, tables
from refsvm.reproduce.driver import load_dataset, run_table
from refsvm.reproduce.gaps import RELATIVE_GAP, gap_reason, is_flagged
from refsvm.reproduce.runners import minmax_scale, run_estimator, run_estimator_scaled
from refsvm.reproduce.spec import Dataset

PAPER = Path(os.environ.get("REFSVM_PAPERS", "/work/shared/papers")) / "fogd-nogd-lu-hoi-et-al-2016.txt"
NUM = r"(\d+\.\d+)"


def _need_data():
    if not os.environ.get("REFSVM_DATA"):
        pytest.skip("REFSVM_DATA is not set; the reproduction runs need the shared data")


def _paper_text():
    if not PAPER.exists():
        pytest.skip(f"{PAPER} not found")
    return PAPER.read_text(errors="replace")


def _paper_table(name, header, caption):
    """The registered table and the two halves of its block in the paper's text (from ``header`` to
    ``caption``), each starting after "Algorithm "."""
    text = _paper_text()
    start = text.index(header)
    return tables()[name], text[start:text.index(caption, start)].split("Algorithm ")[1:3]


def test_table7_numbers_are_the_papers():
    """Every (mistake rate, std, seconds) of Table 7 on the six data sets, parsed from the paper's text."""
    table, parts = _paper_table("lu2016-table7", "Algorithm dna mnist satimage", "Table 7:")
    groups = [("dna", "mnist", "satimage"), ("usps", "letter", "shuttle")]
    checked = 0
    for names, part in zip(groups, parts):
        for row in ("Perceptron", "OGD", "RBP", "Forgetron", "Projectron++", "Projectron", "BPA-S", "BOGD",
                    "FOGD", "NOGD"):
            m = re.search(re.escape(row) + r" " + r" ".join([NUM + r" % " + NUM + r" " + NUM] * 3), part)
            assert m, (row, names)
            values = [float(v) for v in m.groups()]
            for j, ds in enumerate(names):
                assert table.paper[(row, ds)] == pytest.approx(tuple(values[3 * j:3 * j + 3])), (row, ds)
                checked += 1
    assert checked == 60


def test_table9_numbers_are_the_papers():
    """Every (squared loss, std, seconds) of Table 9 on housing, abalone, cpusmall and cadata, from the paper;
    the '[code]' rows carry the paper's FOGD / NOGD numbers."""
    table, parts = _paper_table("lu2016-table9", "Algorithm housing mg abalone", "Table 9:")
    groups = [("housing", "mg", "abalone"), ("parkinsons", "cpusmall", "cadata")]
    checked = 0
    for names, part in zip(groups, parts):
        for row in ("OGD", "Perceptron", "Norma", "RBP", "Forgetron", "Projectron", "BOGD", "FOGD", "NOGD"):
            m = re.search(r"(?<![A-Za-z])" + re.escape(row) + r" " + r" ".join([NUM] * 9), part)
            assert m, (row, names)
            values = [float(v) for v in m.groups()]
            for j, ds in enumerate(names):
                if ds in ("mg", "parkinsons"):
                    continue
                assert table.paper[(row, ds)] == pytest.approx(tuple(values[3 * j:3 * j + 3])), (row, ds)
                checked += 1
    assert checked == 36
    assert table.paper[("FOGD [code]", "cadata")] == table.paper[("FOGD", "cadata")]


def test_settings_follow_sections_7_3_and_7_4():
    """B = 200 on the first three multi-class sets and 100 on the others, D = 4B, k = 0.2B; regression B = 30,
    D = 15 B, epsilon = 0.1, gamma = 1/(2 * 8^2); the missing data sets are named with their files."""
    t7, t9 = tables()["lu2016-table7"], tables()["lu2016-table9"]
    fogd = next(e for e in t7.entries if e.label == "FOGD")
    nogd = next(e for e in t7.entries if e.label == "NOGD")
    for ds, b in dict(dna=200, satimage=200, usps=200, mnist=100, letter=100, shuttle=100).items():
        assert fogd.per_dataset[ds]["n_components"] == 4 * b
        assert nogd.per_dataset[ds] == dict(budget=b, rank=b // 5)
    for missing in ("acoustic", "covtype", "poker"):
        assert missing in t7.note and missing in t7.title
    for missing in ("mg", "parkinsons", "casp", "slice", "year"):
        assert missing in t9.note and missing in t9.title
    for e in t9.entries:
        if e.runner is None:
            continue
        assert e.params["gamma"] == 1 / (2 * 8 ** 2)
        assert e.params["epsilon"] == (0.01 if e.label in ("FOGD [code]", "NOGD [code]") else 0.1)
        assert e.params.get("variant") == ("authors" if e.label == "BOGD [code]" else None)
        assert e.params.get("budget", 30) == 30
        assert e.params.get("n_components", 450) == 15 * 30


def test_minmax_scale_against_sklearn():
    from sklearn.preprocessing import MinMaxScaler

    rng = np.random.default_rng(0)
    Z = rng.normal(size=(40, 5)) * [1, 10, 100, 0.1, 3]
    Z[:, 3] = 7.0                                         # a constant column goes to the low end
    got = minmax_scale(Z, -1.0, 1.0)
    want = MinMaxScaler(feature_range=(-1, 1)).fit_transform(Z)
    want[:, 3] = -1.0
    assert got == pytest.approx(want)


def _online_ogd_loss(X, y, order, eta, epsilon, gamma):
    """Brute force: kernel OGD for regression, the loss of each step counted before its update."""
    sv, alpha, total = [], [], 0.0
    for i in order:
        f = sum(a * np.exp(-gamma * np.sum((X[i] - X[j]) ** 2)) for a, j in zip(alpha, sv))
        d = y[i] - f
        total += d * d
        if abs(d) > epsilon:
            sv.append(i)
            alpha.append(eta * d)
    return total / len(order)


def test_regression_runner_reports_the_online_squared_loss():
    """run_estimator on a regressor: the online mean squared loss (not a mistake rate), as a brute-force pass
    over the same visiting order computes it; no class share for a regressor."""
    rng = np.random.default_rng(3)
    X = rng.random((60, 3))
    y = np.sin(3 * X[:, 0]) + 0.1 * rng.normal(size=60)
    res = run_estimator(X, y, None, None, 5, estimator="refsvm.OnlineKernelRegressor", algorithm="ogd", eta=0.3,
                        epsilon=0.05, gamma=0.5)
    order = np.random.default_rng(5).permutation(60)
    assert res["error"] == pytest.approx(_online_ogd_loss(X, y, order, 0.3, 0.05, 0.5), rel=1e-9)
    assert res["online"] and "majority_share" not in res
    scaled = run_estimator_scaled(X, y, None, None, 5, estimator="refsvm.OnlineKernelRegressor", algorithm="ogd",
                                  eta=0.3, epsilon=0.05, gamma=0.5, minmax=(0.0, 1.0), target_minmax=True)
    ys = (y - y.min()) / (y.max() - y.min())
    Xs = (X - X.min(0)) / (X.max(0) - X.min(0))
    assert scaled["error"] == pytest.approx(_online_ogd_loss(Xs, ys, order, 0.3, 0.05, 0.5), rel=1e-9)
    with pytest.raises(ValueError, match="X_test"):
        run_estimator_scaled(X, y, X, y, 0, estimator="refsvm.OnlineKernelRegressor")


def test_relative_gap_rule_of_table9():
    """Table 9 rows are flagged beyond 20 % of the paper's loss (the points / sd rules would never fire)."""
    assert RELATIVE_GAP["lu2016-table9"] == 0.20

    def row(ours):
        return dict(algorithm="OGD", dataset="housing", available=True, error_mean=ours, error_std=0.0,
                    paper=dict(mean=0.05, std=0.0001), minority_share=None, per_seed=[dict(error=ours)])

    assert not is_flagged(row(0.0595), "lu2016-table9") and is_flagged(row(0.0605), "lu2016-table9")
    assert is_flagged(row(0.0395), "lu2016-table9")
    assert gap_reason("lu2016-table9", row(0.059)) is None
    assert gap_reason("lu2016-table9", row(0.07))[0] == "unexplained"
    # the points / sd rules would flag a 12 % gap on the paper's tiny sd (a gap beyond their print resolution, 0.005)
    assert is_flagged(row(0.056)) and not is_flagged(row(0.056), "lu2016-table9")


def test_train_stream_protocol_keeps_the_training_file_only():
    """Table 6's sizes are the LIBSVM training files: dna.scale has 2,000 rows (its test file 1,186 more)."""
    _need_data()
    X, y, Xt, yt = load_dataset(Dataset("dna", "dna.scale", protocol="train-stream", multiclass=True), 300, False)
    assert X.shape == (2000, 180) and Xt is None and yt is None and set(np.unique(y)) == {1, 2, 3}
    X, y, Xt, _ = load_dataset(Dataset("housing", "housing_scale", multiclass=True), 300, False)
    assert X.shape == (506, 13) and Xt is None and y.min() == 5.0 and y.max() == 50.0   # real targets kept


def test_every_row_names_a_learner_that_fits_its_task():
    """Each baseline row of Tables 7 and 9 fits its learner on six rows of its task (three classes /
    real targets) on the compiled path: no row of a table names a learner refsvm lacks."""
    import warnings

    from refsvm import OnlineKernelClassifier, OnlineKernelRegressor

    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, 0.2], [0.2, 0.8]])
    for name, estimator, y in (("lu2016-table7", OnlineKernelClassifier, np.array([0, 1, 2, 0, 1, 2])),
                               ("lu2016-table9", OnlineKernelRegressor, X.sum(axis=1))):
        algorithms = {e.params["algorithm"] for e in tables()[name].entries if "algorithm" in e.params}
        assert len(algorithms) >= 7, (name, algorithms)
        for algorithm in sorted(algorithms):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                estimator(algorithm=algorithm, budget=3, gamma=1.0, random_state=0).fit(X, y)


def test_quick_runs_of_tables_7_and_9():
    """Both tables end to end on subsampled data (one seed): every available row has a number, Table 9's is
    a squared loss printed with five decimals; no constant classifier is reported as Table 7's result."""
    _need_data()
    r9 = run_table("lu2016-table9", quick=True, seeds=1)
    rows = [r for r in r9["rows"] if r["available"]]
    assert len(rows) >= 4 * 6 and all(0.0 <= r["error_mean"] < 1.0 for r in rows)
    text = format_table(r9)
    assert re.search(r"0\.\d{5} ± 0\.\d{5}", text) and "> 20 % of the paper's" not in text   # quick: no gaps
    r7 = run_table("lu2016-table7", quick=True, seeds=1, datasets=["dna", "satimage"])
    rows = [r for r in r7["rows"] if r["available"]]
    assert len(rows) >= 2 * 8 and all(0.0 <= r["error_mean"] <= 100.0 for r in rows)
    assert all(not r["constant"] or r.get("grid") == {} or len(r["constant_points"]) == len(r["grid"])
               for r in rows)


def _kernel(A, b):
    return np.exp(-np.sum((A - b) ** 2, axis=-1) / 128.0)


def _authors_bogd_loss(X, y, order, budget=30, eta=0.1, lam=0.03, epsilon=0.1):
    """The authors' regression/BOGD.m, transcribed: shrink by (1 - eta lambda) every step; on |y - f| > epsilon
    drop the oldest SV at B and add x_t with eta (y - f); never rescale."""
    sv, alpha, total = [], np.zeros(0), 0.0
    for i in order:
        f = float(alpha @ _kernel(X[sv], X[i])) if sv else 0.0
        d = y[i] - f
        total += d * d
        alpha = (1 - eta * lam) * alpha
        if abs(d) > epsilon:
            if len(sv) >= budget:
                alpha, sv = alpha[1:], sv[1:]
            alpha, sv = np.append(alpha, eta * d), sv + [i]
    return total / len(order)


def test_table9_gap_reasons_are_measured():
    """The reasons Table 9's FOGD / NOGD / BOGD rows carry, on [0, 1]-scaled synthetic data at the table's
    parameters: the paper's squared-loss test (epsilon = 0.1) updates far less often than the code's |y - f| > 0.1
    (epsilon = 0.01); Zhao et al.'s rescaling BOGD loses more than 1.5 times the authors' oldest-removal reading
    (a brute-force transcription)."""
    from refsvm import NOGDRegressor, OnlineKernelRegressor
    from refsvm.reproduce.gaps import EXPLAINED

    rng = np.random.default_rng(1)
    X = rng.random((400, 8))
    y = (np.sin(2 * X[:, 0]) + X[:, 1] ** 2) / 2
    updates = {eps: NOGDRegressor(budget=30, rank=6, gamma=1 / 128, eta=0.1, epsilon=eps, random_state=7)
               .fit(X, y).trace_[0]["n_updates"] for eps in (0.1, 0.01)}
    assert updates[0.1] < 0.5 * updates[0.01]
    est = OnlineKernelRegressor(algorithm="bogd", budget=30, eta=0.1, lam=0.03, max_coef=10.0, epsilon=0.1,
                                gamma=1 / 128, random_state=7).fit(X, y)
    ours = float(est.trace_[0]["squared_loss"]) / 400
    code = _authors_bogd_loss(X, y, np.random.default_rng(7).permutation(400))
    assert ours > 1.5 * code
    assert EXPLAINED[("lu2016-table9", "BOGD", "cadata")][0] == "authors-code"
    assert "FOGD [code]" in EXPLAINED[("lu2016-table9", "FOGD", "abalone")][1]


def test_table7_authors_code_reasons_match_the_committed_code_rows():
    """Every Table 7 row explained by 'authors-code' names its '[code]' row; in the committed run of those rows
    that row is within 2 points of the paper, or is itself 'authors-code-agrees' (the released code, run, gives that
    row's number and not the paper's: tests/reproduce/test_lu_authors_octave.py), and the number the reason quotes is
    the one measured."""
    import json

    from refsvm.reproduce.gaps import EXPLAINED

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "reproduce_lu2016-table7_code.json"
    rows = {(r["algorithm"], r["dataset"]): r for r in json.loads(path.read_text())["rows"]}
    explained = [(k, v) for k, v in EXPLAINED.items() if k[0] == "lu2016-table7" and v[0] == "authors-code"]
    assert explained
    for (_, algorithm, dataset), (reason, text) in explained:
        code = rows[(algorithm + " [code]", dataset)]
        if EXPLAINED.get(("lu2016-table7", algorithm + " [code]", dataset), ("",))[0] == "authors-code-agrees":
            assert "authors-code-agrees" in text
        else:
            assert abs(code["error_mean"] - code["paper"]["mean"]) <= 2.0
        assert f"{code['error_mean']:.2f}" in text


def test_table7_mnist_budget_reasons_match_the_committed_b200_run():
    """Table 7's mnist rows explained by 'parameters' (B = 200, section 7.3.1's 'first 3 datasets' in Table 7's
    column order): in the committed lu2016-table7-mnist200 run the row quoted is not flagged against the paper's
    number (the gap rule of refsvm.reproduce.gaps), the number quoted is the one measured."""
    import json

    from refsvm.reproduce.gaps import EXPLAINED, gap_reason

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "reproduce_lu2016-table7-mnist200.json"
    data = json.loads(path.read_text())
    rows = {r["algorithm"]: r for r in data["rows"]}
    explained = {k: v for k, v in EXPLAINED.items() if k[0] == "lu2016-table7" and v[0] == "parameters"
                 and "(lu2016-table7-mnist200, " in v[1]}
    assert len(explained) >= 5 and all(k[2] == "mnist" for k in explained)
    for (_, algorithm, _), (_, text) in explained.items():
        quoted = re.search(r"the row '([^']+)'", text)
        r = rows[quoted[1] if quoted else algorithm]
        assert gap_reason(data["table"], r) is None, (algorithm, r["error_mean"])
        assert f"{r['error_mean']:.2f}" in text and f"{r['paper']['mean']:g}" in text
    # the other readings (the authors' step sizes, usps's width) are tested in test_lu_readings.py, the
    # Projectron++ numerics in test_lu_projectron_numerics.py
    assert {v[0] for k, v in EXPLAINED.items() if k[0] == "lu2016-table7"} <= {
        "authors-code", "authors-code-agrees", "parameters", "data", "degenerate", "numerics", "unexplained"}
    assert {e.per_dataset["mnist"].get("budget") or e.per_dataset["mnist"]["n_components"] for e in
            tables()["lu2016-table7-mnist200"].entries} == {200, 800}        # B = 200; FOGD D = 4B
